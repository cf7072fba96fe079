/**
 * Builtin variables (CAPI core/reconcilers/topology/cluster/patches/variables/variables.go `Global`): the `builtin` object patches see, with Go's
 * `omitempty` presence rules, computed from the desired objects *before* patching.
 */
import type { Cluster, Json, JsonObject } from '../core/model.js';
import { asObject, asStringMap, compact, sortedMap } from '../core/json.js';
import type { DesiredState } from './desired.js';
import { CONVERSION_DATA, LAST_APPLIED } from '../core/labels.js';
import { DesiredMachineDeployment, DesiredMachinePool } from './types.js';

/** `{labels, annotations}` of an object, empty maps omitted. */
function metadataBuiltin(obj: JsonObject): JsonObject {
  const meta = asObject(obj.metadata);
  return compact({
    labels: sortedMap(asStringMap(meta?.labels)),
    annotations: sortedMap(asStringMap(meta?.annotations)),
  });
}

/** The Kubernetes version a MachineDeployment/MachinePool was computed with (CAPI exp/topology/desiredstate/upgrade_plan.go `ComputeUpgradePlan`). */
const templateSpecVersion = (obj: JsonObject): Json | undefined =>
  asObject(asObject(asObject(obj.spec)?.template)?.spec)?.version;

export function clusterBuiltin(cluster: Cluster, desired: DesiredState, classNamespace: string): JsonObject {
  const annotations = { ...cluster.metadata.annotations };
  delete annotations[LAST_APPLIED];
  delete annotations[CONVERSION_DATA];
  const net = cluster.clusterNetwork;
  const network = compact({
    serviceDomain: net?.serviceDomain ? net.serviceDomain : undefined,
    services: net?.services?.cidrBlocks,
    pods: net?.pods?.cidrBlocks,
  });
  const classRef = cluster.topology.classRef;
  return compact({
    name: cluster.name,
    namespace: cluster.namespace,
    uid: cluster.uid,
    metadata: compact({ labels: sortedMap(desired.cluster.labels), annotations: sortedMap(annotations) }),
    topology: {
      version: cluster.topology.version,
      classRef: { name: classRef.name, namespace: classNamespace },
      class: classRef.name,
      classNamespace,
    },
    network: Object.keys(network).length > 0 ? network : undefined,
  });
}

export function controlPlaneBuiltin(cluster: Cluster, desired: DesiredState): JsonObject {
  const cp = desired.controlPlane;
  const mt = desired.controlPlaneMachineTemplate;
  return compact({
    version: asObject(cp.spec)?.version,
    metadata: metadataBuiltin(cp),
    name: asObject(cp.metadata)?.name,
    replicas: cluster.topology.controlPlane.replicas,
    machineTemplate: mt ? { infrastructureRef: { name: asObject(mt.metadata)?.name ?? null } } : undefined,
  });
}

export function machineDeploymentBuiltin(_cluster: Cluster, md: DesiredMachineDeployment): JsonObject {
  return compact({
    version: templateSpecVersion(md.machineDeployment),
    metadata: metadataBuiltin(md.machineDeployment),
    class: md.topology.class,
    name: asObject(md.machineDeployment.metadata)?.name,
    topologyName: md.topology.name,
    replicas: md.topology.replicas,
    bootstrap: { configRef: { name: asObject(md.bootstrapTemplate.metadata)?.name ?? null } },
    infrastructureRef: { name: asObject(md.infrastructureTemplate.metadata)?.name ?? null },
  });
}

export function machinePoolBuiltin(_cluster: Cluster, mp: DesiredMachinePool): JsonObject {
  return compact({
    version: templateSpecVersion(mp.machinePool),
    metadata: metadataBuiltin(mp.machinePool),
    class: mp.topology.class,
    name: asObject(mp.machinePool.metadata)?.name,
    topologyName: mp.topology.name,
    replicas: mp.topology.replicas,
    bootstrap: { configRef: { name: asObject(mp.bootstrapObject.metadata)?.name ?? null } },
    infrastructureRef: { name: asObject(mp.infrastructureObject.metadata)?.name ?? null },
  });
}
