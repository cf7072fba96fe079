/**
 * Desired state (CAPI exp/topology/desiredstate/desired_state.go `Generate`): one compute function per generated object, reading the
 * blueprint and the Cluster, as `exp/topology/desiredstate/desired_state.go` does — the control
 * plane in ./controlplane.ts, workers in ./workers.ts, health checks in ./healthcheck.ts, the
 * two template conversions in ./objects.ts. Objects of CAPI core kinds are built directly in the
 * output API version; provider objects keep their template's version, with control-plane paths
 * chosen by contract (CAPI internal/contract/version.go `GetContractVersionForVersion`). With a recorder, each records where every value it sets came from.
 */
import { jsonText } from '../core/json.js';
import type { Cluster, JsonObject } from '../core/model.js';
import type { Blueprint } from '../blueprint/blueprint.js';
import { atLeast, type CapiProfile } from '../core/capi-release.js';
import type { Recorder } from '../provenance/recorder.js';
import type { TopologyVersions } from './upgrade.js';
import { CLUSTER_NAME_LABEL, CONTROL_PLANE_LABEL, TOPOLOGY_OWNED_LABEL } from '../core/labels.js';
import { identityOf, objectRef, templateToObject, templateToTemplate } from './objects.js';
import { TOPOLOGY_CP, computeControlPlane } from './controlplane.js';
import { computeHealthCheck, healthCheckDefined, healthCheckSource } from './healthcheck.js';
import { computeMachineDeployment, computeMachinePool, type WorkerContext, type WorkerVersion } from './workers.js';
import { builtin, cloneNameDetail, namingDetail } from './origins.js';
import { CoreVersion, DesiredMachineDeployment, DesiredMachinePool, TopologyNames } from './types.js';

export interface DesiredState {
  /** Labels and refs the topology controller owns on the Cluster (CAPI exp/topology/desiredstate/desired_state.go `computeCluster`). */
  cluster: {
    /** The stored Cluster's namespace (the request's when the input has none). */
    namespace: string;
    labels: Record<string, string>;
    /** The upgrade-step annotation's value; absent: the annotation is removed (`idleUpgradeStep`). */
    upgradeStep?: string;
    infrastructureRef?: JsonObject;
    controlPlaneRef: JsonObject;
  };
  infrastructureCluster?: JsonObject;
  controlPlaneMachineTemplate?: JsonObject;
  controlPlane: JsonObject;
  controlPlaneHealthCheck?: JsonObject;
  machineDeployments: DesiredMachineDeployment[];
  machinePools: DesiredMachinePool[];
}

/** CAPI `computeCluster`: the labels the topology controller owns on the Cluster (CAPI exp/topology/desiredstate/desired_state.go `computeCluster`). */
function computeClusterLabels(cluster: Cluster): Record<string, string> {
  return { ...cluster.metadata.labels, [CLUSTER_NAME_LABEL]: cluster.name, [TOPOLOGY_OWNED_LABEL]: '' };
}

/**
 * The upgrade-step annotation `computeCluster` leaves on a Cluster that is not starting an upgrade
 * (no AfterClusterUpgrade hook pending, which an offline render never sees):
 * - v1.12, v1.13: "" (exp/topology/desiredstate/desired_state.go `computeCluster` at v1.12.10 and
 *   v1.13.6 sets it to "" rather than deleting it, for SSA's sake);
 * - v1.14 on: none (the same function at v1.14.2 deletes it; main at ae7ff04 too).
 */
const idleUpgradeStep = (capi: CapiProfile): string | undefined => (atLeast(capi, '1.14') ? undefined : '');

// ------------------------------------------------------------------ entry point

/**
 * CAPI exp/topology/desiredstate/desired_state.go `Generate`: the whole desired state, in the controller's order, each object at its Kubernetes version
 * (CAPI exp/topology/desiredstate/upgrade_plan.go `ComputeUpgradePlan`). With a recorder, the origin of every value set is recorded.
 */
export function computeDesiredState(
  bp: Blueprint,
  cluster: Cluster,
  names: TopologyNames,
  version: CoreVersion,
  versions: TopologyVersions,
  rec?: Recorder,
): DesiredState {
  const identity = identityOf(cluster);
  const desired: DesiredState = {
    cluster: { namespace: cluster.namespace, labels: computeClusterLabels(cluster), controlPlaneRef: {} },
    controlPlane: {},
    machineDeployments: [],
    machinePools: [],
  };
  const upgradeStep = idleUpgradeStep(bp.capi);
  if (upgradeStep !== undefined) desired.cluster.upgradeStep = upgradeStep;
  if (bp.infrastructureCluster && names.infrastructureCluster) {
    const ic = templateToObject(
      { template: bp.infrastructureCluster.object, name: names.infrastructureCluster, cluster: identity },
      rec,
    );
    rec?.set(
      ic,
      ['metadata', 'name'],
      builtin(
        namingDetail(
          'InfrastructureCluster',
          bp.cc.infrastructure?.naming?.template,
          'spec.infrastructure.naming.template',
          '{{ .cluster.name }}-{{ .random }}',
        ),
      ),
    );
    desired.infrastructureCluster = ic;
    desired.cluster.infrastructureRef = objectRef(
      version,
      jsonText(ic.apiVersion),
      jsonText(ic.kind),
      names.infrastructureCluster,
      cluster.namespace,
    );
  }
  if (bp.controlPlaneMachineInfrastructure && names.controlPlaneMachineTemplate) {
    const mt = templateToTemplate(
      {
        template: bp.controlPlaneMachineInfrastructure.object,
        name: names.controlPlaneMachineTemplate,
        cluster: identity,
      },
      rec,
    );
    rec?.set(
      mt,
      ['metadata', 'name'],
      builtin(cloneNameDetail('control plane machine template clone', `${cluster.name}-`)),
    );
    desired.controlPlaneMachineTemplate = mt;
  }
  desired.controlPlane = computeControlPlane(
    bp,
    cluster,
    names,
    versions.controlPlane,
    versions.reasons?.get('controlPlane'),
    rec,
  );
  const controlPlaneHealthCheck = computeControlPlaneHealthCheck(bp, cluster, names.controlPlane, version, rec);
  if (controlPlaneHealthCheck) desired.controlPlaneHealthCheck = controlPlaneHealthCheck;
  desired.cluster.controlPlaneRef = objectRef(
    version,
    jsonText(desired.controlPlane.apiVersion),
    jsonText(desired.controlPlane.kind),
    names.controlPlane,
    cluster.namespace,
  );
  const workers = computeWorkers(bp, { cluster, names, version, ...(rec ? { rec } : {}) }, versions);
  desired.machineDeployments = workers.machineDeployments;
  desired.machinePools = workers.machinePools;
  return desired;
}

/** The control plane's MachineHealthCheck, when the class has a machine infrastructure and a health check is defined and not disabled. */
function computeControlPlaneHealthCheck(
  bp: Blueprint,
  cluster: Cluster,
  controlPlaneName: string,
  version: CoreVersion,
  rec?: Recorder,
): JsonObject | undefined {
  const cpTopo = cluster.topology.controlPlane.healthCheck;
  const cpTopoDefined = healthCheckDefined(cpTopo);
  if (
    !bp.controlPlaneMachineInfrastructure ||
    !(healthCheckDefined(bp.cc.controlPlane.healthCheck) || cpTopoDefined) ||
    cpTopo?.enabled === false
  )
    return undefined;
  return computeHealthCheck(
    version,
    cluster,
    controlPlaneName,
    { [TOPOLOGY_OWNED_LABEL]: '', [CONTROL_PLANE_LABEL]: '' },
    healthCheckSource(cpTopo, TOPOLOGY_CP, bp.cc.controlPlane.healthCheck, 'spec.controlPlane'),
    'control plane',
    rec,
  );
}

/** Every MachineDeployment and MachinePool of the topology, in its order, each at the version sequencing gave it. */
function computeWorkers(
  bp: Blueprint,
  ctx: WorkerContext,
  versions: TopologyVersions,
): Pick<DesiredState, 'machineDeployments' | 'machinePools'> {
  const { cluster } = ctx;
  const versionOf = (
    kind: 'machineDeployment' | 'machinePool',
    name: string,
    map: ReadonlyMap<string, string>,
  ): WorkerVersion => ({
    kubernetesVersion: map.get(name) ?? cluster.topology.version,
    reason: versions.reasons?.get(`${kind}/${name}`),
  });
  const machineDeployments = cluster.topology.workers.machineDeployments.map((topo) => {
    // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- the Cluster webhook rules reject a worker whose class the ClusterClass lacks
    const mdBp = bp.machineDeployments.get(topo.class)!;
    return computeMachineDeployment(
      ctx,
      topo,
      mdBp,
      versionOf('machineDeployment', topo.name, versions.machineDeployments),
    );
  });
  const machinePools = cluster.topology.workers.machinePools.map((topo) => {
    // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- the Cluster webhook rules reject a worker whose class the ClusterClass lacks
    const mpBp = bp.machinePools.get(topo.class)!;
    return computeMachinePool(ctx, topo, mpBp, versionOf('machinePool', topo.name, versions.machinePools));
  });
  return { machineDeployments, machinePools };
}
