/**
 * Rewriting a ClusterClass's inline patches for the kubeadm templates that convert to v1beta2.
 *
 * For every template slot of the class (infrastructure, control plane, its machine template, each
 * MachineDeployment/MachinePool class's bootstrap and infrastructure template) whose template
 * converts, the patches selecting it are replayed, in CAPI's order, on a symbolic copy of the
 * template: the template as written, with values from variables and templates as opaque
 * placeholders. For each operation the template before (S) and after (S′) are converted with the
 * rules the files are converted with (api/conversion); the operations that turn convert(S) into
 * convert(S′) are the rewritten operation. So patching and then converting equals converting and
 * then patching, by construction.
 *
 * An operation whose path and value no shape-changing rule touches is kept as written. What
 * cannot be rewritten — a rule would have to look inside a variable's value, a path into a part an
 * earlier conditional patch changed, different rewrites for different templates of one
 * definition — is reported with the reason and a suggested rewrite, and its template stays v1beta1.
 */
import type { Json, JsonObject, PatchSelector } from '../core/model.js';
import { asArray, asObject, asString, defineKey, isObject } from '../core/json.js';
import {
  JsonTree,
  NotMechanical,
  Opaque,
  Unknown,
  conversionFor,
  convertTree,
  type Conversion,
  type Segment,
} from '../api/conversion/index.js';
import { droppedPatterns, strictPatterns, type PatternSegment } from '../api/conversion/engine.js';
import { compileSelector, matchesSelector, type CompiledSelector } from '../patches/selector.js';
import type { PatchRequestItem } from '../patches/types.js';
import { hasAction, templateSkeleton } from './skeleton.js';

export interface JsonPatchJson {
  op: string;
  path: string;
  value?: Json;
  valueFrom?: { variable?: string; template?: string };
}

/** A template a class refers to. */
export interface Slot {
  /** Template identity: apiVersion/kind/namespace/name. */
  key: string;
  ref: { apiVersion: string; kind: string; name: string };
  /** Where the reference is in the v1beta2 class. */
  refPath: Segment[];
  /** The holder CAPI's selector matching looks at. */
  holder: { kind: string; fieldPath: string };
  className?: string;
  /** For messages: "the control plane template", "MachineDeployment class \"x\" bootstrap template". */
  label: string;
}

/** An operation rewritten for one template it selects. */
type Rewritten = { slot: Slot; ops: JsonPatchJson[] };

/** The conversion of a template that converts (planConversion converts only templates that have one). */
export function conversionOf(slot: Slot): Conversion {
  // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- `converting` holds only templates with a conversion
  return conversionFor(slot.ref.apiVersion, slot.ref.kind)!;
}

export interface Finding {
  severity: 'error' | 'warning' | 'info';
  /** Field path in the ClusterClass. */
  path: string;
  message: string;
}

export const templateKey = (apiVersion: string, kind: string, namespace: string, name: string): string =>
  `${apiVersion}/${kind}/${namespace}/${name}`;

/** The template slots of a class in v1beta2 shape. */
export function slotsOf(cls: JsonObject, namespace: string): Slot[] {
  const out: Slot[] = [];
  const add = (refPath: Segment[], holder: Slot['holder'], label: string, className?: string) => {
    let ref: unknown = cls;
    for (const seg of refPath) ref = (ref as Record<string, unknown> | unknown[] | undefined)?.[seg as never];
    const r = asObject(ref);
    const apiVersion = asString(r?.apiVersion);
    const kind = asString(r?.kind);
    const name = asString(r?.name);
    if (!apiVersion || !kind || !name) return;
    out.push({
      key: templateKey(apiVersion, kind, namespace, name),
      ref: { apiVersion, kind, name },
      refPath,
      holder,
      label,
      ...(className !== undefined ? { className } : {}),
    });
  };
  add(
    ['spec', 'infrastructure', 'templateRef'],
    { kind: 'Cluster', fieldPath: 'spec.infrastructureRef' },
    'the infrastructure cluster template',
  );
  add(
    ['spec', 'controlPlane', 'templateRef'],
    { kind: 'Cluster', fieldPath: 'spec.controlPlaneRef' },
    'the control plane template',
  );
  add(
    ['spec', 'controlPlane', 'machineInfrastructure', 'templateRef'],
    { kind: 'ControlPlane', fieldPath: 'spec.machineTemplate.spec.infrastructureRef' },
    'the control plane machine template',
  );
  for (const [list, kind] of [
    ['machineDeployments', 'MachineDeployment'],
    ['machinePools', 'MachinePool'],
  ] as const) {
    (asArray(asObject(asObject(cls.spec)?.workers)?.[list]) ?? []).forEach((w, i) => {
      const className = asString(asObject(w)?.class) ?? '';
      for (const [part, fieldPath] of [
        ['bootstrap', 'spec.template.spec.bootstrap.configRef'],
        ['infrastructure', 'spec.template.spec.infrastructureRef'],
      ] as const) {
        add(
          ['spec', 'workers', list, i, part, 'templateRef'],
          { kind, fieldPath },
          `${kind} class "${className}" ${part} template`,
          className,
        );
      }
    });
  }
  return out;
}

function compiled(selector: JsonObject): CompiledSelector {
  const mr = asObject(selector.matchResources) ?? {};
  const names = (k: string) => {
    const m = asObject(mr[k]);
    return m ? { names: (asArray(m.names) ?? []).filter((n): n is string => typeof n === 'string') } : undefined;
  };
  const s: PatchSelector = {
    apiVersion: asString(selector.apiVersion) ?? '',
    kind: asString(selector.kind) ?? '',
    matchResources: {},
  };
  if (mr.infrastructureCluster === true) s.matchResources.infrastructureCluster = true;
  if (mr.controlPlane === true) s.matchResources.controlPlane = true;
  const md = names('machineDeploymentClass');
  const mp = names('machinePoolClass');
  if (md) s.matchResources.machineDeploymentClass = md;
  if (mp) s.matchResources.machinePoolClass = mp;
  return compileSelector(s);
}

/** Whether a definition's selector picks the slot (CAPI's matching, src/patches/selector.ts). */
function selects(selector: JsonObject, slot: Slot): boolean {
  const item = {
    holder: slot.holder,
    variables: {},
    template: {},
    ...(slot.className !== undefined ? { className: slot.className } : {}),
  } as unknown as PatchRequestItem;
  return matchesSelector(item, compiled(selector), { apiVersion: slot.ref.apiVersion, kind: slot.ref.kind });
}

// ------------------------------------------------------------------ JSON pointers

const decode = (s: string): string => s.replace(/~[01]/g, (m) => (m === '~1' ? '/' : '~'));
const encode = (s: Segment): string => String(s).replace(/~/g, '~0').replace(/\//g, '~1');
/** Segments of a JSON pointer; like evanphx, whatever precedes the first `/` is ignored. */
const pointerSegments = (pointer: string): string[] => (pointer === '' ? [] : pointer.split('/').slice(1).map(decode));
const pointer = (segs: readonly Segment[]): string => segs.map((s) => `/${encode(s)}`).join('');

// ------------------------------------------------------------------ symbolic values

/** Deep copy keeping opaque values (by identity). */
function clone(v: unknown): unknown {
  if (v instanceof Opaque) return v;
  if (Array.isArray(v)) return v.map(clone);
  if (isObject(v)) {
    const out: JsonObject = {};
    for (const k of Object.keys(v)) defineKey(out, k, clone(v[k]) as Json);
    return out;
  }
  return v;
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Opaque || b instanceof Opaque) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return (
      ka.length === Object.keys(b).length &&
      ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && same(a[k], b[k]))
    );
  }
  return false;
}

/** What a template is after a patch that may or may not apply: known where both agree. */
function join(a: unknown, b: unknown, why: string): unknown {
  if (same(a, b)) return a;
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    if (ka.length === Object.keys(b).length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k))) {
      const out: JsonObject = {};
      for (const k of ka) defineKey(out, k, join(a[k], b[k], why) as Json);
      return out;
    }
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) return a.map((x, i) => join(x, b[i], why));
  return new Opaque(why, false);
}

type Applied = { ok: true; doc: unknown } | { ok: false; error: string };

/**
 * One RFC 6902 operation on a symbolic document (add, replace, remove as CAPI allows them).
 * A path into an opaque value throws NotMechanical: where it lands is not known.
 */
function applyOp(doc: unknown, op: string, segs: string[], value: unknown): Applied {
  const root = clone(doc);
  const key = segs.at(-1);
  if (key === undefined)
    return op === 'remove' ? { ok: false, error: 'cannot remove the whole document' } : { ok: true, doc: value };
  let parent: unknown = root;
  for (const seg of segs.slice(0, -1)) {
    if (parent instanceof Opaque) throw new NotMechanical(`the path goes into a value that ${parent.why}`);
    parent = Array.isArray(parent)
      ? parent[Number(seg)]
      : isObject(parent) && Object.prototype.hasOwnProperty.call(parent, seg)
        ? parent[seg]
        : undefined;
    if (parent === undefined) return { ok: false, error: `doc is missing path: "${pointer(segs)}"` };
  }
  if (parent instanceof Opaque) throw new NotMechanical(`the path goes into a value that ${parent.why}`);
  if (Array.isArray(parent)) {
    const index = key === '-' && op === 'add' ? parent.length : /^\d+$/.test(key) ? Number(key) : NaN;
    if (!(index >= 0 && index <= parent.length - (op === 'add' ? 0 : 1)))
      return { ok: false, error: `invalid index referenced: "${pointer(segs)}"` };
    if (op === 'add') parent.splice(index, 0, value);
    else if (op === 'replace') parent[index] = value;
    else parent.splice(index, 1);
    return { ok: true, doc: root };
  }
  if (!isObject(parent)) return { ok: false, error: `doc is missing path: "${pointer(segs)}"` };
  const has = Object.prototype.hasOwnProperty.call(parent, key);
  if (op !== 'add' && !has) return { ok: false, error: `doc is missing key: "${pointer(segs)}"` };
  if (op === 'remove') delete parent[key];
  else defineKey(parent, key, value as Json);
  return { ok: true, doc: root };
}

/** The template converted by the file rules; text from template actions is not interpreted. */
function convertState(state: unknown, conversion: Conversion): { doc: unknown; errors: string[] } {
  const doc = clone(state) as JsonObject;
  const errors: string[] = [];
  convertTree(
    new JsonTree(doc, hasAction),
    doc,
    conversion,
    (r) => r.severity === 'error' && errors.push(`${r.path}: ${r.message}`),
  );
  return { doc, errors };
}

// ------------------------------------------------------------------ diff

interface DiffOp {
  op: 'add' | 'replace' | 'remove';
  path: Segment[];
  value?: unknown;
}

/** The operations that turn `a` into `b` (lists matched on their longest common subsequence). */
function diff(a: unknown, b: unknown, path: Segment[], out: DiffOp[]): void {
  if (same(a, b)) return;
  if (isObject(a) && isObject(b)) {
    for (const k of Object.keys(a))
      if (!Object.prototype.hasOwnProperty.call(b, k)) out.push({ op: 'remove', path: [...path, k] });
    for (const k of Object.keys(b)) {
      if (Object.prototype.hasOwnProperty.call(a, k)) diff(a[k], b[k], [...path, k], out);
      else out.push({ op: 'add', path: [...path, k], value: b[k] });
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    diffList(a, b, path, out);
    return;
  }
  out.push({ op: 'replace', path, value: b });
}

function diffList(a: unknown[], b: unknown[], path: Segment[], out: DiffOp[]): void {
  // Longest common subsequence of equal items.
  // lcs(i, j): the length of the longest common subsequence of a[i..] and b[j..] (0 past either end).
  const width = b.length + 1;
  const table = new Array<number>((a.length + 1) * width).fill(0);
  const lcs = (i: number, j: number): number => table[i * width + j] ?? 0;
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      table[i * width + j] = same(a[i], b[j]) ? lcs(i + 1, j + 1) + 1 : Math.max(lcs(i + 1, j), lcs(i, j + 1));
  const matches: [number, number][] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (same(a[i], b[j])) matches.push([i++, j++]);
    else if (lcs(i + 1, j) >= lcs(i, j + 1)) i++;
    else j++;
  }
  matches.push([a.length, b.length]);
  // Between matches, items are paired in order (and diffed), then extra ones removed or added;
  // `at` is the index in the list as the operations so far left it.
  let i = 0;
  let j = 0;
  let at = 0;
  for (const [mi, mj] of matches) {
    const pairs = Math.min(mi - i, mj - j);
    for (let t = 0; t < pairs; t++) diff(a[i + t], b[j + t], [...path, at++], out);
    for (let t = pairs; t < mi - i; t++) out.push({ op: 'remove', path: [...path, at] });
    for (let t = pairs; t < mj - j; t++) out.push({ op: 'add', path: [...path, at++], value: b[j + t] });
    i = mi + 1;
    j = mj + 1;
    at++;
  }
}

// ------------------------------------------------------------------ one operation

/**
 * A patch operation's value from a variable or a template: opaque to the rules, and written back
 * as the `valueFrom` it came from wherever the rewrite needs it (re-evaluating it gives the same
 * value: patches see the same variables).
 */
class PatchValue extends Opaque {
  constructor(
    why: string,
    readonly valueFrom: NonNullable<JsonPatchJson['valueFrom']>,
  ) {
    super(why);
  }
}

/** Sprig functions whose result differs between evaluations: such a template cannot be written twice. */
const RANDOM =
  /\b(rand\w*|uuidv4|shuffle|genPrivateKey|genCA\w*|genSelfSignedCert\w*|genSignedCert\w*|bcrypt|htpasswd|encryptAES|now|ago)\b/;

function findOpaque(v: unknown, found: (o: Opaque, path: Segment[]) => void, path: Segment[] = []): void {
  if (v instanceof Opaque) found(v, path);
  else if (Array.isArray(v)) v.forEach((x, i) => findOpaque(x, found, [...path, i]));
  else if (isObject(v)) for (const k of Object.keys(v)) findOpaque(v[k], found, [...path, k]);
}

function containsAction(v: unknown): boolean {
  if (typeof v === 'string') return hasAction(v);
  if (Array.isArray(v)) return v.some(containsAction);
  if (isObject(v)) return Object.keys(v).some((k) => hasAction(k) || containsAction(v[k]));
  return false;
}

/** The `valueFrom` that produces an opaque value again. */
function origin(o: Opaque, written: Set<PatchValue>): NonNullable<JsonPatchJson['valueFrom']> {
  if (!(o instanceof PatchValue)) throw new NotMechanical(`the result would need a value that ${o.why}`);
  if (written.has(o) && o.valueFrom.template !== undefined && RANDOM.test(o.valueFrom.template)) {
    throw new NotMechanical(`the result would evaluate a template with a random function a second time (${o.why})`);
  }
  written.add(o);
  return o.valueFrom;
}

/**
 * JSON-patch entries writing `value` at `path`: a literal, a template (actions from a converted
 * template), or, around values from variables and templates, the value without them followed by
 * one `add` per such value.
 */
function writeValue(
  op: 'add' | 'replace',
  path: Segment[],
  value: unknown,
  render: ((v: Json) => string) | undefined,
  written: Set<PatchValue>,
): JsonPatchJson[] {
  const found: { o: Opaque; at: Segment[] }[] = [];
  findOpaque(value, (o, at) => found.push({ o, at }));
  const [only] = found;
  if (only && found.length === 1 && only.at.length === 0)
    return [{ op, path: pointer(path), valueFrom: origin(only.o, written) }];
  const shell = clone(value);
  for (const { at } of found) {
    let parent: unknown = shell;
    for (const s of at.slice(0, -1)) parent = (parent as Record<string, unknown>)[s as string];
    if (!isObject(parent))
      throw new NotMechanical(
        'a list item would come from a variable or template: it has no place of its own to be added at',
      );
    delete parent[at[at.length - 1] as string];
  }
  const first: JsonPatchJson =
    containsAction(shell) && render
      ? { op, path: pointer(path), valueFrom: { template: render(shell as Json) } }
      : { op, path: pointer(path), value: shell as Json };
  return [
    first,
    ...found.map(({ o, at }) => ({ op: 'add', path: pointer([...path, ...at]), valueFrom: origin(o, written) })),
  ];
}

/**
 * CAPI's ClusterClass webhook (validateIndexAccess, core/webhooks/admission/patch_validation.go)
 * allows list indexes in a patch path only as `add` of index 0: the first offending list, if any.
 */
function badList(op: JsonPatchJson): Segment[] | undefined {
  const segs = pointerSegments(op.path);
  for (const [i, seg] of segs.entries()) {
    if (!/^-?\d+$/.test(seg)) continue;
    if (op.op !== 'add' || seg !== '0') return segs.slice(0, i);
  }
  return undefined;
}

const under = (path: string, list: Segment[]) => path === pointer(list) || path.startsWith(`${pointer(list)}/`);

/**
 * Operations CAPI accepts for the change `ops` makes: appends at the end become `-`; a list whose
 * items would otherwise be addressed by index is rebuilt in order (its last items set whole, the
 * others prepended with index 0).
 */
function capiValid(
  ops: JsonPatchJson[],
  before: unknown,
  after: unknown,
  render: ((v: Json) => string) | undefined,
  written: Set<PatchValue>,
): JsonPatchJson[] {
  // Appends: an `add` at the list's length.
  let doc = before;
  const appended = ops.map((o) => {
    const segs = pointerSegments(o.path);
    const list = parentIn(doc, o.path);
    const last = segs.at(-1);
    const out =
      o.op === 'add' && Array.isArray(list) && last === String(list.length) && list.length > 0
        ? { ...o, path: pointer([...segs.slice(0, -1), '-']) }
        : o;
    const r = applyOp(doc, o.op, segs, o.valueFrom ? new Opaque('a value') : o.value);
    if (r.ok) doc = r.doc;
    return out;
  });
  const lists: Segment[][] = [];
  for (const o of appended) {
    const bad = badList(o);
    if (bad && !lists.some((l) => under(pointer(bad), l))) lists.push(bad);
  }
  if (lists.length === 0) return appended;
  const out: JsonPatchJson[] = [];
  const done = new Set<string>();
  for (const o of appended) {
    const list = lists.find((l) => under(o.path, l));
    if (!list) {
      out.push(o);
      continue;
    }
    if (done.has(pointer(list))) continue;
    done.add(pointer(list));
    out.push(...rebuild(list, valueAt(after, list), render, written));
  }
  const still = out.find((o) => badList(o));
  if (still)
    throw new NotMechanical(`v1beta2 patches cannot address ${still.path} (list items only as add …/0 or …/-)`);
  return out;
}

function valueAt(doc: unknown, segs: Segment[]): unknown {
  let cur = doc;
  for (const s of segs) cur = Array.isArray(cur) ? cur[Number(s)] : isObject(cur) ? cur[s] : undefined;
  return cur;
}

/** The list at `path` set to `items`: the trailing items without opaque values at once, the rest prepended. */
function rebuild(
  path: Segment[],
  items: unknown,
  render: ((v: Json) => string) | undefined,
  written: Set<PatchValue>,
): JsonPatchJson[] {
  if (!Array.isArray(items)) return writeValue('add', path, items, render, written);
  const plain = (v: unknown) => {
    let found = false;
    findOpaque(v, () => (found = true));
    return !found;
  };
  let tail = items.length;
  while (tail > 0 && plain(items[tail - 1])) tail--;
  const head = items.slice(0, tail);
  const out: JsonPatchJson[] = [];
  if (tail < items.length || head.length === 0)
    out.push(...writeValue('add', path, items.slice(tail), render, written));
  else out.push(...writeValue('add', path, [head.pop()], render, written));
  for (const item of head.reverse()) out.push(...writeValue('add', [...path, 0], item, render, written));
  return out;
}

/** The class's JSON-patch entries for the diff operations. */
function emit(ops: DiffOp[], render: ((v: Json) => string) | undefined, written: Set<PatchValue>): JsonPatchJson[] {
  return ops.flatMap((d) =>
    d.op === 'remove' ? [{ op: 'remove', path: pointer(d.path) }] : writeValue(d.op, d.path, d.value, render, written),
  );
}

interface OpRewrite {
  /** The operations replacing the original one (the original itself when unchanged). */
  ops: JsonPatchJson[];
  /** Why an operation kept as written still needs the user's attention. */
  note?: string;
}

/** One operation replayed: its rewrite and the template before/after conversion, or why it cannot be rewritten. */
type Replayed =
  | { ok: true; rewrite: OpRewrite; state: unknown; converted: unknown }
  | { ok: false; why: string; suggestion?: string };

/** Whether one of the patterns touches the op's path or below it. */
function touched(patterns: PatternSegment[][], segs: string[]): boolean {
  return patterns.some((pattern) =>
    segs.slice(0, pattern.length).every((s, i) => {
      const p = pattern[i];
      return typeof p === 'symbol' ? /^(\d+|-)$/.test(s) : p === s;
    }),
  );
}

function rewriteOp(
  op: JsonObject,
  state: unknown,
  converted: unknown,
  conversion: Conversion,
  where: string,
): Replayed {
  const kind = asString(op.op) ?? '';
  const path = asString(op.path) ?? '';
  const segs = pointerSegments(path);
  const vf = asObject(op.valueFrom);
  const variable = asString(vf?.variable);
  const template = asString(vf?.template);
  const original: JsonPatchJson = { op: kind, path };
  if (Object.prototype.hasOwnProperty.call(op, 'value')) original.value = op.value;
  if (vf)
    original.valueFrom = {
      ...(variable !== undefined ? { variable } : {}),
      ...(template !== undefined ? { template } : {}),
    };
  const placeholder = new PatchValue(
    variable !== undefined
      ? `comes from variable "${variable}" (${where})`
      : `comes from a valueFrom.template (${where})`,
    original.valueFrom ?? {},
  );
  const attempt = (value: unknown, render?: (v: Json) => string): Replayed => {
    const after = applyOp(state, kind, segs, value);
    if (!after.ok) return { ok: false, why: `it fails on the template as written (${after.error})` };
    const next = convertState(after.doc, conversion);
    if (next.errors.length > 0) return { ok: false, why: `the converted value is invalid: ${next.errors.join('; ')}` };
    const ops: DiffOp[] = [];
    diff(converted, next.doc, [], ops);
    const written = new Set<PatchValue>();
    const emitted = capiValid(emit(ops, render, written), converted, next.doc, render, written);
    // `add` of an existing map key is a `replace`: keep the operation as written then.
    const asWritten = (o: JsonPatchJson) =>
      o.op === 'replace' && kind === 'add' && isObject(parentIn(converted, o.path)) ? { ...o, op: 'add' } : o;
    const [only, ...more] = emitted;
    const unchanged = only !== undefined && more.length === 0 && same(asWritten(only), original);
    placeholder.strict = false;
    return { ok: true, rewrite: { ops: unchanged ? [original] : emitted }, state: after.doc, converted: next.doc };
  };
  const guarded = (fn: () => Replayed): Replayed => {
    try {
      return fn();
    } catch (e) {
      if (e instanceof NotMechanical)
        return { ok: false, why: e.why, ...(e.suggestion ? { suggestion: e.suggestion } : {}) };
      if (e instanceof Unknown) return { ok: false, why: `the path goes into a value that ${e.message}` };
      throw e;
    }
  };
  if (!touched(strictPatterns(conversion.steps), segs)) {
    // No rule changes this path or anything below it: the operation stays; the state follows when it can.
    const value = vf ? placeholder : op.value;
    const next = guarded(() => attempt(value));
    placeholder.strict = false;
    const dead = touched(droppedPatterns(conversion.steps), segs)
      ? 'it sets a field v1beta2 does not have (CAPI drops it on conversion, so it never had an effect); remove it'
      : undefined;
    const rewrite: OpRewrite = { ops: [original], ...(dead ? { note: dead } : {}) };
    if (next.ok) return { ...next, rewrite };
    return { ok: true, rewrite, state: markUnknown(state, kind, segs, `is set by ${where}`), converted };
  }
  const literal = vf === undefined;
  const first = guarded(() => attempt(literal ? op.value : placeholder));
  if (first.ok || literal || template === undefined) return first;
  const skeleton = templateSkeleton(template);
  if (!skeleton.ok)
    return { ...first, why: `${first.why}, and the template cannot be converted mechanically because ${skeleton.why}` };
  return guarded(() => attempt(skeleton.value, skeleton.render));
}

/** The container holding the target of a pointer, if the path leads to one. */
function parentIn(doc: unknown, path: string): unknown {
  let cur = doc;
  for (const seg of pointerSegments(path).slice(0, -1))
    cur = Array.isArray(cur) ? cur[Number(seg)] : isObject(cur) ? cur[seg] : undefined;
  return cur;
}

/** After an operation that could not be followed, its target is not known. */
function markUnknown(state: unknown, op: string, segs: string[], why: string): unknown {
  try {
    const r = applyOp(state, op === 'remove' ? 'add' : op, segs, new Opaque(why, false));
    return r.ok ? r.doc : state;
  } catch (e) {
    if (e instanceof NotMechanical) return state;
    throw e;
  }
}

// ------------------------------------------------------------------ a class

export interface ClassRewrite {
  /** `i/j/k` → the operations replacing `spec.patches[i].definitions[j].jsonPatches[k]`. */
  ops: Map<string, JsonPatchJson[]>;
  /** `i/j` → the selector's new apiVersion. */
  selectors: Map<string, string>;
  /** Template keys that cannot convert, with the findings that say why. */
  blocked: Map<string, Finding[]>;
  notes: Finding[];
}

const opPath = (i: number, j: number, k: number) => `spec.patches[${i}].definitions[${j}].jsonPatches[${k}]`;

function describeOp(patch: JsonObject, i: number, j: number, k: number, op: JsonObject): string {
  return `patch "${asString(patch.name) ?? i}" definition ${j} operation ${k} (${asString(op.op)} ${asString(op.path)})`;
}

/** One operation (by `i/j/k`) as written, described, and rewritten for each template it selects. */
interface OpRewrites {
  op: JsonObject;
  where: string;
  path: string;
  rewrites: [Rewritten, ...Rewritten[]];
}

/**
 * Keeps each operation's rewrite when every template it selects needs the same one (with a note
 * saying how it changed), and blocks those templates when they need different ones.
 */
function settleRewrites(
  perOp: Map<string, OpRewrites>,
  out: ClassRewrite,
  block: (key: string, f: Finding) => void,
): void {
  for (const [key, { op: originalOp, where, path, rewrites }] of perOp) {
    const first = rewrites[0].ops;
    if (rewrites.some((r) => !same(r.ops, first))) {
      for (const r of rewrites) {
        block(r.slot.key, {
          severity: 'error',
          path,
          message: `${where} must be rewritten differently for each template it selects (${rewrites.map((x) => `${x.slot.label}: ${x.ops.map((o) => `${o.op} ${o.path}`).join(', ')}`).join('; ')}): split the definition per template`,
        });
      }
      continue;
    }
    if (first.length === 1 && same(first[0], originalFor(originalOp))) continue;
    out.ops.set(key, first);
    out.notes.push({
      severity: first.length === 0 ? 'warning' : 'info',
      path,
      message: `${where} ${howRewritten(originalFor(originalOp), first)}`,
    });
  }
}

/**
 * Plans the patch rewrites of one class (in v1beta2 shape) for the templates in `converting`
 * (keys); `templateOf` gives a template's v1beta1 document.
 */
export function planClassPatches(
  cls: JsonObject,
  namespace: string,
  converting: ReadonlySet<string>,
  templateOf: (key: string) => JsonObject | undefined,
): ClassRewrite {
  const out: ClassRewrite = { ops: new Map(), selectors: new Map(), blocked: new Map(), notes: [] };
  const block = (key: string, f: Finding) => out.blocked.set(key, [...(out.blocked.get(key) ?? []), f]);
  const slots = slotsOf(cls, namespace);
  const patches = (asArray(asObject(cls.spec)?.patches) ?? []).map((p) => asObject(p) ?? {});
  const definitions = (p: JsonObject) => (asArray(p.definitions) ?? []).map((d) => asObject(d) ?? {});

  // Selectors: a definition either selects only converting templates or none.
  patches.forEach((p, i) =>
    definitions(p).forEach((d, j) => {
      const selector = asObject(d.selector) ?? {};
      const picked = slots.filter((s) => selects(selector, s));
      const conv = picked.filter((s) => converting.has(s.key));
      const [first] = conv;
      if (!first) return;
      const stay = picked.find((s) => !converting.has(s.key));
      if (stay) {
        for (const s of conv) {
          block(s.key, {
            severity: 'error',
            path: `spec.patches[${i}].definitions[${j}].selector`,
            message: `patch "${asString(p.name) ?? i}" definition ${j} also selects ${stay.label} (${stay.ref.kind} ${stay.ref.name}), which stays ${stay.ref.apiVersion}: one selector cannot name both versions; split the definition per template`,
          });
        }
        return;
      }
      out.selectors.set(`${i}/${j}`, conversionOf(first).to);
    }),
  );

  // Operations: replayed per converting template, in order.
  const perOp = new Map<string, OpRewrites>();
  const notes = new Map<string, Finding>();
  for (const slot of slots.filter((s) => converting.has(s.key))) {
    const conversion = conversionOf(slot);
    const template = templateOf(slot.key);
    if (!template) continue;
    let state: unknown = clone(template);
    let converted = convertState(state, conversion).doc;
    patches.forEach((p, i) => {
      const enabledIf = asString(p.enabledIf);
      const conditional = enabledIf !== undefined && enabledIf.trim() !== '' && enabledIf.trim() !== 'true';
      definitions(p).forEach((d, j) => {
        if (!selects(asObject(d.selector) ?? {}, slot)) return;
        const before = state;
        (asArray(d.jsonPatches) ?? []).forEach((raw, k) => {
          const op = asObject(raw) ?? {};
          const where = describeOp(p, i, j, k, op);
          const step = rewriteOp(op, state, converted, conversion, where);
          if (!step.ok) {
            block(slot.key, {
              severity: 'error',
              path: opPath(i, j, k),
              message: `${where} on ${slot.label} cannot be converted: ${step.why}${step.suggestion ? `. Suggested rewrite: ${step.suggestion}` : ''}`,
            });
            state = markUnknown(
              state,
              asString(op.op) ?? 'add',
              pointerSegments(asString(op.path) ?? ''),
              `is set by ${where}, which could not be converted`,
            );
            converted = convertState(state, conversion).doc;
            return;
          }
          state = step.state;
          converted = step.converted;
          const key = `${i}/${j}/${k}`;
          if (step.rewrite.note && !notes.has(key))
            notes.set(key, {
              severity: 'warning',
              path: opPath(i, j, k),
              message: `${where} is kept, but ${step.rewrite.note}`,
            });
          const rewritten = { slot, ops: step.rewrite.ops };
          const seen = perOp.get(key);
          if (seen) seen.rewrites.push(rewritten);
          else perOp.set(key, { op, where, path: opPath(i, j, k), rewrites: [rewritten] });
        });
        if (conditional) {
          state = join(
            before,
            state,
            `may be changed by patch "${asString(p.name) ?? i}" (enabledIf ${JSON.stringify(enabledIf)})`,
          );
          converted = convertState(state, conversion).doc;
        }
      });
    });
  }

  out.notes.push(...notes.values());
  settleRewrites(perOp, out, block);
  return out;
}

/** What became of an operation, in words. */
function howRewritten(original: JsonPatchJson, ops: JsonPatchJson[]): string {
  if (ops.length === 0)
    return 'is removed: on the v1beta2 template it changes nothing (what it sets does not exist in v1beta2, or is already there)';
  const list = ops.map((o) => `${o.op} ${o.path}`).join(', ');
  if (ops.length === 1 && ops[0]?.path === original.path)
    return `keeps its path; its value is converted to the v1beta2 shape (${list})`;
  const prepends = ops.filter((o) => o.path.endsWith('/0') || o.path.includes('/0/')).length;
  const rebuilt =
    prepends > 1
      ? ' — v1beta2 patches may reach list items only as add …/0 or …/-, so the list is written whole, in the order CAPI converts it to (shorter by hand, but it moves the entry to the end: drop it from the template and append it with add …/-)'
      : '';
  return `rewritten for v1beta2: ${list}${rebuilt}`;
}

function originalFor(op: JsonObject): JsonPatchJson {
  const out: JsonPatchJson = { op: asString(op.op) ?? '', path: asString(op.path) ?? '' };
  if (Object.prototype.hasOwnProperty.call(op, 'value')) out.value = op.value;
  const vf = asObject(op.valueFrom);
  if (vf) {
    const variable = asString(vf.variable);
    const template = asString(vf.template);
    out.valueFrom = {
      ...(variable !== undefined ? { variable } : {}),
      ...(template !== undefined ? { template } : {}),
    };
  }
  return out;
}
