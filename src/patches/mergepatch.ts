/**
 * RFC 7386 JSON merge patches as evanphx/json-patch v5.9.11 `MergePatch` applies them (merge.go
 * `doMergePatch`, `mergeDocs`, `pruneNulls`): what CAPI's patch engine does with a
 * `JSONMergePatch` answer of a GeneratePatches extension (engine.go `applyPatchToRequest`).
 * The document is always an object here (a template). Nothing is mutated: the result shares
 * untouched subtrees with the input.
 */
import { isObject } from '../core/json.js';
import type { Json, JsonObject } from '../core/model.js';
import type { Recorder } from '../provenance/recorder.js';
import type { Source } from '../provenance/sources.js';
import type { Path } from '../core/path.js';

const BAD_PATCH = 'Invalid JSON Patch'; // jsonpatch.ErrBadJSONPatch

/** `null` members removed at every depth of objects (and of objects inside arrays). */
function pruneNulls(v: Json): Json {
  if (Array.isArray(v)) return v.map((x) => (x === null ? x : pruneNulls(x)));
  if (!isObject(v)) return v;
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(v)) if (x !== null) out[k] = pruneNulls(x);
  return out;
}

/** mergeDocs: a null member deletes, other members go through merge(). */
function mergeObjects(doc: JsonObject, patch: JsonObject): JsonObject {
  const out: JsonObject = { ...doc };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) {
      delete out[k];
      continue;
    }
    const cur = Object.hasOwn(out, k) ? out[k] : undefined;
    // merge(): over an object, an object merges and anything else replaces as is; over a
    // missing key, a null or a non-object, the value replaces with its nulls pruned.
    if (isObject(cur)) out[k] = isObject(v) ? mergeObjects(cur, v) : v;
    else out[k] = pruneNulls(v);
  }
  return out;
}

/**
 * The patched document, or evanphx's error. A patch that is not an object replaces the
 * document (an array with its nulls pruned, a literal as is), as in `doMergePatch`.
 */
export function applyMergePatch(
  doc: JsonObject,
  patchText: string,
): { ok: true; doc: Json } | { ok: false; error: string } {
  let patch: Json;
  try {
    patch = JSON.parse(patchText) as Json;
  } catch {
    return { ok: false, error: BAD_PATCH };
  }
  if (isObject(patch)) return { ok: true, doc: mergeObjects(doc, patch) };
  return { ok: true, doc: pruneNulls(patch) };
}

/**
 * Records what `applyMergePatch` did to `doc` (giving `patched`): the patched document starts
 * with the origins of `doc`; a null member removed its key; a value merged into an object is
 * followed member by member; any other value (and what it replaced) comes from `source`.
 */
export function recordMergePatch(
  rec: Recorder,
  doc: JsonObject,
  patched: JsonObject,
  patchText: string,
  source: Source,
): void {
  rec.copy(doc, [], patched, []);
  const patch = JSON.parse(patchText) as Json;
  const walk = (before: Json | undefined, p: Json, at: Path): void => {
    if (!isObject(p) || !isObject(before)) {
      rec.set(patched, at, source);
      return;
    }
    for (const [k, v] of Object.entries(p)) {
      if (v === null) rec.remove(patched, [...at, k]);
      else walk(Object.hasOwn(before, k) ? before[k] : undefined, v, [...at, k]);
    }
  };
  walk(doc, patch, []);
}
