/**
 * JSON value helpers for the variables stage. Variable values are user data: keys such as
 * `__proto__` must stay plain data, so objects built here get their keys through `defineKey`
 * and are read with own-property checks only. The generic helpers (`isObject`, `defineKey`,
 * `cloneJson`) are src/core/json.ts's; what is here is Go-specific (json.Marshal, key order).
 */
import { cloneJson, defineKey, isObject, jsonNumber } from '../json.js';
import type { Json, JsonObject } from '../model.js';

/** The src/core/json.ts helpers under this module's former names (src/apiserver and src/webhooks import them). */
export { isObject as isJsonObject, defineKey as setOwn, cloneJson as deepCopy };

export const hasOwn = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

/** Own value of `key`, or undefined; never walks the prototype chain. */
export function getOwn(o: JsonObject, key: string): Json | undefined {
  return hasOwn(o, key) ? o[key] : undefined;
}

/**
 * The value as Go's `encoding/json` would round-trip it through `interface{}`: object keys
 * sorted (Go sorts map keys on marshal), `-0` kept, everything else unchanged. Numbers are JS
 * doubles already, which is what Go decodes them to, so `1.0` is simply `1`.
 */
export function goKeyOrder(v: Json): Json {
  if (Array.isArray(v)) return v.map(goKeyOrder);
  if (isObject(v)) {
    const out: JsonObject = {};
    for (const k of Object.keys(v).sort(compareGoStrings)) defineKey(out, k, goKeyOrder(v[k] as Json));
    return out;
  }
  return v;
}

/** A copy of the value with each bigint replaced. */
function mapBigints(v: Json, f: (n: bigint) => Json): Json {
  if (typeof v === 'bigint') return f(v);
  if (Array.isArray(v)) return v.map((x) => mapBigints(x, f));
  if (isObject(v)) {
    const out: JsonObject = {};
    for (const k of Object.keys(v)) defineKey(out, k, mapBigints(v[k] as Json, f));
    return out;
  }
  return v;
}

/**
 * The value as `encoding/json` decodes it into `interface{}`: every number a float64, so an int64
 * beyond ±2^53 becomes its nearest double (and 2^63 - 1 becomes 2^63).
 */
export const goFloat64s = (v: Json): Json => mapBigints(v, Number);

/**
 * The value after CAPI decodes it with `encoding/json` and writes it back (`json.Marshal`), as the
 * API server and CAPI then read that JSON (`jsonNumber`): 9007199254740993 comes back as the int64
 * 9007199254740992, 2^63 - 1 as the float64 2^63.
 */
export const throughGoFloat64s = (v: Json): Json => mapBigints(v, (n) => jsonNumber(Number(n)));

/** Go sorts map keys by byte order of their UTF-8 encoding; this matches for all code points. */
export function compareGoStrings(a: string, b: string): number {
  const ba = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  return Buffer.compare(ba, bb);
}

/** Go `encoding/json` string escaping (HTML-safe, U+2028/2029 escaped). */
function goJsonString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || ch === '<' || ch === '>' || ch === '&' || c === 0x2028 || c === 0x2029) {
      out += '\\u' + c.toString(16).padStart(4, '0');
    } else out += ch;
  }
  return out + '"';
}

/** Go float64 formatting used by encoding/json ('f' or 'e' like JS, `e-07` style avoided by Go too). */
function goJsonNumber(n: number): string {
  if (Object.is(n, -0)) return '-0';
  return String(n);
}

/** Compact JSON as Go's `json.Marshal` writes it (sorted keys, HTML-safe escaping). */
export function goMarshal(v: Json): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return goJsonNumber(v);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'string') return goJsonString(v);
  if (Array.isArray(v)) return '[' + v.map(goMarshal).join(',') + ']';
  const keys = Object.keys(v).sort(compareGoStrings);
  return '{' + keys.map((k) => goJsonString(k) + ':' + goMarshal(v[k] as Json)).join(',') + '}';
}

export function deepEqualJson(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqualJson(x, b[i] as Json));
  }
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => hasOwn(b, k) && deepEqualJson(a[k] as Json, b[k] as Json));
  }
  return false;
}

/**
 * The JSON type name the Kubernetes OpenAPI validator reports: `integer` for an int64 (a bigint, or
 * a whole number within ±(2^53 - 1), swag `IsFloat64AJSONInteger`), `number` for other float64s.
 */
export function jsonTypeName(v: Json | undefined): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isSafeInteger(v) ? 'integer' : 'number';
  if (typeof v === 'bigint') return 'integer';
  if (typeof v === 'object') return 'object';
  return typeof v;
}
