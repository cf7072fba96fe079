/** Small helpers for plain JSON values: narrowing at the input boundary and safe building. */
import type { Json, JsonObject } from './model.js';

export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

export const asObject = (v: unknown): JsonObject | undefined => (isObject(v) ? v : undefined);
export const asArray = (v: unknown): Json[] | undefined => (Array.isArray(v) ? (v as Json[]) : undefined);
export const asString = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const asNumber = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined;
/**
 * A JSON value as text, the way `String` has it: for fields such as `kind` and `name` that earlier
 * stages have checked to be strings, so a map or list never reaches here in practice.
 */
// eslint-disable-next-line @typescript-eslint/no-base-to-string -- the one place a JSON value is stringified as is
export const jsonText = (v: Json | undefined): string => String(v);

/** Keys that must never be written as own properties of objects built from user data. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Deep copy of a JSON value; objects get own, enumerable data properties only. */
export function cloneJson<T extends Json>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => cloneJson(v)) as T;
  if (isObject(value)) {
    const out: JsonObject = {};
    for (const key of Object.keys(value)) defineKey(out, key, cloneJson(value[key] as Json));
    return out as T;
  }
  return value;
}

/** Sets `obj[key]` as an own data property, so `__proto__` as data cannot reach the prototype. */
export function defineKey(obj: JsonObject, key: string, value: Json): void {
  if (key === '__proto__') {
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    obj[key] = value;
  }
}

/** Reads a nested value by keys and list indexes (own keys only); undefined when any step is missing. */
export function valueAt(root: Json | undefined, path: readonly (string | number)[]): Json | undefined {
  let cur: Json | undefined = root;
  for (const s of path) {
    if (Array.isArray(cur) && typeof s === 'number') cur = cur[s];
    else if (isObject(cur) && typeof s === 'string' && Object.prototype.hasOwnProperty.call(cur, s)) cur = cur[s];
    else return undefined;
  }
  return cur;
}

/** A string→string map (labels, annotations); non-string values are dropped. */
export function asStringMap(v: unknown): Record<string, string> | undefined {
  if (!isObject(v)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v)) {
    if (typeof val === 'string') defineKey(out, k, val);
  }
  return out;
}

/** Code-unit order, as Go's `sort.Strings` and a plain `sort()` have it: the same under any locale, unlike a locale-aware comparison. */
export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Returns a copy of the map with keys sorted, or undefined when empty (Go's MergeMap → nil). */
export function sortedMap(m: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!m) return undefined;
  const entries = Object.entries(m).sort(([a], [b]) => compareText(a, b));
  if (entries.length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of entries) defineKey(out, k, v);
  return out;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Whether an integer fits Go's int64. */
export const isInt64 = (n: bigint): boolean => n >= INT64_MIN && n <= INT64_MAX;

/**
 * An integer as the API server stores it (apimachinery util/json `convertNumber`): an int64 when it
 * fits (a number within ±(2^53 - 1), else a bigint, so it stays exact), else the nearest float64.
 */
export function jsonInteger(n: bigint): number | bigint {
  const d = Number(n);
  if (Number.isSafeInteger(d)) return d;
  return isInt64(n) ? n : d;
}

/**
 * A float64 as the API server stores it: `json.Marshal` writes a whole float64 below 1e21 in its
 * shortest digits padded with zeros (as `String` does: 2^60 as 1152921504606847000), which
 * `convertNumber` reads back as an int64 where it fits (so 1e18 is an int64, -2^63 a float64).
 */
export const jsonNumber = (n: number): number | bigint =>
  Number.isInteger(n) && !Number.isSafeInteger(n) && Math.abs(n) < 1e21 ? jsonInteger(BigInt(String(n))) : n;

/**
 * A double standing for an int64 where only doubles are compared (ajv's checks, schema bounds):
 * the nearest one within ±(2^63 - 1024), so never ±2^63, which a float64 beyond int64 may be.
 */
export const int64Double = (n: bigint): number => Math.max(Math.min(Number(n), 2 ** 63 - 1024), 1024 - 2 ** 63);

/** Whether the value holds an int64 beyond ±2^53 anywhere. */
export const holdsBigint = (v: Json): boolean =>
  typeof v === 'bigint' || (v !== null && typeof v === 'object' && Object.values(v).some(holdsBigint));

/**
 * `JSON.stringify` for data that may hold int64s beyond ±2^53 (bigints, which `JSON.stringify`
 * refuses): the same text, with each bigint in all its digits. `indent` as JSON.stringify's.
 */
export function jsonString(value: unknown, indent = 0): string {
  return writeJson(value, '', ' '.repeat(indent)) ?? 'null';
}

function writeJson(v: unknown, pad: string, step: string): string | undefined {
  if (v === undefined || typeof v === 'function' || typeof v === 'symbol') return undefined;
  if (typeof v === 'bigint') return v.toString();
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  const toJSON = (v as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return writeJson((toJSON as () => unknown).call(v), pad, step);
  const inner = pad + step;
  const wrap = (open: string, parts: string[], close: string): string =>
    parts.length === 0
      ? open + close
      : step === ''
        ? `${open}${parts.join(',')}${close}`
        : `${open}\n${inner}${parts.join(`,\n${inner}`)}\n${pad}${close}`;
  if (Array.isArray(v))
    return wrap(
      '[',
      v.map((x) => writeJson(x, inner, step) ?? 'null'),
      ']',
    );
  const o = v as Record<string, unknown>;
  const parts = Object.keys(o).flatMap((k) => {
    const text = writeJson(o[k], inner, step);
    return text === undefined ? [] : [`${JSON.stringify(k)}:${step === '' ? '' : ' '}${text}`];
  });
  return wrap('{', parts, '}');
}

/** Canonical JSON: sorted keys, no whitespace (used for content hashes); int64s in all their digits. */
export function canonicalJson(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k] as Json)}`).join(',')}}`;
  }
  return typeof value === 'bigint' ? value.toString() : JSON.stringify(value);
}

/** Drops keys whose value is undefined (objects built with optional fields). */
export function compact<T extends Record<string, unknown>>(obj: T): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(obj)) if (v !== undefined) defineKey(out, k, v as Json);
  return out;
}
