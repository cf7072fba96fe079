/**
 * What `convert` does to a set of input objects, decided on all of them at once (a class and its
 * templates may sit in different files): which objects convert, which kubeadm templates must stay
 * v1beta1 because a patch on them cannot be rewritten, and the edits each ClusterClass needs
 * (template reference and selector apiVersions, rewritten patch operations). `applyPlan` then
 * carries one object's plan out on a Tree — a YAML document's text or plain JSON.
 */
import type { Json, JsonObject } from '../core/model.js';
import { asArray, asObject, asString, jsonString } from '../core/json.js';
import {
  conversionFor,
  convertObject,
  convertTree,
  type Conversion,
  type ConversionResult,
  type Segment,
  type Tree,
} from '../api/conversion/index.js';
import {
  conversionOf,
  planClassPatches,
  slotsOf,
  templateKey,
  type ClassRewrite,
  type Finding,
  type JsonPatchJson,
} from './patches.js';
import { OBSERVED_ANNOTATION, OWNER_ANNOTATION, PREVIOUS_ANNOTATION } from '../core/labels.js';

/** The kinds `convert` rewrites in the user's files. */
const CONVERTED_KINDS = new Set(['ClusterClass', 'Cluster', 'KubeadmConfigTemplate', 'KubeadmControlPlaneTemplate']);
const KUBEADM_TEMPLATES = new Set(['KubeadmConfigTemplate', 'KubeadmControlPlaneTemplate']);

export interface ObjectPlan {
  conversion?: Conversion;
  /** ClusterClass edits on top of the conversion. */
  classEdits?: { refs: { path: Segment[]; apiVersion: string }[]; rewrite: ClassRewrite };
}

interface PlanFinding extends Finding {
  /** Index of the object the finding is about. */
  object: number;
}

/** The plan of the objects given, by index; each finding with the object it is about. */
export interface ConversionPlan<T> {
  objects: Map<number, ObjectPlan>;
  findings: (Finding & { object: T })[];
}

const annotations = (v: JsonObject) => asObject(asObject(v.metadata)?.annotations) ?? {};

/** Objects a run generated or that record other states are not the user's sources: left alone. */
function isSource(v: JsonObject): boolean {
  const a = annotations(v);
  return (
    a[OWNER_ANNOTATION] === undefined && a[PREVIOUS_ANNOTATION] === undefined && a[OBSERVED_ANNOTATION] === undefined
  );
}

const namespaceOf = (v: JsonObject, defaultNamespace: string) =>
  asString(asObject(v.metadata)?.namespace) ?? defaultNamespace;

/** `builtin.cluster.topology.class` and `.classNamespace`: deprecated aliases of the classRef fields. */
const DEPRECATED_BUILTINS: [RegExp, string, string][] = [
  [
    /builtin\.cluster\.topology\.class(?![A-Za-z0-9_])/,
    'builtin.cluster.topology.class',
    'builtin.cluster.topology.classRef.name',
  ],
  [
    /builtin\.cluster\.topology\.classNamespace(?![A-Za-z0-9_])/,
    'builtin.cluster.topology.classNamespace',
    'builtin.cluster.topology.classRef.namespace',
  ],
];

/** Patches reading the builtins v1beta2 renamed (enabledIf, valueFrom.variable, valueFrom.template). */
function builtinFindings(cls: JsonObject): Finding[] {
  const out: Finding[] = [];
  (asArray(asObject(cls.spec)?.patches) ?? []).forEach((p, i) => {
    const patch = asObject(p) ?? {};
    const check = (text: string | undefined, path: string) => {
      for (const [re, old, now] of DEPRECATED_BUILTINS) {
        if (text !== undefined && re.test(text)) {
          out.push({
            severity: 'warning',
            path,
            message: `reads ${old}, the v1beta1 spelling kept as a deprecated alias; use ${now}`,
          });
        }
      }
    };
    check(asString(patch.enabledIf), `spec.patches[${i}].enabledIf`);
    (asArray(patch.definitions) ?? []).forEach((d, j) =>
      (asArray(asObject(d)?.jsonPatches) ?? []).forEach((op, k) => {
        const vf = asObject(asObject(op)?.valueFrom);
        const base = `spec.patches[${i}].definitions[${j}].jsonPatches[${k}].valueFrom`;
        check(asString(vf?.variable), `${base}.variable`);
        check(asString(vf?.template), `${base}.template`);
      }),
    );
  });
  return out;
}

/** Decides the conversion of `planned` (every input object, in order). */
export function planConversion<T extends { value: JsonObject }>(
  planned: readonly T[],
  defaultNamespace = 'default',
): ConversionPlan<T> {
  const findings: PlanFinding[] = [];
  const objects = new Map<number, ObjectPlan>();
  const templates = new Map<string, { index: number; value: JsonObject }>();
  const classes: { index: number; value: JsonObject; v2: JsonObject }[] = [];
  planned.forEach(({ value }, index) => {
    const kind = asString(value.kind);
    if (!kind || !CONVERTED_KINDS.has(kind) || !isSource(value)) return;
    const apiVersion = asString(value.apiVersion);
    const conversion = conversionFor(apiVersion, kind);
    if (conversion) objects.set(index, { conversion });
    const name = asString(asObject(value.metadata)?.name);
    if (conversion && apiVersion && KUBEADM_TEMPLATES.has(kind) && name) {
      templates.set(templateKey(apiVersion, kind, namespaceOf(value, defaultNamespace), name), { index, value });
    }
    if (kind === 'ClusterClass' && (conversion || apiVersion === 'cluster.x-k8s.io/v1beta2')) {
      // convertObject converts what has a conversion.
      classes.push({ index, value, v2: convertObject(value)?.value ?? value });
    }
  });

  // Templates a patch cannot be rewritten for stay v1beta1, for every class that uses them;
  // that can stop other definitions from converting, so repeat until nothing changes.
  const converting = new Set(templates.keys());
  const blockedBy = new Map<string, PlanFinding[]>();
  let rewrites: { c: (typeof classes)[number]; rw: ClassRewrite }[] = [];
  for (let changed = true; changed;) {
    changed = false;
    rewrites = classes.map((c) => {
      const rw = planClassPatches(
        c.v2,
        namespaceOf(c.value, defaultNamespace),
        converting,
        (key) => templates.get(key)?.value,
      );
      for (const [key, fs] of rw.blocked) {
        if (converting.delete(key)) changed = true;
        blockedBy.set(key, [...(blockedBy.get(key) ?? []), ...fs.map((f) => ({ ...f, object: c.index }))]);
      }
      return { c, rw };
    });
  }

  for (const { c, rw } of rewrites) {
    const ns = namespaceOf(c.value, defaultNamespace);
    const refs = slotsOf(c.v2, ns)
      .filter((s) => converting.has(s.key))
      .map((s) => ({ path: [...s.refPath, 'apiVersion'], apiVersion: conversionOf(s).to }));
    if (refs.length > 0 || rw.ops.size > 0 || rw.selectors.size > 0)
      objects.set(c.index, { ...objects.get(c.index), classEdits: { refs, rewrite: rw } });
    findings.push(
      ...rw.notes.map((f) => ({ ...f, object: c.index })),
      ...builtinFindings(c.v2).map((f) => ({ ...f, object: c.index })),
    );
    if (
      rw.ops.size > 0 &&
      (asArray(asObject(c.v2.spec)?.patches) ?? []).some((p) => asObject(asObject(p)?.external) !== undefined)
    ) {
      findings.push({
        object: c.index,
        severity: 'warning',
        path: 'spec.patches',
        message:
          'the class also has external patches: their extensions will receive the converted templates in v1beta2; check that they handle them',
      });
    }
  }
  for (const [key, fs] of blockedBy) {
    // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- only templates that convert are blocked
    const t = templates.get(key)!;
    objects.delete(t.index);
    const seen = new Set<string>();
    for (const f of fs) {
      const id = `${f.object}\0${f.path}\0${f.message}`;
      if (!seen.has(id)) findings.push(f);
      seen.add(id);
    }
    findings.push({
      object: t.index,
      severity: 'error',
      path: 'apiVersion',
      message: `stays ${asString(t.value.apiVersion)}: ${fs.length === 1 ? 'a patch' : 'patches'} on it cannot be rewritten for v1beta2 (see the ClusterClass results); the classes keep referring to it as ${asString(t.value.apiVersion)}`,
    });
  }
  // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- findings name objects by their index in `planned`
  return { objects, findings: findings.map((f) => ({ ...f, object: planned[f.object]! })) };
}

/** Rewrites one patch operation in place (only the fields that change). */
function rewriteOp(tree: Tree, at: Segment[], old: JsonObject, next: JsonPatchJson): void {
  if (old.op !== next.op) tree.set([...at, 'op'], next.op);
  if (old.path !== next.path) tree.set([...at, 'path'], next.path);
  if (next.valueFrom) {
    if (Object.prototype.hasOwnProperty.call(old, 'value')) tree.remove([...at, 'value']);
    const vf = asObject(old.valueFrom);
    for (const k of ['variable', 'template'] as const) {
      const v = next.valueFrom[k];
      if (v === undefined) tree.remove([...at, 'valueFrom', k]);
      else if (vf?.[k] !== v) tree.set([...at, 'valueFrom', k], v);
    }
  } else {
    if (old.valueFrom !== undefined) tree.remove([...at, 'valueFrom']);
    if (next.value === undefined) tree.remove([...at, 'value']);
    else if (jsonString(old.value) !== jsonString(next.value)) tree.set([...at, 'value'], next.value);
  }
}

function applyClassEdits(tree: Tree, edits: NonNullable<ObjectPlan['classEdits']>): void {
  for (const r of edits.refs) tree.set(r.path, r.apiVersion);
  for (const [key, apiVersion] of edits.rewrite.selectors) {
    const [i, j] = key.split('/').map(Number) as [number, number];
    tree.set(['spec', 'patches', i, 'definitions', j, 'selector', 'apiVersion'], apiVersion);
  }
  // Last operations first, so inserted and removed ones leave the indexes of the others alone.
  const rewrites = [...edits.rewrite.ops].map(([key, ops]) => ({
    at: key.split('/').map(Number) as [number, number, number],
    ops,
  }));
  rewrites.sort(({ at: a }, { at: b }) => b[0] - a[0] || b[1] - a[1] || b[2] - a[2]);
  for (const {
    at: [i, j, k],
    ops: [first, ...more],
  } of rewrites) {
    const list = ['spec', 'patches', i, 'definitions', j, 'jsonPatches'];
    const old = asObject(tree.get([...list, k])) ?? {};
    if (!first) {
      tree.remove([...list, k]);
      continue;
    }
    rewriteOp(tree, [...list, k], old, first);
    more.forEach((o, m) => tree.insert(list, k + 1 + m, o as unknown as Json));
  }
}

/** Carries out one object's plan on its Tree (whose current JSON is `value`). */
export function applyPlan(
  tree: Tree,
  value: JsonObject,
  plan: ObjectPlan,
  report: (r: ConversionResult) => void,
): void {
  if (plan.conversion) convertTree(tree, value, plan.conversion, report);
  if (plan.conversion && value.status !== undefined && value.kind !== 'ClusterClass') {
    // Controllers write status, in their own version; a source has none worth converting (a
    // ClusterClass's is converted: an exported class's status.variables define variables).
    tree.remove(['status']);
    report({
      severity: 'warning',
      path: 'status',
      message: 'status is written by the controllers and is not converted: removed',
    });
  }
  if (plan.classEdits) applyClassEdits(tree, plan.classEdits);
}
