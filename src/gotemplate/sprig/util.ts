/** Helpers shared by the sprig functions: Go's strval, spf13/cast conversions, list access. */
import { sprint } from '../fmt.js';
import { parseGoFloat, parseInt0 } from '../parser.js';
import {
  GoComplex,
  GoFuncError,
  GoInt,
  GoObject,
  type CallContext,
  type GoFunc,
  type GoType,
  type GoValue,
  isMap,
  kindName,
} from '../values.js';

export function fail(msg: string): never {
  throw new GoFuncError(msg);
}

/** The name of a function's error-returning twin: `mustRegexFind` for `regexFind`. */
export function mustName(name: string): string {
  return 'must' + name.charAt(0).toUpperCase() + name.slice(1);
}

/** sprig's strval: strings as is, Stringers via String(), everything else via %v. */
export function strval(v: GoValue): string {
  if (typeof v === 'string') return v;
  if (v instanceof GoObject) {
    const s = v.stringer();
    if (s !== undefined) return s;
  }
  return sprint([v === undefined ? null : v]);
}

/**
 * strval of the values one call prints, failing once their total passes the output budget: each
 * can print up to MAX_VALUE_TEXT, and one call can take thousands of them.
 */
export function strvals(
  values: readonly GoValue[],
  ctx: CallContext,
  print: (v: GoValue) => string = strval,
): string[] {
  let total = 0;
  return values.map((v) => {
    const s = print(v);
    total += s.length;
    if (total > ctx.maxBytes) fail(`result of more than ${ctx.maxBytes} bytes exceeds the output limit`);
    return s;
  });
}

const INT64_MIN = -(1n << 63n);

/** Go's int64(f) conversion (amd64 semantics for out-of-range values). */
function floatToInt64(f: number): bigint {
  if (!Number.isFinite(f) || f >= 9223372036854775808 || f < -9223372036854775808) return INT64_MIN;
  return BigInt(Math.trunc(f));
}

/**
 * cast v1.10's trimDecimal (number.go), which CAPI's module graph selects over sprig's cast v1.7:
 * a decimal string keeps its integer part ("4.5" -> "4", "-.5" -> "-0"); anything else is left as is.
 */
function trimDecimal(s: string): string {
  if (!s.includes('.')) return s;
  const m = /^([-+]?\d*)(\.\d*)?$/.exec(s);
  if (!m) return s;
  const [, int = ''] = m;
  return int === '' || int === '-' || int === '+' ? `${int}0` : int;
}

/** cast.ToInt64 (errors become 0). */
export function toInt64(v: GoValue): bigint {
  if (v instanceof GoInt) return BigInt.asIntN(64, v.v);
  switch (typeof v) {
    case 'number':
      return floatToInt64(v);
    case 'string': {
      const r = parseInt0(trimDecimal(v));
      return r ?? 0n;
    }
    case 'boolean':
      return v ? 1n : 0n;
  }
  return 0n;
}

/** cast.ToFloat64 (errors become 0). */
export function toFloat64(v: GoValue): number {
  if (v instanceof GoInt) return Number(v.v);
  switch (typeof v) {
    case 'number':
      return v;
    case 'string': {
      const f = parseGoFloatFull(v);
      return f ?? 0;
    }
    case 'boolean':
      return v ? 1 : 0;
  }
  return 0;
}

/** strconv.ParseFloat including inf/nan spellings and hex ints. */
function parseGoFloatFull(s: string): number | undefined {
  const m = /^([+-]?)(inf|infinity|nan)$/i.exec(s);
  if (m) {
    const [, sign, word = ''] = m;
    return word.toLowerCase() === 'nan' ? NaN : sign === '-' ? -Infinity : Infinity;
  }
  return parseGoFloat(s);
}

/** reflect.TypeOf(v).Kind() for error messages; nil panics in Go (we report an error). */
export function kindForError(v: GoValue): string {
  // reflect.TypeOf(nil) is a nil Type: its Kind() dereferences nil.
  if (v === null || v === undefined) fail('runtime error: invalid memory address or nil pointer dereference');
  return kindName(v);
}

/** sprig's empty(). */
export function empty(v: GoValue): boolean {
  if (v === undefined || v === null) return true;
  switch (typeof v) {
    case 'string':
      return v.length === 0;
    case 'boolean':
      return !v;
    case 'number':
      return v === 0;
  }
  if (v instanceof GoInt) return v.v === 0n;
  if (v instanceof GoComplex) return v.re === 0 && v.im === 0;
  if (v instanceof GoObject) return false;
  if (Array.isArray(v)) return v.length === 0;
  if (isMap(v)) return Object.keys(v).length === 0;
  return false;
}

export function fn(name: string, params: GoType[], impl: GoFunc['fn'], variadic?: GoType): GoFunc {
  return variadic === undefined ? { name, params, fn: impl } : { name, params, variadic, fn: impl };
}

/** Go string byte operations on JS strings. */
export function bytesOf(s: string): Buffer {
  return Buffer.from(s, 'utf8');
}
export function isAscii(s: string): boolean {
  return /^\p{ASCII}*$/u.test(s);
}
/** Go's runtime boundsError for s[a:b]: the high bound is checked first (runtime/error.go). */
function boundsPanic(a: number, b: number, length: number): never {
  return fail(
    b > length
      ? `runtime error: slice bounds out of range [:${b}] with length ${length}`
      : `runtime error: slice bounds out of range [${a}:${b}]`,
  );
}

/** s[a:b] with Go's byte indexing and bounds panics. */
export function byteSlice(s: string, a: number, b?: number): string {
  if (isAscii(s)) {
    const end = b ?? s.length;
    if (a < 0 || end > s.length || a > end) boundsPanic(a, end, s.length);
    return s.slice(a, end);
  }
  const buf = bytesOf(s);
  const end = b ?? buf.length;
  if (a < 0 || end > buf.length || a > end) boundsPanic(a, end, buf.length);
  return buf.subarray(a, end).toString('utf8');
}

export function toNum(v: GoInt | number): number {
  return typeof v === 'number' ? v : Number(v.v);
}
