/**
 * The two ways the controller turns a ClusterClass template into an object
 * (topology-semantics §2.2 templateToObject, §2.3 templateToTemplate), plus owner references.
 */
import type { Json, JsonObject } from '../api/model.js';
import { asObject, asStringMap, cloneJson, defineKey, isObject, sortedMap } from '../api/json.js';
import {
  CLONED_FROM_GROUPKIND,
  CLONED_FROM_NAME,
  CLUSTER_NAME_LABEL,
  TOPOLOGY_OWNED_LABEL,
  groupKind,
  objectKindOf,
} from './labels.js';

export interface ClusterIdentity {
  name: string;
  namespace: string;
  uid?: string;
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
 * ownerReference to the Cluster (§2.11). The API server rejects an ownerReference without uid, so
 * it is only emitted when the input Cluster carries `metadata.uid` (see README, divergences).
 */
export function clusterOwnerReferences(cluster: ClusterIdentity): Json[] | undefined {
  if (!cluster.uid) return undefined;
  return [{ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', name: cluster.name, uid: cluster.uid }];
}

const clonedFrom = (template: JsonObject): Record<string, string> => {
  const meta = asObject(template.metadata);
  return {
    [CLONED_FROM_NAME]: String(meta?.name ?? ''),
    [CLONED_FROM_GROUPKIND]: groupKind(String(template.apiVersion ?? ''), String(template.kind ?? '')),
  };
};

export interface ObjectFromTemplate {
  template: JsonObject;
  name: string;
  cluster: ClusterIdentity;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: Json[];
}

/** §2.2: an object from `spec.template` of a template (InfraCluster, ControlPlane, MachinePool objects). */
export function templateToObject(input: ObjectFromTemplate): JsonObject {
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
  const obj: JsonObject = {
    apiVersion: typeof inner.apiVersion === 'string' ? inner.apiVersion : (template.apiVersion as Json),
    kind: objectKindOf(String(template.kind ?? '')),
    metadata: buildMetadata(input.name, cluster.namespace, labels, annotations, input.ownerReferences),
  };
  for (const key of Object.keys(inner)) {
    if (key === 'metadata' || key === 'apiVersion' || key === 'kind' || key === 'status') continue;
    defineKey(obj, key, cloneJson(inner[key] as Json));
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

/** §2.3: a clone of a whole template (CP machine template, MD bootstrap/infra templates). */
export function templateToTemplate(input: TemplateClone): JsonObject {
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
  for (const key of Object.keys(template)) {
    if (key === 'metadata' || key === 'apiVersion' || key === 'kind' || key === 'status') continue;
    defineKey(clone, key, cloneJson(template[key] as Json));
  }
  return clone;
}

/** Sets `obj.<path>` creating parents; used for contract paths on the ControlPlane. */
export function setIn(obj: JsonObject, path: readonly string[], value: Json): void {
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
  defineKey(cur, path[path.length - 1]!, value);
}
