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

/** Canonical JSON: sorted keys, no whitespace (used for content hashes). */
export function canonicalJson(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k] as Json)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Drops keys whose value is undefined (objects built with optional fields). */
export function compact<T extends Record<string, unknown>>(obj: T): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(obj)) if (v !== undefined) defineKey(out, k, v as Json);
  return out;
}
