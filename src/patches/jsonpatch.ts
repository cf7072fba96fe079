/**
 * RFC 6902 JSON patch application with the observable behaviour of evanphx/json-patch v5.9.11
 * (`DecodePatch` + `Patch.Apply` with default options), which is what CAPI uses for inline
 * patches (CAPI core/webhooks/admission/patch_validation.go `validatePatches`) and for the JSONPatch answers of external patches (all six
 * operations: add, remove, replace from inline patches, plus move, copy and test). Written here rather than using fast-json-patch because the error
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
import { FORBIDDEN_KEYS, cloneJson, isObject } from '../core/json.js';
import type { Json, JsonObject } from '../core/model.js';
import type { Recorder } from '../provenance/recorder.js';
import type { Source } from '../provenance/sources.js';
import { goQuote } from '../gotemplate/fmt.js';
import { deepEqualJson, goMarshal } from '../core/go/json.js';
import { goAtoi } from '../core/go/strconv.js';

export interface JsonPatchOp {
  op: string;
  path: string;
  /** Present for add/replace/test; `undefined` is treated as JSON null (evanphx adds a nil node). */
  value?: Json;
  /** Source of move/copy. */
  from?: string;
}

export type ApplyPatchResult = { ok: true; doc: Json } | { ok: false; error: string; opIndex: number };

/** What one applied change did, resolved against the document it applied to (for provenance). */
export interface JsonPatchEffect {
  op: 'add' | 'remove' | 'replace';
  /** The location: object keys, and list items by resolved index (`-` is the list's length). Empty: the whole document. */
  path: (string | number)[];
  /** When the location is a list item: the list's length before the change (an `add` inserts). */
  listLength?: number;
}

/** Told of each change just before it is made: `move` is a remove then an add, `copy` an add, `test` nothing. */
export type JsonPatchObserver = (opIndex: number, effect: JsonPatchEffect) => void;

type Observe = ((effect: JsonPatchEffect) => void) | undefined;

const MISSING = 'missing value'; // jsonpatch.ErrMissing
const INVALID_INDEX = 'invalid index referenced'; // jsonpatch.ErrInvalidIndex
const INVALID_STATE = 'invalid state detected'; // jsonpatch.ErrInvalid
const TEST_FAILED = 'test failed'; // jsonpatch.ErrTestFailed

/** RFC 6901 unescaping exactly like Go's strings.NewReplacer("~1", "/", "~0", "~"). */
export function decodePointerSegment(s: string): string {
  return s.replace(/~[01]/g, (m) => (m === '~1' ? '/' : '~'));
}

/** Records an effect on `doc`: `add` inserts into a list and sets a key, `replace` sets, `remove` removes. */
export function recordJsonPatchEffect(rec: Recorder, doc: JsonObject, effect: JsonPatchEffect, source: Source): void {
  const { op, path, listLength } = effect;
  if (op === 'remove') rec.remove(doc, path, listLength);
  else if (op === 'add' && listLength !== undefined)
    rec.insert(doc, path.slice(0, -1), path[path.length - 1] as number, listLength, source);
  else rec.set(doc, path, source);
}

/** Applies all operations in order; stops at the first failing one. `observe` sees each change made. */
export function applyJsonPatch(doc: Json, ops: readonly JsonPatchOp[], observe?: JsonPatchObserver): ApplyPatchResult {
  const owned = new WeakSet<object>();
  let root = doc;
  for (const [i, op] of ops.entries()) {
    const r = applyOne(root, op, owned, observe && ((effect) => observe(i, effect)));
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

/** Where a path points: the containers on the way (root excluded), the last one and the final key. */
interface Location {
  hops: Hop[];
  parent: JsonObject | Json[];
  key: string;
}

function applyOne(root: Json, op: JsonPatchOp, owned: WeakSet<object>, observe: Observe): StepResult {
  const invalid = validateOperation(op);
  if (invalid) return { ok: false, error: invalid };
  for (const path of op.from === undefined ? [op.path] : [op.path, op.from]) {
    for (const raw of path.split('/').slice(1)) {
      const seg = decodePointerSegment(raw);
      if (FORBIDDEN_KEYS.has(seg))
        return { ok: false, error: `${op.op} operation rejected: path segment ${goQuote(seg)} is not allowed` };
    }
  }
  switch (op.op) {
    case 'add':
    case 'remove':
    case 'replace':
      return write(root, op.op, op.path, op.value, owned, observe);
    // decodeJsonPatch rejects a move or copy without `from`; inline patches have neither.
    case 'move':
      // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- see above
      return move(root, op.from!, op.path, owned, observe);
    case 'copy':
      // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- see above
      return copy(root, op.from!, op.path, owned, observe);
    default:
      return test(root, op.path, op.value);
  }
}

/** Patch.add / remove / replace. */
function write(
  root: Json,
  kind: 'add' | 'remove' | 'replace',
  path: string,
  value: Json | undefined,
  owned: WeakSet<object>,
  observe: Observe,
): StepResult {
  if (path === '' && kind !== 'remove') {
    const r = replaceRoot(kind, value);
    if (r.ok) observe?.({ op: kind, path: [] });
    return r;
  }
  const loc = locate(root, path);
  if (!loc) return { ok: false, error: missingPath(kind, path) };
  const planned = plan(kind, loc.parent, loc.key, path, (inner) => `error in ${kind} for path: '${path}': ${inner}`);
  if (!planned.ok) return planned;
  return { ok: true, root: commit(root, loc, kind, planned, value === undefined ? null : value, owned, observe) };
}

/** Patch.move: get and remove at `from`, then add at `path` (the container's add, so "" is a key). */
function move(root: Json, from: string, path: string, owned: WeakSet<object>, observe: Observe): StepResult {
  if (from === '') return { ok: false, error: `unable to move entire document to another path: ${INVALID_STATE}` };
  const source = locate(root, from);
  if (!source)
    return { ok: false, error: `move operation does not apply: doc is missing from path: ${from}: ${MISSING}` };
  const got = get(source.parent, source.key);
  if (!got.ok || got.value === undefined)
    return {
      ok: false,
      error: `error in move for path: '${source.key}': ${got.ok ? nonexistent(source.key) : got.error}`,
    };
  const removal = plan(
    'remove',
    source.parent,
    source.key,
    from,
    (inner) => `error in move for path: '${source.key}': ${inner}`,
  );
  if (!removal.ok) return removal;
  const removed = commit(root, source, 'remove', removal, null, owned, observe);
  return addAt(
    removed,
    path,
    got.value,
    owned,
    'move',
    (inner) => `error in move for path: '${path}': ${inner}`,
    observe,
  );
}

/** Patch.copy: a deep copy of the value at `from`, added at `path`. */
function copy(root: Json, from: string, path: string, owned: WeakSet<object>, observe: Observe): StepResult {
  const source = locate(root, from);
  if (!source)
    return { ok: false, error: `copy operation does not apply: doc is missing from path: "${from}": ${MISSING}` };
  const got = get(source.parent, source.key);
  if (!got.ok || got.value === undefined)
    return { ok: false, error: `error in copy for from: '${from}': ${got.ok ? nonexistent(source.key) : got.error}` };
  return addAt(
    root,
    path,
    cloneJson(got.value),
    owned,
    'copy',
    (inner) => `error while adding value during copy: ${inner}`,
    observe,
  );
}

function addAt(
  root: Json,
  path: string,
  value: Json,
  owned: WeakSet<object>,
  kind: 'move' | 'copy',
  wrap: (inner: string) => string,
  observe: Observe,
): StepResult {
  const target = locate(root, path);
  if (!target)
    return {
      ok: false,
      error: `${kind} operation does not apply: doc is missing destination path: ${path}: ${MISSING}`,
    };
  const planned = plan('add', target.parent, target.key, path, wrap);
  if (!planned.ok) return planned;
  return { ok: true, root: commit(root, target, 'add', planned, value, owned, observe) };
}

/**
 * Patch.test. A JSON null and a missing key are the same to evanphx (both decode to a nil node).
 * Numbers are compared by value (evanphx compares their raw bytes, so there `1` differs from
 * `1.0`; parsed JSON no longer has that difference).
 */
function test(root: Json, path: string, value: Json | undefined): StepResult {
  const expected = value === undefined ? null : value;
  const failed: StepResult = { ok: false, error: `testing value ${path} failed: ${TEST_FAILED}` };
  if (path === '') return deepEqualJson(root, expected) ? { ok: true, root } : failed;
  const loc = locate(root, path);
  if (!loc) return { ok: false, error: `test operation does not apply: is missing path: ${path}: ${MISSING}` };
  const got = get(loc.parent, loc.key);
  if (!got.ok) return { ok: false, error: `error in test for path: '${path}': ${got.error}` };
  return deepEqualJson(got.value ?? null, expected) ? { ok: true, root } : failed;
}

const nonexistent = (key: string) => `unable to get nonexistent key: ${key}: ${MISSING}`;

/** partialDoc.get / partialArray.get: `undefined` for a missing object key (evanphx's nil node). */
function get(
  parent: JsonObject | Json[],
  key: string,
): { ok: true; value: Json | undefined } | { ok: false; error: string } {
  if (!Array.isArray(parent)) return { ok: true, value: Object.hasOwn(parent, key) ? parent[key] : undefined };
  const a = goAtoi(key);
  if (!a.ok) return { ok: false, error: a.error };
  const at = resolveArrayIndex(key, parent.length);
  if (at === undefined) return { ok: false, error: `Unable to access invalid index: ${a.value}: ${INVALID_INDEX}` };
  return { ok: true, value: parent[at] };
}

/**
 * findObject: a path without any "/" (other than "") has no container. Note that everything
 * before the first "/" is ignored by evanphx ("spec/x" behaves like "/x").
 */
function locate(root: Json, path: string): Location | undefined {
  if (!isContainer(root)) return undefined;
  const split = path.split('/');
  if (split.length < 2) return path === '' ? { hops: [], parent: root, key: '' } : undefined;
  const hops = findContainer(root, split.slice(1, -1));
  const last = split.at(-1);
  if (!hops || last === undefined) return undefined;
  return { hops, parent: hops.at(-1)?.node ?? root, key: decodePointerSegment(last) };
}

/** Copy-on-write along the located path, then the planned mutation of the owned parent copy (`observe` told first). */
function commit(
  root: Json,
  loc: Location,
  kind: JsonPatchEffect['op'],
  planned: { at: string | number; mutate: Mutation },
  value: Json,
  owned: WeakSet<object>,
  observe: Observe,
): Json {
  observe?.({
    op: kind,
    path: [...loc.hops.map((h) => h.via), planned.at],
    ...(Array.isArray(loc.parent) ? { listLength: loc.parent.length } : {}),
  });
  const mutate = planned.mutate;
  const newRoot = own(root as JsonObject | Json[], owned);
  let cur = newRoot;
  for (const hop of loc.hops) {
    const next = own(hop.node, owned);
    setChild(cur, hop.via, next);
    cur = next;
  }
  mutate(cur, value);
  return newRoot;
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

/** Arrays (`via` a number) and objects (`via` a key) are indexed alike. */
function setChild(container: JsonObject | Json[], via: string | number, child: Json): void {
  (container as Record<string | number, Json>)[via] = child;
}

/**
 * Walks the intermediate segments (findObject). Any failure (missing key, index out of range,
 * a scalar or null in the way, an empty segment) means "doc is missing path". evanphx resolves
 * an empty segment to the container's `self`, which is only set on the root document (and then
 * points at a stale detached copy); we treat it as missing everywhere — unreachable for paths
 * that pass the webhook's `/spec` prefix rule.
 */
function findContainer(root: JsonObject | Json[], parts: readonly string[]): Hop[] | undefined {
  const hops: Hop[] = [];
  let cur = root;
  for (const raw of parts) {
    const seg = decodePointerSegment(raw);
    const via = Array.isArray(cur)
      ? resolveArrayIndex(seg, cur.length)
      : seg !== '' && Object.hasOwn(cur, seg)
        ? seg
        : undefined;
    if (via === undefined) return undefined;
    const next = (cur as Record<string | number, Json | undefined>)[via];
    if (next === undefined || !isContainer(next)) return undefined;
    hops.push({ node: next, via });
    cur = next;
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

type Mutation = (parent: JsonObject | Json[], value: Json) => void;
/** How to make the final step, and where it lands (`at`: the key, or the resolved list index). */
type Plan = { ok: true; at: string | number; mutate: Mutation } | { ok: false; error: string };

/**
 * Checks the final step against the (unmodified) parent before anything is copied. `wrap`
 * words the container's add/remove errors for the calling operation ("error in add for path").
 */
function plan(
  kind: 'add' | 'remove' | 'replace',
  parent: JsonObject | Json[],
  key: string,
  path: string,
  wrap: (inner: string) => string,
): Plan {
  if (Array.isArray(parent)) return planArray(kind, parent, key, path, wrap);
  const obj = parent;
  switch (kind) {
    case 'add':
      return { ok: true, at: key, mutate: (p, v) => void ((p as JsonObject)[key] = v) };
    case 'remove':
      if (!Object.hasOwn(obj, key)) {
        return { ok: false, error: wrap(`unable to remove nonexistent key: ${key}: ${MISSING}`) };
      }
      return { ok: true, at: key, mutate: (p) => void delete (p as JsonObject)[key] };
    case 'replace':
      // partialDoc.get("") returns the container's `self` without error, so replacing an empty
      // final key always "succeeds" and sets key "" (evanphx quirk, kept).
      if (key !== '' && !Object.hasOwn(obj, key)) {
        return { ok: false, error: `replace operation does not apply: doc is missing key: ${path}: ${MISSING}` };
      }
      return { ok: true, at: key, mutate: (p, v) => void ((p as JsonObject)[key] = v) };
  }
}

function planArray(
  kind: 'add' | 'remove' | 'replace',
  arr: Json[],
  key: string,
  path: string,
  wrap: (inner: string) => string,
): Plan {
  const len = BigInt(arr.length);
  switch (kind) {
    case 'add': {
      if (key === '-') return { ok: true, at: arr.length, mutate: (p, v) => void (p as Json[]).push(v) };
      const a = goAtoi(key);
      if (!a.ok) {
        return { ok: false, error: wrap(`value was not a proper array index: '${key}': ${a.error}`) };
      }
      const size = len + 1n;
      let idx = a.value;
      if (idx >= size || idx < -size) {
        return { ok: false, error: wrap(`Unable to access invalid index: ${a.value}: ${INVALID_INDEX}`) };
      }
      if (idx < 0n) idx += size;
      const at = Number(idx);
      return { ok: true, at, mutate: (p, v) => void (p as Json[]).splice(at, 0, v) };
    }
    case 'remove': {
      const a = goAtoi(key);
      if (!a.ok) return { ok: false, error: wrap(a.error) };
      let idx = a.value;
      if (idx >= len || idx < -len) {
        return { ok: false, error: wrap(`Unable to access invalid index: ${a.value}: ${INVALID_INDEX}`) };
      }
      if (idx < 0n) idx += len;
      const at = Number(idx);
      return { ok: true, at, mutate: (p) => void (p as Json[]).splice(at, 1) };
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
      return { ok: true, at, mutate: (p, v) => void ((p as Json[])[at] = v) };
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
 * validatePatch (run by jsonpatch.DecodePatch before anything is applied): a known op, then
 * `from` for move/copy, then a string path. Inline ops never get here with other ops than add,
 * remove and replace (the ClusterClass CRD enum); external patches can use all six.
 */
function validateOperation(op: JsonPatchOp, opJson = goMarshal(op as unknown as Json)): string | undefined {
  const invalid = (what: string) => `invalid operation ${opJson}: ${what}`;
  if (!['add', 'remove', 'replace', 'move', 'copy', 'test'].includes(op.op)) return invalid('unsupported operation');
  if ((op.op === 'move' || op.op === 'copy') && op.from === undefined)
    return invalid(`failed to decode 'from': operation, missing from field: ${MISSING}`);
  return undefined;
}

/** The Go JSON type name in `json: cannot unmarshal X into ...` errors. */
/** encoding/json's name of a non-null JSON value's kind (null never gets here: it counts as missing). */
const goJsonKind = (v: unknown): string => (Array.isArray(v) ? 'array' : typeof v === 'boolean' ? 'bool' : typeof v);

/**
 * jsonpatch.DecodePatch over the bytes of an external patch: valid JSON, a list of objects,
 * every operation valid, checked in evanphx's order (Operation.Kind/From/Path: a field that is
 * null counts as missing, a non-string op as "unknown").
 */
export function decodeJsonPatch(text: string): { ok: true; ops: JsonPatchOp[] } | { ok: false; error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, error: INVALID_STATE };
  }
  if (parsed === null) return { ok: true, ops: [] };
  if (!Array.isArray(parsed))
    return { ok: false, error: `json: cannot unmarshal ${goJsonKind(parsed)} into Go value of type jsonpatch.Patch` };
  const ops: JsonPatchOp[] = [];
  for (const raw of parsed as unknown[]) {
    if (raw !== null && !isObject(raw))
      return {
        ok: false,
        error: `json: cannot unmarshal ${goJsonKind(raw)} into Go value of type jsonpatch.Operation`,
      };
    const fields = raw ?? {};
    const opJson = raw === null ? 'null' : goMarshal(fields);
    const op: JsonPatchOp = { op: typeof fields.op === 'string' ? fields.op : 'unknown', path: '' };
    const notString = (key: 'from' | 'path') =>
      `invalid operation ${opJson}: failed to decode '${key}': json: cannot unmarshal ${goJsonKind(fields[key])} into Go value of type string`;
    if (fields.from !== undefined && fields.from !== null) {
      if (typeof fields.from === 'string') op.from = fields.from;
      else if (op.op === 'move' || op.op === 'copy') return { ok: false, error: notString('from') };
    }
    // validateOperation's first check: add and replace need a value (a null one counts).
    if ((op.op === 'add' || op.op === 'replace') && !Object.hasOwn(fields, 'value')) {
      return {
        ok: false,
        error: `invalid operation ${opJson}: failed to decode 'value': operation, missing value field: ${MISSING}`,
      };
    }
    const invalid = validateOperation(op, opJson);
    if (invalid) return { ok: false, error: invalid };
    if (fields.path === undefined || fields.path === null)
      return {
        ok: false,
        error: `invalid operation ${opJson}: failed to decode 'path': operation missing path field: ${MISSING}`,
      };
    if (typeof fields.path !== 'string') return { ok: false, error: notString('path') };
    op.path = fields.path;
    if (Object.hasOwn(fields, 'value')) op.value = fields.value;
    ops.push(op);
  }
  return { ok: true, ops };
}
