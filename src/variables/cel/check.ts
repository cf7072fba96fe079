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
const opaque = (name: string): CelType => ({ kind: 'opaque', name });
/** The types of k8s.io/apiserver pkg/cel (quantity.go, ip.go, cidr.go, url.go, semver.go). */
const K = {
  quantity: opaque('kubernetes.Quantity'),
  ip: opaque('net.IP'),
  cidr: opaque('net.CIDR'),
  url: opaque('kubernetes.URL'),
  semver: opaque('kubernetes.Semver'),
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
  // k8s.io/apiserver pkg/cel/library: quantity.go, urls.go, ip.go, cidr.go, semverlib.go
  quantity: [sig([T.string], K.quantity)],
  isQuantity: [sig([T.string], T.bool)],
  url: [sig([T.string], K.url)],
  isURL: [sig([T.string], T.bool)],
  ip: [sig([T.string], K.ip)],
  isIP: [sig([T.string], T.bool)],
  cidr: [sig([T.string], K.cidr)],
  isCIDR: [sig([T.string], T.bool)],
  semver: [sig([T.string], K.semver), sig([T.string, T.bool], K.semver)],
  isSemver: [sig([T.string], T.bool), sig([T.string, T.bool], T.bool)],
  sign: [sig([K.quantity], T.int)],
  'ip.isCanonical': [sig([T.string], T.bool)],
  // cel-go ext/sets.go (list_sets_contains_list, ...)
  'sets.contains': [sig([{ list: 'A' }, { list: 'A' }], T.bool)],
  'sets.equivalent': [sig([{ list: 'A' }, { list: 'A' }], T.bool)],
  'sets.intersects': [sig([{ list: 'A' }, { list: 'A' }], T.bool)],
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
  // cel-go ext/strings.go
  replace: [sig([T.string, T.string, T.string], T.string), sig([T.string, T.string, T.string, T.int], T.string)],
  split: [sig([T.string, T.string], listOf(T.string)), sig([T.string, T.string, T.int], listOf(T.string))],
  // k8s.io/apiserver pkg/cel/library: regex.go, quantity.go, semverlib.go, ip.go, cidr.go, urls.go
  find: [sig([T.string, T.string], T.string)],
  findAll: [sig([T.string, T.string], listOf(T.string)), sig([T.string, T.string, T.int], listOf(T.string))],
  isGreaterThan: [sig([K.quantity, K.quantity], T.bool), sig([K.semver, K.semver], T.bool)],
  isLessThan: [sig([K.quantity, K.quantity], T.bool), sig([K.semver, K.semver], T.bool)],
  compareTo: [sig([K.quantity, K.quantity], T.int), sig([K.semver, K.semver], T.int)],
  asApproximateFloat: [sig([K.quantity], T.double)],
  // `sign` is declared as a global function only (`quantity_sign`): as a member it has no overload.
  sign: [],
  asInteger: [sig([K.quantity], T.int)],
  isInteger: [sig([K.quantity], T.bool)],
  add: [sig([K.quantity, K.quantity], K.quantity), sig([K.quantity, T.int], K.quantity)],
  sub: [sig([K.quantity, K.quantity], K.quantity), sig([K.quantity, T.int], K.quantity)],
  major: [sig([K.semver], T.int)],
  minor: [sig([K.semver], T.int)],
  patch: [sig([K.semver], T.int)],
  family: [sig([K.ip], T.int)],
  isUnspecified: [sig([K.ip], T.bool)],
  isLoopback: [sig([K.ip], T.bool)],
  isLinkLocalMulticast: [sig([K.ip], T.bool)],
  isLinkLocalUnicast: [sig([K.ip], T.bool)],
  isGlobalUnicast: [sig([K.ip], T.bool)],
  containsIP: [sig([K.cidr, T.string], T.bool), sig([K.cidr, K.ip], T.bool)],
  containsCIDR: [sig([K.cidr, T.string], T.bool), sig([K.cidr, K.cidr], T.bool)],
  ip: [sig([K.cidr], K.ip)],
  prefixLength: [sig([K.cidr], T.int)],
  masked: [sig([K.cidr], K.cidr)],
  getScheme: [sig([K.url], T.string)],
  getHost: [sig([K.url], T.string)],
  getHostname: [sig([K.url], T.string)],
  getPort: [sig([K.url], T.string)],
  getEscapedPath: [sig([K.url], T.string)],
  getQuery: [sig([K.url], { kind: 'map', key: T.string, value: listOf(T.string) })],
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
  substring: T.string,
  charAt: T.string,
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

/** cel-go `isLegacyNullable` (opaque, struct, any, duration, timestamp) and null itself. */
const NULLABLE: ReadonlySet<CelType['kind']> = new Set(['null', 'object', 'opaque', 'duration', 'timestamp']);

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
  // cel-go checker/types.go `internalIsAssignableNull`: null only where `isLegacyNullable`.
  if (actual.kind === 'null') return NULLABLE.has(p.kind);
  if (p.kind === 'null') return NULLABLE.has(actual.kind);
  if (actual.kind !== p.kind) return false;
  if (actual.kind === 'list' && p.kind === 'list') return assignable(actual.elem, p.elem, b);
  if (actual.kind === 'map' && p.kind === 'map')
    return assignable(actual.key, p.key, b) && assignable(actual.value, p.value, b);
  if ((actual.kind === 'object' || actual.kind === 'opaque') && (p.kind === 'object' || p.kind === 'opaque'))
    return actual.name === p.name;
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

/** cel-go `mostGeneral` for what this module infers: an open type over a concrete one. */
const mostGeneral = (a: CelType, b: CelType): CelType => (isOpen(a) ? a : isOpen(b) ? b : a);

/**
 * cel-go `checkCreateList`/`checkCreateMap` element types (`joinTypes`): Kubernetes' base
 * environment (k8s.io/apiserver pkg/cel/environment/base.go) sets `HomogeneousAggregateLiterals`,
 * which from cel-go v0.26 is only an AST validator, so the checker joins mixed elements to dyn.
 */
function joinTypes(ts: CelType[]): CelType {
  let joined: CelType | undefined;
  for (const t of ts)
    joined = joined === undefined ? t : assignable(t, joined, new Map()) ? mostGeneral(joined, t) : DYN;
  return joined ?? UNKNOWN;
}

const hasUnknown = (t: CelType): boolean =>
  t.kind === 'unknown' ||
  (t.kind === 'list' && hasUnknown(t.elem)) ||
  (t.kind === 'map' && (hasUnknown(t.key) || hasUnknown(t.value)));

/** The elements (or keys, or values) of one aggregate literal, for the homogeneity validator. */
interface Literal {
  exprs: Expr[];
  /** A list reports its first mismatch only; a map every mismatching key and value. */
  stopAtFirst: boolean;
  /** Inside a `format` call, which the strings extension exempts. */
  exempt: boolean;
}

/** cel-go `checker`: one walk over an expression, recording each expression's type. */
class Checker {
  readonly r: CheckResult = { errors: [], type: UNKNOWN, types: new Map(), usesOldSelf: false, unsupported: [] };

  private readonly literals: Literal[] = [];
  private inFormat = 0;

  constructor(
    private readonly self: CelType,
    private readonly positions: Record<string, number>,
  ) {}

  private error(e: Expr, message: string): void {
    this.r.errors.push({ offset: this.positions[e.id.toString()], message });
  }

  private typeOf(e: Expr): CelType {
    return this.r.types.get(e.id) ?? UNKNOWN;
  }

  /**
   * cel-go cel/validator.go `homogeneousAggregateLiteralValidator.Validate`, run after a check
   * without errors: every element of a list or map literal has the type of the first
   * (`IsEquivalentType`; a type not inferred here passes).
   */
  validateHomogeneousLiterals(): void {
    for (const { exprs, stopAtFirst, exempt } of this.literals) {
      const [first, ...rest] = exprs;
      if (exempt || !first) continue;
      const expected = this.typeOf(first);
      for (const x of rest) {
        const t = this.typeOf(x);
        if (hasUnknown(expected) || hasUnknown(t) || formatType(expected) === formatType(t)) continue;
        this.error(x, `expected type '${formatType(expected)}' but found '${formatType(t)}'`);
        if (stopAtFirst) break;
      }
    }
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
      case 'opaque':
        // A library object type has no fields cel-go would select; not modelled here.
        return UNKNOWN;
      default:
        if (!isOpen(operand)) this.error(e, `type '${formatType(operand)}' does not support field selection`);
        return operand.kind === 'unknown' ? UNKNOWN : DYN;
    }
  }

  /** `checkCall` and `resolveOverload`. */
  private call(e: Expr, fn: string, target: Expr | undefined, args: Expr[], scope: Scope): CelType {
    if (fn === 'format') this.inFormat++;
    try {
      return this.checkCall(e, fn, target, args, scope);
    } finally {
      if (fn === 'format') this.inFormat--;
    }
  }

  private checkCall(e: Expr, fn: string, target: Expr | undefined, args: Expr[], scope: Scope): CelType {
    const tt = target?.exprKind;
    const qualified = tt?.case === 'identExpr' && !scope.has(tt.value.name) ? `${tt.value.name}.${fn}` : undefined;
    if (qualified && (GLOBAL[qualified] || KUBERNETES_NAMESPACES.has(qualified.split('.')[0] as string))) {
      // A namespaced function (`sets.contains(...)`, `ip.isCanonical(...)`), resolved by its qualified name.
      if (KUBERNETES_NAMESPACES.has(qualified.split('.')[0] as string)) this.r.unsupported.push(qualified);
      const argTypes = args.map((a) => this.walk(a, scope));
      const overloads = GLOBAL[qualified];
      if (!overloads) return UNKNOWN;
      return this.resolved(e, qualified, overloads, argTypes, false);
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
    if (KUBERNETES_ONLY_FUNCTIONS.has(fn)) this.r.unsupported.push(fn);
    if (overloads) return this.resolved(e, fn, overloads, all, targetType !== undefined);
    if (!/^[_!@-]/.test(fn) && !SUPPORTED_FUNCTIONS.has(fn) && !KUBERNETES_ONLY_FUNCTIONS.has(fn)) {
      this.error(e, `undeclared reference to '${fn}' (in container '')`);
      return simple('error');
    }
    if (fn === 'indexOf' || fn === 'lastIndexOf') return T.int;
    return RESULT[fn] ?? UNKNOWN;
  }

  /** `resolveOverload`'s result, or its error. */
  private resolved(e: Expr, fn: string, overloads: Overload[], argTypes: CelType[], member: boolean): CelType {
    const t = resolve(overloads, argTypes);
    if (t !== undefined) return t;
    this.error(e, `found no matching overload for '${fn}' applied to '${signature(argTypes, member)}'`);
    return simple('error');
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
        this.literals.push({ exprs: k.value.elements, stopAtFirst: true, exempt: this.inFormat > 0 });
        return listOf(joinTypes(elems));
      }
      case 'structExpr': {
        if (k.value.messageName) {
          this.r.unsupported.push(`message construction ${k.value.messageName}`);
          for (const entry of k.value.entries) if (entry.value) this.walk(entry.value, scope);
          return UNKNOWN;
        }
        const keys: Expr[] = [];
        const values: Expr[] = [];
        for (const entry of k.value.entries) {
          if (entry.keyKind.case === 'mapKey') keys.push(entry.keyKind.value);
          if (entry.value) values.push(entry.value);
          if (entry.keyKind.case === 'mapKey') this.walk(entry.keyKind.value, scope);
          if (entry.value) this.walk(entry.value, scope);
        }
        if (keys.length !== values.length) return UNKNOWN;
        this.literals.push({ exprs: keys, stopAtFirst: false, exempt: this.inFormat > 0 });
        this.literals.push({ exprs: values, stopAtFirst: false, exempt: this.inFormat > 0 });
        return keys.length === 0
          ? { kind: 'map', key: UNKNOWN, value: UNKNOWN }
          : {
              kind: 'map',
              key: joinTypes(keys.map((x) => this.typeOf(x))),
              value: joinTypes(values.map((x) => this.typeOf(x))),
            };
      }
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
  if (c.r.errors.length === 0) c.validateHomogeneousLiterals();
  c.r.errors.sort((a, b) => (a.offset ?? -1) - (b.offset ?? -1));
  return c.r;
}
