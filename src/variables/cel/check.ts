/**
 * A small CEL type checker over @bufbuild/cel's AST (which exports no checker), following cel-go's
 * `checker/checker.go` for what it covers: undeclared identifiers and functions, field selection
 * (`checkSelectField`: objects have their declared fields, maps yield their values, dyn anything),
 * comprehension ranges (`checkComprehension`), the logical operators (`resolveOverload`) and the
 * standard overloads of the operators and functions below (`_==_` needs both sides of one type;
 * ordering compares numbers across types, as Kubernetes enables `CrossTypeNumericComparisons`).
 *
 * It never refuses what cel-go accepts: a type it does not infer is `unknown`, assignable to
 * anything, and an overload is checked only for the functions listed here. Kubernetes library
 * functions this module does not implement are collected as `unsupported`.
 */
import type { parse } from '@bufbuild/cel';
import { KUBERNETES_NAMESPACES, KUBERNETES_ONLY_FUNCTIONS, SUPPORTED_FUNCTIONS, TYPE_IDENTIFIERS } from './library.js';
import { DYN, formatType, listOf, simple, UNKNOWN, type CelType } from './types.js';

type Expr = ReturnType<typeof parse>['expr'];
type Comprehension = Extract<Expr['exprKind'], { case: 'comprehensionExpr' }>['value'];

export interface CheckResult {
  /** Messages with their source offset, in cel-go's words. */
  errors: { offset: number | undefined; message: string }[];
  /** The expression's type (`unknown` where not inferred). */
  type: CelType;
  /** The type of each expression, by id (for the cost estimator). */
  types: Map<bigint, CelType>;
  usesOldSelf: boolean;
  /** Kubernetes library functions not implemented here. */
  unsupported: string[];
}

/** A parameter of an overload: a concrete type, `A`/`B` (type parameters) or a list/map of them. */
type Param = CelType | 'A' | 'B' | { list: Param } | { map: [Param, Param] };
interface Overload {
  args: Param[];
  result: Param;
}

const T = {
  int: simple('int'),
  uint: simple('uint'),
  double: simple('double'),
  bool: simple('bool'),
  string: simple('string'),
  bytes: simple('bytes'),
  duration: simple('duration'),
  timestamp: simple('timestamp'),
};
const sig = (args: Param[], result: Param): Overload => ({ args, result });
const same = (kinds: (keyof typeof T)[], result?: CelType): Overload[] =>
  kinds.map((k) => sig([T[k], T[k]], result ?? T[k]));
const NUMBERS = ['int', 'uint', 'double'] as const;
const ORDERED = [...NUMBERS, 'bool', 'string', 'bytes', 'timestamp', 'duration'] as const;
const crossNumeric = NUMBERS.flatMap((a) => NUMBERS.filter((b) => b !== a).map((b) => sig([T[a], T[b]], T.bool)));
const ordering = [...same([...ORDERED], T.bool), ...crossNumeric];

/** cel-go's standard declarations (`common/stdlib`) for the global operators and functions checked here. */
const GLOBAL: Record<string, Overload[]> = {
  '_+_': [
    ...same([...NUMBERS, 'string', 'bytes', 'duration']),
    sig([{ list: 'A' }, { list: 'A' }], { list: 'A' }),
    sig([T.timestamp, T.duration], T.timestamp),
    sig([T.duration, T.timestamp], T.timestamp),
  ],
  '_-_': [
    ...same([...NUMBERS, 'duration']),
    sig([T.timestamp, T.timestamp], T.duration),
    sig([T.timestamp, T.duration], T.timestamp),
  ],
  '_*_': same([...NUMBERS]),
  '_/_': same([...NUMBERS]),
  '_%_': same(['int', 'uint']),
  '_<_': ordering,
  '_<=_': ordering,
  '_>_': ordering,
  '_>=_': ordering,
  '_==_': [sig(['A', 'A'], T.bool)],
  '_!=_': [sig(['A', 'A'], T.bool)],
  '!_': [sig([T.bool], T.bool)],
  '-_': [sig([T.int], T.int), sig([T.double], T.double)],
  '_?_:_': [sig([T.bool, 'A', 'A'], 'A')],
  '_[_]': [sig([{ list: 'A' }, T.int], 'A'), sig([{ map: ['A', 'B'] }, 'A'], 'B')],
  '@in': [sig(['A', { list: 'A' }], T.bool), sig(['A', { map: ['A', 'B'] }], T.bool)],
  size: [sig([T.string], T.int), sig([T.bytes], T.int), sig([{ list: 'A' }], T.int), sig([{ map: ['A', 'B'] }], T.int)],
  matches: [sig([T.string, T.string], T.bool)],
  '@not_strictly_false': [sig([T.bool], T.bool)],
};

const stringMember = (args: CelType[], result: CelType): Overload[] => [sig([T.string, ...args], result)];
/** Member functions: the receiver is the first argument. */
const MEMBER: Record<string, Overload[]> = {
  size: GLOBAL.size as Overload[],
  startsWith: stringMember([T.string], T.bool),
  endsWith: stringMember([T.string], T.bool),
  contains: stringMember([T.string], T.bool),
  matches: stringMember([T.string], T.bool),
  lowerAscii: stringMember([], T.string),
  upperAscii: stringMember([], T.string),
  trim: stringMember([], T.string),
  join: [sig([{ list: T.string }], T.string), sig([{ list: T.string }, T.string], T.string)],
};

/** Result types of functions whose overloads are not checked here, where every overload agrees. */
const RESULT: Record<string, CelType> = {
  int: T.int,
  uint: T.uint,
  double: T.double,
  string: T.string,
  bytes: T.bytes,
  bool: T.bool,
  duration: T.duration,
  timestamp: T.timestamp,
  type: simple('type'),
  dyn: DYN,
  replace: T.string,
  substring: T.string,
  charAt: T.string,
  split: listOf(T.string),
  quote: T.string,
  format: T.string,
};

const CONSTANT_TYPES: Record<string, CelType> = {
  boolValue: T.bool,
  int64Value: T.int,
  uint64Value: T.uint,
  doubleValue: T.double,
  stringValue: T.string,
  bytesValue: T.bytes,
  nullValue: simple('null'),
};

const isOpen = (t: CelType): boolean => t.kind === 'dyn' || t.kind === 'unknown' || t.kind === 'error';

type Bindings = Map<'A' | 'B', CelType>;

/** cel-go `isAssignable` for what this module infers: dyn and unknown match anything. */
function assignable(actual: CelType, p: Param, b: Bindings): boolean {
  if (p === 'A' || p === 'B') {
    const bound = b.get(p);
    if (!bound || isOpen(bound)) {
      b.set(p, actual);
      return true;
    }
    return assignable(actual, bound, b);
  }
  if (isOpen(actual)) return true;
  if ('list' in p) return actual.kind === 'list' && assignable(actual.elem, p.list, b);
  if ('map' in p)
    return actual.kind === 'map' && assignable(actual.key, p.map[0], b) && assignable(actual.value, p.map[1], b);
  if (isOpen(p)) return true;
  // null: whether cel-go assigns it to a declared type is not modelled here; accept.
  if (actual.kind === 'null' || p.kind === 'null') return true;
  if (actual.kind !== p.kind) return false;
  if (actual.kind === 'list' && p.kind === 'list') return assignable(actual.elem, p.elem, b);
  if (actual.kind === 'map' && p.kind === 'map')
    return assignable(actual.key, p.key, b) && assignable(actual.value, p.value, b);
  if (actual.kind === 'object' && p.kind === 'object') return actual.name === p.name;
  return true;
}

function instantiate(p: Param, b: Bindings): CelType {
  if (p === 'A' || p === 'B') return b.get(p) ?? UNKNOWN;
  if ('list' in p) return listOf(instantiate(p.list, b));
  if ('map' in p) return { kind: 'map', key: instantiate(p.map[0], b), value: instantiate(p.map[1], b) };
  return p;
}

const sameType = (a: CelType, b: CelType): boolean => formatType(a) === formatType(b) && a.kind === b.kind;

/** `resolveOverload`: the result type, or undefined when no overload accepts the arguments. */
function resolve(overloads: Overload[], argTypes: CelType[]): CelType | undefined {
  let result: CelType | undefined;
  for (const o of overloads) {
    if (o.args.length !== argTypes.length) continue;
    const b: Bindings = new Map();
    if (!argTypes.every((t, i) => assignable(t, o.args[i] as Param, b))) continue;
    const r = instantiate(o.result, b);
    result = result === undefined ? r : sameType(result, r) ? result : UNKNOWN;
  }
  return result;
}

/** `formatFunctionDeclType` without result: `(string, int)` or `string.(int)`. */
function signature(argTypes: CelType[], member: boolean): string {
  const [target, ...rest] = argTypes;
  const list = (ts: CelType[]) => `(${ts.map(formatType).join(', ')})`;
  return member && target ? `${formatType(target)}.${list(rest)}` : list(argTypes);
}

type Scope = ReadonlyMap<string, CelType>;

/** cel-go `checker`: one walk over an expression, recording each expression's type. */
class Checker {
  readonly r: CheckResult = { errors: [], type: UNKNOWN, types: new Map(), usesOldSelf: false, unsupported: [] };

  constructor(
    private readonly self: CelType,
    private readonly positions: Record<string, number>,
  ) {}

  private error(e: Expr, message: string): void {
    this.r.errors.push({ offset: this.positions[e.id.toString()], message });
  }

  /** `checkSelectField`. */
  private select(e: Expr, operand: CelType, field: string): CelType {
    switch (operand.kind) {
      case 'map':
        return operand.value;
      case 'object': {
        const t = operand.fields.get(field);
        if (!t) this.error(e, `undefined field '${field}'`);
        return t ?? simple('error');
      }
      default:
        if (!isOpen(operand)) this.error(e, `type '${formatType(operand)}' does not support field selection`);
        return operand.kind === 'unknown' ? UNKNOWN : DYN;
    }
  }

  /** `checkCall` and `resolveOverload`. */
  private call(e: Expr, fn: string, target: Expr | undefined, args: Expr[], scope: Scope): CelType {
    const tt = target?.exprKind;
    if (tt?.case === 'identExpr' && KUBERNETES_NAMESPACES.has(tt.value.name) && !scope.has(tt.value.name)) {
      this.r.unsupported.push(`${tt.value.name}.${fn}`);
      for (const a of args) this.walk(a, scope);
      return UNKNOWN;
    }
    const targetType = target ? this.walk(target, scope) : undefined;
    const argTypes = args.map((a) => this.walk(a, scope));
    if (fn === '_&&_' || fn === '_||_') {
      // `resolveOverload`, logical operators: each argument must be a bool.
      args.forEach((a, i) => {
        const t = argTypes[i] as CelType;
        if (!isOpen(t) && t.kind !== 'bool') this.error(a, `expected type 'bool' but found '${formatType(t)}'`);
      });
      return T.bool;
    }
    const all = targetType ? [targetType, ...argTypes] : argTypes;
    const overloads = (targetType ? MEMBER : GLOBAL)[fn];
    if (overloads) {
      const t = resolve(overloads, all);
      if (t === undefined) {
        this.error(
          e,
          `found no matching overload for '${fn}' applied to '${signature(all, targetType !== undefined)}'`,
        );
        return simple('error');
      }
      return t;
    }
    if (!/^[_!@-]/.test(fn) && !SUPPORTED_FUNCTIONS.has(fn)) {
      if (KUBERNETES_ONLY_FUNCTIONS.has(fn)) this.r.unsupported.push(fn);
      else {
        this.error(e, `undeclared reference to '${fn}' (in container '')`);
        return simple('error');
      }
    }
    if (fn === 'indexOf' || fn === 'lastIndexOf') return T.int;
    return RESULT[fn] ?? UNKNOWN;
  }

  /** `checkComprehension`. */
  private comprehension(c: Comprehension, scope: Scope): CelType {
    const range = this.walk(c.iterRange as Expr, scope);
    const accu = this.walk(c.accuInit as Expr, scope);
    let vars: [CelType, CelType];
    if (range.kind === 'list') vars = c.iterVar2 ? [T.int, range.elem] : [range.elem, UNKNOWN];
    else if (range.kind === 'map') vars = [range.key, range.value];
    else {
      if (!isOpen(range))
        this.error(
          c.iterRange as Expr,
          `expression of type '${formatType(range)}' cannot be range of a comprehension (must be list, map, or dynamic)`,
        );
      const open = range.kind === 'unknown' ? UNKNOWN : DYN;
      vars = [open, open];
    }
    const inner = new Map(scope);
    inner.set(c.accuVar, accu);
    inner.set(c.iterVar, vars[0]);
    if (c.iterVar2) inner.set(c.iterVar2, vars[1]);
    if (c.loopCondition) this.walk(c.loopCondition, inner);
    const step = c.loopStep ? this.walk(c.loopStep, inner) : UNKNOWN;
    // The accumulator's type is what the step makes of it (a list built by map/filter).
    if (accu.kind === 'list' && step.kind === 'list') inner.set(c.accuVar, step);
    return c.result ? this.walk(c.result, inner) : UNKNOWN;
  }

  walk(e: Expr, scope: Scope): CelType {
    const t = this.infer(e, scope);
    this.r.types.set(e.id, t);
    return t;
  }

  private infer(e: Expr, scope: Scope): CelType {
    const k = e.exprKind;
    switch (k.case) {
      case 'constExpr':
        return CONSTANT_TYPES[k.value.constantKind.case ?? ''] ?? UNKNOWN;
      case 'identExpr': {
        const n = k.value.name;
        const local = scope.get(n);
        if (local) return local;
        if (n === 'self') return this.self;
        if (n === 'oldSelf') {
          this.r.usesOldSelf = true;
          return this.self;
        }
        if (TYPE_IDENTIFIERS.has(n)) return simple('type');
        this.error(e, `undeclared reference to '${n}' (in container '')`);
        return simple('error');
      }
      case 'selectExpr': {
        const t = this.select(e, this.walk(k.value.operand as Expr, scope), k.value.field);
        return k.value.testOnly ? T.bool : t;
      }
      case 'callExpr':
        return this.call(e, k.value.function, k.value.target, k.value.args, scope);
      case 'listExpr': {
        const elems = k.value.elements.map((el) => this.walk(el, scope));
        const [first] = elems;
        return listOf(first && elems.every((t) => sameType(t, first)) ? first : UNKNOWN);
      }
      case 'structExpr':
        if (k.value.messageName) this.r.unsupported.push(`message construction ${k.value.messageName}`);
        for (const entry of k.value.entries) {
          if (entry.keyKind.case === 'mapKey') this.walk(entry.keyKind.value, scope);
          if (entry.value) this.walk(entry.value, scope);
        }
        return UNKNOWN;
      case 'comprehensionExpr':
        return this.comprehension(k.value, scope);
      default:
        return UNKNOWN;
    }
  }
}

/**
 * Checks `expr` with `self` (and `oldSelf`) of type `self`. `positions` maps expression ids to
 * source offsets.
 */
export function check(expr: Expr, self: CelType, positions: Record<string, number>): CheckResult {
  const c = new Checker(self, positions);
  c.r.type = c.walk(expr, new Map());
  c.r.errors.sort((a, b) => (a.offset ?? -1) - (b.offset ?? -1));
  return c.r;
}
