/**
 * The conversion engine: applies a list of declarative steps (one CAPI conversion rule each, see
 * core.ts and kubeadm.ts) to a Tree. Paths are patterns: `a.b[].c` visits `c` in every item of
 * the list `a.b`. Steps run in order, each on the result of the previous ones.
 *
 * The same step list also maps a path of the converted (v1beta2) object back to the field it
 * came from in the v1beta1 input (`inputPath`), so normalisation reports problems where the user
 * wrote them.
 */
import type { Json, JsonObject } from '../../core/model.js';
import { asString, isObject, jsonString } from '../../core/json.js';
import { durationToSeconds } from '../../core/go/duration.js';
import { NotMechanical, Opaque, Unknown, parentOf, pathText, type Path, type Segment, type Tree } from './tree.js';

export interface ConversionResult {
  severity: 'error' | 'warning' | 'info';
  /** Dotted path in the v1beta1 input. */
  path: string;
  message: string;
}

export interface ConversionContext {
  /** Namespace of the converted object (template references must stay in it). */
  namespace: string;
  /** The v1beta2 object CAPI kept in the `cluster.x-k8s.io/conversion-data` annotation, if any. */
  restored?: JsonObject;
  report(result: ConversionResult): void;
}

/** Where the rule comes from: `file function` in kubernetes-sigs/cluster-api. */
interface Cited {
  capi: string;
}

/** A reference: keep apiVersion, kind and name (or apiGroup, kind, name); drop namespace and the rest. */
interface ReferenceStep extends Cited {
  kind: 'reference';
  from: string;
  to: string;
  /** `apiVersion` becomes `apiGroup` (ContractVersionedObjectReference). */
  group?: boolean;
  /** A v1beta1 namespace other than the object's own is dropped with a warning (a ClusterClass template reference). */
  sameNamespace?: boolean;
}

export type Step = Cited &
  (
    | { kind: 'rename'; from: string; to: string }
    /** A Go duration string becomes whole seconds (ConvertToSeconds); `zeroWhenAbsent` for non-pointer durations. */
    | { kind: 'seconds'; from: string; to: string; zeroWhenAbsent?: boolean }
    /** map[string]string → [{name, value}] sorted by name (ConvertToArgs). */
    | { kind: 'args'; at: string }
    /**
     * The zero value becomes unset: a pointer that became an omitempty value (*string → string),
     * or, with `restore`, a value that became a pointer where CAPI keeps the zero only when the
     * conversion-data annotation had it (Convert_bool_To_Pointer_bool, Convert_Duration_To_Pointer_int32).
     */
    | { kind: 'omitZero'; at: string; zero: '' | 0 | false; restore?: boolean }
    /** A pointer that became a struct: an empty object is unset (omitzero). */
    | { kind: 'prune'; at: string }
    /** A field v1beta2 no longer has. */
    | { kind: 'drop'; at: string; severity: 'warning' | 'info'; message: string }
    | Omit<ReferenceStep, 'capi'>
    /** A rule that does not fit the shapes above; `paths` lists the v1beta1 → v1beta2 moves it makes. */
    | {
        kind: 'custom';
        name: string;
        apply: (tree: Tree, ctx: ConversionContext) => void;
        paths?: { from: string; to: string }[];
      }
  );

const ANY = Symbol('any item');
export type PatternSegment = string | typeof ANY;

const parsed = new Map<string, PatternSegment[]>();

/** `a.b[].c` as segments (memoised: the step lists are fixed). */
function parsePattern(pattern: string): PatternSegment[] {
  let out = parsed.get(pattern);
  if (!out) parsed.set(pattern, (out = parseNew(pattern)));
  return out;
}

function parseNew(pattern: string): PatternSegment[] {
  const out: PatternSegment[] = [];
  for (const part of pattern.split('.')) {
    // Each part of the steps' patterns is a name, then as many `[]` as it has list levels.
    const [, name = '', lists = ''] = /^([^[]*)((?:\[\])*)$/.exec(part) ?? [];
    if (name) out.push(name);
    for (let i = 0; i < lists.length / 2; i++) out.push(ANY);
  }
  return out;
}

/** Every concrete path matching `pattern` in the tree, with the list indexes it took. */
function expand(tree: Tree, pattern: PatternSegment[]): { path: Segment[]; indexes: number[] }[] {
  if (!pattern.includes(ANY)) return [{ path: pattern as Segment[], indexes: [] }];
  let found: { path: Segment[]; indexes: number[] }[] = [{ path: [], indexes: [] }];
  pattern.forEach((seg) => {
    if (seg !== ANY) {
      found = found.map((f) => ({ path: [...f.path, seg], indexes: f.indexes }));
      return;
    }
    const next: typeof found = [];
    for (const f of found) {
      const list = skipUnknown(() => tree.get(f.path));
      if (Array.isArray(list)) list.forEach((_, n) => next.push({ path: [...f.path, n], indexes: [...f.indexes, n] }));
    }
    found = next;
  });
  return found;
}

/** A pattern with its list placeholders filled in order. */
function instantiate(pattern: PatternSegment[], indexes: number[]): Segment[] {
  const taken = indexes.values();
  // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- matchPrefix took one index per placeholder
  return pattern.map((s) => (s === ANY ? taken.next().value! : s));
}

/** The paths of a two-pattern step (from/to share their list placeholders). */
function pairs(tree: Tree, from: string, to: string): { from: Segment[]; to: Segment[] }[] {
  const toPattern = parsePattern(to);
  return expand(tree, parsePattern(from)).map((f) => ({ from: f.path, to: instantiate(toPattern, f.indexes) }));
}

/** Runs `fn`; a part whose content is not known makes it a no-op (undefined). */
function skipUnknown<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch (e) {
    if (e instanceof Unknown) return undefined;
    throw e;
  }
}

/**
 * Absent, or a value the step may not read. The steps that use this (omitZero, prune, drop) only
 * make a v1beta2 object look like what CAPI stores; what they skip means the same to CAPI.
 */
function lenientGet(tree: Tree, path: Path): Json | undefined {
  try {
    return tree.get(path);
  } catch (e) {
    if (e instanceof NotMechanical || e instanceof Unknown) return undefined;
    throw e;
  }
}

function lenientExpand(tree: Tree, pattern: string): Segment[][] {
  try {
    return expand(tree, parsePattern(pattern)).map((f) => f.path);
  } catch (e) {
    if (e instanceof NotMechanical || e instanceof Unknown) return [];
    throw e;
  }
}

const SECONDS_SUGGESTION =
  'v1beta2 takes whole seconds here: set the *Seconds field with a number (or a template that computes one)';

/** A scalar the rules interpret (a duration): text from a template action cannot be. */
export function scalar(tree: Tree, path: Path): Json | undefined {
  const v = readOrExplain(tree, path, `${pathText(path)} becomes whole seconds in v1beta2`, SECONDS_SUGGESTION);
  if (typeof v === 'string' && tree.opaqueText(v))
    throw new NotMechanical(
      `${pathText(path)} becomes whole seconds in v1beta2, but its value comes from a template expression`,
      SECONDS_SUGGESTION,
    );
  return v;
}

/** The value at `path`; a value the rule cannot read fails with what the rule needed it for. */
function readOrExplain(tree: Tree, path: Path, need: string, suggestion: string): Json | undefined {
  try {
    return tree.get(path);
  } catch (e) {
    if (e instanceof NotMechanical) throw new NotMechanical(`${need}, but its value ${e.why}`, suggestion);
    throw e;
  }
}

const LIST_KEYS = ['name', 'path', 'hostPath'] as const;

/**
 * The value the conversion-data annotation holds for the field at `path` of the converted tree.
 * List items are matched the way CAPI's restore functions match them: by `name` (patches,
 * variables), `path` (files) or `hostPath` (extra volumes), else by position.
 */
export function restoredValue(tree: Tree, restored: Json | undefined, path: Path): Json | undefined {
  let cur: Json | undefined = restored;
  for (const [i, seg] of path.entries()) {
    if (typeof seg === 'number') {
      if (!Array.isArray(cur)) return undefined;
      const item = lenientGet(tree, path.slice(0, i + 1));
      const keyField = isObject(item) ? LIST_KEYS.find((k) => typeof item[k] === 'string') : undefined;
      cur = keyField ? cur.find((r) => isObject(r) && r[keyField] === (item as JsonObject)[keyField]) : cur[seg];
    } else {
      cur = isObject(cur) ? cur[seg] : undefined;
    }
  }
  return cur;
}

/** Unsets the zero value at `at`; with `restore`, unless the conversion-data annotation has it (api/core/v1beta2/conversion.go). */
export function omitZeroAt(tree: Tree, ctx: ConversionContext, at: Path, zero: '' | 0 | false, restore: boolean): void {
  if (lenientGet(tree, at) !== zero) return;
  if (restore && restoredValue(tree, ctx.restored, at) === zero) return;
  tree.remove(at);
}

const ARGS_SUGGESTION =
  'write the v1beta2 list instead: a valueFrom.template producing one "- name: <argument>\n  value: <value>" entry per argument (sorted by name, as CAPI converts maps), or one operation per argument';

/** ConvertToArgs (api/bootstrap/kubeadm/v1beta2/conversion.go): a map of strings → [{name, value}] sorted by name. */
function args(tree: Tree, ctx: ConversionContext, at: Segment[]): void {
  const map = readOrExplain(tree, at, `${pathText(at)} becomes a list of {name, value} in v1beta2`, ARGS_SUGGESTION);
  if (map === undefined) return;
  if (typeof map === 'string' && tree.opaqueText(map))
    throw new NotMechanical(`${pathText(at)} comes whole from a template expression`, ARGS_SUGGESTION);
  if (map === null || (isObject(map) && Object.keys(map).length === 0)) {
    tree.remove(at);
    return;
  }
  if (!isObject(map)) {
    ctx.report({
      severity: 'error',
      path: pathText(at),
      message: `Invalid value: ${jsonString(map)}: must be a map of strings`,
    });
    return;
  }
  const keys = Object.keys(map);
  const dynamic = keys.find((k) => tree.opaqueText(k));
  if (dynamic !== undefined) {
    throw new NotMechanical(
      `the argument name ${JSON.stringify(dynamic)} comes from a template expression, so its place in the sorted list is not known`,
      ARGS_SUGGESTION,
    );
  }
  // A value from a patch variable or template is moved as it is; anything else must be a string (map[string]string).
  const bad = keys.find((k) => typeof map[k] !== 'string' && !((map[k] as unknown) instanceof Opaque));
  if (bad !== undefined) {
    ctx.report({
      severity: 'error',
      path: pathText([...at, bad]),
      message: `Invalid value: ${jsonString(map[bad])}: must be of type string`,
    });
    return;
  }
  // ConvertToArgs sorts by name (then value; names of a map are unique).
  tree.mapToArgs(
    at,
    [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}

/** ConvertToSeconds (api/core/v1beta2/conversion.go): a Go duration → whole seconds, truncated, capped at int32. */
function seconds(tree: Tree, ctx: ConversionContext, from: Segment[], to: Segment[], zeroWhenAbsent: boolean): void {
  const v = scalar(tree, from);
  if (v === undefined || v === null) {
    // Only an object gets the field: any other item is the schema's to refuse, not a place to write.
    if (zeroWhenAbsent && isObject(tree.get(parentOf(from)))) tree.set(to, 0, from);
    return;
  }
  const secs = typeof v === 'string' ? durationToSeconds(v) : undefined;
  if (secs === undefined) {
    ctx.report({
      severity: 'error',
      path: pathText(from),
      message: `Invalid value: ${jsonString(v)}: must be a duration such as 2m30s`,
    });
    return;
  }
  tree.move(from, to);
  tree.set(to, secs);
}

function applyReference(tree: Tree, ctx: ConversionContext, step: ReferenceStep): void {
  for (const { from, to } of pairs(tree, step.from, step.to)) {
    const ref = tree.get(from);
    if (!isObject(ref)) continue;
    const ns = asString(ref.namespace);
    if (step.sameNamespace && ns && ns !== ctx.namespace) {
      // CAPI v1.14 drops it and looks the template up in the class namespace.
      ctx.report({
        severity: 'warning',
        path: pathText([...from, 'namespace']),
        message: `namespace "${ns}" is ignored: Cluster API v1.14 drops it when converting this v1beta1 reference and looks the template up in the ClusterClass namespace "${ctx.namespace}"; move the template there and remove the namespace`,
      });
    }
    tree.move(from, to);
    for (const k of Object.keys(ref)) {
      if (!['apiVersion', 'kind', 'name'].includes(k)) tree.remove([...to, k]);
    }
    const apiVersion = asString(ref.apiVersion);
    if (step.group && ref.apiVersion !== undefined) {
      // convertToContractVersionedObjectReference: the group of the apiVersion ("" for the core group).
      tree.move([...to, 'apiVersion'], [...to, 'apiGroup']);
      tree.set([...to, 'apiGroup'], apiVersion?.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '');
    }
  }
}

function applyStep(tree: Tree, ctx: ConversionContext, step: Step): void {
  switch (step.kind) {
    case 'rename':
      for (const { from, to } of pairs(tree, step.from, step.to)) {
        skipUnknown(() => {
          if (tree.get(from) === undefined) return;
          if (tree.get(to) !== undefined) {
            ctx.report({
              severity: 'error',
              path: pathText(from),
              message: `cannot convert: both ${pathText(from)} and its v1beta2 form ${pathText(to)} are set`,
            });
            return;
          }
          tree.move(from, to);
        });
      }
      return;
    case 'seconds':
      for (const { from, to } of pairs(tree, step.from, step.to))
        skipUnknown(() => seconds(tree, ctx, from, to, step.zeroWhenAbsent === true));
      return;
    case 'args':
      for (const at of expand(tree, parsePattern(step.at)).map((f) => f.path)) skipUnknown(() => args(tree, ctx, at));
      return;
    case 'omitZero':
      for (const at of lenientExpand(tree, step.at)) omitZeroAt(tree, ctx, at, step.zero, step.restore === true);
      return;
    case 'prune':
      for (const at of lenientExpand(tree, step.at)) {
        const v = lenientGet(tree, at);
        if (v === null || (isObject(v) && Object.keys(v).length === 0)) tree.remove(at);
      }
      return;
    case 'drop':
      for (const at of lenientExpand(tree, step.at)) {
        if (lenientGet(tree, at) === undefined) continue;
        tree.remove(at);
        ctx.report({ severity: step.severity, path: pathText(at), message: step.message });
      }
      return;
    case 'reference':
      skipUnknown(() => applyReference(tree, ctx, step));
      return;
    case 'custom':
      skipUnknown(() => step.apply(tree, ctx));
      return;
  }
}

/** Applies the steps in order. Throws NotMechanical when a strict step meets an opaque value. */
export function runSteps(tree: Tree, steps: readonly Step[], ctx: ConversionContext): void {
  // Most steps find nothing to do; when the tree knows its keys, a step whose key is absent is skipped.
  let present = tree.presentKeys?.();
  for (const step of steps) {
    const keys = keysOf(step);
    if (present && keys.needed !== undefined && !present.has(keys.needed)) continue;
    applyStep(tree, ctx, step);
    if (!present) continue;
    if (step.kind === 'custom') present = tree.presentKeys?.();
    else for (const k of keys.added) present.add(k);
  }
}

const stepKeys = new WeakMap<Step, { needed: string | undefined; added: string[] }>();

/** The key a step needs (to do anything) and the keys it may add, computed once per step. */
function keysOf(step: Step): { needed: string | undefined; added: string[] } {
  let keys = stepKeys.get(step);
  if (!keys) {
    const added = movesOf(step).flatMap((m) => parsePattern(m.to).filter((x): x is string => typeof x === 'string'));
    keys = { needed: neededKey(step), added: [...added, 'apiGroup', 'name', 'value'] };
    stepKeys.set(step, keys);
  }
  return keys;
}

/** The last key of a pattern. */
const lastKey = (pattern: string): string | undefined =>
  [...parsePattern(pattern)].reverse().find((s): s is string => typeof s === 'string');

/** A key a step cannot do anything without (undefined: the step always runs). */
function neededKey(step: Step): string | undefined {
  switch (step.kind) {
    case 'seconds':
      return lastKey(step.zeroWhenAbsent ? step.from.slice(0, step.from.lastIndexOf('.')) : step.from);
    case 'rename':
    case 'reference':
      return lastKey(step.from);
    case 'args':
    case 'omitZero':
    case 'prune':
    case 'drop':
      return lastKey(step.at);
    case 'custom':
      return undefined;
  }
}

/**
 * Only the steps that unset zero values and fields v1beta2 does not have, on an object already in
 * v1beta2: what CAPI's conversion would leave of it, for comparing a v1beta2 object with a
 * converted one.
 */
export function runStepsLeniently(tree: Tree, steps: readonly Step[]): void {
  const lenient = steps.filter((s) => s.kind === 'omitZero' || s.kind === 'prune' || s.kind === 'drop');
  runSteps(tree, lenient, { namespace: '', report: () => undefined });
}

/** The (v1beta1 → v1beta2) path pairs a step makes, for mapping paths back. */
function movesOf(step: Step): { from: string; to: string }[] {
  switch (step.kind) {
    case 'rename':
    case 'seconds':
    case 'reference':
      return [{ from: step.from, to: step.to }];
    case 'custom':
      return step.paths ?? [];
    default:
      return [];
  }
}

/**
 * The path patterns the shape-changing steps read or write. The other steps only unset zero
 * values and fields v1beta2 does not have, which mean the same to CAPI either way.
 */
export function strictPatterns(steps: readonly Step[]): PatternSegment[][] {
  return steps.flatMap((s) =>
    s.kind === 'args' ? [parsePattern(s.at)] : movesOf(s).flatMap((m) => [parsePattern(m.from), parsePattern(m.to)]),
  );
}

/** The path patterns of the fields v1beta2 no longer has. */
export function droppedPatterns(steps: readonly Step[]): PatternSegment[][] {
  return steps.flatMap((s) => (s.kind === 'drop' ? [parsePattern(s.at)] : []));
}

/** Splits a dotted path (`a.b[2].c`, `a['x.y']`) into segments. */
export function parsePath(text: string): Segment[] {
  const out: Segment[] = [];
  const re = /\[(\d+)\]|\['((?:[^']|'')*)'\]|\.?([^.[]+)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[1] !== undefined) out.push(Number(m[1]));
    else if (m[2] !== undefined) out.push(m[2]);
    else out.push(m[3] ?? '');
  }
  return out;
}

/** Matches `pattern` against the start of `path`; the list indexes taken, or undefined. */
function matchPrefix(pattern: PatternSegment[], path: Segment[]): number[] | undefined {
  if (path.length < pattern.length) return undefined;
  const indexes: number[] = [];
  for (const [i, p] of pattern.entries()) {
    const s = path[i];
    if (s === undefined) return undefined;
    if (p === ANY) {
      if (typeof s !== 'number') return undefined;
      indexes.push(s);
    } else if (p !== s) return undefined;
  }
  return indexes;
}

/**
 * The v1beta1 path of a field of the converted object (`spec.controlPlane.templateRef.name` →
 * `spec.controlPlane.ref.name`): the steps' moves undone, last first.
 */
export function inputPath(steps: readonly Step[], path: string): string {
  return inputField(steps, path).path;
}

/** `inputPath` as segments, whether any move was undone, and whether a `seconds` step converted the value (a Go duration in the input). */
export function inputField(
  steps: readonly Step[],
  path: string,
): { path: string; segments: Segment[]; moved: boolean; seconds: boolean } {
  let segs = parsePath(path);
  let moved = false;
  let seconds = false;
  for (const step of steps.toReversed()) {
    for (const { from, to } of movesOf(step)) {
      const indexes = matchPrefix(parsePattern(to), segs);
      if (!indexes) continue;
      const toLen = parsePattern(to).length;
      if (step.kind === 'seconds' && segs.length === toLen) seconds = true;
      segs = [...instantiate(parsePattern(from), indexes), ...segs.slice(toLen)];
      moved = true;
      break;
    }
  }
  return { path: pathText(segs), segments: segs, moved, seconds };
}
