/**
 * Proof of equivalence: the original and the converted inputs are rendered by the same pipeline
 * (`runPipeline`, preview mode, CAPI objects in v1beta2), the original's provider objects are
 * converted to v1beta2 with the same rules as the files (a KubeadmControlPlane rendered from a
 * v1beta1 template is converted as CAPI would store it), and every rendered object of every
 * Cluster is compared. Each difference names the object, the field, both values and where the
 * value came from (the provenance report: a template, the topology or a patch operation).
 *
 * Objects are compared as the API server would store them (plan/stored.ts `storedForm`), names included:
 * template clones are named after their content as stored (topology/render.ts), so a converted
 * template keeps its clones' names, as CAPI keeps them.
 */
import type { Json, JsonObject } from '../core/model.js';
import { asArray, asObject, asString, isObject, jsonString } from '../core/json.js';
import { pathText, type Segment } from '../api/conversion/index.js';
import { storedForm } from '../plan/stored.js';
import { DEFAULT_CONFIG, type RenderConfig } from '../krm/config.js';
import type { Result } from '../core/result.js';
import { runPipeline, type PipelineOutput } from '../pipeline/run.js';
import { PROVENANCE_KIND } from '../provenance/report.js';
import type { InputItem } from '../krm/item.js';

interface Difference {
  cluster: string;
  object: string;
  path: string;
  before?: Json;
  after?: Json;
  /** Where the converted render's value came from (or the original's, when the field is gone). */
  cause?: string;
}

type ClusterVerdict = {
  cluster: string;
  objects: number;
} & (
  | { verdict: 'equivalent' | 'different' }
  | {
      verdict: 'fails-both';
      /** The errors of each render. */
      errors: { before: string[]; after: string[] };
    }
);

export interface Proof {
  equivalent: boolean;
  clusters: ClusterVerdict[];
  differences: Difference[];
}

const PROOF_CONFIG: RenderConfig = {
  ...DEFAULT_CONFIG,
  mode: 'preview',
  outputApiVersion: 'v1beta2',
  skipExternalPatches: true,
};

interface Rendered {
  objects: Map<string, JsonObject[]>;
  provenance: Map<string, JsonObject>;
  errors: Map<string, string[]>;
}

const clusterOfResult = (r: Result): string | undefined =>
  r.tags?.cluster ??
  (r.resourceRef?.kind === 'Cluster' ? `${r.resourceRef.namespace ?? 'default'}/${r.resourceRef.name}` : undefined);

function rendered(out: PipelineOutput): Rendered {
  const objects = new Map<string, JsonObject[]>();
  const provenance = new Map<string, JsonObject>();
  for (const g of out.generated) {
    objects.set(
      g.cluster,
      g.objects.filter((o) => o.kind !== PROVENANCE_KIND),
    );
    const report = g.objects.find((o) => o.kind === PROVENANCE_KIND);
    if (report) provenance.set(g.cluster, report);
  }
  const errors = new Map<string, string[]>();
  for (const r of out.results) {
    const c = clusterOfResult(r);
    if (r.severity === 'error' && c) errors.set(c, [...(errors.get(c) ?? []), r.message]);
  }
  return { objects, provenance, errors };
}

/** Leaf-level differences between two values. */
function differences(
  a: Json | undefined,
  b: Json | undefined,
  path: Segment[],
  out: { path: Segment[]; before?: Json; after?: Json }[],
): void {
  if (jsonString(a) === jsonString(b)) return;
  if (isObject(a) && isObject(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) differences(a[k], b[k], [...path, k], out);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((x, i) => differences(x, b[i], [...path, i], out));
    return;
  }
  out.push({ path, ...(a !== undefined ? { before: a } : {}), ...(b !== undefined ? { after: b } : {}) });
}

/** The provenance report's word on a field (or the closest field above or below it). */
function causeOf(report: JsonObject | undefined, obj: JsonObject, path: string): string | undefined {
  const entry = (asArray(asObject(report?.spec)?.objects) ?? [])
    .map((o) => asObject(o) ?? {})
    .find((o) => o.kind === obj.kind && o.name === asObject(obj.metadata)?.name);
  const fields = (asArray(entry?.fields) ?? []).map((f) => asObject(f) ?? {});
  const exact = fields.find((f) => f.path === path);
  const below = fields.find(
    (f) => typeof f.path === 'string' && (f.path.startsWith(`${path}.`) || f.path.startsWith(`${path}[`)),
  );
  const above = fields
    .filter((f) => typeof f.path === 'string' && (path.startsWith(`${f.path}.`) || path.startsWith(`${f.path}[`)))
    .pop();
  return asString((exact ?? below ?? above)?.from);
}

const objectId = (o: JsonObject) => `${asString(o.kind)} ${asString(asObject(o.metadata)?.name)}`;

function compareCluster(cluster: string, before: Rendered, after: Rendered, out: Proof): void {
  const b = before.objects.get(cluster);
  const a = after.objects.get(cluster);
  if (!b || !a) {
    const rendered = a ?? b;
    if (!rendered) {
      out.clusters.push({
        cluster,
        verdict: 'fails-both',
        objects: 0,
        errors: { before: before.errors.get(cluster) ?? [], after: after.errors.get(cluster) ?? [] },
      });
      return;
    }
    const failed = (b ? after : before).errors.get(cluster) ?? [];
    out.clusters.push({ cluster, verdict: 'different', objects: rendered.length });
    out.differences.push({
      cluster,
      object: 'Cluster',
      path: '',
      cause: `${b ? 'the converted' : 'the original'} inputs do not render it: ${failed.join('; ') || 'no objects'}`,
    });
    return;
  }
  // Objects pair by kind, in render order.
  const byKind = (list: JsonObject[]) => {
    const m = new Map<string, JsonObject[]>();
    for (const o of list) m.set(asString(o.kind) ?? '', [...(m.get(asString(o.kind) ?? '') ?? []), o]);
    return m;
  };
  const bk = byKind(b.map(storedForm));
  const ak = byKind(a.map(storedForm));
  const found: Difference[] = [];
  for (const kind of new Set([...bk.keys(), ...ak.keys()])) {
    const bl = bk.get(kind) ?? [];
    const al = ak.get(kind) ?? [];
    for (let i = 0; i < Math.max(bl.length, al.length); i++) {
      const bo = bl[i];
      const ao = al[i];
      const object = ao ?? bo;
      if (!object) continue;
      const leaves: { path: Segment[]; before?: Json; after?: Json }[] = [];
      differences(bo, ao, [], leaves);
      for (const l of leaves) {
        const path = pathText(l.path);
        const cause =
          (ao && causeOf(after.provenance.get(cluster), ao, path)) ??
          (bo && causeOf(before.provenance.get(cluster), bo, path));
        found.push({
          cluster,
          object: objectId(object),
          path,
          ...(l.before !== undefined ? { before: l.before } : {}),
          ...(l.after !== undefined ? { after: l.after } : {}),
          ...(cause ? { cause } : {}),
        });
      }
    }
  }
  out.clusters.push({
    cluster,
    verdict: found.length === 0 ? 'equivalent' : 'different',
    objects: a.length,
  });
  out.differences.push(...found);
}

const clusterItemKey = (i: InputItem, ns: string) =>
  i.ref?.kind === 'Cluster' ? `${i.ref.namespace ?? ns}/${i.ref.name}` : undefined;

/** Both input sets rendered and every Cluster's objects compared. */
function compare(before: readonly InputItem[], after: readonly InputItem[], cfg: RenderConfig): Proof {
  const b = rendered(runPipeline(before, cfg));
  const a = rendered(runPipeline(after, cfg));
  const out: Proof = { equivalent: true, clusters: [], differences: [] };
  const clusters = [
    ...new Set([...b.objects.keys(), ...a.objects.keys(), ...b.errors.keys(), ...a.errors.keys()]),
  ].sort();
  for (const c of clusters) compareCluster(c, b, a, out);
  out.equivalent = out.clusters.every((c) => c.verdict !== 'different');
  return out;
}

/**
 * Renders both input sets and compares every Cluster's objects. The Clusters that differ are
 * rendered again with provenance, to say where each differing value came from.
 */
export function proveEquivalent(
  before: readonly InputItem[],
  after: readonly InputItem[],
  config: Partial<RenderConfig> = {},
): Proof {
  const cfg = { ...PROOF_CONFIG, ...config };
  const proof = compare(before, after, cfg);
  const differing = new Set(proof.differences.map((d) => d.cluster));
  if (differing.size === 0) return proof;
  const only = (items: readonly InputItem[]) =>
    items.filter((i) => {
      const key = clusterItemKey(i, cfg.defaultNamespace);
      return key === undefined || differing.has(key);
    });
  return { ...proof, differences: compare(only(before), only(after), { ...cfg, provenance: true }).differences };
}

/** The proof as results: one per Cluster, one per difference. */
export function proofResults(proof: Proof): Result[] {
  const ref = (cluster: string) => {
    const [namespace, name] = cluster.split('/') as [string, string];
    return { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', namespace, name };
  };
  const show = (v: Json | undefined) => (v === undefined ? '(absent)' : jsonString(v));
  const out: Result[] = [];
  for (const c of proof.clusters) {
    const tags = { rule: 'convert-proof', cluster: c.cluster, verdict: c.verdict };
    if (c.verdict === 'equivalent') {
      out.push({
        severity: 'info',
        message: `equivalent (${c.objects} rendered objects compared)`,
        resourceRef: ref(c.cluster),
        tags,
      });
    } else if (c.verdict === 'fails-both') {
      const { before, after } = c.errors;
      const same = jsonString(before) === jsonString(after);
      out.push({
        severity: 'info',
        message: `equivalent (renders nothing before and after: ${same ? before.join('; ') : `before: ${before.join('; ')}; after: ${after.join('; ')}`})`,
        resourceRef: ref(c.cluster),
        tags,
      });
    }
  }
  for (const d of proof.differences) {
    out.push({
      severity: 'error',
      message: `${d.object}${d.path ? ` ${d.path}` : ''} differs: before ${show(d.before)}, after ${show(d.after)}${d.cause ? ` (${d.cause})` : ''}`,
      resourceRef: ref(d.cluster),
      tags: { rule: 'convert-proof', cluster: d.cluster, verdict: 'different' },
    });
  }
  return out;
}
