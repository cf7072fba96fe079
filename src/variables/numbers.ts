/**
 * kube-openapi's `numberValidator` (k8s.io/kube-openapi pkg/validation/validate/validator.go
 * `numberValidator.Validate`, values.go `MinimumNativeType`, `MaximumNativeType`,
 * `MultipleOfNativeType`, `IsValueValidAgainstRange`): the range, multipleOf, minimum and maximum
 * checks of one number, as Go holds it after decoding.
 *
 * Two facts make this differ from JSON Schema arithmetic. The bounds are float64s (apiextensions'
 * `JSONSchemaProps`; CAPI converts its int64 bounds to float64, internal/topology/variables
 * schema.go `convertToAPIExtensionsJSONSchemaProps`), but a value the decoder made an int64 is
 * compared with the bound converted to int64, truncated: under the API server (apimachinery
 * util/json `convertNumber` makes every whole number within int64 an int64) `minimum: 0.5`
 * accepts 0, `multipleOf: 2.5` wants multiples of 2 and `multipleOf: 0.5` refuses every whole
 * number (`factor ... must be positive: 0`), while int64s beyond ±2^53 compare exactly. CAPI's
 * webhooks decode variable values with encoding/json, so every number there is a float64.
 * Second, from the kube-openapi release CAPI v1.14 builds with, the validator knows the node's
 * type and format, and a bound out of that type's range (0.5 for an integer) is an error of its
 * own and compared as float64 instead.
 */
import { formatFloat } from '../gotemplate/fmt.js';
import { isInt64 } from '../core/json.js';

/** What kube-openapi's `numberValidator` reads of a schema node. */
export interface NumberChecks {
  /** The node's single type, `integer` or `number`, where the validator is given it (else ''). */
  type: '' | 'integer' | 'number';
  /** `int32`/`int64` for integers, `float`/`double` for numbers, else ''. */
  format: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: true;
  exclusiveMaximum?: true;
  multipleOf?: number;
}

/** A number as Go holds it after decoding: an int64, or a float64. */
export type GoNumber = bigint | number;

/** How the validated document was decoded: the API server's int64s, or encoding/json's float64s. */
export type NumberDecoding = 'int64' | 'float64';

/** The decoded form of a JSON number (`Json` holds int64s beyond ±2^53 as bigints). */
export function decodedNumber(v: number | bigint, decoding: NumberDecoding): GoNumber {
  if (typeof v === 'bigint') return decoding === 'int64' ? v : Number(v);
  return decoding === 'int64' && Number.isInteger(v) && Math.abs(v) < 2 ** 63 ? BigInt(v) : v;
}

/**
 * One error of the validator: `plain` for the range checks, which are plain errors apiextensions
 * reports at the root of the value; `value`, the error's value where it is not the number's: the
 * factor, for a factor that is not positive.
 */
export interface NumberError {
  plain: boolean;
  message: string;
  value?: GoNumber;
}

/** Go's `int64(f)` on amd64: truncation toward zero; NaN or out of range gives -2^63. */
export function goInt64(f: number): bigint {
  if (!Number.isFinite(f) || Math.abs(f) >= 2 ** 63) return -(2n ** 63n);
  return BigInt(Math.trunc(f));
}

/** `%v` of an int64 or a float64. */
const goV = (n: GoNumber): string => (typeof n === 'bigint' ? n.toString() : formatFloat(n, 'g', -1));

/** swag `FormatFloat64`: strconv 'f' with the shortest digits. */
const formatF = (f: number): string => formatFloat(f, 'f', -1);

/** swag `ConvertFloat32`: `strconv.ParseFloat(s, 32)` fails beyond float32's range. */
const fitsFloat32 = (f: number): boolean => Number.isFinite(Math.fround(f)) || !Number.isFinite(f);

/** kube-openapi `IsValueValidAgainstRange`: its message, or undefined when the number fits. */
function rangeError(n: GoNumber, c: NumberChecks, prefix: string, name: string): string | undefined {
  let ok = true;
  if (c.type === 'integer') {
    // strconv.ParseInt of the number's text: an int64 always fits int64; a float64 only when whole.
    const whole = typeof n === 'bigint' ? n : Number.isInteger(n) ? BigInt(formatF(n)) : undefined;
    ok = whole !== undefined && (c.format === 'int32' ? whole >= -(2n ** 31n) && whole < 2n ** 31n : isInt64(whole));
  } else if (c.format === 'float') ok = fitsFloat32(Number(n));
  if (ok) return undefined;
  const type = c.format === '' ? `${c.type} (default format)` : `${c.type} with format ${c.format}`;
  return `${prefix} value must be of type ${type} in ${name}`;
}

/**
 * swag `IsFloat64AJSONInteger`: whole within ±(2^53 - 1), or, above 1, within a relative error of
 * 1e-9 of its integer part. (Go compares a negative number with `float64(uint64(f))`, near 2^64,
 * so a negative one must be whole.)
 */
function isFloat64AJSONInteger(f: number): boolean {
  if (!Number.isFinite(f) || Math.abs(f) > 2 ** 53 - 1) return false;
  const g = Math.trunc(f);
  if (f === g) return true;
  return f > 1 && (f - g) / (f + g) < 1e-9;
}

/**
 * The errors of `numberValidator.Validate` for the number `v`, in its order: the value's range,
 * then multipleOf, minimum and maximum, each preceded by its bound's range check. `name` is the
 * value's kube-openapi name (its messages' subject).
 */
export function numberErrors(v: GoNumber, c: NumberChecks, name: string, inBody: (m: string) => string): NumberError[] {
  const out: NumberError[] = [];
  const plain = (m: string | undefined) => m !== undefined && out.push({ plain: true, message: m });
  const fail = (message: string, value?: GoNumber) =>
    out.push(value === undefined ? { plain: false, message } : { plain: false, message, value });
  plain(rangeError(v, c, 'Checked', name));
  const data = Number(v);
  /**
   * The int64 the bound's check compares (`*NativeType` on an int64): when the value is an int64
   * and the bound fits the node's type; else the check compares float64s.
   */
  const native = (bound: number, prefix: string): bigint | undefined => {
    const e = rangeError(bound, c, prefix, name);
    plain(e);
    return e === undefined && typeof v === 'bigint' ? v : undefined;
  };
  if (c.multipleOf !== undefined) {
    const m = c.multipleOf;
    const int = native(m, 'MultipleOf');
    if (int !== undefined) {
      const factor = goInt64(m);
      if (factor <= 0n) fail(`factor MultipleOf declared for ${name} must be positive: ${goV(factor)}`, factor);
      else if (int % factor !== 0n) fail(inBody(`should be a multiple of ${goV(factor)}`));
    } else if (m <= 0) fail(`factor MultipleOf declared for ${name} must be positive: ${goV(m)}`, m);
    else if (!isFloat64AJSONInteger(m < 1 ? (1 / m) * data : data / m))
      fail(inBody(`should be a multiple of ${goV(m)}`));
  }
  /** minimum (`sign` -1) or maximum (+1): the value beyond the bound, compared as the check compares. */
  const bound = (b: number, exclusive: boolean, prefix: string, sign: 1 | -1, words: string) => {
    const int = native(b, prefix);
    const [x, limit]: [GoNumber, GoNumber] = int === undefined ? [data, b] : [int, goInt64(b)];
    const beyond = sign > 0 ? x > limit : x < limit;
    if (beyond || (exclusive && x === limit))
      fail(inBody(`should be ${words} than ${exclusive ? '' : 'or equal to '}${goV(limit)}`));
  };
  if (c.minimum !== undefined) bound(c.minimum, c.exclusiveMinimum === true, 'Minimum boundary', -1, 'greater');
  if (c.maximum !== undefined) bound(c.maximum, c.exclusiveMaximum === true, 'Maximum boundary', 1, 'less');
  return out;
}
