/** Builders for validation tests: raw v1beta2 documents normalised with the real normaliser. */
import type { Cluster, ClusterClass, JsonObject, ObjectRef } from '../../src/core/model.js';
import { normalizeCluster, normalizeClusterClass } from '../../src/api/normalize.js';

export const CLASS_REF: ObjectRef = {
  apiVersion: 'cluster.x-k8s.io/v1beta2',
  kind: 'ClusterClass',
  name: 'quick-start',
  namespace: 'default',
};
export const clusterRef = (name: string): ObjectRef => ({
  apiVersion: 'cluster.x-k8s.io/v1beta2',
  kind: 'Cluster',
  name,
  namespace: 'default',
});

const tref = (apiVersion: string, kind: string, name: string) => ({ templateRef: { apiVersion, kind, name } });

/** A v1beta2 ClusterClass document; `mutate` edits the raw spec before normalisation. */
export function classDoc(mutate: (spec: JsonObject) => void = () => {}): JsonObject {
  const spec: JsonObject = {
    infrastructure: tref('infrastructure.cluster.x-k8s.io/v1beta2', 'DevClusterTemplate', 'qs-cluster'),
    controlPlane: {
      ...tref('controlplane.cluster.x-k8s.io/v1beta2', 'KubeadmControlPlaneTemplate', 'qs-control-plane'),
      machineInfrastructure: tref(
        'infrastructure.cluster.x-k8s.io/v1beta2',
        'DevMachineTemplate',
        'qs-control-plane-machine',
      ),
    },
    workers: {
      machineDeployments: [
        {
          class: 'default-worker',
          bootstrap: tref('bootstrap.cluster.x-k8s.io/v1beta2', 'KubeadmConfigTemplate', 'qs-worker-bootstrap'),
          infrastructure: tref('infrastructure.cluster.x-k8s.io/v1beta2', 'DevMachineTemplate', 'qs-worker-machine'),
        },
      ],
      machinePools: [
        {
          class: 'default-pool',
          bootstrap: tref('bootstrap.cluster.x-k8s.io/v1beta2', 'KubeadmConfigTemplate', 'qs-pool-bootstrap'),
          infrastructure: tref('infrastructure.cluster.x-k8s.io/v1beta2', 'DevMachinePoolTemplate', 'qs-pool-machine'),
        },
      ],
    },
    variables: [
      { name: 'imageRepository', required: false, schema: { openAPIV3Schema: { type: 'string', maxLength: 64 } } },
      { name: 'replicasHint', required: false, schema: { openAPIV3Schema: { type: 'integer' } } },
    ],
  };
  mutate(spec);
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'ClusterClass',
    metadata: { name: 'quick-start', namespace: 'default' },
    spec,
  };
}

export function makeClass(mutate?: (spec: JsonObject) => void, ref: ObjectRef = CLASS_REF): ClusterClass {
  const doc = classDoc(mutate);
  (doc.metadata as JsonObject).name = ref.name;
  const n = normalizeClusterClass(doc, ref);
  if (!n.value) throw new Error(`test class does not normalise: ${JSON.stringify(n.results)}`);
  return n.value;
}

/** A v1beta2 Cluster document using class `quick-start`. */
export function clusterDoc(name: string, mutate: (spec: JsonObject, meta: JsonObject) => void = () => {}): JsonObject {
  const meta: JsonObject = { name, namespace: 'default' };
  const spec: JsonObject = {
    topology: {
      classRef: { name: 'quick-start' },
      version: 'v1.32.0',
      workers: { machineDeployments: [{ class: 'default-worker', name: 'md-0' }] },
    },
  };
  mutate(spec, meta);
  return { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: meta, spec };
}

export function makeCluster(name: string, mutate?: (spec: JsonObject, meta: JsonObject) => void): Cluster {
  const n = normalizeCluster(clusterDoc(name, mutate), clusterRef(name));
  if (!n.value) throw new Error(`test cluster does not normalise: ${JSON.stringify(n.results)}`);
  return n.value;
}

export const topology = (spec: JsonObject) => spec.topology as JsonObject;
export const workers = (spec: JsonObject) => spec.workers as JsonObject;
export const mdClasses = (spec: JsonObject) => workers(spec).machineDeployments as JsonObject[];
