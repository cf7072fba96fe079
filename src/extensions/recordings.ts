/**
 * Recorded extension answers: one JSON file per distinct request, named and keyed by a SHA-256
 * of the hook, the handler and the request as the engine built it. The request is stored as
 * hashed: the patch's own settings (from the ClusterClass, already in git) are in it, the
 * ExtensionConfig's settings (which may hold credentials) are neither written nor part of the
 * key — only their names are noted. Failures are not recorded, except a failure a
 * `failurePolicy: Ignore` handler turned into a success (replayed as that success).
 */
import { createHash } from 'node:crypto';
import { canonicalJson, isObject, jsonString } from '../core/json.js';
import type { Json, JsonObject } from '../core/model.js';
import type { HookName, HookRequest } from './hooks.js';

export interface Recording {
  hook: HookName;
  handler: string;
  request: HookRequest;
  /** Names of the ExtensionConfig settings merged into the request when it was sent. */
  extensionConfigSettings?: string[];
  /** The decoded answer (HTTP 200), whatever its status. */
  response?: JsonObject;
  /** The error of a call its `failurePolicy: Ignore` turned into an empty success. */
  ignored?: string;
}

export function recordingKey(hook: HookName, handler: string, request: HookRequest): string {
  return createHash('sha256')
    .update(canonicalJson({ hook, handler, request } as unknown as Json))
    .digest('hex');
}

export const recordingFileName = (r: Recording, key: string): string =>
  `${r.hook.toLowerCase()}-${key.slice(0, 24)}.json`;

/** The file text: two-space JSON, fields in a fixed order, a final newline. */
export function recordingText(r: Recording): string {
  return `${jsonString(r, 2)}\n`;
}

/**
 * Reads recording files (name → text) into an index by key, recomputed from the stored hook,
 * handler and request (so a hand-edited request no longer matches); unreadable files are errors.
 */
export function indexRecordings(
  files: readonly { name: string; text: string }[],
): { ok: true; index: Map<string, Recording> } | { ok: false; error: string } {
  const index = new Map<string, Recording>();
  for (const f of files) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(f.text);
    } catch (e) {
      return { ok: false, error: `${f.name}: not JSON: ${(e as Error).message}` };
    }
    if (
      !isObject(parsed) ||
      typeof parsed.hook !== 'string' ||
      typeof parsed.handler !== 'string' ||
      !isObject(parsed.request)
    ) {
      return { ok: false, error: `${f.name}: not a recording (needs hook, handler and request)` };
    }
    const r = parsed as unknown as Recording;
    index.set(recordingKey(r.hook, r.handler, r.request), r);
  }
  return { ok: true, index };
}
