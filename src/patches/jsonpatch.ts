/**
 * RFC 6902 JSON patch application with the observable behaviour of evanphx/json-patch v5.9.11
 * (`Patch.Apply` with default options), which is what CAPI uses for inline patches
 * (topology-semantics §7.5). Written here rather than using fast-json-patch because the error
 * texts and several quirks differ (negative indexes, `add` replacing existing keys, `replace`
 * with an empty final key, the first path segment before the leading `/` being ignored...).
 *
 * Copy-on-write: the input document is never mutated. Containers on a modified path are
 * shallow-copied once per `applyJsonPatch` call (tracked in `owned`), untouched subtrees are
 * shared with the input. A failing operation leaves the input as it was (the whole patch is
 * atomic, like Apply on a byte slice).
 *
 * Safety: path segments `__proto__`, `constructor` and `prototype` are rejected (they cannot
 * name real Kubernetes fields, and rejecting them makes prototype pollution impossible whatever
 * the container), and object copies use spread (own data properties only).
 */
import { FORBIDDEN_KEYS, isObject } from '../api/json.js';
import type { Json, JsonObject } from '../api/model.js';
import { goQuote } from '../gotemplate/fmt.js';
import { goAtoi } from './gostrconv.js';

export interface JsonPatchOp {
  op: string;
  path: string;
  /** Present for add/replace; `undefined` is treated as JSON null (evanphx adds a nil node). */
  value?: Json;
}

export type ApplyPatchResult =
  | { ok: true; doc: Json }
  | { ok: false; error: string; opIndex: number };

const MISSING = 'missing value'; // jsonpatch.ErrMissing
const INVALID_INDEX = 'invalid index referenced'; // jsonpatch.ErrInvalidIndex

/** RFC 6901 unescaping exactly like Go's strings.NewReplacer("~1", "/", "~0", "~"). */
export function decodePointerSegment(s: string): string {
  return s.replace(/~[01]/g, (m) => (m === '~1' ? '/' : '~'));
}

/** Applies all operations in order; stops at the first failing one. */
export function applyJsonPatch(doc: Json, ops: readonly JsonPatchOp[]): ApplyPatchResult {
  const owned = new WeakSet<object>();
  let root = doc;
  for (let i = 0; i < ops.length; i++) {
    const r = applyOne(root, ops[i]!, owned);
    if (!r.ok) return { ok: false, error: r.error, opIndex: i };
    root = r.root;
  }
  return { ok: true, doc: root };
}

type StepResult = { ok: true; root: Json } | { ok: false; error: string };

/** A container reached while walking a path, plus how its parent addresses it. */
interface Hop {
  node: JsonObject | Json[];
  /** Key (object) or resolved index (array) under which `node` sits in the previous hop. */
  via: string | number;
}

function applyOne(root: Json, op: JsonPatchOp, owned: WeakSet<object>): StepResult {
  const path = op.path;
  const kind = op.op;
  if (kind !== 'add' && kind !== 'remove' && kind !== 'replace') return unsupported(op);

  const split = path.split('/');
  for (const raw of split.slice(1)) {
    const seg = decodePointerSegment(raw);
    if (FORBIDDEN_KEYS.has(seg)) {
      return { ok: false, error: `${kind} operation rejected: path segment ${goQuote(seg)} is not allowed` };
    }
  }

  if (path === '' && kind !== 'remove') return replaceRoot(kind, op.value);

  // findObject: a path without any "/" (other than "") has no container. Note that everything
  // before the first "/" is ignored by evanphx ("spec/x" behaves like "/x").
  const hops = path === '' ? [] : findContainer(root, split.slice(1, -1));
  const key = path === '' ? '' : decodePointerSegment(split[split.length - 1]!);
  if ((path !== '' && split.length < 2) || hops === undefined || !isContainer(root)) {
    return { ok: false, error: missingPath(kind, path) };
  }
  const parent = hops.length === 0 ? (root as JsonObject | Json[]) : hops[hops.length - 1]!.node;

  // Validate the final step against the (unmodified) parent before copying anything.
  const planned = plan(kind, parent, key, path);
  if (!planned.ok) return planned;

  // Copy-on-write along the path, then mutate the owned parent copy.
  const newRoot = own(root as JsonObject | Json[], owned);
  let cur = newRoot;
  for (const hop of hops) {
    const copy = own(hop.node, owned);
    setChild(cur, hop.via, copy);
    cur = copy;
  }
  planned.mutate(cur, op.value === undefined ? null : op.value);
  return { ok: true, root: newRoot };
}

function isContainer(v: Json): v is JsonObject | Json[] {
  return typeof v === 'object' && v !== null;
}

function own<T extends JsonObject | Json[]>(node: T, owned: WeakSet<object>): T {
  if (owned.has(node)) return node;
  const copy = (Array.isArray(node) ? node.slice() : { ...node }) as T;
  owned.add(copy);
  return copy;
}

function setChild(container: JsonObject | Json[], via: string | number, child: Json): void {
  if (Array.isArray(container)) container[via as number] = child;
  else (container as JsonObject)[via as string] = child;
}

/**
 * Walks the intermediate segments (findObject). Any failure (missing key, index out of range,
 * a scalar or null in the way, an empty segment) means "doc is missing path". evanphx resolves
 * an empty segment to the container's `self`, which is only set on the root document (and then
 * points at a stale detached copy); we treat it as missing everywhere — unreachable for paths
 * that pass the webhook's `/spec` prefix rule.
 */
function findContainer(root: Json, parts: readonly string[]): Hop[] | undefined {
  const hops: Hop[] = [];
  let cur: Json = root;
  for (const raw of parts) {
    const seg = decodePointerSegment(raw);
    let next: Json | undefined;
    let via: string | number;
    if (Array.isArray(cur)) {
      const idx = resolveArrayIndex(seg, cur.length);
      if (idx === undefined) return undefined;
      next = cur[idx];
      via = idx;
    } else if (isObject(cur)) {
      if (seg === '' || !Object.hasOwn(cur, seg)) return undefined;
      next = cur[seg];
      via = seg;
    } else {
      return undefined;
    }
    if (!isContainer(next as Json)) return undefined;
    hops.push({ node: next as JsonObject | Json[], via });
    cur = next as Json;
  }
  return hops;
}

/** partialArray.get index rules (negative indexes count from the end). */
function resolveArrayIndex(seg: string, len: number): number | undefined {
  const a = goAtoi(seg);
  if (!a.ok) return undefined;
  let idx = a.value;
  if (idx < 0n) {
    if (idx < -BigInt(len)) return undefined;
    idx += BigInt(len);
  }
  if (idx >= BigInt(len)) return undefined;
  return Number(idx);
}

type Plan =
  | { ok: true; mutate: (parent: JsonObject | Json[], value: Json) => void }
  | { ok: false; error: string };

function plan(kind: 'add' | 'remove' | 'replace', parent: JsonObject | Json[], key: string, path: string): Plan {
  if (Array.isArray(parent)) return planArray(kind, parent, key, path);
  const obj = parent;
  switch (kind) {
    case 'add':
      return { ok: true, mutate: (p, v) => void ((p as JsonObject)[key] = v) };
    case 'remove':
      if (!Object.hasOwn(obj, key)) {
        return {
          ok: false,
          error: `error in remove for path: '${path}': unable to remove nonexistent key: ${key}: ${MISSING}`,
        };
      }
      return { ok: true, mutate: (p) => void delete (p as JsonObject)[key] };
    case 'replace':
      // partialDoc.get("") returns the container's `self` without error, so replacing an empty
      // final key always "succeeds" and sets key "" (evanphx quirk, kept).
      if (key !== '' && !Object.hasOwn(obj, key)) {
        return { ok: false, error: `replace operation does not apply: doc is missing key: ${path}: ${MISSING}` };
      }
      return { ok: true, mutate: (p, v) => void ((p as JsonObject)[key] = v) };
  }
}

function planArray(kind: 'add' | 'remove' | 'replace', arr: Json[], key: string, path: string): Plan {
  const len = BigInt(arr.length);
  switch (kind) {
    case 'add': {
      if (key === '-') return { ok: true, mutate: (p, v) => void (p as Json[]).push(v) };
      const a = goAtoi(key);
      if (!a.ok) {
        return {
          ok: false,
          error: `error in add for path: '${path}': value was not a proper array index: '${key}': ${a.error}`,
        };
      }
      const size = len + 1n;
      let idx = a.value;
      if (idx >= size || idx < -size) {
        return { ok: false, error: `error in add for path: '${path}': Unable to access invalid index: ${a.value}: ${INVALID_INDEX}` };
      }
      if (idx < 0n) idx += size;
      const at = Number(idx);
      return { ok: true, mutate: (p, v) => void (p as Json[]).splice(at, 0, v) };
    }
    case 'remove': {
      const a = goAtoi(key);
      if (!a.ok) return { ok: false, error: `error in remove for path: '${path}': ${a.error}` };
      let idx = a.value;
      if (idx >= len || idx < -len) {
        return { ok: false, error: `error in remove for path: '${path}': Unable to access invalid index: ${a.value}: ${INVALID_INDEX}` };
      }
      if (idx < 0n) idx += len;
      const at = Number(idx);
      return { ok: true, mutate: (p) => void (p as Json[]).splice(at, 1) };
    }
    case 'replace': {
      // partialArray.get("") returns `self` without error; the following set() then fails to
      // parse "" — reported, like evanphx, with the "remove" wording of its replace code path.
      if (key === '') {
        const a = goAtoi(key);
        return { ok: false, error: `error in remove for path: '${path}': ${a.ok ? '' : a.error}` };
      }
      const at = resolveArrayIndex(key, arr.length);
      if (at === undefined) {
        return { ok: false, error: `replace operation does not apply: doc is missing key: ${path}: ${MISSING}` };
      }
      return { ok: true, mutate: (p, v) => void ((p as Json[])[at] = v) };
    }
  }
}

function missingPath(kind: 'add' | 'remove' | 'replace', path: string): string {
  // evanphx quotes the path for add/remove but not for replace.
  if (kind === 'replace') return `replace operation does not apply: doc is missing path: ${path}: ${MISSING}`;
  return `${kind} operation does not apply: doc is missing path: "${path}": ${MISSING}`;
}

/**
 * add/replace on the whole document (path ""). evanphx swaps in the value; CAPI then copies
 * only spec/labels/annotations back. A non-object root cannot be turned back into a Kubernetes
 * object, so that case is an error here (own wording; unreachable past the `/spec` webhook rule).
 */
function replaceRoot(kind: 'add' | 'replace', value: Json | undefined): StepResult {
  if (isObject(value)) return { ok: true, root: value };
  return { ok: false, error: `${kind} operation does not apply: the document root must be replaced by an object` };
}

/**
 * Operations other than add/remove/replace never pass the ClusterClass CRD enum. For
 * completeness, mirror the texts of jsonpatch.DecodePatch where it rejects them (`move`/`copy`
 * without `from`, unknown ops). `test` would decode fine in Go; it is not supported here.
 */
function unsupported(op: JsonPatchOp): StepResult {
  const opJson = JSON.stringify({ op: op.op, path: op.path });
  if (op.op === 'move' || op.op === 'copy') {
    return {
      ok: false,
      error: `invalid operation ${opJson}: failed to decode 'from': operation, missing from field: ${MISSING}`,
    };
  }
  if (op.op === 'test') {
    return { ok: false, error: `test operation is not supported (ClusterClass patches allow add, remove, replace)` };
  }
  return { ok: false, error: `invalid operation ${opJson}: unsupported operation` };
}
