/**
 * The two ways the controller turns a ClusterClass template into an object
 * (CAPI exp/topology/desiredstate/desired_state.go `templateToObject` templateToObject, CAPI exp/topology/desiredstate/desired_state.go `templateToTemplate` templateToTemplate), plus owner references.
 */
import type { Cluster, Json, JsonObject } from '../core/model.js';
import type { Path } from '../core/path.js';
import { asObject, asStringMap, cloneJson, defineKey, isObject, sortedMap, jsonText } from '../core/json.js';
import type { Recorder } from '../provenance/recorder.js';
import {
  CLUSTER_NAMESPACE,
  OWNER_REFERENCE,
  clonedFromLayer,
  fixed,
  fixedLabels,
  recordLayers,
  templateLayer,
  type Layer,
} from './origins.js';
import {
  CLONED_FROM_GROUPKIND,
  CLONED_FROM_NAME,
  CLUSTER_NAME_LABEL,
  TOPOLOGY_OWNED_LABEL,
  groupKind,
  groupOf,
  objectKindOf,
} from '../core/labels.js';
import { CoreVersion } from './types.js';

export interface ClusterIdentity {
  name: string;
  namespace: string;
  uid?: string;
}

/** The three node deletion timeouts (v1beta2 `deletion.<name>Seconds`, v1beta1 `<name>` durations). */
export const TIMEOUT_NAMES = ['nodeDrainTimeout', 'nodeVolumeDetachTimeout', 'nodeDeletionTimeout'] as const;
export type TimeoutName = (typeof TIMEOUT_NAMES)[number];

export const identityOf = (cluster: Cluster): ClusterIdentity =>
  cluster.uid
    ? { name: cluster.name, namespace: cluster.namespace, uid: cluster.uid }
    : { name: cluster.name, namespace: cluster.namespace };

/** A reference in the shape of the holder's API version: v1beta2 `{apiGroup, kind, name}`, v1beta1 with apiVersion/namespace. */
export function objectRef(
  version: CoreVersion,
  apiVersion: string,
  kind: string,
  name: string,
  namespace: string,
): JsonObject {
  return version === 'v1beta2' ? { apiGroup: groupOf(apiVersion), kind, name } : { apiVersion, kind, name, namespace };
}

/** Builds `metadata` with a stable key order and sorted label/annotation maps. */
export function buildMetadata(
  name: string,
  namespace: string,
  labels: Record<string, string> | undefined,
  annotations: Record<string, string> | undefined,
  ownerReferences?: Json[],
): JsonObject {
  const md: JsonObject = { name, namespace };
  const l = sortedMap(labels);
  const a = sortedMap(annotations);
  if (l) md.labels = l;
  if (a) md.annotations = a;
  if (ownerReferences && ownerReferences.length > 0) md.ownerReferences = ownerReferences;
  return md;
}

/**
 * ownerReference to the Cluster (CAPI internal/topology/ownerrefs/ownerref.go). The API server rejects an ownerReference without uid, so
 * it is only emitted when the input Cluster carries `metadata.uid` (see README, divergences).
 */
export function clusterOwnerReferences(cluster: ClusterIdentity): Json[] | undefined {
  if (!cluster.uid) return undefined;
  return [{ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', name: cluster.name, uid: cluster.uid }];
}

const clonedFrom = (template: JsonObject): Record<string, string> => {
  const meta = asObject(template.metadata);
  return {
    [CLONED_FROM_NAME]: jsonText(meta?.name ?? ''),
    [CLONED_FROM_GROUPKIND]: groupKind(jsonText(template.apiVersion ?? ''), jsonText(template.kind ?? '')),
  };
};

export interface ObjectFromTemplate {
  template: JsonObject;
  name: string;
  cluster: ClusterIdentity;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: Json[];
  /** When recording: where `labels` and `annotations` came from, in the order they were merged. */
  labelLayers?: Layer[];
  annotationLayers?: Layer[];
}

/** Origins every object made from a template shares: namespace, owner references, cloned-from annotations. */
function recordCommon(
  rec: Recorder,
  obj: JsonObject,
  template: JsonObject,
  labels: Layer[],
  annotations: Layer[],
): void {
  rec.set(obj, ['metadata', 'namespace'], fixed(CLUSTER_NAMESPACE));
  recordLayers(obj, ['metadata', 'labels'], labels);
  recordLayers(obj, ['metadata', 'annotations'], [...annotations, clonedFromLayer(rec, template)]);
  if (asObject(obj.metadata)?.ownerReferences !== undefined)
    rec.set(obj, ['metadata', 'ownerReferences'], fixed(OWNER_REFERENCE));
}

const nonEmptyString = (v: Json | undefined): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** CAPI exp/topology/desiredstate/desired_state.go `templateToObject`: an object from `spec.template` of a template (InfraCluster, ControlPlane, MachinePool objects). */
export function templateToObject(input: ObjectFromTemplate, rec?: Recorder): JsonObject {
  const { template, cluster } = input;
  const inner = asObject(asObject(template.spec)?.template) ?? {};
  const innerMeta = asObject(inner.metadata);
  const labels = {
    ...asStringMap(innerMeta?.labels),
    ...input.labels,
    [TOPOLOGY_OWNED_LABEL]: '',
    [CLUSTER_NAME_LABEL]: cluster.name,
  };
  const annotations = { ...asStringMap(innerMeta?.annotations), ...input.annotations, ...clonedFrom(template) };
  // GenerateTemplate keeps `spec.template`'s own apiVersion and kind when they are set (a
  // non-empty string, as Unstructured.GetAPIVersion/GetKind read them), else derives them.
  const innerApiVersion = nonEmptyString(inner.apiVersion);
  const innerKind = nonEmptyString(inner.kind);
  const obj: JsonObject = {
    apiVersion: innerApiVersion ?? (template.apiVersion as Json),
    kind: innerKind ?? objectKindOf(jsonText(template.kind ?? '')),
    metadata: buildMetadata(input.name, cluster.namespace, labels, annotations, input.ownerReferences),
  };
  for (const key of Object.keys(inner)) {
    if (key === 'metadata' || key === 'apiVersion' || key === 'kind' || key === 'status') continue;
    defineKey(obj, key, cloneJson(inner[key] as Json));
    rec?.fromTemplate(template, ['spec', 'template', key], obj, [key]);
  }
  if (rec) {
    rec.fromTemplate(
      template,
      innerApiVersion !== undefined ? ['spec', 'template', 'apiVersion'] : ['apiVersion'],
      obj,
      ['apiVersion'],
    );
    if (innerKind !== undefined) rec.fromTemplate(template, ['spec', 'template', 'kind'], obj, ['kind']);
    else
      rec.set(
        obj,
        ['kind'],
        fixed(`kind of the ClusterClass template (${jsonText(template.kind)}) without "Template"`),
      );
    const innerMeta: Path = ['spec', 'template', 'metadata'];
    recordCommon(
      rec,
      obj,
      template,
      [
        templateLayer(rec, template, [...innerMeta, 'labels']),
        ...(input.labelLayers ?? []),
        fixedLabels(rec, [TOPOLOGY_OWNED_LABEL, CLUSTER_NAME_LABEL]),
      ],
      [templateLayer(rec, template, [...innerMeta, 'annotations']), ...(input.annotationLayers ?? [])],
    );
  }
  return obj;
}

export interface TemplateClone {
  template: JsonObject;
  name: string;
  cluster: ClusterIdentity;
  /** Extra labels (e.g. deployment-name) on top of the template's own. */
  labels?: Record<string, string>;
}

/** CAPI exp/topology/desiredstate/desired_state.go `templateToTemplate`: a clone of a whole template (CP machine template, MD bootstrap/infra templates). */
export function templateToTemplate(input: TemplateClone, rec?: Recorder): JsonObject {
  const { template, cluster } = input;
  const meta = asObject(template.metadata);
  const labels = {
    ...asStringMap(meta?.labels),
    [CLUSTER_NAME_LABEL]: cluster.name,
    [TOPOLOGY_OWNED_LABEL]: '',
    ...input.labels,
  };
  const annotations = { ...asStringMap(meta?.annotations), ...clonedFrom(template) };
  const clone: JsonObject = {
    apiVersion: template.apiVersion as Json,
    kind: template.kind as Json,
    metadata: buildMetadata(input.name, cluster.namespace, labels, annotations, clusterOwnerReferences(cluster)),
  };
  // Every other field is copied as it is (apiVersion and kind again, in the order set above).
  for (const key of Object.keys(template)) {
    if (key === 'metadata' || key === 'status') continue;
    defineKey(clone, key, cloneJson(template[key] as Json));
    rec?.fromTemplate(template, [key], clone, [key]);
  }
  if (rec) {
    const fixedKeys = [CLUSTER_NAME_LABEL, TOPOLOGY_OWNED_LABEL, ...Object.keys(input.labels ?? {})];
    recordCommon(
      rec,
      clone,
      template,
      [templateLayer(rec, template, ['metadata', 'labels']), fixedLabels(rec, fixedKeys)],
      [templateLayer(rec, template, ['metadata', 'annotations'])],
    );
  }
  return clone;
}

/** Sets `obj.<path>` creating parents; used for contract paths on the ControlPlane. */
export function setIn(obj: JsonObject, path: readonly string[], value: Json): void {
  const key = path.at(-1);
  if (key === undefined) return;
  let cur = obj;
  for (const seg of path.slice(0, -1)) {
    const next = cur[seg];
    if (isObject(next)) cur = next;
    else {
      const created: JsonObject = {};
      defineKey(cur, seg, created);
      cur = created;
    }
  }
  defineKey(cur, key, value);
}
