/**
 * The defaulting webhook every emulated provider webhook module exports, and the Go-object helpers
 * they share: a webhook sees the object as Go decoded it, where absent, null and "" are one.
 */
import type { Json, JsonObject } from '../../core/model.js';
import { isJsonObject } from '../../core/go/json.js';

export interface AdmissionWebhook {
  group: string;
  kind: string;
  /** API versions the defaults are written for (the webhook, or the version it is converted from). */
  versions: readonly string[];
  /** Upstream `Default()` this emulates. */
  source: string;
  /** Applies the defaults to `obj` in place (`obj` is already a private copy). */
  apply: (obj: JsonObject, version: string) => void;
}

/** A Go string field is "" when absent or null too. */
export const unset = (v: Json | undefined): boolean => v === undefined || v === null || v === '';

/** The object under `key`, created when absent or null (as Go's non-pointer structs are); undefined when another type is in the way. */
export function child(o: JsonObject, key: string): JsonObject | undefined {
  const v = o[key];
  if (v === undefined || v === null) {
    const created: JsonObject = {};
    o[key] = created;
    return created;
  }
  return isJsonObject(v) ? v : undefined;
}

export function childAt(o: JsonObject | undefined, ...keys: string[]): JsonObject | undefined {
  let cur = o;
  for (const k of keys) {
    if (!cur) return undefined;
    cur = child(cur, k);
  }
  return cur;
}

export const metaOf = (obj: JsonObject): JsonObject => (isJsonObject(obj.metadata) ? obj.metadata : {});
export const nameOf = (obj: JsonObject): string =>
  typeof metaOf(obj).name === 'string' ? (metaOf(obj).name as string) : '';
export const stringOr = (v: Json | undefined, fallback: string): string => (typeof v === 'string' ? v : fallback);
