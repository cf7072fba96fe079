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

const unionEntry = (a: Entry | undefined, b: Entry | undefined): Entry | undefined =>
  a && b
    ? { container: a.container, key: a.key > b.key ? a.key : b.key, val: a.val > b.val ? a.val : b.val }
    : undefined;

/** The coster's state and its size helpers (cel-go `coster`: paths, computed sizes, entry sizes, local variables). */
function sizeState(checked: CheckResult, self: CelType) {
  const paths = new Map<bigint, string[]>();
  const sizes = new Map<bigint, bigint>();
  /** Results whose size CAPI computes from minimum sizes, which are not tracked here. */
  const unsized = new Set<bigint>();
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
    if (unsized.has(e.id)) throw new NotCovered();
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
  const hasType = (e: Expr) => checked.types.has(e.id);
  return {
    paths,
    sizes,
    unsized,
    entries,
    peek,
    push,
    pop,
    typeOf,
    pathOf,
    declaredSize,
    computeSize,
    sizeOrUnknown,
    entryOf,
    nodePath,
    librarySize,
    elementSize,
    kindOf,
    hasType,
  };
}
type State = ReturnType<typeof sizeState>;

function cost(e: Expr, st: State): bigint {
  const k = e.exprKind;
  switch (k.case) {
    case 'constExpr':
      return 0n;
    case 'identExpr': {
      const l = st.peek(k.value.name);
      st.paths.set(e.id, l ? l.path : [k.value.name]);
      return SELECT_AND_IDENT;
    }
    case 'selectExpr': {
      const operand = k.value.operand as Expr;
      // Kubernetes' base environment: PresenceTestHasCost(false).
      if (k.value.testOnly) return cost(operand, st);
      let sum = cost(operand, st);
      if (['map', 'object'].includes(st.kindOf(operand))) sum = add(sum, SELECT_AND_IDENT);
      st.paths.set(e.id, [...st.pathOf(operand), k.value.field]);
      return sum;
    }
    case 'callExpr':
      return costCall(e, k.value.function, k.value.target, k.value.args, st);
    case 'listExpr': {
      let sum = 0n;
      let item = 0n;
      for (const el of k.value.elements) {
        sum = add(sum, cost(el, st));
        const s = st.sizeOrUnknown(el);
        if (s > item) item = s;
      }
      st.entries.set(e.id, { container: 'list', key: 1n, val: item });
      return add(sum, LIST_CREATE_BASE);
    }
    case 'structExpr': {
      if (k.value.messageName) throw new NotCovered();
      let sum = 0n;
      let keyMax = 0n;
      let valMax = 0n;
      for (const entry of k.value.entries) {
        if (entry.keyKind.case !== 'mapKey' || !entry.value) throw new NotCovered();
        sum = add(add(sum, cost(entry.keyKind.value, st)), cost(entry.value, st));
        const ks = st.sizeOrUnknown(entry.keyKind.value);
        const vs = st.sizeOrUnknown(entry.value);
        if (ks > keyMax) keyMax = ks;
        if (vs > valMax) valMax = vs;
      }
      st.entries.set(e.id, { container: 'map', key: keyMax, val: valMax });
      return add(sum, MAP_CREATE_BASE);
    }
    case 'comprehensionExpr': {
      const c = k.value;
      const range = c.iterRange as Expr;
      const init = c.accuInit as Expr;
      let sum = add(cost(range, st), cost(init, st));
      st.push(c.accuVar, { path: st.pathOf(init), size: st.computeSize(init), entry: st.entryOf(init) });
      const rangeEntry = st.entryOf(range);
      const container = rangeEntry?.container ?? (st.kindOf(range) === 'list' ? 'list' : 'map');
      const rangePath = st.pathOf(range);
      if (c.iterVar2) {
        st.push(c.iterVar, {
          path: [...rangePath, container === 'list' ? '@indices' : '@keys'],
          size: rangeEntry?.key,
        });
        st.push(c.iterVar2, {
          path: [...rangePath, container === 'list' ? '@items' : '@values'],
          size: rangeEntry?.val,
        });
      } else if (container === 'list') st.push(c.iterVar, { path: [...rangePath, '@items'], size: rangeEntry?.val });
      else st.push(c.iterVar, { path: [...rangePath, '@keys'], size: rangeEntry?.key });
      const loop = c.loopCondition ? cost(c.loopCondition, st) : 0n;
      const step = c.loopStep ? cost(c.loopStep, st) : 0n;
      st.pop(c.iterVar);
      if (c.iterVar2) st.pop(c.iterVar2);
      sum = add(sum, c.result ? cost(c.result, st) : 0n);
      st.pop(c.accuVar);
      const rangeCount = st.sizeOrUnknown(range);
      sum = add(sum, mul(rangeCount, add(step, loop)));
      const ik = init.exprKind.case;
      if (ik === 'constExpr') {
        const s = st.computeSize(init);
        if (s !== undefined) st.sizes.set(e.id, s);
      } else if (ik === 'listExpr' || ik === 'structExpr') {
        st.sizes.set(e.id, rangeCount);
        const stepEntry = c.loopStep && st.entryOf(c.loopStep);
        if (stepEntry) st.entries.set(e.id, stepEntry);
      }
      return sum;
    }
    default:
      throw new NotCovered();
  }
}

function costCall(e: Expr, fn: string, target: Expr | undefined, args: Expr[], st: State): bigint {
  // A namespaced function (`ip.isCanonical(s)`): the checker resolved it by its qualified name.
  if (target?.exprKind.case === 'identExpr' && !st.hasType(target))
    return costCall(e, `${target.exprKind.value.name}.${fn}`, undefined, args, st);
  if (fn === 'dyn' && args.length === 1 && !target) {
    const a = args[0] as Expr;
    const c = cost(a, st);
    const s = st.computeSize(a);
    if (s !== undefined) st.sizes.set(e.id, s);
    const en = st.entryOf(a);
    if (en) st.entries.set(e.id, en);
    return add(1n, c);
  }
  const argCosts = args.map((a) => cost(a, st));
  let sum = 0n;
  if (target) {
    sum = cost(target, st);
    st.typeOf(target);
  }
  const argSum = argCosts.reduce(add, 0n);
  const [a0, a1] = args;
  const kinds = args.map(st.kindOf);
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
      const sTrue = st.sizeOrUnknown(args[1] as Expr);
      const sFalse = st.sizeOrUnknown(args[2] as Expr);
      resultSize = sTrue > sFalse ? sTrue : sFalse;
      const en = unionEntry(st.entryOf(args[1] as Expr), st.entryOf(args[2] as Expr));
      if (en) st.entries.set(e.id, en);
      fnCost = add(argCosts[0] ?? 0n, t > f ? t : f);
      break;
    }
    case '_==_':
    case '_!=_':
    case '_<_':
    case '_<=_':
    case '_>_':
    case '_>=_': {
      const opaqueEquality = fn === '_==_' && kinds[0] === 'opaque' ? libraryEqualityCost(a0 as Expr, st) : undefined;
      if (opaqueEquality !== undefined) {
        fnCost = add(opaqueEquality, argSum);
        break;
      }
      if (!fn.includes('=') || fn === '_<=_' || fn === '_>=_') {
        // Ordering: strings and bytes by size, everything else fixed.
        if (!concrete(kinds)) throw new NotCovered();
        if (!isString(kinds[0] as string)) {
          fnCost = add(1n, argSum);
          break;
        }
      }
      const l = st.sizeOrUnknown(a0 as Expr);
      const r = st.sizeOrUnknown(a1 as Expr);
      fnCost = add(byFactor(l < r ? l : r, STRING_TRAVERSAL), argSum);
      break;
    }
    case '_+_': {
      if (!concrete(kinds)) throw new NotCovered();
      const kind = kinds[0] as string;
      if (isString(kind) || kind === 'list') {
        resultSize = add(st.sizeOrUnknown(a0 as Expr), st.sizeOrUnknown(a1 as Expr));
        const en = unionEntry(st.entryOf(a0 as Expr), st.entryOf(a1 as Expr));
        if (en) st.entries.set(e.id, en);
        fnCost = kind === 'list' ? add(1n, argSum) : add(byFactor(resultSize, STRING_TRAVERSAL), argSum);
      } else fnCost = add(1n, argSum);
      break;
    }
    case '_[_]': {
      const container = kinds[0];
      if (container !== 'list' && container !== 'map') throw new NotCovered();
      fnCost = add(1n, argSum);
      resultSize = st.entryOf(a0 as Expr)?.val;
      st.paths.set(e.id, [...st.pathOf(a0 as Expr), container === 'list' ? '@items' : '@values']);
      break;
    }
    case '@in': {
      const container = kinds[1];
      if (container === 'list') fnCost = add(byFactor(st.sizeOrUnknown(a1 as Expr), 1), argSum);
      else if (container === 'map') fnCost = add(1n, argSum);
      else throw new NotCovered();
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
    default: {
      const library = libraryCallCost(e, fn, target, args, argSum, st);
      fnCost = library.fnCost;
      resultSize = library.resultSize;
    }
  }
  if (resultSize === undefined && !st.unsized.has(e.id)) resultSize = st.computeSize(e);
  if (resultSize !== undefined) st.sizes.set(e.id, resultSize);
  return add(sum, fnCost);
}

/**
 * Kubernetes' estimate of `_==_` between library values (`EstimateCallCost`): 1 for IPs, CIDRs,
 * quantities and semvers; a URL's size (its string's, the right side's taken for both) times the
 * traversal factor.
 */
function libraryEqualityCost(lhs: Expr, st: State): bigint {
  const t = st.typeOf(lhs);
  if (t.kind !== 'opaque') throw new NotCovered();
  if (t.name !== 'kubernetes.URL') return 1n;
  throw new NotCovered();
}

const stringLiteralSize = (e: Expr | undefined): bigint | undefined => {
  const k = e?.exprKind;
  return k?.case === 'constExpr' && k.value.constantKind.case === 'stringValue'
    ? BigInt([...k.value.constantKind.value].length)
    : undefined;
};

/** Kubernetes' library estimator (`EstimateCallCost`) and cel-go's for the string and list functions. */
function libraryCallCost(
  e: Expr,
  fn: string,
  target: Expr | undefined,
  args: Expr[],
  argSum: bigint,
  st: State,
): { fnCost: bigint; resultSize?: bigint } {
  const [a0, a1] = args;
  let fnCost: bigint;
  let resultSize: bigint | undefined;
  switch (fn) {
    case 'startsWith':
    case 'endsWith':
      fnCost = add(byFactor(st.sizeOrUnknown(a0 as Expr), STRING_TRAVERSAL), argSum);
      break;
    case 'contains':
      fnCost = add(
        mul(
          byFactor(st.sizeOrUnknown(target as Expr), STRING_TRAVERSAL),
          byFactor(st.sizeOrUnknown(a0 as Expr), STRING_TRAVERSAL),
        ),
        argSum,
      );
      break;
    case 'matches': {
      const [str, re] = target ? [target, a0] : [a0, a1];
      fnCost = add(
        mul(
          byFactor(add(st.sizeOrUnknown(str as Expr), 1n), STRING_TRAVERSAL),
          byFactor(st.sizeOrUnknown(re as Expr), REGEX_STRING_LENGTH),
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
      const s = st.librarySize(target);
      fnCost = add(byFactor(s, STRING_TRAVERSAL), argSum);
      resultSize = s;
      break;
    }
    case 'split': {
      if (!target) throw new NotCovered();
      const s = st.librarySize(target);
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
      const listSize = st.librarySize(target);
      let s = mul(listSize, st.elementSize(target));
      if (a0) s = add(s, mul(st.librarySize(a0), listSize > 0n ? listSize - 1n : 0n));
      fnCost = add(byFactor(s, STRING_TRAVERSAL), argSum);
      resultSize = s;
      break;
    }
    default:
      return kubernetesCallCost(e, fn, target, args, argSum, st);
  }
  return { fnCost, resultSize };
}

/**
 * Kubernetes' O(1) functions (members of quantities, semvers, IPs, CIDRs, URLs); `isURL` has no
 * estimate there and takes cel-go's default, 1.
 */
const CONSTANT_COST: ReadonlySet<string> = new Set([
  'masked',
  'prefixLength',
  'family',
  'isUnspecified',
  'isLoopback',
  'isLinkLocalMulticast',
  'isLinkLocalUnicast',
  'isGlobalUnicast',
  'sign',
  'asInteger',
  'isInteger',
  'asApproximateFloat',
  'isGreaterThan',
  'isLessThan',
  'compareTo',
  'add',
  'sub',
  'major',
  'minor',
  'patch',
  'getScheme',
  'getHostname',
  'getHost',
  'getPort',
  'getEscapedPath',
  'getQuery',
  'isURL',
]);

/** k8s.io/apiserver pkg/cel/library/cost.go `EstimateCallCost` for the Kubernetes library and `replace`. */
function kubernetesCallCost(
  e: Expr,
  fn: string,
  target: Expr | undefined,
  args: Expr[],
  argSum: bigint,
  st: State,
): { fnCost: bigint; resultSize?: bigint } {
  if (CONSTANT_COST.has(fn)) return { fnCost: add(1n, argSum) };
  const [a0, a1] = args;
  let fnCost: bigint;
  let resultSize: bigint | undefined;
  switch (fn) {
    case 'replace': {
      // The size of the result needs the arguments' minimum sizes: known here for literals only.
      if (!target || args.length < 2) throw new NotCovered();
      const s = st.librarySize(target);
      fnCost = add(byFactor(s, 2 * STRING_TRAVERSAL), argSum);
      const from = stringLiteralSize(a0);
      const to = stringLiteralSize(a1);
      if (from === undefined || to === undefined || (from > 0n && to > from && s === U64_MAX)) st.unsized.add(e.id);
      else if (from === 0n) resultSize = add(mul(s < U64_MAX ? s + 1n : s, to), s);
      else if (to <= from) resultSize = s;
      else resultSize = mul(BigInt(Math.ceil(Number(s) / Number(from))), to);
      break;
    }
    case 'find':
    case 'findAll': {
      if (!target || !a0) throw new NotCovered();
      const s = st.librarySize(target);
      fnCost = add(
        mul(byFactor(add(s, 1n), STRING_TRAVERSAL), byFactor(st.librarySize(a0), REGEX_STRING_LENGTH)),
        argSum,
      );
      resultSize = s;
      break;
    }
    case 'url':
    case 'quantity':
    case 'isQuantity':
    case 'semver':
    case 'isSemver':
    case 'cidr':
    case 'isIP':
    case 'isCIDR':
    case 'ip': {
      if (fn === 'ip' && target) {
        fnCost = add(1n, argSum); // `cidr_ip`
        break;
      }
      if (target || !a0) throw new NotCovered();
      const s = st.librarySize(a0);
      fnCost = add(byFactor(s, STRING_TRAVERSAL), argSum);
      if (fn === 'url') resultSize = s;
      break;
    }
    case 'ip.isCanonical':
      if (!a0) throw new NotCovered();
      fnCost = add(byFactor(st.librarySize(a0), 2 * STRING_TRAVERSAL), argSum);
      break;
    case 'containsIP':
    case 'containsCIDR': {
      // An IP's size is taken as 4 to 16 bytes; a string argument is parsed first.
      let c = byFactor(32n, STRING_TRAVERSAL);
      if (fn === 'containsCIDR') c = add(add(c, byFactor(16n, STRING_TRAVERSAL)), 1n);
      if (a0 && st.kindOf(a0) === 'string') c = add(c, byFactor(st.librarySize(a0), STRING_TRAVERSAL));
      else if (!a0 || st.kindOf(a0) !== 'opaque') throw new NotCovered();
      fnCost = add(c, argSum);
      break;
    }
    case 'isSorted':
    case 'sum':
    case 'max':
    case 'min':
    case 'indexOf':
    case 'lastIndexOf': {
      if (!target) throw new NotCovered();
      const t = st.typeOf(target);
      if (t.kind === 'list') {
        const elem = t.elem.kind;
        if (elem === 'unknown') throw new NotCovered();
        const elCost =
          elem === 'string' || elem === 'bytes' ? add(1n, byFactor(st.elementSize(target), STRING_TRAVERSAL)) : 1n;
        fnCost = add(mul(st.librarySize(target), elCost), argSum);
      } else fnCost = add(byFactor(st.librarySize(target), STRING_TRAVERSAL), argSum);
      break;
    }
    default:
      throw new NotCovered();
  }
  return { fnCost, resultSize };
}

/** The maximum estimated cost of `expr`, or undefined where it is not covered. */
export function estimateCost(expr: Expr, checked: CheckResult, self: CelType): bigint | undefined {
  try {
    return cost(expr, sizeState(checked, self));
  } catch (err) {
    if (err instanceof NotCovered) return undefined;
    throw err;
  }
}
