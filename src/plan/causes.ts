/**
 * The input lines behind a plan's findings, for SARIF (issue 26): a rollout's changed fields are
 * traced, through the provenance the head's render records (src/provenance), to what set them —
 * a template field, a ClusterClass patch and the variable values it read, a Cluster field. Fields
 * whose value differs from the base's come first: they are the edit that causes the finding.
 */
import type { Json, JsonObject } from '../core/model.js';
import type { RenderConfig } from '../krm/config.js';
import type { InputItem } from '../krm/item.js';
import { asArray, asObject, canonicalJson, isObject, jsonText, valueAt } from '../core/json.js';
import { formatPath, type Seg } from '../core/path.js';
import { clusterKey, isClusterObject } from '../pipeline/classify.js';
import { runPipeline } from '../pipeline/run.js';
import type { PipelineExtras } from '../pipeline/types.js';
import { parsePath, segsHavePrefix } from '../provenance/paths.js';
import type { ProvenanceInput } from '../provenance/report.js';
import type { FieldOrigin, Source, VariableUse } from '../provenance/types.js';
import type { DeferredWorker } from '../topology/upgrade.js';
import type { Rollout } from '../webhooks/compatibility.js';
import type { PlanSide } from './plan.js';

/** A field of an input document: where a SARIF result points. */
export interface InputField {
  item: InputItem;
  /** Its path in the document as written (`spec.patches[3].definitions[1].jsonPatches[0]`); '' is the document. */
  path: string;
  /** What it is, for a reader: `patch "customImage"`, `variable kubeletLogLevel of Cluster default/c1`. */
  what: string;
  /** Its value differs from the base's (or the base has no such document): the edit behind the finding. */
  changed: boolean;
}

export interface Causes {
  /** The input fields behind a rollout of a Cluster (`namespace/name`), changed ones first; empty when none is known. */
  ofRollout(cluster: string, rollout: Rollout): InputField[];
  /** The fields behind a worker upgrade sequencing holds back: the Cluster's version, then the worker. */
  ofDeferred(cluster: string, worker: DeferredWorker): InputField[];
  /** A Cluster or ClusterClass of the head by `namespace/name` (its first line). */
  document(kind: 'Cluster' | 'ClusterClass', key: string): InputField | undefined;
}

type Reason = Rollout['reasons'][number];

/** `kind/namespace/name` of input documents, so sources find the document they name. */
function documents(side: PlanSide, ns: string): Map<string, InputItem> {
  const out = new Map<string, InputItem>();
  for (const i of side.items) if (i.ref) out.set(`${i.ref.kind}/${i.ref.namespace ?? ns}/${i.ref.name}`, i);
  return out;
}

/**
 * The segments of a diff path (core/diff.ts: `a.b[0]`, `list[name=x]`, `list (order)`, keys that
 * hold dots unquoted) in `root`, as far as `root` has them: a removed field's nearest parent.
 */
function diffSegments(root: Json, path: string): Seg[] {
  const segs: Seg[] = [];
  let cur: Json | undefined = root;
  let rest = path.replace(/ \(order\)$/, '');
  while (rest !== '') {
    if (Array.isArray(cur)) {
      const m = /^\[(?:name=([^\]]*)|(\d+))\]\.?/.exec(rest);
      const list: Json[] = cur;
      const i = !m ? -1 : m[1] !== undefined ? list.findIndex((x) => isObject(x) && x.name === m[1]) : Number(m[2]);
      if (!m || i < 0 || i >= list.length) break;
      segs.push(i);
      cur = list[i];
      rest = rest.slice(m[0].length);
      continue;
    }
    if (!isObject(cur)) break;
    // The longest key the path goes on with: label and annotation keys hold dots.
    const key = Object.keys(cur)
      .filter((k) => rest === k || rest.startsWith(`${k}.`) || rest.startsWith(`${k}[`))
      .sort((a, b) => b.length - a.length)[0];
    if (key === undefined) break;
    segs.push(key);
    cur = cur[key];
    rest = rest.slice(key.length).replace(/^\./, '');
  }
  return segs;
}

/** A path-based source's path with its last `n` segments cut (the node a whole changed subtree came from). */
function cut(path: string, n: number): string {
  const segs = parsePath(path) ?? [];
  return formatPath(segs.slice(0, Math.max(0, segs.length - n)));
}

interface Inputs {
  cluster: InputItem | undefined;
  clusterClass: InputItem | undefined;
  clusterName: string;
  template(kind: string, name: string): InputItem | undefined;
}

const field = (item: InputItem | undefined, path: string, what: string) => (item ? [{ item, path, what }] : []);

function variableFields(uses: readonly VariableUse[] | undefined, inputs: Inputs) {
  return (uses ?? []).flatMap((u) =>
    u.from
      ? field(inputs.cluster, u.from, `variable ${u.name} of Cluster ${inputs.clusterName}`)
      : u.defaultFrom
        ? field(inputs.clusterClass, u.defaultFrom, `default of variable ${u.name}`)
        : [],
  );
}

/** The input fields a recorded source names; `depth` levels of a path-based source are cut. */
function sourceFields(s: Source, depth: number, inputs: Inputs): Omit<InputField, 'changed'>[] {
  switch (s.kind) {
    case 'template': {
      const path = cut(s.path, depth);
      return field(
        inputs.template(s.template.kind, s.template.name),
        path,
        `${s.template.kind} ${s.template.name} ${path}`,
      );
    }
    case 'clusterClass': {
      const path = cut(s.path, depth);
      return field(inputs.clusterClass, path, `ClusterClass ${path}`);
    }
    case 'topology': {
      const path = cut(s.path, depth);
      return field(inputs.cluster, path, `Cluster ${inputs.clusterName} ${path}`);
    }
    case 'patch':
      return [
        ...field(
          inputs.clusterClass,
          `spec.patches[${s.patchIndex}].definitions[${s.definitionIndex}].jsonPatches[${s.jsonPatchIndex}]`,
          `patch "${s.patch}"`,
        ),
        ...variableFields(s.variables, inputs),
        ...variableFields(s.enabledIfVariables, inputs),
      ];
    case 'externalPatch':
      return field(inputs.clusterClass, `spec.patches[${s.patchIndex}]`, `external patch "${s.patch}"`);
    default:
      return [];
  }
}

/** A rendered object with the recorded origin of each of its leaves. */
interface Traced {
  object: JsonObject;
  fields: (FieldOrigin & { segs: Seg[] })[];
}

/**
 * Where the fields to blame are: a rotated template's new clone (found by name, or — when the
 * plan's render held a version back and the clone's name differs here — by the name without its
 * 5-character hash among objects of the kind the reason names), else the rolled object itself.
 */
function subjectOf(objects: readonly Traced[], rollout: Rollout, reason: Reason): Traced | undefined {
  const named = (name: string | undefined) => objects.find((o) => nameOf(o) === name);
  if (reason.cause !== 'infrastructureTemplate' && reason.cause !== 'bootstrapTemplate') return named(rollout.name);
  const stem = reason.to?.slice(0, -5);
  return (
    named(reason.to) ??
    objects.find((o) => stem && nameOf(o).slice(0, -5) === stem && reason.template.includes(` ${kindOf(o)} `))
  );
}

const nameOf = (o: Traced) => jsonText(asObject(o.object.metadata)?.name ?? '');
const kindOf = (o: Traced) => jsonText(o.object.kind ?? '');

/**
 * Renders the head's Clusters named once more, recording provenance, and answers for them where
 * their findings come from (compared with `base` to tell the edit from what it flowed through).
 */
export function planCauses(
  head: PlanSide,
  base: PlanSide,
  config: RenderConfig,
  extras: PipelineExtras,
  clusters: ReadonlySet<string>,
): Causes {
  const ns = config.defaultNamespace;
  const docs = documents(head, ns);
  const baseDocs = documents(base, ns);
  const items = head.items.filter(
    (i) => !i.ref || !isClusterObject(i.ref) || clusters.has(clusterKey(i.ref.namespace ?? ns, i.ref.name)),
  );
  const { shard: _all, ...unsharded } = config;
  const run =
    clusters.size === 0
      ? { generated: [] }
      : runPipeline(items, { ...unsharded, mode: 'preview', provenance: true, strict: false }, [], extras);
  const traced = new Map<string, { provenance: ProvenanceInput; objects: Traced[] }>();
  for (const g of run.generated) {
    if (!g.provenance) continue;
    const byRef = new Map(
      g.objects.map((o) => [`${jsonText(o.kind ?? '')}/${jsonText(asObject(o.metadata)?.name ?? '')}`, o]),
    );
    const objects = g.provenance.objects.flatMap((e) => {
      const object = byRef.get(`${e.ref.kind}/${e.ref.name}`);
      return object ? [{ object, fields: e.fields.map((f) => ({ ...f, segs: parsePath(f.path) ?? [] })) }] : [];
    });
    traced.set(g.cluster, { provenance: g.provenance, objects });
  }
  const changed = (f: Omit<InputField, 'changed'>): InputField => {
    const ref = f.item.ref;
    const before = ref && baseDocs.get(`${ref.kind}/${ref.namespace ?? ns}/${ref.name}`);
    const segs = parsePath(f.path) ?? [];
    const differs =
      !before ||
      canonicalJson(valueAt(before.value, segs) ?? null) !== canonicalJson(valueAt(f.item.value, segs) ?? null);
    return { ...f, changed: differs };
  };
  /** Distinct fields, the changed ones first (each group in the order found). */
  const ranked = (fields: readonly Omit<InputField, 'changed'>[]): InputField[] => {
    const seen = new Map<string, InputField>();
    for (const f of fields) {
      const key = `${f.item.file?.path}#${f.item.file?.index ?? 0}#${f.path}`;
      if (!seen.has(key)) seen.set(key, changed(f));
    }
    const all = [...seen.values()];
    return [...all.filter((f) => f.changed), ...all.filter((f) => !f.changed)];
  };
  const inputsOf = (cluster: string): Inputs => {
    const [cns = ns, cname = cluster] = cluster.split('/');
    const cc = traced.get(cluster)?.provenance.clusterClass;
    const classNs = cc?.namespace ?? cns;
    return {
      cluster: docs.get(`Cluster/${cns}/${cname}`),
      clusterClass: cc && docs.get(`ClusterClass/${classNs}/${cc.name}`),
      clusterName: cluster,
      template: (kind, name) => docs.get(`${kind}/${classNs}/${name}`),
    };
  };
  return {
    ofRollout(cluster, rollout) {
      const t = traced.get(cluster);
      if (!t) return [];
      const inputs = inputsOf(cluster);
      return ranked(
        rollout.reasons.flatMap((reason) => {
          const subject = subjectOf(t.objects, rollout, reason);
          if (!subject) return [];
          return (reason.fields.length > 0 ? reason.fields : ['']).flatMap((path) => {
            const segs = diffSegments(subject.object, path);
            return subject.fields
              .filter((f) => segsHavePrefix(f.segs, segs))
              .flatMap((f) => sourceFields(f.source, f.segs.length - segs.length, inputs));
          });
        }),
      );
    },
    ofDeferred(cluster, worker) {
      const { cluster: item } = inputsOf(cluster);
      if (!item) return [];
      const list = worker.kind === 'MachineDeployment' ? 'machineDeployments' : 'machinePools';
      const workers = asArray(valueAt(item.value, ['spec', 'topology', 'workers', list])) ?? [];
      const index = workers.findIndex((w) => isObject(w) && w.name === worker.topology);
      return ranked([
        { item, path: 'spec.topology.version', what: `Cluster ${cluster} spec.topology.version` },
        ...(index < 0
          ? []
          : [{ item, path: `spec.topology.workers.${list}[${index}]`, what: `${worker.kind} ${worker.topology}` }]),
      ]);
    },
    document(kind, key) {
      const [dns = ns, name = key] = key.split('/');
      const item = docs.get(`${kind}/${dns}/${name}`);
      return item && changed({ item, path: 'metadata.name', what: `${kind} ${key}` });
    },
  };
}
