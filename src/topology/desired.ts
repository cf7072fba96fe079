/**
 * Desired state (topology-semantics §2): one compute function per generated object, reading the
 * blueprint and the Cluster, as `exp/topology/desiredstate/desired_state.go` does. Objects of
 * CAPI core kinds are built directly in the output API version; provider objects keep their
 * template's version, with control-plane paths chosen by contract (§1.2).
 */
import type {
  Cluster,
  HealthCheck,
  Json,
  JsonObject,
  MachineDeploymentTopology,
  MachinePoolTopology,
} from '../api/model.js';
import type { ContractVersion } from '../krm/config.js';
import type { Blueprint, MachineDeploymentBlueprint, MachinePoolBlueprint } from '../blueprint/blueprint.js';
import { asObject, asStringMap, cloneJson, compact, sortedMap } from '../api/json.js';
import { formatGoDuration } from '../api/duration.js';
import type { TopologyVersions } from './upgrade.js';
import {
  CLUSTER_NAME_LABEL,
  CONTROL_PLANE_LABEL,
  DEFER_UPGRADE,
  DEPLOYMENT_NAME_LABEL,
  HOLD_UPGRADE_SEQUENCE,
  POOL_NAME_LABEL,
  TOPOLOGY_OWNED_LABEL,
  groupOf,
  mergeMaps,
} from './labels.js';
import {
  buildMetadata,
  clusterOwnerReferences,
  setIn,
  templateToObject,
  templateToTemplate,
  type ClusterIdentity,
} from './objects.js';

/** Names of everything generated for one Cluster (§3). */
export interface TopologyNames {
  infrastructureCluster?: string;
  controlPlane: string;
  controlPlaneMachineTemplate?: string;
  machineDeployments: Map<string, { machineDeployment: string; bootstrapTemplate: string; infrastructureTemplate: string }>;
  machinePools: Map<string, { machinePool: string; bootstrapObject: string; infrastructureObject: string }>;
}

export interface DesiredMachineDeployment {
  topology: MachineDeploymentTopology;
  blueprint: MachineDeploymentBlueprint;
  bootstrapTemplate: JsonObject;
  infrastructureTemplate: JsonObject;
  machineDeployment: JsonObject;
  healthCheck?: JsonObject;
}

export interface DesiredMachinePool {
  topology: MachinePoolTopology;
  blueprint: MachinePoolBlueprint;
  bootstrapObject: JsonObject;
  infrastructureObject: JsonObject;
  machinePool: JsonObject;
}

export interface DesiredState {
  /** Labels and refs the topology controller owns on the Cluster (§2.7). */
  cluster: { labels: Record<string, string>; infrastructureRef?: JsonObject; controlPlaneRef: JsonObject };
  infrastructureCluster?: JsonObject;
  controlPlaneMachineTemplate?: JsonObject;
  controlPlane: JsonObject;
  controlPlaneHealthCheck?: JsonObject;
  machineDeployments: DesiredMachineDeployment[];
  machinePools: DesiredMachinePool[];
}

export type CoreVersion = 'v1beta1' | 'v1beta2';

const identityOf = (cluster: Cluster): ClusterIdentity =>
  cluster.uid ? { name: cluster.name, namespace: cluster.namespace, uid: cluster.uid } : { name: cluster.name, namespace: cluster.namespace };

/** A reference in the shape of the holder's API version: v1beta2 `{apiGroup, kind, name}`, v1beta1 with apiVersion/namespace. */
function objectRef(version: CoreVersion, apiVersion: string, kind: string, name: string, namespace: string): JsonObject {
  return version === 'v1beta2' ? { apiGroup: groupOf(apiVersion), kind, name } : { apiVersion, kind, name, namespace };
}

const isNonEmpty = (v: unknown): boolean =>
  v !== undefined && v !== null && (typeof v !== 'object' || Object.keys(v as object).length > 0);

/** `IsDefined()`: checks or remediation carry anything. */
const healthCheckDefined = (hc: HealthCheck | undefined): boolean =>
  !!hc && (Object.values(hc.checks ?? {}).some(isNonEmpty) || Object.values(hc.remediation ?? {}).some(isNonEmpty));

// ------------------------------------------------------------------ Cluster

export function computeClusterLabels(cluster: Cluster): Record<string, string> {
  return { ...cluster.metadata.labels, [CLUSTER_NAME_LABEL]: cluster.name, [TOPOLOGY_OWNED_LABEL]: '' };
}

// ------------------------------------------------------------------ control plane

const CONTRACT_PATHS = {
  v1beta2: {
    infrastructureRef: ['spec', 'machineTemplate', 'spec', 'infrastructureRef'],
    readinessGates: ['spec', 'machineTemplate', 'spec', 'readinessGates'],
    taints: ['spec', 'machineTemplate', 'spec', 'taints'],
    timeout: (n: string) => ['spec', 'machineTemplate', 'spec', 'deletion', `${n}Seconds`],
  },
  v1beta1: {
    infrastructureRef: ['spec', 'machineTemplate', 'infrastructureRef'],
    readinessGates: ['spec', 'machineTemplate', 'readinessGates'],
    taints: ['spec', 'machineTemplate', 'taints'],
    timeout: (n: string) => ['spec', 'machineTemplate', n],
  },
} as const;

export const TIMEOUT_NAMES = ['nodeDrainTimeout', 'nodeVolumeDetachTimeout', 'nodeDeletionTimeout'] as const;

export function controlPlaneContractPaths(contract: ContractVersion) {
  return CONTRACT_PATHS[contract];
}

function computeControlPlane(bp: Blueprint, cluster: Cluster, names: TopologyNames, kubernetesVersion: string): JsonObject {
  const topo = cluster.topology.controlPlane;
  const cls = bp.cc.controlPlane;
  const identity = identityOf(cluster);
  const labels = { ...mergeMaps(topo.metadata?.labels, cls.metadata?.labels), [CLUSTER_NAME_LABEL]: cluster.name, [TOPOLOGY_OWNED_LABEL]: '' };
  const annotations = mergeMaps(topo.metadata?.annotations, cls.metadata?.annotations);
  const cp = templateToObject({
    template: bp.controlPlane.object,
    name: names.controlPlane,
    cluster: identity,
    labels,
    ...(annotations ? { annotations } : {}),
  });
  const paths = CONTRACT_PATHS[bp.controlPlaneContract];
  const spec = asObject(cp.spec) ?? {};
  cp.spec = spec;
  const mi = bp.controlPlaneMachineInfrastructure;
  if (mi && names.controlPlaneMachineTemplate) {
    const ref: JsonObject =
      bp.controlPlaneContract === 'v1beta2'
        ? { apiGroup: groupOf(mi.ref.apiVersion), kind: mi.ref.kind, name: names.controlPlaneMachineTemplate }
        : { apiVersion: mi.ref.apiVersion, kind: mi.ref.kind, name: names.controlPlaneMachineTemplate, namespace: cluster.namespace };
    setIn(cp, paths.infrastructureRef, ref);
    // Topology/class/fixed labels win over what the template already had in machineTemplate.metadata.
    const mtMeta = asObject(asObject(spec.machineTemplate)?.metadata);
    const mtLabels = sortedMap(mergeMaps(labels, asStringMap(mtMeta?.labels)));
    const mtAnnotations = sortedMap(mergeMaps(annotations, asStringMap(mtMeta?.annotations)));
    const metadata: JsonObject = { ...mtMeta };
    delete metadata.labels;
    delete metadata.annotations;
    if (mtLabels) metadata.labels = mtLabels;
    if (mtAnnotations) metadata.annotations = mtAnnotations;
    setIn(cp, ['spec', 'machineTemplate', 'metadata'], metadata);
  }
  if (topo.replicas !== undefined) spec.replicas = topo.replicas;
  if (topo.rollout?.after) setIn(cp, ['spec', 'rollout', 'after'], topo.rollout.after);
  const gates = topo.readinessGates ?? cls.readinessGates;
  if (gates) setIn(cp, paths.readinessGates, cloneJson(gates as unknown as Json));
  const taints = topo.taints ?? cls.taints;
  if (taints) setIn(cp, paths.taints, cloneJson(taints as unknown as Json));
  for (const n of TIMEOUT_NAMES) {
    const secs = topo.deletion?.[`${n}Seconds`] ?? cls.deletion?.[`${n}Seconds`];
    if (secs === undefined) continue;
    setIn(cp, paths.timeout(n), bp.controlPlaneContract === 'v1beta2' ? secs : formatGoDuration(secs));
  }
  spec.version = kubernetesVersion;
  return cp;
}

// ------------------------------------------------------------------ MachineHealthChecks

function computeHealthCheck(
  version: CoreVersion,
  cluster: Cluster,
  name: string,
  matchLabels: Record<string, string>,
  source: HealthCheck,
): JsonObject {
  const checks = source.checks ?? {};
  const remediation = source.remediation ?? {};
  const nodeStartup = checks.nodeStartupTimeoutSeconds ?? 600;
  const metadata = buildMetadata(name, cluster.namespace, { [CLUSTER_NAME_LABEL]: cluster.name, [TOPOLOGY_OWNED_LABEL]: '' }, undefined, clusterOwnerReferences(identityOf(cluster)));
  const selector = { matchLabels: sortedMap(matchLabels) as Json };
  if (version === 'v1beta2') {
    const spec: JsonObject = { clusterName: cluster.name, selector };
    spec.checks = compact({
      nodeStartupTimeoutSeconds: nodeStartup,
      unhealthyNodeConditions: checks.unhealthyNodeConditions as Json,
      unhealthyMachineConditions: checks.unhealthyMachineConditions as Json,
    });
    const rem = compact({ triggerIf: remediation.triggerIf as Json, templateRef: remediation.templateRef as Json });
    if (Object.keys(rem).length > 0) spec.remediation = rem;
    return { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineHealthCheck', metadata, spec };
  }
  const conditions = (list: Json[] | undefined) =>
    list?.map((c) => {
      const o = asObject(c) ?? {};
      return compact({ type: o.type, status: o.status, timeout: typeof o.timeoutSeconds === 'number' ? formatGoDuration(o.timeoutSeconds) : undefined });
    });
  const rt = remediation.templateRef;
  const spec = compact({
    clusterName: cluster.name,
    selector,
    unhealthyConditions: conditions(checks.unhealthyNodeConditions),
    unhealthyMachineConditions: conditions(checks.unhealthyMachineConditions),
    nodeStartupTimeout: formatGoDuration(nodeStartup),
    maxUnhealthy: remediation.triggerIf?.unhealthyLessThanOrEqualTo,
    unhealthyRange: remediation.triggerIf?.unhealthyInRange,
    remediationTemplate: rt ? { apiVersion: rt.apiVersion, kind: rt.kind, name: rt.name, namespace: cluster.namespace } : undefined,
  });
  return { apiVersion: 'cluster.x-k8s.io/v1beta1', kind: 'MachineHealthCheck', metadata, spec };
}

// ------------------------------------------------------------------ workers (shared)

type WorkerClass = MachineDeploymentBlueprint['cls'] | MachinePoolBlueprint['cls'];
type WorkerTopology = MachineDeploymentTopology | MachinePoolTopology;

/**
 * Worker metadata (§2.9 steps 5–6): topology over class, upgrade-control annotations stripped,
 * the fixed labels on top; the same maps go to the object and its machine template.
 */
function workerMetadata(topo: WorkerTopology, cls: WorkerClass, fixed: Record<string, string>) {
  const annotations = mergeMaps(topo.metadata?.annotations, cls.metadata?.annotations);
  if (annotations) {
    delete annotations[HOLD_UPGRADE_SEQUENCE];
    delete annotations[DEFER_UPGRADE];
  }
  const labels = { ...mergeMaps(topo.metadata?.labels, cls.metadata?.labels), ...fixed };
  return { labels, annotations, template: compact({ labels: sortedMap(labels), annotations: sortedMap(annotations) }) };
}

/** Node timeouts, each topology-over-class (seconds). */
function workerTimeouts(topo: WorkerTopology, cls: WorkerClass): [string, number][] {
  return TIMEOUT_NAMES.flatMap((n) => {
    const v = topo.deletion?.[`${n}Seconds`] ?? cls.deletion?.[`${n}Seconds`];
    return v === undefined ? [] : [[n, v] as [string, number]];
  });
}

/**
 * `spec.template.spec` of a MachineDeployment/MachinePool: refs, version, and the fields whose
 * place and form differ by API version (v1beta2 seconds under `deletion`, v1beta1 durations).
 */
function machineTemplateSpec(
  version: CoreVersion,
  cluster: Cluster,
  kubernetesVersion: string,
  refs: { bootstrap: JsonObject; infrastructure: JsonObject },
  fields: Record<string, Json | undefined>,
  timeouts: [string, number][],
  minReadySeconds: number | undefined,
): JsonObject {
  const common = { clusterName: cluster.name, version: kubernetesVersion, bootstrap: { configRef: refs.bootstrap }, infrastructureRef: refs.infrastructure };
  if (version === 'v1beta2') {
    const deletion = timeouts.length > 0 ? Object.fromEntries(timeouts.map(([n, v]) => [`${n}Seconds`, v])) : undefined;
    return compact({ ...common, ...fields, minReadySeconds, deletion });
  }
  return compact({ ...common, ...fields, ...Object.fromEntries(timeouts.map(([n, v]) => [n, formatGoDuration(v)])) });
}

const copyOf = (v: unknown): Json | undefined => (v === undefined ? undefined : cloneJson(v as Json));

// ------------------------------------------------------------------ MachineDeployments

function computeMachineDeployment(
  cluster: Cluster,
  topo: MachineDeploymentTopology,
  mdBp: MachineDeploymentBlueprint,
  names: TopologyNames,
  version: CoreVersion,
  kubernetesVersion: string,
): DesiredMachineDeployment {
  const identity = identityOf(cluster);
  const mdNames = names.machineDeployments.get(topo.name)!;
  const cls = mdBp.cls;
  const extraLabel = { [DEPLOYMENT_NAME_LABEL]: topo.name };
  const bootstrapTemplate = templateToTemplate({ template: mdBp.bootstrap.object, name: mdNames.bootstrapTemplate, cluster: identity, labels: extraLabel });
  const infrastructureTemplate = templateToTemplate({ template: mdBp.infrastructure.object, name: mdNames.infrastructureTemplate, cluster: identity, labels: extraLabel });

  const fixed = { [CLUSTER_NAME_LABEL]: cluster.name, [TOPOLOGY_OWNED_LABEL]: '', [DEPLOYMENT_NAME_LABEL]: topo.name };
  const meta = workerMetadata(topo, cls, fixed);
  const minReadySeconds = topo.minReadySeconds ?? cls.minReadySeconds;
  const rollout = topo.rollout && (topo.rollout.after || topo.rollout.strategy) ? topo.rollout : cls.rollout?.strategy ? { strategy: cls.rollout.strategy } : undefined;
  const maxInFlight = topo.healthCheck?.remediation?.maxInFlight ?? cls.healthCheck?.remediation?.maxInFlight;
  const order = topo.deletion?.order || cls.deletion?.order;
  const refs = {
    bootstrap: objectRef(version, mdBp.bootstrap.ref.apiVersion, mdBp.bootstrap.ref.kind, mdNames.bootstrapTemplate, cluster.namespace),
    infrastructure: objectRef(version, mdBp.infrastructure.ref.apiVersion, mdBp.infrastructure.ref.kind, mdNames.infrastructureTemplate, cluster.namespace),
  };
  const machineFields = {
    failureDomain: topo.failureDomain || cls.failureDomain,
    readinessGates: copyOf(topo.readinessGates ?? cls.readinessGates),
    taints: copyOf(topo.taints ?? cls.taints),
  };
  const templateSpec = machineTemplateSpec(version, cluster, kubernetesVersion, refs, machineFields, workerTimeouts(topo, cls), version === 'v1beta2' ? minReadySeconds : undefined);
  const selector = { matchLabels: sortedMap(fixed) as Json };
  const template = { metadata: meta.template, spec: templateSpec };

  let spec: JsonObject;
  if (version === 'v1beta2') {
    spec = compact({
      clusterName: cluster.name,
      replicas: topo.replicas,
      rollout: rollout ? compact({ after: rollout.after, strategy: copyOf(rollout.strategy) }) : undefined,
      remediation: maxInFlight !== undefined ? { maxInFlight } : undefined,
      deletion: order ? { order } : undefined,
      selector,
      template,
    });
  } else {
    const strategy = asObject(copyOf(rollout?.strategy)) ?? {};
    if (order) strategy.rollingUpdate = { ...asObject(strategy.rollingUpdate), deletePolicy: order };
    if (maxInFlight !== undefined) strategy.remediation = { maxInFlight };
    spec = compact({
      clusterName: cluster.name,
      replicas: topo.replicas,
      rolloutAfter: rollout?.after,
      minReadySeconds,
      strategy: Object.keys(strategy).length > 0 ? strategy : undefined,
      selector,
      template,
    });
  }
  const machineDeployment: JsonObject = {
    apiVersion: `cluster.x-k8s.io/${version}`,
    kind: 'MachineDeployment',
    metadata: buildMetadata(mdNames.machineDeployment, cluster.namespace, meta.labels, meta.annotations),
    spec,
  };
  const out: DesiredMachineDeployment = { topology: topo, blueprint: mdBp, bootstrapTemplate, infrastructureTemplate, machineDeployment };
  const topoDefined = healthCheckDefined(topo.healthCheck);
  if ((healthCheckDefined(cls.healthCheck) || topoDefined) && topo.healthCheck?.enabled !== false) {
    const source = topoDefined ? topo.healthCheck! : cls.healthCheck!;
    out.healthCheck = computeHealthCheck(version, cluster, mdNames.machineDeployment, { [TOPOLOGY_OWNED_LABEL]: '', [DEPLOYMENT_NAME_LABEL]: topo.name }, source);
  }
  return out;
}

// ------------------------------------------------------------------ MachinePools

function computeMachinePool(
  cluster: Cluster,
  topo: MachinePoolTopology,
  mpBp: MachinePoolBlueprint,
  names: TopologyNames,
  version: CoreVersion,
  kubernetesVersion: string,
): DesiredMachinePool {
  const identity = identityOf(cluster);
  const mpNames = names.machinePools.get(topo.name)!;
  const cls = mpBp.cls;
  const poolLabel = { [POOL_NAME_LABEL]: topo.name };
  const owners = clusterOwnerReferences(identity);
  const objectFrom = (template: JsonObject, name: string) =>
    templateToObject({ template, name, cluster: identity, labels: poolLabel, ...(owners ? { ownerReferences: owners } : {}) });
  const bootstrapObject = objectFrom(mpBp.bootstrap.object, mpNames.bootstrapObject);
  const infrastructureObject = objectFrom(mpBp.infrastructure.object, mpNames.infrastructureObject);
  const meta = workerMetadata(topo, cls, { [CLUSTER_NAME_LABEL]: cluster.name, [TOPOLOGY_OWNED_LABEL]: '', ...poolLabel });
  const minReadySeconds = topo.minReadySeconds ?? cls.minReadySeconds;
  const refs = {
    bootstrap: objectRef(version, String(bootstrapObject.apiVersion), String(bootstrapObject.kind), mpNames.bootstrapObject, cluster.namespace),
    infrastructure: objectRef(version, String(infrastructureObject.apiVersion), String(infrastructureObject.kind), mpNames.infrastructureObject, cluster.namespace),
  };
  const templateSpec = machineTemplateSpec(version, cluster, kubernetesVersion, refs, { taints: copyOf(topo.taints ?? cls.taints) }, workerTimeouts(topo, cls), version === 'v1beta2' ? minReadySeconds : undefined);
  const spec = compact({
    clusterName: cluster.name,
    replicas: topo.replicas,
    minReadySeconds: version === 'v1beta1' ? minReadySeconds : undefined,
    failureDomains: copyOf(topo.failureDomains ?? cls.failureDomains),
    template: { metadata: meta.template, spec: templateSpec },
  });
  const machinePool: JsonObject = {
    apiVersion: `cluster.x-k8s.io/${version}`,
    kind: 'MachinePool',
    metadata: buildMetadata(mpNames.machinePool, cluster.namespace, meta.labels, meta.annotations),
    spec,
  };
  return { topology: topo, blueprint: mpBp, bootstrapObject, infrastructureObject, machinePool };
}

// ------------------------------------------------------------------ entry point

/** §2.1: the whole desired state, in the controller's order, each object at its Kubernetes version (§2.8). */
export function computeDesiredState(bp: Blueprint, cluster: Cluster, names: TopologyNames, version: CoreVersion, versions: TopologyVersions): DesiredState {
  const identity = identityOf(cluster);
  const desired: DesiredState = {
    cluster: { labels: computeClusterLabels(cluster), controlPlaneRef: {} },
    controlPlane: {},
    machineDeployments: [],
    machinePools: [],
  };
  if (bp.infrastructureCluster && names.infrastructureCluster) {
    desired.infrastructureCluster = templateToObject({ template: bp.infrastructureCluster.object, name: names.infrastructureCluster, cluster: identity });
    desired.cluster.infrastructureRef = objectRef(version, String(desired.infrastructureCluster.apiVersion), String(desired.infrastructureCluster.kind), names.infrastructureCluster, cluster.namespace);
  }
  if (bp.controlPlaneMachineInfrastructure && names.controlPlaneMachineTemplate) {
    desired.controlPlaneMachineTemplate = templateToTemplate({ template: bp.controlPlaneMachineInfrastructure.object, name: names.controlPlaneMachineTemplate, cluster: identity });
  }
  desired.controlPlane = computeControlPlane(bp, cluster, names, versions.controlPlane);
  const cpTopo = cluster.topology.controlPlane.healthCheck;
  const cpTopoDefined = healthCheckDefined(cpTopo);
  if (bp.controlPlaneMachineInfrastructure && (healthCheckDefined(bp.cc.controlPlane.healthCheck) || cpTopoDefined) && cpTopo?.enabled !== false) {
    desired.controlPlaneHealthCheck = computeHealthCheck(
      version,
      cluster,
      names.controlPlane,
      { [TOPOLOGY_OWNED_LABEL]: '', [CONTROL_PLANE_LABEL]: '' },
      cpTopoDefined ? cpTopo! : bp.cc.controlPlane.healthCheck!,
    );
  }
  desired.cluster.controlPlaneRef = objectRef(version, String(desired.controlPlane.apiVersion), String(desired.controlPlane.kind), names.controlPlane, cluster.namespace);
  for (const topo of cluster.topology.workers.machineDeployments) {
    desired.machineDeployments.push(computeMachineDeployment(cluster, topo, bp.machineDeployments.get(topo.class)!, names, version, versions.machineDeployments.get(topo.name) ?? cluster.topology.version));
  }
  for (const topo of cluster.topology.workers.machinePools) {
    desired.machinePools.push(computeMachinePool(cluster, topo, bp.machinePools.get(topo.class)!, names, version, versions.machinePools.get(topo.name) ?? cluster.topology.version));
  }
  return desired;
}
