/**
 * The conversion engine: applies a list of declarative steps (one CAPI conversion rule each, see
 * core.ts and kubeadm.ts) to a Tree. Paths are patterns: `a.b[].c` visits `c` in every item of
 * the list `a.b`. Steps run in order, each on the result of the previous ones.
 *
 * The same step list also maps a path of the converted (v1beta2) object back to the field it
 * came from in the v1beta1 input (`inputPath`), so normalisation reports problems where the user
 * wrote them.
 */
import type { Json, JsonObject } from '../model.js';
import { asString, isObject } from '../json.js';
import { durationToSeconds } from '../duration.js';
import { NotMechanical, Opaque, parentOf, pathText, type Path, type Segment, type Tree } from './tree.js';

export const CONVERSION_DATA_ANNOTATION = 'cluster.x-k8s.io/conversion-data';

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
export interface ReferenceStep extends Cited {
  kind: 'reference';
  from: string;
  to: string;
  /** `apiVersion` becomes `apiGroup` (ContractVersionedObjectReference). */
  group?: boolean;
  /** The v1beta1 namespace must be the object's own (a ClusterClass template reference). */
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
    | { kind: 'custom'; name: string; apply: (tree: Tree, ctx: ConversionContext) => void; paths?: { from: string; to: string }[] }
  );

const ANY = Symbol('any item');
type PatternSegment = string | typeof ANY;

export function parsePattern(pattern: string): PatternSegment[] {
  const out: PatternSegment[] = [];
  for (const part of pattern.split('.')) {
    const m = /^([^[]*)((?:\[\])*)$/.exec(part)!;
    if (m[1]) out.push(m[1]);
    for (let i = 0; i < m[2]!.length / 2; i++) out.push(ANY);
  }
  return out;
}

/** Every concrete path matching `pattern` in the tree, with the list indexes it took. */
function expand(tree: Tree, pattern: PatternSegment[]): { path: Segment[]; indexes: number[] }[] {
  let found: { path: Segment[]; indexes: number[] }[] = [{ path: [], indexes: [] }];
  pattern.forEach((seg) => {
    if (seg !== ANY) {
      found = found.map((f) => ({ path: [...f.path, seg], indexes: f.indexes }));
      return;
    }
    const next: typeof found = [];
    for (const f of found) {
      const list = tree.get(f.path);
      if (Array.isArray(list)) list.forEach((_, n) => next.push({ path: [...f.path, n], indexes: [...f.indexes, n] }));
    }
    found = next;
  });
  return found;
}

/** A pattern with its list placeholders filled in order. */
function instantiate(pattern: PatternSegment[], indexes: number[]): Segment[] {
  let n = 0;
  return pattern.map((s) => (s === ANY ? indexes[n++]! : s));
}

/** The paths of a two-pattern step (from/to share their list placeholders). */
function pairs(tree: Tree, from: string, to: string): { from: Segment[]; to: Segment[] }[] {
  const toPattern = parsePattern(to);
  return expand(tree, parsePattern(from)).map((f) => ({ from: f.path, to: instantiate(toPattern, f.indexes) }));
}

/** Absent, or a value the step may not read (lenient steps skip those: their effect is cosmetic). */
function lenientGet(tree: Tree, path: Path): Json | undefined {
  try {
    return tree.get(path);
  } catch (e) {
    if (e instanceof NotMechanical) return undefined;
    throw e;
  }
}

function lenientExpand(tree: Tree, pattern: string): Segment[][] {
  try {
    return expand(tree, parsePattern(pattern)).map((f) => f.path);
  } catch (e) {
    if (e instanceof NotMechanical) return [];
    throw e;
  }
}

/** A scalar the rules interpret (a duration): text from a template action cannot be. */
function scalar(tree: Tree, path: Path): Json | undefined {
  const v = tree.get(path);
  if (typeof v === 'string' && tree.opaqueText(v)) throw new NotMechanical(`${pathText(path)} comes from a template expression and needs converting`);
  return v;
}

const LIST_KEYS = ['name', 'path', 'hostPath'] as const;

/**
 * The value the conversion-data annotation holds for the field at `path` of the converted tree.
 * List items are matched the way CAPI's restore functions match them: by `name` (patches,
 * variables), `path` (files) or `hostPath` (extra volumes), else by position.
 */
export function restoredValue(tree: Tree, restored: Json | undefined, path: Path): Json | undefined {
  let cur: Json | undefined = restored;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i]!;
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

function applyReference(tree: Tree, ctx: ConversionContext, step: ReferenceStep): void {
  for (const { from, to } of pairs(tree, step.from, step.to)) {
    const ref = tree.get(from);
    if (!isObject(ref)) continue;
    const ns = asString(ref.namespace);
    if (step.sameNamespace && ns && ns !== ctx.namespace) {
      ctx.report({
        severity: 'error',
        path: pathText([...from, 'namespace']),
        message: `Invalid value: "${ns}": template must be in the ClusterClass namespace "${ctx.namespace}"`,
      });
      continue;
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
        if (tree.get(from) === undefined) continue;
        if (tree.get(to) !== undefined) {
          ctx.report({ severity: 'error', path: pathText(from), message: `cannot convert: both ${pathText(from)} and its v1beta2 form ${pathText(to)} are set` });
          continue;
        }
        tree.move(from, to);
      }
      return;
    case 'seconds':
      for (const { from, to } of pairs(tree, step.from, step.to)) {
        const v = scalar(tree, from);
        if (v === undefined || v === null) {
          if (step.zeroWhenAbsent && tree.get(parentOf(from)) !== undefined) tree.set(to, 0, from);
          continue;
        }
        const secs = typeof v === 'string' ? durationToSeconds(v) : undefined;
        if (secs === undefined) {
          ctx.report({ severity: 'error', path: pathText(from), message: `Invalid value: ${JSON.stringify(v)}: must be a duration such as 2m30s` });
          continue;
        }
        tree.move(from, to);
        tree.set(to, secs);
      }
      return;
    case 'args':
      for (const at of expand(tree, parsePattern(step.at)).map((f) => f.path)) {
        const map = tree.get(at);
        if (map === undefined) continue;
        if (map === null || (isObject(map) && Object.keys(map).length === 0)) {
          tree.remove(at);
          continue;
        }
        if (!isObject(map)) {
          ctx.report({ severity: 'error', path: pathText(at), message: `Invalid value: ${JSON.stringify(map)}: must be a map of strings` });
          continue;
        }
        const keys = Object.keys(map);
        const dynamic = keys.find((k) => tree.opaqueText(k));
        if (dynamic !== undefined) throw new NotMechanical(`the argument name ${JSON.stringify(dynamic)} comes from a template expression, so its place in the sorted list is not known`);
        // A value from a patch variable or template is moved as it is; anything else must be a string (map[string]string).
        const bad = keys.find((k) => typeof map[k] !== 'string' && !((map[k] as unknown) instanceof Opaque));
        if (bad !== undefined) {
          ctx.report({ severity: 'error', path: pathText([...at, bad]), message: `Invalid value: ${JSON.stringify(map[bad])}: must be of type string` });
          continue;
        }
        // ConvertToArgs sorts by name (then value; names of a map are unique).
        tree.mapToArgs(at, [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      }
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
      applyReference(tree, ctx, step);
      return;
    case 'custom':
      step.apply(tree, ctx);
      return;
  }
}

/** Applies the steps in order. Throws NotMechanical when a strict step meets an opaque value. */
export function runSteps(tree: Tree, steps: readonly Step[], ctx: ConversionContext): void {
  for (const step of steps) applyStep(tree, ctx, step);
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

/** Splits a dotted path (`a.b[2].c`, `a['x.y']`) into segments. */
export function parsePath(text: string): Segment[] {
  const out: Segment[] = [];
  const re = /\[(\d+)\]|\['((?:[^']|'')*)'\]|\.?([^.[]+)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[1] !== undefined) out.push(Number(m[1]));
    else if (m[2] !== undefined) out.push(m[2]);
    else out.push(m[3]!);
  }
  return out;
}

/** Matches `pattern` against the start of `path`; the list indexes taken, or undefined. */
function matchPrefix(pattern: PatternSegment[], path: Segment[]): number[] | undefined {
  if (path.length < pattern.length) return undefined;
  const indexes: number[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    const s = path[i]!;
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
  let segs = parsePath(path);
  for (let i = steps.length - 1; i >= 0; i--) {
    for (const { from, to } of movesOf(steps[i]!)) {
      const indexes = matchPrefix(parsePattern(to), segs);
      if (!indexes) continue;
      const toLen = parsePattern(to).length;
      segs = [...instantiate(parsePattern(from), indexes), ...segs.slice(toLen)];
      break;
    }
  }
  return pathText(segs);
}

