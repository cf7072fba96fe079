/**
 * Upgrade sequencing (CAPI exp/topology/desiredstate/upgrade_plan.go `ComputeUpgradePlan`, CAPI exp/topology/desiredstate/upgrade_plan.go): which version each object of a Cluster gets
 * when `spec.topology.version` moves, given what the renderer knows of the current state.
 *
 * CAPI decides this from live objects (`computeControlPlaneVersion`,
 * `computeMachineDeploymentVersion`, `computeMachinePoolVersion` and `ComputeUpgradePlan` in
 * `exp/topology/desiredstate/`). Offline, the current state comes from two optional sources:
 * - the previous render (objects this function generated earlier): spec versions only;
 * - observed objects (a `kubectl get -o yaml` export): spec versions plus status, which tells
 *   whether the control plane is provisioning or upgrading and whether a worker is rolling.
 * Observed objects win over the previous render. Without either, the Cluster is new and every
 * object gets the topology version (CAPI's rule for new clusters).
 *
 * `control-plane-first` follows CAPI: the control plane takes one step of the upgrade plan per
 * render; workers follow only once the control plane is known to be stable at its version, which
 * needs observed state (a previous render only says what was asked for, not what happened).
 * `all-at-once` is the stateless rule: everything at the topology version.
 */
import type { SemVer } from 'semver';
import type { Cluster, ClusterClass, Json, JsonObject, ObjectRef } from '../core/model.js';
import { asNumber, asObject, asString, jsonText } from '../core/json.js';
import type { Result } from '../core/result.js';
import { compareVersions, parseTolerant, semverText } from '../core/go/primitives.js';
import {
  CLUSTER_NAME_LABEL,
  DEFER_UPGRADE,
  DEPLOYMENT_NAME_LABEL,
  HOLD_UPGRADE_SEQUENCE,
  POOL_NAME_LABEL,
  TOPOLOGY_OWNED_LABEL,
  UPGRADE_CONCURRENCY,
  groupOf,
} from '../core/labels.js';
import { UpgradePolicy } from '../krm/config.js';

/** The version each object of a Cluster is rendered with. */
export interface TopologyVersions {
  controlPlane: string;
  /** By topology name; a name that is not here gets the topology version. */
  machineDeployments: ReadonlyMap<string, string>;
  machinePools: ReadonlyMap<string, string>;
  /**
   * Why an object is not at the topology version (the sequencing decision), by `controlPlane`,
   * `machineDeployment/<name>` or `machinePool/<name>`.
   */
  reasons?: ReadonlyMap<string, string>;
}

const OBSERVED_HINT =
  'workers follow once observed state shows it there (export the control plane with kubectl get -o yaml and pass it with --observed DIR)';

interface ControlPlaneState {
  version: string;
  /** Only known from observed objects: `status.version(s)` as the control plane reports it. */
  observed: boolean;
  provisioning: boolean;
  upgrading: boolean;
}

interface WorkerState {
  /** `metadata.name` of the current object. */
  name: string;
  version: string;
  /** `version` parsed (only parsable versions are read). */
  semver: SemVer;
  observed: boolean;
  rolling: boolean;
}

/** What is known of a Cluster's current objects. */
export interface CurrentState {
  controlPlane?: ControlPlaneState;
  machineDeployments: Map<string, WorkerState>;
  machinePools: Map<string, WorkerState>;
}

/** The value at `path` below `o`, if every step is an object. */
const at = (o: JsonObject | undefined, path: string[]): Json | undefined =>
  path.reduce<Json | undefined>((v, k) => asObject(v)?.[k], o);
const str = (o: JsonObject | undefined, ...path: string[]): string | undefined => asString(at(o, path));
const num = (o: JsonObject | undefined, ...path: string[]): number | undefined => asNumber(at(o, path));

/** The control plane's reported version(s): `status.versions[].version` or `status.version`. */
function reportedVersions(obj: JsonObject): string[] | undefined {
  const status = asObject(obj.status);
  const list = Array.isArray(status?.versions) ? status.versions : undefined;
  if (list && list.length > 0) return list.map((e) => str(asObject(e), 'version') ?? '');
  const single = str(status, 'version');
  return single === undefined || single === '' ? undefined : [single];
}

/** contract.ControlPlane().IsUpgrading: spec.version above any reported version. */
function controlPlaneUpgrading(spec: SemVer, reported: string[]): boolean {
  return reported.some((r) => {
    const v = parseTolerant(r);
    return v !== undefined && compareVersions(spec, v) >= 1;
  });
}

/**
 * A MachineDeployment/MachinePool is rolling when fewer replicas are up to date than exist or are
 * wanted (v1beta2 `status.upToDateReplicas`, v1beta1 `status.updatedReplicas`), or the controller
 * has not observed its latest generation. Live, CAPI compares its Machines' versions.
 */
function workerRolling(obj: JsonObject): boolean {
  const status = asObject(obj.status);
  if (!status) return false;
  const upToDate = num(status, 'upToDateReplicas') ?? num(status, 'updatedReplicas');
  const replicas = Math.max(num(status, 'replicas') ?? 0, num(obj, 'spec', 'replicas') ?? 0);
  const generation = num(obj, 'metadata', 'generation');
  const observedGeneration = num(status, 'observedGeneration');
  if (generation !== undefined && observedGeneration !== undefined && observedGeneration < generation) return true;
  return upToDate !== undefined && upToDate < replicas;
}

const labelsOf = (o: JsonObject) => asObject(asObject(o.metadata)?.labels) ?? {};
const isCore = (o: JsonObject, kind: string) =>
  o.kind === kind && groupOf(jsonText(o.apiVersion)) === 'cluster.x-k8s.io';

/**
 * The current state of one Cluster from its objects (previous render and/or observed): the
 * control plane is the object of `controlPlaneKind` (its group and kind), workers are found by
 * their topology name labels. Observed objects are read after the previous render and replace it.
 */
export function currentStateOf(
  cluster: Cluster,
  controlPlaneKind: { group: string; kind: string },
  sources: { previous?: readonly JsonObject[]; observed?: readonly JsonObject[] },
): CurrentState {
  const state: CurrentState = { machineDeployments: new Map(), machinePools: new Map() };
  const read = (objects: readonly JsonObject[], observed: boolean) => {
    for (const o of objects) {
      const labels = labelsOf(o);
      const meta = asObject(o.metadata);
      if (
        labels[CLUSTER_NAME_LABEL] !== cluster.name ||
        (str(meta, 'namespace') ?? cluster.namespace) !== cluster.namespace
      )
        continue;
      if (observed && labels[TOPOLOGY_OWNED_LABEL] === undefined) continue;
      if (o.kind === controlPlaneKind.kind && groupOf(jsonText(o.apiVersion)) === controlPlaneKind.group) {
        const version = str(o, 'spec', 'version');
        const spec = version === undefined ? undefined : parseTolerant(version);
        if (!version || !spec) continue;
        const reported = observed ? reportedVersions(o) : undefined;
        state.controlPlane = {
          version,
          observed,
          provisioning: observed && reported === undefined,
          upgrading: !!reported && controlPlaneUpgrading(spec, reported),
        };
        continue;
      }
      const worker = isCore(o, 'MachineDeployment')
        ? { map: state.machineDeployments, label: DEPLOYMENT_NAME_LABEL }
        : isCore(o, 'MachinePool')
          ? { map: state.machinePools, label: POOL_NAME_LABEL }
          : undefined;
      const topologyName = worker && asString(labels[worker.label]);
      const version = str(o, 'spec', 'template', 'spec', 'version');
      const semver = version ? parseTolerant(version) : undefined;
      if (!worker || topologyName === undefined || !version || !semver) continue;
      worker.map.set(topologyName, {
        name: str(meta, 'name') ?? topologyName,
        version,
        semver,
        observed,
        rolling: observed && workerRolling(o),
      });
    }
  };
  read(sources.previous ?? [], false);
  read(sources.observed ?? [], true);
  return state;
}

/** The versions the control plane steps through, and those the workers follow. */
interface UpgradePlan {
  controlPlane: string[];
  workers: string[];
}

type Plan = UpgradePlan | { error: string };

/**
 * Why an object whose version differs from the topology's in text alone (`1.30.0`, `v1.30.0`) has
 * no next version: CAPI decides "pending upgrade" by comparing the strings, but computes the plan
 * only when the parsed versions differ (ComputeUpgradePlan returns early), so
 * computeControlPlaneVersion and computeMachineDeploymentVersion/computeMachinePoolVersion
 * (exp/topology/desiredstate/desired_state.go) fail with these messages.
 */
const NO_PLAN = (object: string) =>
  `cannot compute the ${object} version if the ${object} is pending upgrade and the upgrade plan is not set`;

const vtext = (v: SemVer) => `v${semverText(v)}`;

/** `GetUpgradePlanOneMinor` / `GetUpgradePlanFromClusterClassVersions` (control-plane steps only). */
function controlPlanePlan(
  cc: ClusterClass,
  desired: SemVer,
  desiredText: string,
  current: SemVer,
  currentText: string,
): string[] | { error: string } {
  if (semverText(current) === semverText(desired)) return [];
  if (!cc.kubernetesVersions || cc.kubernetesVersions.length === 0) {
    if (desired.minor > current.minor + 1)
      return { error: `cannot compute an upgrade plan from ${currentText} to ${desiredText}` };
    return [desiredText];
  }
  const steps: { text: string; minor: number }[] = [];
  for (const v of cc.kubernetesVersions) {
    const sv = parseTolerant(v);
    if (!sv) return { error: `failed to parse version ${v}` };
    if (sv.compare(current) <= 0) continue;
    if (compareVersions(sv, desired) === 1) break;
    steps.push({ text: v, minor: sv.minor });
    if (semverText(sv) === semverText(desired)) break;
  }
  const [first] = steps;
  if (first === undefined) return [];
  // One version per minor: the last one listed for it.
  const simplified: string[] = [];
  let minor = current.minor;
  if (minor === desired.minor) simplified.push(first.text);
  for (const step of steps) {
    if (step.minor > minor) simplified.push(step.text);
    if (step.minor === minor && simplified.length > 0) simplified[simplified.length - 1] = step.text;
    minor = step.minor;
  }
  return simplified;
}

/** `isLowerThanMinVersion`: order unknown (2) → lower unless it is the control plane's version. */
function lowerThanMin(v: SemVer, min: SemVer, cp: SemVer): boolean {
  const c = compareVersions(v, min);
  return c === -1 || (c === 2 && semverText(v) !== semverText(cp));
}

/** `ComputeUpgradePlan` + `DefaultAndValidateUpgradePlans` (default workers plan: every third minor, then the target). */
function upgradePlan(cc: ClusterClass, desiredText: string, cpText: string, workers: WorkerState[]): Plan {
  const desired = parseTolerant(desiredText);
  const cp = parseTolerant(cpText);
  if (!desired || !cp) return { error: `failed to parse version ${desired ? cpText : desiredText}` };
  let min: SemVer | undefined;
  for (const w of workers) {
    if (!min || lowerThanMin(w.semver, min, cp)) min = w.semver;
  }
  if (semverText(cp) === semverText(desired) && (!min || semverText(min) === semverText(desired)))
    return { controlPlane: [], workers: [] };
  const cpSteps = controlPlanePlan(cc, desired, desiredText, cp, cpText);
  if ('error' in cpSteps) return cpSteps;
  const minors = new Map<number, string>([[cp.minor, cpText]]);
  let cur = cp;
  for (const [i, step] of cpSteps.entries()) {
    const sv = parseTolerant(step);
    if (!sv) return { error: `invalid ControlPlane upgrade plan: item ${i}; failed to parse version ${step}` };
    if (compareVersions(sv, cur) <= 0)
      return {
        error: `invalid ControlPlane upgrade plan: item ${i}; version ${step} must be greater than ${vtext(cur)}`,
      };
    if (cur.minor !== sv.minor && cur.minor + 1 !== sv.minor) {
      return {
        error: `invalid ControlPlane upgrade plan: item ${i}; expecting a version with minor ${cur.minor} or ${cur.minor + 1}, found version ${step}`,
      };
    }
    minors.set(sv.minor, step);
    cur = sv;
  }
  if (compareVersions(cur, desired) !== 0) {
    return {
      error: `invalid ControlPlane upgrade plan: control plane upgrade plan must end with version ${desiredText}, ends with ${vtext(cur)} instead`,
    };
  }
  const workerSteps: string[] = [];
  if (min && compareVersions(min, desired) !== 0) {
    for (let i = 3; i < desired.minor - min.minor; i += 3) {
      const step = minors.get(min.minor + i);
      if (!step) return { error: `invalid upgrade plan; unable to identify version for minor ${min.minor + i}` };
      workerSteps.push(step);
    }
    if (workerSteps[workerSteps.length - 1] !== desiredText) workerSteps.push(desiredText);
  }
  return { controlPlane: cpSteps, workers: workerSteps };
}

interface Decision {
  versions: TopologyVersions;
  results: Result[];
}

/** Records an info result at `path` and, for `object` (`controlPlane`, `machineDeployment/<name>`), why its version is what it is. */
type Note = (message: string, path?: string, object?: string) => void;

/** A result about the upgrade plan of the Cluster `ref`. */
const planResult = (
  severity: Result['severity'],
  message: string,
  ref: ObjectRef,
  path = 'spec.topology.version',
): Result => ({
  severity,
  message,
  resourceRef: ref,
  field: { path },
  tags: { rule: 'upgrade-plan' },
});

/** Records the error of an object (`control plane`, `machine deployment`) at `at` that has no next version (NO_PLAN). */
type NoPlan = (object: string, at: string, path?: string) => void;

/** Why no upgrade plan can be had (an error), or that the class's upgrade-plan extension was not asked (a warning). */
function planResults(plan: Plan, cc: ClusterClass, cpVersion: string, ref: ObjectRef): Result[] {
  if ('error' in plan) {
    const fix =
      'set spec.topology.version to the next minor first, list the intermediate versions in the ClusterClass spec.kubernetesVersions, or render with upgrade: all-at-once';
    return [planResult('error', `${plan.error}: the control plane is at ${cpVersion}; ${fix}`, ref)];
  }
  if (plan.controlPlane.length === 0 || !asString(asObject(cc.upgrade?.external)?.generateUpgradePlanExtension))
    return [];
  const used = cc.kubernetesVersions?.length ? 'spec.kubernetesVersions' : 'one minor at a time';
  return [
    planResult(
      'warning',
      `the ClusterClass asks the upgrade-plan extension for the plan, which cannot be called offline; used ${used} instead: ${plan.controlPlane.join(' → ')}`,
      ref,
    ),
  ];
}

/** The control plane's version this render, and whether workers may follow it (it is stable, or waits for them). */
interface ControlPlaneDecision {
  version: string;
  stableOrWaiting: boolean;
}

/** CAPI `computeControlPlaneVersion`: the control plane takes the plan's next step only when nothing is in flight. */
function controlPlaneVersion(
  cpState: ControlPlaneState,
  target: string,
  plan: UpgradePlan,
  workers: { mdPlan: string[]; mpPlan: string[]; anyRolling: boolean },
  note: Note,
  noPlan: NoPlan,
): ControlPlaneDecision {
  const pending = cpState.version !== target;
  const [nextStep] = plan.controlPlane;
  let version = cpState.version;
  let starting = false;
  let waitingForWorkers = false;
  if (cpState.provisioning) {
    if (pending)
      note(
        `control plane stays at ${cpState.version}: it is still being provisioned (no status.version observed); it moves to ${target} once provisioned`,
      );
  } else if (cpState.upgrading) {
    if (pending)
      note(
        `control plane stays at ${cpState.version}: it is still upgrading (its status reports an older version); it moves on once it reports ${cpState.version}`,
      );
  } else if (workers.mdPlan[0] === cpState.version || workers.mpPlan[0] === cpState.version) {
    waitingForWorkers = true;
    if (pending)
      note(
        `control plane stays at ${cpState.version}: workers must reach ${cpState.version} first (Kubernetes version skew)`,
      );
  } else if (workers.anyRolling) {
    if (pending)
      note(`control plane stays at ${cpState.version}: workers are still rolling out; it moves on once they are done`);
  } else if (pending && nextStep === undefined) noPlan('control plane', cpState.version);
  else if (pending && nextStep !== undefined) {
    version = nextStep;
    starting = true;
    const steps =
      plan.controlPlane.length > 1 ? ` (step 1 of ${plan.controlPlane.length}: ${plan.controlPlane.join(' → ')})` : '';
    note(`control plane moves from ${cpState.version} to ${version}${steps}`);
  }
  return {
    version,
    stableOrWaiting: !cpState.provisioning && !cpState.upgrading && !starting && (!pending || waitingForWorkers),
  };
}

/** What every worker's version is decided with. */
interface WorkerRound {
  target: string;
  controlPlane: ControlPlaneDecision;
  /** Offline, "stable" also needs evidence: observed state showing the control plane at its version. */
  evidence: boolean;
  /** Said to a worker waiting without evidence: how to give it (empty where no observed state can be given). */
  evidenceHint: string;
  /** How many workers may upgrade at once (annotation UPGRADE_CONCURRENCY). */
  concurrency: number;
  note: Note;
  noPlan: NoPlan;
}

/** One kind of worker: its topology entries, their current objects and the upgrade plan they follow. */
interface WorkerList {
  kind: 'MachineDeployment' | 'MachinePool';
  list: 'machineDeployments' | 'machinePools';
  topos: { name: string; metadata?: { annotations?: Record<string, string> } }[];
  current: Map<string, WorkerState>;
  plan: string[];
}

/**
 * CAPI `computeMachineDeploymentVersion` and `computeMachinePoolVersion`: a worker moves one step
 * once the control plane is stable, in topology order, within the concurrency limit, unless held.
 */
function workerVersions(round: WorkerRound, { kind, list, topos, current, plan }: WorkerList): Map<string, string> {
  const { target, evidence, evidenceHint, concurrency, note, noPlan } = round;
  const [next] = plan;
  const { version: cpVersion, stableOrWaiting } = round.controlPlane;
  const key = list === 'machineDeployments' ? 'machineDeployment' : 'machinePool';
  const out = new Map<string, string>();
  const upgrading = new Set(topos.filter((t) => current.get(t.name)?.rolling).map((t) => t.name));
  let holdSeen = false;
  topos.forEach((t, i) => {
    const path = `spec.topology.workers.${list}[${i}]`;
    const object = `${key}/${t.name}`;
    const annotations = t.metadata?.annotations ?? {};
    const hold = holdSeen || HOLD_UPGRADE_SEQUENCE in annotations;
    holdSeen = hold;
    const w = current.get(t.name);
    if (!w) {
      // A new worker gets the target; CAPI creates it only once the control plane is stable.
      out.set(t.name, target);
      if (!stableOrWaiting || !evidence)
        note(
          `${kind} ${t.name} is new: CAPI creates it only once the control plane is stable at ${cpVersion}`,
          path,
          object,
        );
      return;
    }
    const keep = (why: string) => {
      out.set(t.name, w.version);
      note(`${kind} ${w.name} (topology ${t.name}) stays at ${w.version} (target ${target}): ${why}`, path, object);
    };
    if (w.version === target) out.set(t.name, target);
    else if (DEFER_UPGRADE in annotations) keep(`annotation ${DEFER_UPGRADE} is set; remove it to let it upgrade`);
    else if (hold)
      keep(
        `annotation ${HOLD_UPGRADE_SEQUENCE} is set on it or on an earlier entry; remove it to continue the sequence`,
      );
    else if (upgrading.size >= concurrency)
      keep(
        `${upgrading.size} worker(s) already upgrading, the limit is ${concurrency} (annotation ${UPGRADE_CONCURRENCY})`,
      );
    else if (!stableOrWaiting || !evidence)
      keep(
        `waiting for the control plane to finish its upgrade to ${cpVersion}${evidence || !evidenceHint ? '' : `; ${evidenceHint}`}`,
      );
    else if (next === undefined) {
      out.set(t.name, w.version);
      noPlan(kind === 'MachineDeployment' ? 'machine deployment' : 'machine pool', w.version, path);
    } else if (next === w.version) keep(`waiting for the control plane to take the next step of the upgrade plan`);
    else {
      upgrading.add(t.name);
      out.set(t.name, next);
      note(`${kind} ${w.name} (topology ${t.name}) moves from ${w.version} to ${next}`, path, object);
    }
  });
  return out;
}

/**
 * The versions of one Cluster's objects. `current` is undefined or empty for a new Cluster.
 * Results are `info` (what moves, what is held back and why) or `error` (no upgrade plan).
 * `evidenceHint` tells a waiting worker how to show the control plane done (none in a plan, which
 * previews the whole change).
 */
export function sequenceUpgrade(
  cluster: Cluster,
  cc: ClusterClass,
  current: CurrentState,
  policy: UpgradePolicy,
  ref: ObjectRef,
  evidenceHint: string = OBSERVED_HINT,
): Decision {
  const target = cluster.topology.version;
  const allAtTarget = targetVersions(cluster);
  const cpState = current.controlPlane;
  if (policy === 'all-at-once' || !cpState) return { versions: allAtTarget, results: [] };

  const results: Result[] = [];
  const reasons = new Map<string, string>();
  const note: Note = (message, path = 'spec.topology.version', object = 'controlPlane') => {
    results.push({ severity: 'info', message, resourceRef: ref, field: { path }, tags: { rule: 'upgrade-sequence' } });
    reasons.set(object, message);
  };
  const noPlan: NoPlan = (object, at, path) =>
    results.push(
      planResult(
        'error',
        `${NO_PLAN(object)}: it is at ${at} and spec.topology.version is ${target}, the same version written differently; CAPI compares the text, so write both alike`,
        ref,
        path,
      ),
    );

  const mdTopologies = cluster.topology.workers.machineDeployments;
  const mpTopologies = cluster.topology.workers.machinePools;
  const existing = (topos: { name: string }[], map: Map<string, WorkerState>) =>
    topos.flatMap((t) => map.get(t.name) ?? []);
  const currentMDs = existing(mdTopologies, current.machineDeployments);
  const currentMPs = existing(mpTopologies, current.machinePools);
  const plan = upgradePlan(cc, target, cpState.version, [...currentMDs, ...currentMPs]);
  results.push(...planResults(plan, cc, cpState.version, ref));
  if ('error' in plan) return { versions: allAtTarget, results };
  const mdPlan = currentMDs.length > 0 ? plan.workers : [];
  const mpPlan = currentMPs.length > 0 ? plan.workers : [];
  const anyRolling = [...currentMDs, ...currentMPs].some((w) => w.rolling);
  const controlPlane = controlPlaneVersion(cpState, target, plan, { mdPlan, mpPlan, anyRolling }, note, noPlan);
  const concurrency = Math.max(1, Number.parseInt(cluster.metadata.annotations?.[UPGRADE_CONCURRENCY] ?? '1', 10) || 1);
  const round: WorkerRound = {
    target,
    controlPlane,
    evidence: cpState.observed,
    evidenceHint,
    concurrency,
    note,
    noPlan,
  };
  return {
    versions: {
      controlPlane: controlPlane.version,
      machineDeployments: workerVersions(round, {
        kind: 'MachineDeployment',
        list: 'machineDeployments',
        topos: mdTopologies,
        current: current.machineDeployments,
        plan: mdPlan,
      }),
      machinePools: workerVersions(round, {
        kind: 'MachinePool',
        list: 'machinePools',
        topos: mpTopologies,
        current: current.machinePools,
        plan: mpPlan,
      }),
      reasons,
    },
    results,
  };
}

/** The group and kind of the control plane object a class creates (its template's kind without `Template`). */
export function controlPlaneKindOf(cc: ClusterClass): { group: string; kind: string } {
  const ref = cc.controlPlane.templateRef;
  return { group: groupOf(ref.apiVersion), kind: ref.kind.replace(/Template$/, '') };
}

/** A worker the next apply leaves below the topology version (upgrade sequencing holds it back), and why. */
export interface DeferredWorker {
  kind: 'MachineDeployment' | 'MachinePool';
  /** Its name in the Cluster topology. */
  topology: string;
  from: string;
  to: string;
  reason: string;
}

/**
 * The workers sequencing holds back when the Cluster moves from `previous` (its objects as
 * rendered before the change, taken as applied) to its topology: what `sequenceUpgrade` decides
 * for the next apply, without rendering anything.
 */
export function deferredWorkers(
  cluster: Cluster,
  cc: ClusterClass,
  previous: readonly JsonObject[],
  policy: UpgradePolicy,
  ref: ObjectRef,
): DeferredWorker[] {
  const current = currentStateOf(cluster, controlPlaneKindOf(cc), { previous });
  const { versions } = sequenceUpgrade(cluster, cc, current, policy, ref, '');
  const target = cluster.topology.version;
  const held = (kind: DeferredWorker['kind'], key: string, byName: ReadonlyMap<string, string>): DeferredWorker[] =>
    [...byName]
      .filter(([, version]) => version !== target)
      .map(([topology, from]) => ({
        kind,
        topology,
        from,
        to: target,
        reason: versions.reasons?.get(`${key}/${topology}`) ?? '',
      }));
  return [
    ...held('MachineDeployment', 'machineDeployment', versions.machineDeployments),
    ...held('MachinePool', 'machinePool', versions.machinePools),
  ];
}

/** Every object at the topology version: a new Cluster, or `upgrade: all-at-once`. */
export const targetVersions = (cluster: Cluster): TopologyVersions => ({
  controlPlane: cluster.topology.version,
  machineDeployments: new Map(),
  machinePools: new Map(),
});
