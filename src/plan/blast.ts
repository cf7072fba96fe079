/**
 * Blast radius: how many Machines each rollout replaces, and which rollouts CAPI performs twice
 * because upgrade sequencing holds their version step back.
 */
import type { JsonObject } from '../core/model.js';
import { asNumber, asObject, asString } from '../core/json.js';
import { AUTOSCALER_MAX_SIZE, AUTOSCALER_MIN_SIZE, DEPLOYMENT_NAME_LABEL, POOL_NAME_LABEL } from '../core/labels.js';
import type { Rollout } from '../webhooks/compatibility.js';
import type { DeferredWorker } from '../topology/upgrade.js';

/** A number of Machines: exact (`min === max`), or the range an autoscaler keeps a pool in. */
export interface Machines {
  min: number;
  max: number;
}

export const NO_MACHINES: Machines = { min: 0, max: 0 };
export const addMachines = (a: Machines, b: Machines, times = 1): Machines => ({
  min: a.min + times * b.min,
  max: a.max + times * b.max,
});

/** `2601` as `2,601`, whatever the locale. */
export const thousands = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** `1 Cluster`, `2,601 MachineDeployments`. */
export const counted = (n: number, word: string): string => `${thousands(n)} ${word}${n === 1 ? '' : 's'}`;

/** `12 Machines`, or `12 to 30 Machines` where autoscaled pools roll. */
export const machinesPhrase = (m: Machines): string =>
  m.min === m.max ? counted(m.max, 'Machine') : `${thousands(m.min)} to ${thousands(m.max)} Machines`;

/** A rollout with what it costs. */
export interface PlannedRollout extends Rollout {
  /** Machines it replaces (each time it rolls). */
  machines: Machines;
  /** Why upgrade sequencing holds its version step back (the step comes after the control plane's). */
  deferred?: string;
  /**
   * Rolled twice: by the next apply (a template rotation) and again when its deferred version
   * step comes.
   */
  double: boolean;
  /** When it rolls twice: what rolls it now (the rest of `reasons` rolls it with the version step). */
  rollsNow?: string[];
  /**
   * With the `InPlaceUpdates` gate on: CAPI asks the update extensions first and replaces the
   * Machines only if none accepts (counted as replaced: the most it costs).
   */
  inPlace?: true;
}

/**
 * Whether CAPI may update a rollout's Machines in place (gate `InPlaceUpdates` on): a
 * MachineDeployment's (core/reconcilers/machinedeployment/machinedeployment_rollout_rollingupdate.go
 * `reconcileInPlaceUpdateIntent`) or a KubeadmControlPlane's (controlplane/kubeadm/reconcilers/
 * kubeadmcontrolplane/update.go), not when `rollout.after` forces the replacement
 * (mdutil/util.go `FindNewAndOldMachineSets`, controlplane/kubeadm/pkg/filters.go
 * `UpToDate`); a MachinePool's is not.
 */
const mayUpdateInPlace = (r: Rollout): boolean =>
  (r.kind === 'MachineDeployment' || r.kind === 'KubeadmControlPlane') &&
  r.reasons.every((x) => x.cause !== 'rolloutAfter');

const spec = (o: JsonObject) => asObject(o.spec) ?? {};
const replicasOf = (o: JsonObject) => asNumber(spec(o).replicas);

/** A whole number written as an annotation value (strconv.ParseInt base 10). */
const count = (v: unknown): number | undefined =>
  typeof v === 'string' && /^\d+$/.test(v) ? Number.parseInt(v, 10) : undefined;

/**
 * Replicas of a MachineDeployment or MachinePool: `spec.replicas` when the topology sets it; else,
 * with both autoscaler annotations, anything from min to max (the webhook keeps an existing
 * object's replicas within them, and the autoscaler moves them); else 1. CAPI
 * core/webhooks/admission/machinedeployment.go `calculateMachineDeploymentReplicas` and
 * core/webhooks/admission/machinepool.go `calculateMachinePoolReplicas`.
 */
function workerMachines(o: JsonObject): Machines {
  const replicas = replicasOf(o);
  if (replicas !== undefined) return { min: replicas, max: replicas };
  const annotations = asObject(asObject(o.metadata)?.annotations) ?? {};
  const min = count(annotations[AUTOSCALER_MIN_SIZE]);
  const max = count(annotations[AUTOSCALER_MAX_SIZE]);
  return min !== undefined && max !== undefined ? { min, max } : { min: 1, max: 1 };
}

/**
 * Replicas of a control plane: `spec.replicas`, else 1 for one that has Machines (CAPI
 * controlplane/kubeadm/webhooks/admission/kubeadmcontrolplane.go `Default`); a control plane
 * without replicas or a machine template (a managed service's: EKS, AKS) replaces no Machines.
 */
function controlPlaneMachines(o: JsonObject): Machines {
  const replicas = replicasOf(o) ?? (asObject(spec(o).machineTemplate) ? 1 : 0);
  return { min: replicas, max: replicas };
}

const isWorker = (kind: string) => kind === 'MachineDeployment' || kind === 'MachinePool';

/** Its name in the Cluster topology (the label the topology controller sets). */
const topologyName = (o: JsonObject | undefined, kind: string) =>
  asString(
    asObject(asObject(o?.metadata)?.labels)?.[kind === 'MachineDeployment' ? DEPLOYMENT_NAME_LABEL : POOL_NAME_LABEL],
  );

/**
 * The rollouts of one Cluster with their Machines, given its rendered objects, the workers
 * sequencing holds back and what the next apply rolls (the Cluster rendered with those workers at
 * their current versions). A held-back worker rolls when its version step comes; if the next apply
 * rolls it too, it rolls twice (CAPI rotates templates at once and steps versions in sequence:
 * exp/topology/desiredstate/desired_state.go `computeMachineDeployment`). A template that only
 * follows the version (an image named after it) changes with the step and rolls once. With
 * `inPlaceGate`, the rollouts CAPI may update in place say so.
 */
export function plannedRollouts(
  rollouts: readonly Rollout[],
  objects: readonly JsonObject[],
  deferred: readonly DeferredWorker[],
  rollingNow: readonly Rollout[],
  inPlaceGate: boolean,
): PlannedRollout[] {
  const byKindName = new Map(objects.map((o) => [`${asString(o.kind)}/${asString(asObject(o.metadata)?.name)}`, o]));
  return rollouts.map((r) => {
    const object = byKindName.get(`${r.kind}/${r.name}`);
    const worker = isWorker(r.kind);
    const machines = !object ? NO_MACHINES : worker ? workerMachines(object) : controlPlaneMachines(object);
    const topology = worker ? topologyName(object, r.kind) : undefined;
    const held = deferred.find((d) => d.kind === r.kind && d.topology === topology);
    const planned: PlannedRollout = { ...r, machines, double: false };
    const now = held && rollingNow.find((n) => n.kind === r.kind && n.name === r.name);
    if (held) planned.deferred = held.reason;
    if (inPlaceGate && mayUpdateInPlace(r)) planned.inPlace = true;
    if (now) {
      planned.double = true;
      planned.rollsNow = now.reasons.map((x) => x.template);
    }
    return planned;
  });
}

/** Machine replacements of a Cluster's rollouts: a double rollout replaces its Machines twice. */
export const replacedMachines = (rollouts: readonly PlannedRollout[]): Machines =>
  rollouts.reduce((sum, r) => addMachines(sum, r.machines, r.double ? 2 : 1), NO_MACHINES);

/** How to roll a double rollout's Machines once (said with it). */
export const DOUBLE_ROLLOUT_FIX =
  'to roll these Machines once, first change only the version, with annotation topology.cluster.x-k8s.io/defer-upgrade on this worker in the Cluster topology (the control plane upgrades alone), then make the other change and remove the annotation in one commit';
