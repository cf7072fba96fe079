/**
 * Runtime value model mirroring the subset of Go's reflect world a ClusterClass template can see.
 *
 *  - `undefined`  : the invalid reflect.Value (a missing map key); prints `<no value>`
 *  - `null`       : a nil interface{} (JSON null)
 *  - `number`     : float64 (every JSON number, float literals, sprig float results)
 *  - `string`, `boolean`
 *  - `GoInt`      : any Go integer type (int, int64, uint8, ...), value kept as a bigint
 *  - arrays       : Go slices; `[]interface {}` unless tagged with `SLICE_ELEM`
 *  - plain objects: Go maps with string keys; `map[string]interface {}` unless tagged with `MAP_ELEM`
 *  - `GoObject`   : structs/pointers with fields and methods (semver versions, time.Time, certificates)
 */

/**
 * A template can build values that share parts: `$x = append $x $x` doubles what `$x` prints at
 * every step while its memory grows by one slot. Every walk over a whole value is therefore
 * bounded: printing or JSON-encoding one stops at 4 MiB of text (the output budget's size),
 * copying, comparing or merging at 1,000,000 nodes (the step budget's size). Go has no such
 * bound; CAPI would run out of memory.
 */
export const MAX_VALUE_TEXT = 4 * 1024 * 1024;
const MAX_VALUE_NODES = 1_000_000;

/** A walk over a value went past its budget (reported as a template error, never a crash). */
export class ValueTooLarge extends Error {}

/** A counter for one walk: call it per node visited; it throws past MAX_VALUE_NODES. */
export function nodeBudget(walk: string): () => void {
  let nodes = 0;
  return () => {
    if (++nodes > MAX_VALUE_NODES) throw new ValueTooLarge(`${walk} a value of more than ${MAX_VALUE_NODES} elements`);
  };
}

export type IntKind =
  'int' | 'int8' | 'int16' | 'int32' | 'int64' | 'uint' | 'uint8' | 'uint16' | 'uint32' | 'uint64' | 'uintptr';

const INT_BITS: Record<IntKind, number> = {
  int: 64,
  int8: 8,
  int16: 16,
  int32: 32,
  int64: 64,
  uint: 64,
  uint8: 8,
  uint16: 16,
  uint32: 32,
  uint64: 64,
  uintptr: 64,
};

export class GoInt {
  constructor(
    readonly kind: IntKind,
    readonly v: bigint,
  ) {}
  get signed(): boolean {
    return this.kind[0] === 'i';
  }
  /** Wraps `v` to the kind's width like a Go conversion. */
  static of(kind: IntKind, v: bigint): GoInt {
    const bits = INT_BITS[kind];
    return new GoInt(kind, kind[0] === 'i' ? BigInt.asIntN(bits, v) : BigInt.asUintN(bits, v));
  }
  toNumber(): number {
    return Number(this.v);
  }
}

const SMALL_INTS: GoInt[] = [];
for (let i = 0; i < 256; i++) SMALL_INTS.push(new GoInt('int', BigInt(i)));

/** A Go `int` (cached for small values). */
export function goInt(n: number | bigint): GoInt {
  if (typeof n === 'number') {
    const small = n >= 0 && n < 256 && Number.isInteger(n) ? SMALL_INTS[n] : undefined;
    if (small !== undefined) return small;
    return new GoInt('int', BigInt.asIntN(64, BigInt(Math.trunc(n))));
  }
  return GoInt.of('int', n);
}
export function goInt64(n: number | bigint): GoInt {
  return GoInt.of('int64', typeof n === 'number' ? BigInt(Math.trunc(n)) : n);
}

export class GoComplex {
  constructor(
    readonly re: number,
    readonly im: number,
  ) {}
}

/** A struct or pointer-to-struct value with Go-style fields and methods. */
export abstract class GoObject {
  /** Go type name as `%T` prints it, e.g. `*semver.Version`. */
  abstract readonly typeName: string;
  /** Whether the Go value is a pointer (affects `%v` of non-Stringers). */
  readonly isPointer: boolean = false;
  /** Ordered exported fields (struct printing, `.Field` access). */
  fields(): [string, GoValue][] {
    return [];
  }
  /** All fields (exported or not) as fmt prints them. */
  printFields(): [string, GoValue][] {
    return this.fields();
  }
  /** Methods callable as `.Name args...`. */
  method(_name: string): GoFunc | undefined {
    return undefined;
  }
  /** fmt.Stringer / error, if the type implements it. */
  stringer(): string | undefined {
    return undefined;
  }
  /** Deep equality helper for reflect.DeepEqual-like checks. */
  equals(other: GoObject): boolean {
    return this === other;
  }
}

const SLICE_ELEM: unique symbol = Symbol('goSliceElem');
const MAP_ELEM: unique symbol = Symbol('goMapElem');

export type GoSlice = GoValue[] & { [SLICE_ELEM]?: string };
export interface GoMap {
  [key: string]: GoValue;
}

export type GoValue = undefined | null | boolean | number | string | GoInt | GoComplex | GoObject | GoSlice | GoMap;

/** Parameter/result types a Go function signature can declare. */
export type GoType =
  | 'any' // interface{}
  | 'rv' // reflect.Value (builtins)
  | 'string'
  | 'bool'
  | 'float64'
  | IntKind
  | 'map' // map[string]interface{}
  | 'slice' // []interface{}
  | 'time' // time.Time
  | 'cert'; // sprig.certificate

export interface GoFunc {
  name: string;
  params: GoType[];
  /** Element type of a trailing `...T` parameter. */
  variadic?: GoType;
  /** The function has a second `error` result. */
  fn: (args: GoValue[], ctx: CallContext) => GoValue;
}

export interface CallContext {
  warn(message: string): void;
  /** Charges `n` evaluation steps (for functions doing large amounts of work). */
  charge(n: number): void;
  /** Maximum output size; functions building strings check against it. */
  readonly maxBytes: number;
}

/** An error raised by a template function (`error calling f: ...`). */
export class GoFuncError extends Error {}

/**
 * `list[i]` where the caller's own bounds check covers `i`, which the types cannot show: a bug
 * that breaks it fails here, by name, instead of as an undefined value further on.
 */
export function at<T extends NonNullable<unknown> | null>(list: ArrayLike<T>, i: number): T {
  const v = list[i];
  if (v === undefined) throw new Error(`index out of range [${i}] with length ${list.length}`);
  return v;
}

/** The code point at UTF-16 index `i`: past the end, U+FFFD, as Go's utf8.DecodeRuneInString(""). */
export function runeAt(s: string, i = 0): number {
  return s.codePointAt(i) ?? 0xfffd;
}

export function makeSlice(items: GoValue[], elem?: string): GoSlice {
  const s = items as GoSlice;
  if (elem !== undefined && elem !== 'interface {}') s[SLICE_ELEM] = elem;
  return s;
}

export function makeMap(elem?: string): GoMap {
  const m: GoMap = {};
  if (elem !== undefined && elem !== 'interface {}') Object.defineProperty(m, MAP_ELEM, { value: elem });
  return m;
}

export function isMap(v: GoValue): v is GoMap {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    !(v instanceof GoInt) &&
    !(v instanceof GoObject) &&
    !(v instanceof GoComplex)
  );
}

export function mapElemType(m: GoMap): string {
  return (m as { [MAP_ELEM]?: string })[MAP_ELEM] ?? 'interface {}';
}
export function sliceElemType(s: GoSlice): string {
  return s[SLICE_ELEM] ?? 'interface {}';
}

export function hasKey(m: GoMap, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(m, k);
}

export function sortedKeys(m: GoMap): string[] {
  const keys = Object.keys(m);
  keys.sort(cmpStrings);
  return keys;
}

/** Go string ordering (bytewise UTF-8, which equals code point order). */
export function cmpStrings(a: string, b: string): number {
  if (a === b) return 0;
  // UTF-16 order differs from code point order only for surrogates vs U+E000..U+FFFF.
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = runeAt(a, i);
    const cb = runeAt(b, i);
    if (ca !== cb) return ca < cb ? -1 : 1;
    if (ca > 0xffff) i++;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/** Type name of a basic kind (bool, string, integers, floats, complex), which is also its reflect.Kind; undefined for others. */
function basicTypeName(v: GoValue): string | undefined {
  switch (typeof v) {
    case 'number':
      return 'float64';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
  }
  if (v instanceof GoInt) return v.kind;
  if (v instanceof GoComplex) return 'complex128';
  return undefined;
}

/** The Go type name `%T` prints. */
export function typeName(v: GoValue): string {
  if (v === undefined || v === null) return '<nil>';
  const basic = basicTypeName(v);
  if (basic !== undefined) return basic;
  if (v instanceof GoObject) return v.typeName;
  if (Array.isArray(v)) return '[]' + sliceElemType(v);
  return 'map[string]' + mapElemType(v as GoMap);
}

/** Go's reflect.Kind name, as sprig's kindOf prints it. */
export function kindName(v: GoValue): string {
  if (v === undefined || v === null) return 'invalid';
  const basic = basicTypeName(v);
  if (basic !== undefined) return basic;
  if (v instanceof GoObject) return v.isPointer ? 'ptr' : 'struct';
  if (Array.isArray(v)) return 'slice';
  return 'map';
}

/** Go's template truthiness; returns undefined when not applicable. */
export function isTrue(v: GoValue): boolean {
  if (v === undefined || v === null) return false;
  switch (typeof v) {
    case 'boolean':
      return v;
    case 'number':
      return v !== 0;
    case 'string':
      return v.length > 0;
  }
  if (v instanceof GoInt) return v.v !== 0n;
  if (v instanceof GoObject) return true;
  if (v instanceof GoComplex) return v.re !== 0 || v.im !== 0;
  if (Array.isArray(v)) return v.length > 0;
  for (const _k in v) return true;
  return false;
}

/** reflect.DeepEqual for our value model. */
export function deepEqual(a: GoValue, b: GoValue, visit = nodeBudget('comparing')): boolean {
  if (a === b) return true;
  visit();
  if (a === undefined || b === undefined || a === null || b === null) return a === b;
  if (typeName(a) !== typeName(b)) return false;
  if (typeof a === 'number') return a === b;
  if (a instanceof GoInt) return a.v === (b as GoInt).v;
  if (a instanceof GoComplex) return a.re === (b as GoComplex).re && a.im === (b as GoComplex).im;
  if (a instanceof GoObject) return a.equals(b as GoObject);
  if (Array.isArray(a)) {
    const bb = b as GoValue[];
    if (a.length !== bb.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], bb[i], visit)) return false;
    return true;
  }
  if (typeof a === 'object') {
    const am = a;
    const bm = b as GoMap;
    const ka = Object.keys(am);
    if (ka.length !== Object.keys(bm).length) return false;
    for (const k of ka) {
      if (!hasKey(bm, k) || !deepEqual(am[k], bm[k], visit)) return false;
    }
    return true;
  }
  return false;
}
