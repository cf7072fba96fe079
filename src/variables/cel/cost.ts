/**
 * The static cost estimate of a CEL expression, as the API server computes it when a schema's
 * rules are compiled: cel-go `checker/cost.go` (`Cost`, `coster`) with Kubernetes' library
 * estimator (k8s.io/apiserver pkg/cel/library/cost.go `EstimateCallCost`) and apiextensions'
 * size estimator (apiserver/schema/cel/compilation.go `sizeEstimator`: the declared `MaxElements`
 * along the value's path from `self`). Only the maximum is kept (the limits compare it).
 *
 * Exact for the operators, functions and macros it covers; anything else — a function not listed,
 * an operand whose type `check.ts` did not infer — makes the whole estimate `undefined`, which
 * callers never refuse.
 */
import type { parse } from '@bufbuild/cel';
import type { CheckResult } from './check.js';
import type { CelType } from './types.js';

type Expr = ReturnType<typeof parse>['expr'];

const U64_MAX = 2n ** 64n - 1n;
const add = (a: bigint, b: bigint): bigint => (a + b > U64_MAX ? U64_MAX : a + b);
const mul = (a: bigint, b: bigint): bigint => (a * b > U64_MAX ? U64_MAX : a * b);
/** `multiplyByCostFactor`: float64 arithmetic, rounded up, saturating. */
function byFactor(x: bigint, f: number): bigint {
  const xf = Number(x);
  if (xf > 0 && f > 0 && xf > Number(U64_MAX) / f) return U64_MAX;
  const c = Math.ceil(xf * f);
  return c >= 2 ** 64 ? U64_MAX : BigInt(c);
}
// cel-go common/cost.go
const STRING_TRAVERSAL = 0.1;
const REGEX_STRING_LENGTH = 0.25;
const SELECT_AND_IDENT = 1n;
const LIST_CREATE_BASE = 10n;
const MAP_CREATE_BASE = 30n;

/** Marks an expression the estimator does not cover. */
class NotCovered extends Error {}

interface Entry {
  container: 'list' | 'map';
  key: bigint;
  val: bigint;
}
interface Local {
  path: string[];
  size?: bigint;
  entry?: Entry;
}

/** The maximum estimated cost of `expr`, or undefined where it is not covered. */
export function estimateCost(expr: Expr, checked: CheckResult, self: CelType): bigint | undefined {
  const paths = new Map<bigint, string[]>();
  const sizes = new Map<bigint, bigint>();
  const entries = new Map<bigint, Entry>();
  const locals = new Map<string, Local[]>();
  const peek = (name: string): Local | undefined => locals.get(name)?.at(-1);
  const push = (name: string, l: Local) => locals.set(name, [...(locals.get(name) ?? []), l]);
  const pop = (name: string) => locals.get(name)?.pop();

  const typeOf = (e: Expr): CelType => {
    const t = checked.types.get(e.id);
    if (!t || t.kind === 'unknown') throw new NotCovered();
    return t;
  };
  const pathOf = (e: Expr): string[] => {
    if (e.exprKind.case === 'identExpr') {
      const l = peek(e.exprKind.value.name);
      if (l) return l.path;
    }
    return paths.get(e.id) ?? [];
  };

  /** apiextensions `sizeEstimator.EstimateSize`: the declared MaxElements at `path` (after `self`). */
  const declaredSize = (path: string[]): bigint | undefined => {
    if (path.length === 0) return undefined;
    let t: CelType | undefined = self;
    for (const name of path.slice(1)) {
      if (!t) return undefined;
      if (name === '@items' || name === '@values')
        t = t.kind === 'list' ? t.elem : t.kind === 'map' ? t.value : undefined;
      else if (name === '@keys') t = t.kind === 'map' ? t.key : undefined;
      else t = t.kind === 'object' ? t.fields.get(name) : undefined;
    }
    return t ? BigInt(t.sized?.maxElements ?? 0) : undefined;
  };

  /** `computeExprSize` for literals. */
  const literalSize = (e: Expr): bigint | undefined => {
    const k = e.exprKind;
    if (k.case === 'constExpr') {
      const c = k.value.constantKind;
      if (c.case === 'stringValue') return BigInt([...c.value].length);
      if (c.case === 'bytesValue') return BigInt(c.value.length);
      return c.case === undefined ? undefined : 1n;
    }
    if (k.case === 'listExpr') return BigInt(k.value.elements.length);
    if (k.case === 'structExpr' && !k.value.messageName) return BigInt(k.value.entries.length);
    return undefined;
  };
  const isScalar = (t: CelType) => ['bool', 'double', 'duration', 'int', 'timestamp', 'uint'].includes(t.kind);

  /** `computeSize`. */
  const computeSize = (e: Expr): bigint | undefined => {
    const known = sizes.get(e.id);
    if (known !== undefined) return known;
    const lit = literalSize(e);
    if (lit !== undefined) return lit;
    const declared = declaredSize(pathOf(e));
    if (declared !== undefined) {
      sizes.set(e.id, declared);
      return declared;
    }
    if (isScalar(typeOf(e))) return 1n;
    if (e.exprKind.case === 'identExpr') return peek(e.exprKind.value.name)?.size;
    return undefined;
  };
  const sizeOrUnknown = (e: Expr): bigint => computeSize(e) ?? U64_MAX;
  const entryOf = (e: Expr): Entry | undefined =>
    entries.get(e.id) ?? (e.exprKind.case === 'identExpr' ? peek(e.exprKind.value.name)?.entry : undefined);
  const unionEntry = (a: Entry | undefined, b: Entry | undefined): Entry | undefined =>
    a && b
      ? { container: a.container, key: a.key > b.key ? a.key : b.key, val: a.val > b.val ? a.val : b.val }
      : undefined;
  /** An AST node's path as the library estimator sees it (`newAstNode`: none under an accumulator). */
  const nodePath = (e: Expr): string[] => {
    const p = pathOf(e);
    return p.length > 0 && (p[0] === '@result' || p[0] === '__result__') ? [] : p;
  };
  /** Library `sizeEstimate` of a node: its computed size, else its declared size. */
  const librarySize = (e: Expr): bigint => computeSize(e) ?? declaredSize(nodePath(e)) ?? U64_MAX;
  /** Library `listElementNode` size: the declared size of the list's items. */
  const elementSize = (list: Expr): bigint => {
    const p = nodePath(list);
    return (p.length > 0 ? declaredSize([...p, '@items']) : undefined) ?? U64_MAX;
  };

  const kindOf = (e: Expr) => typeOf(e).kind;

  const cost = (e: Expr): bigint => {
    const k = e.exprKind;
    switch (k.case) {
      case 'constExpr':
        return 0n;
      case 'identExpr': {
        const l = peek(k.value.name);
        paths.set(e.id, l ? l.path : [k.value.name]);
        return SELECT_AND_IDENT;
      }
      case 'selectExpr': {
        const operand = k.value.operand as Expr;
        // Kubernetes' base environment: PresenceTestHasCost(false).
        if (k.value.testOnly) return cost(operand);
        let sum = cost(operand);
        if (['map', 'object'].includes(kindOf(operand))) sum = add(sum, SELECT_AND_IDENT);
        paths.set(e.id, [...pathOf(operand), k.value.field]);
        return sum;
      }
      case 'callExpr':
        return costCall(e, k.value.function, k.value.target, k.value.args);
      case 'listExpr': {
        let sum = 0n;
        let item = 0n;
        for (const el of k.value.elements) {
          sum = add(sum, cost(el));
          const s = sizeOrUnknown(el);
          if (s > item) item = s;
        }
        entries.set(e.id, { container: 'list', key: 1n, val: item });
        return add(sum, LIST_CREATE_BASE);
      }
      case 'structExpr': {
        if (k.value.messageName) throw new NotCovered();
        let sum = 0n;
        let keyMax = 0n;
        let valMax = 0n;
        for (const entry of k.value.entries) {
          if (entry.keyKind.case !== 'mapKey' || !entry.value) throw new NotCovered();
          sum = add(add(sum, cost(entry.keyKind.value)), cost(entry.value));
          const ks = sizeOrUnknown(entry.keyKind.value);
          const vs = sizeOrUnknown(entry.value);
          if (ks > keyMax) keyMax = ks;
          if (vs > valMax) valMax = vs;
        }
        entries.set(e.id, { container: 'map', key: keyMax, val: valMax });
        return add(sum, MAP_CREATE_BASE);
      }
      case 'comprehensionExpr': {
        const c = k.value;
        const range = c.iterRange as Expr;
        const init = c.accuInit as Expr;
        let sum = add(cost(range), cost(init));
        push(c.accuVar, { path: pathOf(init), size: computeSize(init), entry: entryOf(init) });
        const rangeEntry = entryOf(range);
        const container = rangeEntry?.container ?? (kindOf(range) === 'list' ? 'list' : 'map');
        const rangePath = pathOf(range);
        if (c.iterVar2) {
          push(c.iterVar, { path: [...rangePath, container === 'list' ? '@indices' : '@keys'], size: rangeEntry?.key });
          push(c.iterVar2, {
            path: [...rangePath, container === 'list' ? '@items' : '@values'],
            size: rangeEntry?.val,
          });
        } else if (container === 'list') push(c.iterVar, { path: [...rangePath, '@items'], size: rangeEntry?.val });
        else push(c.iterVar, { path: [...rangePath, '@keys'], size: rangeEntry?.key });
        const loop = c.loopCondition ? cost(c.loopCondition) : 0n;
        const step = c.loopStep ? cost(c.loopStep) : 0n;
        pop(c.iterVar);
        if (c.iterVar2) pop(c.iterVar2);
        sum = add(sum, c.result ? cost(c.result) : 0n);
        pop(c.accuVar);
        const rangeCount = sizeOrUnknown(range);
        sum = add(sum, mul(rangeCount, add(step, loop)));
        const ik = init.exprKind.case;
        if (ik === 'constExpr') {
          const s = computeSize(init);
          if (s !== undefined) sizes.set(e.id, s);
        } else if (ik === 'listExpr' || ik === 'structExpr') {
          sizes.set(e.id, rangeCount);
          const stepEntry = c.loopStep && entryOf(c.loopStep);
          if (stepEntry) entries.set(e.id, stepEntry);
        }
        return sum;
      }
      default:
        throw new NotCovered();
    }
  };

  const costCall = (e: Expr, fn: string, target: Expr | undefined, args: Expr[]): bigint => {
    if (fn === 'dyn' && args.length === 1 && !target) {
      const a = args[0] as Expr;
      const c = cost(a);
      const s = computeSize(a);
      if (s !== undefined) sizes.set(e.id, s);
      const en = entryOf(a);
      if (en) entries.set(e.id, en);
      return add(1n, c);
    }
    const argCosts = args.map(cost);
    let sum = 0n;
    if (target) {
      sum = cost(target);
      typeOf(target);
    }
    const argSum = argCosts.reduce(add, 0n);
    const [a0, a1] = args;
    const kinds = args.map(kindOf);
    const concrete = (ks: string[]) => ks.every((x) => x !== 'dyn' && x !== 'error');
    let fnCost: bigint;
    let resultSize: bigint | undefined;
    const isString = (x: string) => x === 'string' || x === 'bytes';
    switch (fn) {
      case '_&&_':
      case '_||_':
        fnCost = add(argCosts[0] ?? 0n, argCosts[1] ?? 0n);
        break;
      case '_?_:_': {
        const t = argCosts[1] ?? 0n;
        const f = argCosts[2] ?? 0n;
        const st = sizeOrUnknown(args[1] as Expr);
        const sf = sizeOrUnknown(args[2] as Expr);
        resultSize = st > sf ? st : sf;
        const en = unionEntry(entryOf(args[1] as Expr), entryOf(args[2] as Expr));
        if (en) entries.set(e.id, en);
        fnCost = add(argCosts[0] ?? 0n, t > f ? t : f);
        break;
      }
      case '_==_':
      case '_!=_':
      case '_<_':
      case '_<=_':
      case '_>_':
      case '_>=_': {
        if (!fn.includes('=') || fn === '_<=_' || fn === '_>=_') {
          // Ordering: strings and bytes by size, everything else fixed.
          if (!concrete(kinds)) throw new NotCovered();
          if (!isString(kinds[0] as string)) {
            fnCost = add(1n, argSum);
            break;
          }
        }
        const l = sizeOrUnknown(a0 as Expr);
        const r = sizeOrUnknown(a1 as Expr);
        fnCost = add(byFactor(l < r ? l : r, STRING_TRAVERSAL), argSum);
        break;
      }
      case '_+_': {
        if (!concrete(kinds)) throw new NotCovered();
        const kind = kinds[0] as string;
        if (isString(kind) || kind === 'list') {
          resultSize = add(sizeOrUnknown(a0 as Expr), sizeOrUnknown(a1 as Expr));
          const en = unionEntry(entryOf(a0 as Expr), entryOf(a1 as Expr));
          if (en) entries.set(e.id, en);
          fnCost = kind === 'list' ? add(1n, argSum) : add(byFactor(resultSize, STRING_TRAVERSAL), argSum);
        } else fnCost = add(1n, argSum);
        break;
      }
      case '_[_]': {
        const container = kinds[0];
        if (container !== 'list' && container !== 'map') throw new NotCovered();
        fnCost = add(1n, argSum);
        resultSize = entryOf(a0 as Expr)?.val;
        paths.set(e.id, [...pathOf(a0 as Expr), container === 'list' ? '@items' : '@values']);
        break;
      }
      case '@in': {
        const container = kinds[1];
        if (container === 'list') fnCost = add(byFactor(sizeOrUnknown(a1 as Expr), 1), argSum);
        else if (container === 'map') fnCost = add(1n, argSum);
        else throw new NotCovered();
        break;
      }
      case 'startsWith':
      case 'endsWith':
        fnCost = add(byFactor(sizeOrUnknown(a0 as Expr), STRING_TRAVERSAL), argSum);
        break;
      case 'contains':
        fnCost = add(
          mul(
            byFactor(sizeOrUnknown(target as Expr), STRING_TRAVERSAL),
            byFactor(sizeOrUnknown(a0 as Expr), STRING_TRAVERSAL),
          ),
          argSum,
        );
        break;
      case 'matches': {
        const [str, re] = target ? [target, a0] : [a0, a1];
        fnCost = add(
          mul(
            byFactor(add(sizeOrUnknown(str as Expr), 1n), STRING_TRAVERSAL),
            byFactor(sizeOrUnknown(re as Expr), REGEX_STRING_LENGTH),
          ),
          argSum,
        );
        break;
      }
      case 'lowerAscii':
      case 'upperAscii':
      case 'trim':
      case 'substring': {
        if (!target) throw new NotCovered();
        const s = librarySize(target);
        fnCost = add(byFactor(s, STRING_TRAVERSAL), argSum);
        resultSize = s;
        break;
      }
      case 'split': {
        if (!target) throw new NotCovered();
        const s = librarySize(target);
        const limit = args[1]?.exprKind;
        fnCost = add(byFactor(s, 2 * STRING_TRAVERSAL), argSum);
        resultSize =
          limit?.case === 'constExpr' && limit.value.constantKind.case === 'int64Value'
            ? BigInt.asUintN(64, limit.value.constantKind.value)
            : s;
        break;
      }
      case 'join': {
        if (!target) throw new NotCovered();
        const listSize = librarySize(target);
        let s = mul(listSize, elementSize(target));
        if (a0) s = add(s, mul(librarySize(a0), listSize > 0n ? listSize - 1n : 0n));
        fnCost = add(byFactor(s, STRING_TRAVERSAL), argSum);
        resultSize = s;
        break;
      }
      case 'size':
      case '!_':
      case '-_':
      case '_-_':
      case '_*_':
      case '_/_':
      case '_%_':
      case '@not_strictly_false':
      case 'int':
      case 'uint':
      case 'double':
      case 'bool':
      case 'string':
      case 'type':
        if (fn === 'string' && kinds[0] === 'bytes') throw new NotCovered();
        fnCost = add(1n, argSum);
        break;
      default:
        throw new NotCovered();
    }
    if (resultSize === undefined) resultSize = computeSize(e);
    if (resultSize !== undefined) sizes.set(e.id, resultSize);
    return add(sum, fnCost);
  };

  try {
    return cost(expr);
  } catch (err) {
    if (err instanceof NotCovered) return undefined;
    throw err;
  }
}
