/**
 * Update safety against a previous state (CAPI internal/topology/check/compatibility.go, CAPI core/webhooks/admission/clusterclass.go rules 12–13, CAPI core/webhooks/admission/cluster.go rules
 * 11–13; design proposal "ClusterClass compatibility"):
 *
 * - `compareClusterClasses`: what the ClusterClass webhook refuses on update (template group/kind
 *   changes, removed worker classes / health checks / variables still used, schema changes that
 *   invalidate values in use, kubernetesVersions dropping a used version, class autoscaler
 *   annotations vs Clusters setting replicas). Results name the affected Clusters in the message
 *   and in `tags.clusters` (comma-separated names).
 * - `compareClusters`: what the Cluster webhook refuses on update (version downgrade, more than
 *   one minor up without `kubernetesVersions`, incompatible class change, a version change while
 *   the current state has no control plane or observed objects are still upgrading). The pending
 *   `AfterClusterUpgrade` hook is not checked.
 * - `rolloutReport`: which control planes and MachineDeployments (and MachinePools, for version
 *   changes) roll out their Machines between two renders, and why.
 */
import type {
  Cluster,
  ClusterClass,
  ClusterClassVariable,
  ClusterVariable,
  HealthCheck,
  Json,
  JsonObject,
  ObjectRef,
  TemplateRef,
} from '../core/model.js';
import type { Result } from '../core/result.js';
import { diffJson } from '../core/diff.js';
import { CLUSTER_NAME_LABEL, UNSAFE_VERSION_CHECK_ANNOTATION, groupOf } from '../core/labels.js';
import { compileClassVariables, validateVariableList, type CompiledVariables } from '../variables/index.js';
import { errorBody, errorString, forbidden, invalid, type FieldError } from '../core/fielderror.js';
import { canonicalJson, compareText, jsonString } from '../core/json.js';
import { compareCore, parseTolerant, semverText } from '../core/go/primitives.js';
import { hasAutoscalerAnnotations } from './rules.js';
import { FIX, keyed, withFix } from '../core/fixes.js';
import type { SemVer } from 'semver';

const goList = (names: readonly string[]) => `[${names.join(' ')}]`;
const uniqueSorted = (names: Iterable<string>) => [...new Set(names)].sort();

/** A result about the class: CAPI's text, then `fix`; `clusters` are the Clusters affected. */
function classResult(e: FieldError, ref: ObjectRef, rule: string, clusters: readonly string[], fix: string): Result {
  const tags: Record<string, string> = { rule };
  if (clusters.length > 0) tags.clusters = clusters.join(',');
  return { severity: 'error', message: withFix(errorBody(e), fix), resourceRef: ref, field: { path: e.field }, tags };
}

// ------------------------------------------------------------------ ClusterClass update

/** `ClusterClassTemplateAreCompatible`: group and kind must stay (an absent ref compares as empty). */
function templateCompat(
  oldRef: TemplateRef | undefined,
  newRef: TemplateRef | undefined,
  fallbackPath: string,
): FieldError[] {
  const path = newRef?.fieldPath ?? oldRef?.fieldPath ?? fallbackPath;
  const og = groupOf(oldRef?.apiVersion ?? '');
  const ng = groupOf(newRef?.apiVersion ?? '');
  const ok = oldRef?.kind ?? '';
  const nk = newRef?.kind ?? '';
  const out: FieldError[] = [];
  if (og !== ng)
    out.push(
      forbidden(
        `${path}.apiVersion`,
        `group of apiVersion cannot be changed from "${og}" to "${ng}" to prevent incompatible changes in the Clusters`,
      ),
    );
  if (ok !== nk)
    out.push(
      forbidden(
        `${path}.kind`,
        `kind cannot be changed from "${ok}" to "${nk}" to prevent incompatible changes in the Clusters`,
      ),
    );
  return out;
}

/**
 * `ClusterClassesAreCompatible`: group/kind changes of the infrastructure, control plane and
 * control plane machine templates, and of the infrastructure template of each worker class
 * (matched by class name) — with that worker class, whose users alone are affected.
 */
function templateChanges(
  oldCc: ClusterClass,
  newCc: ClusterClass,
): { errors: FieldError[]; worker?: { kind: 'MachineDeployment' | 'MachinePool'; class: string } }[] {
  const out: { errors: FieldError[]; worker?: { kind: 'MachineDeployment' | 'MachinePool'; class: string } }[] = [
    {
      errors: templateCompat(
        oldCc.infrastructure?.templateRef,
        newCc.infrastructure?.templateRef,
        'spec.infrastructure.templateRef',
      ),
    },
    {
      errors: templateCompat(
        oldCc.controlPlane.templateRef,
        newCc.controlPlane.templateRef,
        'spec.controlPlane.templateRef',
      ),
    },
  ];
  const oldMi = oldCc.controlPlane.machineInfrastructure?.templateRef;
  const newMi = newCc.controlPlane.machineInfrastructure?.templateRef;
  if (oldMi || newMi)
    out.push({ errors: templateCompat(oldMi, newMi, 'spec.controlPlane.machineInfrastructure.templateRef') });
  for (const [kind, oldList, newList] of [
    ['MachineDeployment', oldCc.workers.machineDeployments, newCc.workers.machineDeployments],
    ['MachinePool', oldCc.workers.machinePools, newCc.workers.machinePools],
  ] as const) {
    for (const cls of newList) {
      const old = (oldList as readonly { class: string; infrastructure: { templateRef: TemplateRef } }[]).find(
        (o) => o.class === cls.class,
      );
      if (old)
        out.push({
          errors: templateCompat(
            old.infrastructure.templateRef,
            cls.infrastructure.templateRef,
            `${cls.fieldPath}.infrastructure.templateRef`,
          ),
          worker: { kind, class: cls.class },
        });
    }
  }
  return out.filter((c) => c.errors.length > 0);
}

interface VariableUse {
  cluster: string;
  path: string;
  value: ClusterVariable;
}

function variableUses(cluster: Cluster): VariableUse[] {
  const out: VariableUse[] = [];
  const topo = cluster.topology;
  for (const v of topo.variables) out.push({ cluster: cluster.name, path: 'spec.topology.variables', value: v });
  for (const v of topo.controlPlane.variables?.overrides ?? [])
    out.push({ cluster: cluster.name, path: 'spec.topology.controlPlane.variables.overrides', value: v });
  for (const md of topo.workers.machineDeployments) {
    for (const v of md.variables?.overrides ?? [])
      out.push({
        cluster: cluster.name,
        path: `${keyed('spec.topology.workers.machineDeployments', md.name)}.variables.overrides`,
        value: v,
      });
  }
  for (const mp of topo.workers.machinePools) {
    for (const v of mp.variables?.overrides ?? [])
      out.push({
        cluster: cluster.name,
        path: `${keyed('spec.topology.workers.machinePools', mp.name)}.variables.overrides`,
        value: v,
      });
  }
  return out;
}

const schemaKey = (v: ClusterClassVariable) => canonicalJson(v.schema.openAPIV3Schema as unknown as Json);
const hcDefined = (hc: HealthCheck | undefined) => !!hc && (hc.checks !== undefined || hc.remediation !== undefined);
const reliesOnClassHealthCheck = (hc: HealthCheck | undefined) => hc?.enabled === true && !hcDefined(hc);

/** A ClusterClass update: the class before and after, and the Clusters using it. */
interface ClassUpdate {
  oldCc: ClusterClass;
  newCc: ClusterClass;
  classRef: ObjectRef;
  clustersUsing: readonly Cluster[];
}

/** The names of the Clusters whose topology has a worker of class `cls`, sorted. */
const usingWorkerClass = (
  clustersUsing: readonly Cluster[],
  list: 'machineDeployments' | 'machinePools',
  cls: string,
) =>
  uniqueSorted(clustersUsing.filter((c) => c.topology.workers[list].some((m) => m.class === cls)).map((c) => c.name));

/**
 * Update rules for a ClusterClass going from `oldCc` to `newCc`, given the Clusters using it
 * (their names appear in messages and `tags.clusters`). Results are about `classRef`.
 */
export function compareClusterClasses(
  oldCc: ClusterClass,
  newCc: ClusterClass,
  classRef: ObjectRef,
  clustersUsing: readonly Cluster[],
): Result[] {
  const update: ClassUpdate = { oldCc, newCc, classRef, clustersUsing };
  return [
    ...templateCompatibility(update),
    ...workerClassesRemoved(update),
    ...healthChecksRemoved(update),
    ...variableChanges(oldCc, newCc, classRef, clustersUsing),
    ...kubernetesVersionsInUse(update),
    ...autoscalerConflicts(update),
  ];
}

/** CAPI core/webhooks/admission/clusterclass.go rule 12: template group/kind. */
function templateCompatibility({ oldCc, newCc, classRef, clustersUsing }: ClassUpdate): Result[] {
  const all = uniqueSorted(clustersUsing.map((c) => c.name));
  return templateChanges(oldCc, newCc).flatMap((change) => {
    const worker = change.worker;
    const users =
      worker === undefined
        ? all
        : usingWorkerClass(
            clustersUsing,
            worker.kind === 'MachineDeployment' ? 'machineDeployments' : 'machinePools',
            worker.class,
          );
    const fix = users.length > 0 ? withFix(FIX.templateChange, FIX.usedBy(users)) : FIX.templateChange;
    return change.errors.map((e) => classResult(e, classRef, 'class-compatibility', users, fix));
  });
}

/** CAPI core/webhooks/admission/clusterclass.go rule 13: worker classes still used. */
function workerClassesRemoved({ oldCc, newCc, classRef, clustersUsing }: ClassUpdate): Result[] {
  const removed = (kind: 'MachineDeployment' | 'MachinePool', key: 'machineDeployments' | 'machinePools'): Result[] => {
    const kept = new Set(newCc.workers[key].map((c) => c.class));
    return uniqueSorted(oldCc.workers[key].map((c) => c.class).filter((c) => !kept.has(c))).flatMap((cls) =>
      usingWorkerClass(clustersUsing, key, cls).map((cluster) => {
        const e = forbidden(
          `spec.workers.${key}`,
          `${kind}Class "${cls}" cannot be deleted because it is used by Cluster "${cluster}"`,
        );
        return classResult(e, classRef, 'class-removed', [cluster], FIX.workerClassInUse(cluster, key, cls));
      }),
    );
  };
  return [...removed('MachineDeployment', 'machineDeployments'), ...removed('MachinePool', 'machinePools')];
}

/** Health checks relied upon (`enabled: true` without a definition of their own) cannot be removed from the class. */
function healthChecksRemoved({ oldCc, newCc, classRef, clustersUsing }: ClassUpdate): Result[] {
  const results: Result[] = [];
  const inUse = (path: string, users: string[]) => {
    if (users.length === 0) return;
    const e = forbidden(path, `healthCheck cannot be deleted because it is used by Cluster(s) "${users.join(',')}"`);
    results.push(classResult(e, classRef, 'health-check-removed', users, FIX.healthCheckInUse));
  };
  if (hcDefined(oldCc.controlPlane.healthCheck) && !hcDefined(newCc.controlPlane.healthCheck)) {
    inUse(
      'spec.controlPlane.healthCheck',
      uniqueSorted(
        clustersUsing.filter((c) => reliesOnClassHealthCheck(c.topology.controlPlane.healthCheck)).map((c) => c.name),
      ),
    );
  }
  for (const cls of newCc.workers.machineDeployments) {
    const old = oldCc.workers.machineDeployments.find((o) => o.class === cls.class);
    if (!old || !hcDefined(old.healthCheck) || hcDefined(cls.healthCheck)) continue;
    const users = uniqueSorted(
      clustersUsing
        .filter((c) =>
          c.topology.workers.machineDeployments.some(
            (m) => m.class === cls.class && reliesOnClassHealthCheck(m.healthCheck),
          ),
        )
        .map((c) => c.name),
    );
    inUse(`${keyed('spec.workers.machineDeployments', cls.class)}.healthCheck`, users);
  }
  return results;
}

/** kubernetesVersions must keep every version in use. */
function kubernetesVersionsInUse({ newCc, classRef, clustersUsing }: ClassUpdate): Result[] {
  if (!newCc.kubernetesVersions || newCc.kubernetesVersions.length === 0) return [];
  const listed = new Set(newCc.kubernetesVersions);
  const results: Result[] = [];
  for (const c of [...clustersUsing].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const v = c.topology.version.startsWith('v') ? c.topology.version : `v${c.topology.version}`;
    if (listed.has(v)) continue;
    const e = forbidden(
      'spec.kubernetesVersions',
      `Kubernetes Version ${v} is used by Cluster "${c.name}" but not set in ClusterClass`,
    );
    results.push(classResult(e, classRef, 'kubernetes-versions', [c.name], FIX.kubernetesVersionInUse(v, c.name)));
  }
  return results;
}

/** Class autoscaler annotations vs Clusters that set replicas (CAPI core/webhooks/admission/cluster.go rule 10, run by the class webhook). */
function autoscalerConflicts({ newCc, classRef, clustersUsing }: ClassUpdate): Result[] {
  const results: Result[] = [];
  for (const c of clustersUsing) {
    for (const md of c.topology.workers.machineDeployments) {
      if (md.replicas === undefined) continue;
      const cls = newCc.workers.machineDeployments.find((k) => k.class === md.class);
      if (!cls || !hasAutoscalerAnnotations(cls.metadata)) continue;
      const e = invalid(
        `${keyed('spec.topology.workers.machineDeployments', md.name)}.replicas`,
        md.replicas,
        `cannot be set for cluster "${c.name}" in namespace "${c.namespace}" if the source class "${md.class}" of this MachineDeploymentTopology has autoscaler annotations`,
      );
      results.push(classResult(e, classRef, 'autoscaler', [c.name], FIX.autoscalerClassInUse(md.class, c.name)));
    }
  }
  return results;
}

function variableChanges(
  oldCc: ClusterClass,
  newCc: ClusterClass,
  classRef: ObjectRef,
  clustersUsing: readonly Cluster[],
): Result[] {
  const results: Result[] = [];
  const oldVars = new Map(oldCc.variables.map((v) => [v.name, v] as const));
  const newVars = new Map(newCc.variables.map((v) => [v.name, v] as const));
  const uses = clustersUsing.flatMap(variableUses);

  // Removed while set by a Cluster (cluster-level or override).
  for (const [name] of oldVars) {
    if (newVars.has(name)) continue;
    const users = uniqueSorted(uses.filter((u) => u.value.name === name).map((u) => u.cluster));
    if (users.length === 0) continue;
    const e = forbidden(
      'spec.variables',
      `variable ${name} can not be removed. It is used in Clusters ${goList(users)}`,
    );
    results.push(classResult(e, classRef, 'variable-removed', users, FIX.variableInUse(name)));
  }

  // Schema changed: the values in use must still validate.
  const altered = [...newVars.values()].filter((v) => {
    const old = oldVars.get(v.name);
    return old !== undefined && schemaKey(old) !== schemaKey(v);
  });
  let compiled: CompiledVariables | undefined;
  for (const v of altered) {
    compiled ??= compileClassVariables(newCc, classRef).variables;
    const failures = new Map<string, string>();
    for (const u of uses.filter((x) => x.value.name === v.name)) {
      const [first] = validateVariableList(compiled, [u.value], [], u.path, false).errors;
      if (first && !failures.has(u.cluster)) failures.set(u.cluster, `${u.cluster}: ${errorString(first)}`);
    }
    if (failures.size === 0) continue;
    const byCluster = [...failures].sort(([a], [b]) => compareText(a, b));
    const users = byCluster.map(([cluster]) => cluster);
    const e = forbidden(
      v.fieldPath,
      `variable schema change for ${v.name} is invalid. It failed validation in Clusters ${goList(users)}`,
    );
    results.push(
      classResult(
        e,
        classRef,
        'variable-schema',
        users,
        FIX.variableSchemaInUse(byCluster.map(([, failure]) => failure)),
      ),
    );
  }

  // Newly required without a default: every Cluster must already set it.
  for (const v of newVars.values()) {
    const old = oldVars.get(v.name);
    if (!v.required || old?.required || (v.schema.openAPIV3Schema.default ?? null) !== null) continue;
    const users = uniqueSorted(
      clustersUsing.filter((c) => !c.topology.variables.some((x) => x.name === v.name)).map((c) => c.name),
    );
    if (users.length === 0) continue;
    const e = forbidden(v.fieldPath, `variable ${v.name} is required but is not defined in Clusters ${goList(users)}`);
    results.push(classResult(e, classRef, 'variable-required', users, FIX.variableNewlyRequired));
  }
  return results;
}

// ------------------------------------------------------------------ Cluster update

const classKeyOf = (c: Cluster) => `${c.topology.classRef.namespace ?? c.namespace}/${c.topology.classRef.name}`;

/**
 * Update rules for a Cluster going from `oldCluster` to `newCluster`. `classes.old` is the class
 * the old Cluster used, `classes.new` the one the new Cluster uses (the same object when the
 * class did not change). Removing the topology is not representable in the model and not checked.
 */
export function compareClusters(
  oldCluster: Cluster,
  newCluster: Cluster,
  ref: ObjectRef,
  classes: { old?: ClusterClass; new?: ClusterClass },
  current?: () => CurrentObjects | undefined,
): Result[] {
  const results: Result[] = [];
  const push = (severity: 'error' | 'warning', path: string, message: string, rule: string) =>
    results.push({ severity, message, resourceRef: ref, field: { path }, tags: { rule } });
  const v1 = newCluster.sourceApiVersion.endsWith('/v1beta1');
  const classPath = v1 ? 'spec.topology.class' : 'spec.topology.classRef';

  // CAPI core/webhooks/admission/cluster.go rule 13: class change.
  const oldKey = classKeyOf(oldCluster);
  const newKey = classKeyOf(newCluster);
  if (oldKey !== newKey) {
    if (!classes.old) {
      push(
        'warning',
        classPath,
        withFix(
          `valid ClusterClass with name "${oldKey}" could not be retrieved, change from class "${oldKey}" to class "${newKey}" cannot be validated`,
          FIX.previousClassMissing,
        ),
        'class-change',
      );
    } else if (classes.new) {
      for (const e of templateChanges(classes.old, classes.new).flatMap((c) => c.errors)) {
        push('error', classPath, withFix(errorBody(e), FIX.classChange(e.field, oldKey, newKey)), 'class-change');
      }
    }
  }

  // CAPI core/webhooks/admission/cluster.go rule 12: version changes.
  const oldV = parseTolerant(oldCluster.topology.version);
  const newV = parseTolerant(newCluster.topology.version);
  if (!oldV || !newV || semverText(oldV) === semverText(newV)) return results;
  if (newCluster.metadata.annotations?.[UNSAFE_VERSION_CHECK_ANNOTATION] !== undefined) {
    push(
      'warning',
      'spec.topology.version',
      `Skipping version validation for Cluster because annotation "${UNSAFE_VERSION_CHECK_ANNOTATION}" is set.`,
      'version-update',
    );
    return results;
  }
  const raw = JSON.stringify(newCluster.topology.version);
  if (compareCore(newV, oldV) < 0) {
    push(
      'error',
      'spec.topology.version',
      withFix(
        `Invalid value: ${raw}: version cannot be decreased from "${semverText(oldV)}" to "${semverText(newV)}"`,
        FIX.versionDecreased(semverText(oldV)),
      ),
      'version-update',
    );
    return results;
  }
  const cc = classes.new ?? classes.old;
  const plans = ((cc?.upgrade?.external as JsonObject | undefined)?.generateUpgradePlanExtension ?? '') !== '';
  if (cc && (cc.kubernetesVersions ?? []).length === 0 && !plans) {
    // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- a version made of three numbers parses
    const ceiling = parseTolerant(`${oldV.major}.${oldV.minor + 2}.0`)!;
    if (compareCore(newV, ceiling) >= 0) {
      push(
        'error',
        'spec.topology.version',
        withFix(
          `Invalid value: ${raw}: version cannot be increased from "${semverText(oldV)}" to "${semverText(newV)}"`,
          FIX.versionCeiling(`v${oldV.major}.${oldV.minor + 1}.x`),
        ),
        'version-update',
      );
      return results;
    }
  }
  const state = current?.();
  const blockers = state ? versionChangeBlockers(state, oldV) : [];
  if (blockers.length > 0) {
    // kerrors.NewAggregate's text: one error as it is, several in brackets.
    const cause = blockers.length === 1 ? blockers[0] : `[${blockers.join(', ')}]`;
    const fix = state?.controlPlane ? FIX.versionChangeUpgrading : FIX.versionChangeUnreconciled;
    push(
      'error',
      'spec.topology.version',
      withFix(`Invalid value: ${raw}: version cannot be changed: ${cause}`, fix(semverText(oldV))),
      'version-update',
    );
  }
  return results;
}

/** A MachineDeployment or MachinePool of the current state. */
interface CurrentWorker {
  /** `metadata.name`. */
  name: string;
  semver: SemVer;
  observed: boolean;
  rolling: boolean;
}

/**
 * What the version rules read of a Cluster's current objects (topology/upgrade.ts `currentStateOf`
 * computes it): the control plane, and the workers by topology name; `observed` when the object
 * comes from the observed (live) export, which alone tells provisioning, upgrading and rolling.
 */
export interface CurrentObjects {
  controlPlane?: { version: string; observed: boolean; provisioning: boolean; upgrading: boolean };
  machineDeployments: ReadonlyMap<string, CurrentWorker>;
  machinePools: ReadonlyMap<string, CurrentWorker>;
}

/**
 * Why the current state refuses a version change (CAPI core/webhooks/admission/cluster.go, v1.12/v1.13
 * internal/webhooks/cluster.go: `validateTopologyControlPlaneVersion`,
 * `validateTopologyMachineDeploymentVersions`, `validateTopologyMachinePoolVersions`). The control
 * plane is read through the old Cluster's `spec.controlPlaneRef`, which the topology controller sets
 * once it created the control plane: a Cluster whose topology never reconciled has none. The
 * upgrade checks read live objects, so only observed ones are checked, and only while the observed
 * control plane is at the old version: at another one, the live Cluster may already carry this
 * change (the previous inputs lag behind what was applied), which CAPI then does not check again.
 */
function versionChangeBlockers(state: CurrentObjects, oldV: SemVer): string[] {
  const old = semverText(oldV);
  const cp = state.controlPlane;
  if (!cp) {
    return [
      'failed to check if control plane is upgrading: failed to get control plane object: cannot get object - object reference not set',
    ];
  }
  const cpVersion = parseTolerant(cp.version);
  if (!cp.observed || !cpVersion || semverText(cpVersion) !== old) return [];
  const out: string[] = [];
  if (cp.provisioning) out.push('control plane is currently provisioning');
  else if (cp.upgrading) out.push('control plane is still completing a previous upgrade');
  const upgrading = (workers: ReadonlyMap<string, CurrentWorker>) =>
    [...workers.values()].filter((w) => w.observed && (semverText(w.semver) !== old || w.rolling)).map((w) => w.name);
  const mds = upgrading(state.machineDeployments);
  if (mds.length > 0) out.push(`there are still MachineDeployments completing a previous upgrade: [${mds.join(', ')}]`);
  const mps = upgrading(state.machinePools);
  if (mps.length > 0) out.push(`there are still MachinePools completing a previous upgrade: [${mps.join(', ')}]`);
  return out;
}

// ------------------------------------------------------------------ rollouts

/** Rendered objects as the pipeline produces them (any order, any number of Clusters). */
export type RenderedObjects = readonly JsonObject[];

type RolloutCause =
  'infrastructureTemplate' | 'bootstrapTemplate' | 'version' | 'failureDomain' | 'kubeadmConfigSpec' | 'rolloutAfter';

interface RolloutReason {
  /** One-line summary, e.g. `infrastructure template DevMachineTemplate "c1-md-0-abcde" → "c1-md-0-fghij"`. */
  template: string;
  /** Dotted paths that changed: template clone fields (`spec.template.spec.customImage`) or the object's own field. */
  fields: string[];
  cause: RolloutCause;
  /** Previous and new value (clone name, version, ...). */
  from?: string;
  to?: string;
}

export interface Rollout {
  /** Cluster name (label `cluster.x-k8s.io/cluster-name`). */
  cluster: string;
  namespace?: string;
  /** Kind and name of the object whose Machines are replaced. */
  kind: string;
  name: string;
  reasons: RolloutReason[];
}

const obj = (v: Json | undefined): JsonObject | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? v : undefined;
const at = (o: JsonObject | undefined, ...path: string[]): Json | undefined => {
  let cur: Json | undefined = o;
  for (const p of path) cur = obj(cur)?.[p];
  return cur;
};
const str = (v: Json | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
const metaOf = (o: JsonObject) => obj(o.metadata) ?? {};
const nameOf = (o: JsonObject) => str(metaOf(o).name) ?? '';
const nsOf = (o: JsonObject) => str(metaOf(o).namespace);
const clusterOf = (o: JsonObject) => str(obj(metaOf(o).labels)?.[CLUSTER_NAME_LABEL]);

type Role = 'ControlPlane' | 'MachineDeployment' | 'MachinePool';
function roleOf(o: JsonObject): Role | undefined {
  const kind = str(o.kind) ?? '';
  const group = groupOf(str(o.apiVersion) ?? '');
  if (group === 'cluster.x-k8s.io') return kind === 'MachineDeployment' || kind === 'MachinePool' ? kind : undefined;
  if (kind.endsWith('Template') || clusterOf(o) === undefined) return undefined;
  // A control plane is the only other generated object with a version or a machine template.
  return typeof at(o, 'spec', 'version') === 'string' || obj(at(o, 'spec', 'machineTemplate'))
    ? 'ControlPlane'
    : undefined;
}

const objectKey = (o: JsonObject) => `${clusterOf(o)}\0${nsOf(o) ?? ''}\0${str(o.kind)}\0${nameOf(o)}`;
const refText = (r: JsonObject | undefined) => (r ? `${str(r.kind) ?? '?'} "${str(r.name) ?? '?'}"` : 'none');

function findClone(
  objects: RenderedObjects,
  ns: string | undefined,
  ref: JsonObject | undefined,
): JsonObject | undefined {
  if (!ref) return undefined;
  return objects.find(
    (o) => str(o.kind) === str(ref.kind) && nameOf(o) === str(ref.name) && (nsOf(o) ?? '') === (ns ?? ''),
  );
}

function refReason(
  cause: 'infrastructureTemplate' | 'bootstrapTemplate',
  label: string,
  before: JsonObject | undefined,
  after: JsonObject | undefined,
  prev: RenderedObjects,
  cur: RenderedObjects,
  ns: string | undefined,
): RolloutReason | undefined {
  if (canonicalJson(before ?? null) === canonicalJson(after ?? null)) return undefined;
  const oldClone = findClone(prev, ns, before);
  const newClone = findClone(cur, ns, after);
  const fields = oldClone && newClone ? diffJson(oldClone.spec, newClone.spec, 'spec').map((c) => c.path) : [];
  const sameKind = str(before?.kind) === str(after?.kind);
  const template = sameKind
    ? `${label} ${str(after?.kind) ?? '?'} "${str(before?.name) ?? '?'}" → "${str(after?.name) ?? '?'}"`
    : `${label} ${refText(before)} → ${refText(after)}`;
  const reason: RolloutReason = { template, fields, cause };
  const from = str(before?.name);
  const to = str(after?.name);
  if (from !== undefined) reason.from = from;
  if (to !== undefined) reason.to = to;
  return reason;
}

function valueReason(
  cause: RolloutCause,
  label: string,
  path: string,
  before: Json | undefined,
  after: Json | undefined,
): RolloutReason | undefined {
  if (jsonString(before ?? null) === jsonString(after ?? null)) return undefined;
  const text = (v: Json | undefined) =>
    v === undefined || v === null ? 'unset' : typeof v === 'string' ? v : jsonString(v);
  const reason: RolloutReason = { template: `${label} ${text(before)} → ${text(after)}`, fields: [path], cause };
  if (before !== undefined && before !== null) reason.from = text(before);
  if (after !== undefined && after !== null) reason.to = text(after);
  return reason;
}

function controlPlaneReasons(
  p: JsonObject,
  c: JsonObject,
  prev: RenderedObjects,
  cur: RenderedObjects,
): RolloutReason[] {
  const infraRef = (o: JsonObject) =>
    obj(at(o, 'spec', 'machineTemplate', 'spec', 'infrastructureRef')) ??
    obj(at(o, 'spec', 'machineTemplate', 'infrastructureRef'));
  const out = [
    refReason(
      'infrastructureTemplate',
      'machine infrastructure template',
      infraRef(p),
      infraRef(c),
      prev,
      cur,
      nsOf(c),
    ),
    valueReason('version', 'version', 'spec.version', at(p, 'spec', 'version'), at(c, 'spec', 'version')),
  ];
  if (str(c.kind) === 'KubeadmControlPlane') {
    const fields = diffJson(
      at(p, 'spec', 'kubeadmConfigSpec'),
      at(c, 'spec', 'kubeadmConfigSpec'),
      'spec.kubeadmConfigSpec',
    ).map((x) => x.path);
    if (fields.length > 0)
      out.push({ template: 'KubeadmControlPlane spec.kubeadmConfigSpec changed', fields, cause: 'kubeadmConfigSpec' });
  }
  const after = (o: JsonObject) => at(o, 'spec', 'rollout', 'after') ?? at(o, 'spec', 'rolloutAfter');
  out.push(valueReason('rolloutAfter', 'rollout.after', 'spec.rollout.after', after(p), after(c)));
  return out.filter((r): r is RolloutReason => r !== undefined);
}

function machineDeploymentReasons(
  p: JsonObject,
  c: JsonObject,
  prev: RenderedObjects,
  cur: RenderedObjects,
): RolloutReason[] {
  const spec = (o: JsonObject) => obj(at(o, 'spec', 'template', 'spec'));
  const ps = spec(p);
  const cs = spec(c);
  const out = [
    refReason(
      'infrastructureTemplate',
      'infrastructure template',
      obj(ps?.infrastructureRef),
      obj(cs?.infrastructureRef),
      prev,
      cur,
      nsOf(c),
    ),
    refReason(
      'bootstrapTemplate',
      'bootstrap template',
      obj(at(ps, 'bootstrap', 'configRef')),
      obj(at(cs, 'bootstrap', 'configRef')),
      prev,
      cur,
      nsOf(c),
    ),
    valueReason('version', 'version', 'spec.template.spec.version', ps?.version, cs?.version),
    valueReason(
      'failureDomain',
      'failureDomain',
      'spec.template.spec.failureDomain',
      ps?.failureDomain,
      cs?.failureDomain,
    ),
  ];
  const after = (o: JsonObject) => at(o, 'spec', 'rollout', 'after') ?? at(o, 'spec', 'rolloutAfter');
  out.push(valueReason('rolloutAfter', 'rollout.after', 'spec.rollout.after', after(p), after(c)));
  return out.filter((r): r is RolloutReason => r !== undefined);
}

const ROLE_ORDER: Record<Role, number> = { ControlPlane: 0, MachineDeployment: 1, MachinePool: 2 };

/**
 * Machines that roll out between two renders: per control plane, a changed machine
 * infrastructure template reference (clone names are content hashes, so a spec change is a new
 * name), version, KubeadmControlPlane `kubeadmConfigSpec`, or `rollout.after`; per
 * MachineDeployment, changed infrastructure/bootstrap template references, version,
 * failureDomain or `rollout.after` (what `MachineTemplateUpToDate` compares); per MachinePool,
 * version. Objects only in one render are creations/deletions, not rollouts.
 */
export function rolloutReport(previous: RenderedObjects, current: RenderedObjects): Rollout[] {
  const before = new Map<string, JsonObject>();
  for (const o of previous) if (roleOf(o)) before.set(objectKey(o), o);
  const out: (Rollout & { role: Role })[] = [];
  for (const c of current) {
    const role = roleOf(c);
    const p = role ? before.get(objectKey(c)) : undefined;
    if (!role || !p) continue;
    const reasons =
      role === 'ControlPlane'
        ? controlPlaneReasons(p, c, previous, current)
        : role === 'MachineDeployment'
          ? machineDeploymentReasons(p, c, previous, current)
          : [
              valueReason(
                'version',
                'version',
                'spec.template.spec.version',
                at(p, 'spec', 'template', 'spec', 'version'),
                at(c, 'spec', 'template', 'spec', 'version'),
              ),
            ].filter((r): r is RolloutReason => r !== undefined);
    if (reasons.length === 0) continue;
    // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- every rendered object carries the cluster-name label
    const cluster = clusterOf(c)!;
    const rollout: Rollout & { role: Role } = { cluster, kind: str(c.kind) ?? '', name: nameOf(c), reasons, role };
    const ns = nsOf(c);
    if (ns !== undefined) rollout.namespace = ns;
    out.push(rollout);
  }
  // Code-unit order: Kubernetes names are lowercase ASCII, where it is the alphabetical order, under any locale.
  out.sort(
    (a, b) =>
      compareText(a.namespace ?? '', b.namespace ?? '') ||
      compareText(a.cluster, b.cluster) ||
      ROLE_ORDER[a.role] - ROLE_ORDER[b.role] ||
      compareText(a.name, b.name),
  );
  return out.map(({ role: _role, ...r }) => r);
}
