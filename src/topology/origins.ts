/**
 * How the topology stages describe the origins they record (see src/provenance/recorder.ts):
 * Cluster and ClusterClass fields, values the controller sets or computes, and label/annotation
 * maps merged from several layers.
 */
import type { Cluster, Json, JsonObject } from '../core/model.js';
import { asObject, jsonText } from '../core/json.js';
import type { Recorder } from '../provenance/recorder.js';
import { SECONDS_AS_DURATION, type Source } from '../provenance/sources.js';
import type { Path } from '../core/path.js';
import { joinPath } from '../core/path.js';
import {
  CLONED_FROM_GROUPKIND,
  CLONED_FROM_NAME,
  CLUSTER_NAME_LABEL,
  CONTROL_PLANE_LABEL,
  DEPLOYMENT_NAME_LABEL,
  POOL_NAME_LABEL,
  TOPOLOGY_OWNED_LABEL,
} from '../core/labels.js';
import { CoreVersion } from './types.js';

/**
 * A field of the Cluster, by its path in the internal (v1beta2) model; `note` says how the value
 * was converted on the way. Explain names it as the input wrote it (src/provenance/objects.ts).
 */
export const fromCluster = (path: string, note?: string): Source =>
  note ? { kind: 'topology', path, note } : { kind: 'topology', path };
/** A field of the ClusterClass, by its path in the internal model (see fromCluster). */
export const fromClass = (path: string, note?: string): Source =>
  note ? { kind: 'clusterClass', path, note } : { kind: 'clusterClass', path };
/** The note of a field given in seconds and rendered as a duration (`duration`), else none. */
export const durationNote = (duration: boolean): string | undefined => (duration ? SECONDS_AS_DURATION : undefined);
/** A value the topology controller always sets. */
export const fixed = (detail: string): Source => ({ kind: 'fixed', detail });
/** A value the topology controller computes. */
export const builtin = (detail: string): Source => ({ kind: 'builtin', detail });

export const CLUSTER_NAMESPACE = 'namespace of the Cluster';
export const CLUSTER_NAME = 'name of the Cluster';
export const OWNER_REFERENCE = 'owner reference to the Cluster (emitted only when the Cluster has metadata.uid)';

const FIXED_LABEL_DETAIL: Record<string, string> = {
  [CLUSTER_NAME_LABEL]: 'label with the Cluster name, set on every generated object',
  [TOPOLOGY_OWNED_LABEL]: 'label marking objects owned by the topology controller',
  [DEPLOYMENT_NAME_LABEL]: 'label with the MachineDeployment topology name',
  [POOL_NAME_LABEL]: 'label with the MachinePool topology name',
  [CONTROL_PLANE_LABEL]: 'control plane selector label',
};
const fixedLabel = (key: string): Source => fixed(FIXED_LABEL_DETAIL[key] ?? 'label set by the topology controller');

/** Where an object's Kubernetes version came from: the topology, or upgrade sequencing holding it back (CAPI exp/topology/desiredstate/upgrade_plan.go `ComputeUpgradePlan`). */
export function versionSource(cluster: Cluster, version: string, reason: string | undefined): Source {
  if (version === cluster.topology.version) return fromCluster('spec.topology.version');
  return builtin(
    `Kubernetes version ${version} chosen by upgrade sequencing on the way to spec.topology.version ${cluster.topology.version}${reason ? `: ${reason}` : ''}`,
  );
}

/** The topology's value when it sets one, else the class's: the Cluster or ClusterClass field it came from. */
export const eitherSource = (fromTopology: boolean, topologyPath: string, classPath: string, note?: string): Source =>
  fromTopology ? fromCluster(topologyPath, note) : fromClass(classPath, note);

/** apiVersion, kind, name, namespace and clusterName of an object of a CAPI core kind. */
export function recordCoreHeader(
  rec: Recorder,
  obj: JsonObject,
  version: CoreVersion,
  kind: string,
  nameDetail: string,
): void {
  rec.set(obj, ['apiVersion'], fixed(`CAPI core API version (${version})`));
  rec.set(obj, ['kind'], fixed(kind));
  rec.set(obj, ['metadata', 'name'], builtin(nameDetail));
  rec.set(obj, ['metadata', 'namespace'], fixed(CLUSTER_NAMESPACE));
  rec.set(obj, ['spec', 'clusterName'], fixed(CLUSTER_NAME));
}

/** The name a naming template (or the default one) gave an object. */
export function namingDetail(what: string, template: string | undefined, path: string, fallback: string): string {
  return template !== undefined
    ? `name of the ${what}, from the naming template ${JSON.stringify(template)} (ClusterClass ${path}; {{ .random }} is a stable hash)`
    : `name of the ${what}, from the default naming template ${JSON.stringify(fallback)} ({{ .random }} is a stable hash)`;
}

/** The name of a template clone that rotates with its content. */
export const cloneNameDetail = (what: string, prefix: string): string =>
  `name of the ${what}: "${prefix}" + a hash of its patched content (changes, i.e. rotates, when the template content changes)`;

/** A reference to a generated object, described by what it points at. */
export const referenceTo = (what: string, ref: Json | undefined): Source =>
  builtin(`reference to the generated ${what} "${jsonText(asObject(ref)?.name ?? '')}"`);

/**
 * One layer of a merged label/annotation map: the keys it brings and how to record one of them.
 * Layers are recorded in precedence order (a later layer wins), as the maps were merged.
 */
export interface Layer {
  keys: Record<string, string> | readonly string[] | undefined;
  record(obj: JsonObject, key: string, path: Path): void;
}

/** A layer read from the Cluster or ClusterClass map at `mapPath` (or another fixed source per key). */
export const sourceLayer = (rec: Recorder, keys: Layer['keys'], source: (key: string) => Source): Layer => ({
  keys,
  record: (obj, key, path) => rec.set(obj, path, source(key)),
});
export const clusterMapLayer = (rec: Recorder, keys: Record<string, string> | undefined, mapPath: string): Layer =>
  sourceLayer(rec, keys, (k) => fromCluster(joinPath(mapPath, [k])));
export const classMapLayer = (rec: Recorder, keys: Record<string, string> | undefined, mapPath: string): Layer =>
  sourceLayer(rec, keys, (k) => fromClass(joinPath(mapPath, [k])));
export const fixedLabels = (rec: Recorder, keys: readonly string[]): Layer => sourceLayer(rec, keys, fixedLabel);

/** A layer copied from a ClusterClass template's map at `mapPath`. */
export const templateLayer = (rec: Recorder, template: JsonObject, mapPath: Path): Layer => ({
  keys: asObject(mapPath.reduce<Json | undefined>((v, k) => asObject(v)?.[k as string], template)) as
    Record<string, string> | undefined,
  record: (obj, key, path) => rec.fromTemplate(template, [...mapPath, key], obj, path),
});

/** The annotations saying which template an object was cloned from. */
export const clonedFromLayer = (rec: Recorder, template: JsonObject): Layer => {
  const kind = jsonText(template.kind ?? '');
  const name = jsonText(asObject(template.metadata)?.name ?? '');
  return sourceLayer(rec, [CLONED_FROM_NAME, CLONED_FROM_GROUPKIND], (k) =>
    fixed(
      k === CLONED_FROM_NAME
        ? `name of the ClusterClass template it was cloned from (${kind} ${name})`
        : `group/kind of the ClusterClass template it was cloned from (${kind})`,
    ),
  );
};

/** Records each key of the map at `base` from the last layer that has it. */
export function recordLayers(obj: JsonObject, base: Path, layers: readonly Layer[]): void {
  const present = asObject(base.reduce<Json | undefined>((v, k) => asObject(v)?.[k as string], obj));
  if (!present) return;
  for (const layer of layers) {
    const keys: readonly string[] = Array.isArray(layer.keys)
      ? (layer.keys as readonly string[])
      : Object.keys(layer.keys ?? {});
    for (const k of keys) if (Object.hasOwn(present, k)) layer.record(obj, k, [...base, k]);
  }
}
