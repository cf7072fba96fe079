/**
 * Plan: render a base and a head input set and say, per Cluster, which objects are created,
 * deleted or modified (field by field), which control planes and MachineDeployments roll out and
 * why, and which Clusters newly fail validation — summarised across the fleet.
 */
import type { JsonObject, ObjectRef } from '../core/model.js';
import type { Result } from '../core/result.js';
import type { RenderConfig } from '../krm/config.js';
import { asObject, asString, cloneJson, jsonText } from '../core/json.js';
import { runPipeline, type PipelineExtras } from '../pipeline/run.js';
import {
  classify,
  classKeyOf,
  clusterKey,
  dropAnnotations,
  isClusterObject,
  isToolAnnotation,
  namespacedRef,
} from '../pipeline/classify.js';
import { normalizeCluster } from '../api/normalize.js';
import { CLONED_FROM_NAME, DEPLOYMENT_NAME_LABEL, POOL_NAME_LABEL } from '../core/labels.js';
import { rolloutReport, type Rollout } from '../webhooks/compatibility.js';
import type { DeferredWorker } from '../topology/upgrade.js';
import {
  NO_MACHINES,
  addMachines,
  plannedRollouts,
  replacedMachines,
  type Machines,
  type PlannedRollout,
} from './blast.js';
import { diffJson, type FieldChange } from '../core/diff.js';
import { updateResults } from '../pipeline/update.js';
import type { InputItem } from '../krm/item.js';

/** One side of a plan: the input items of a revision and what reading them reported. */
export interface PlanSide {
  items: InputItem[];
  readResults: Result[];
}

interface ObjectChange {
  ref: ObjectRef;
  /**
   * What the object is in every Cluster of its class, so that Clusters' changes can be grouped:
   * a clone's class template (`DevMachineTemplate quick-start-worker`), a worker's topology name
   * (`MachineDeployment md-0`), else its kind (one per Cluster).
   */
  source: string;
  /** A rotated template clone: the name it had in the base. */
  renamedFrom?: string;
  changes: FieldChange[];
}

/**
 * `failing`: renders in the base, not in the head (or is new and does not render); `still-failing`:
 * renders on neither side (not a change; its errors are listed); `fixed`: the other way round.
 */
type ClusterStatus = 'created' | 'deleted' | 'changed' | 'unchanged' | 'failing' | 'still-failing' | 'fixed';

export interface ClusterPlan {
  cluster: string;
  /** `namespace/name` of the ClusterClass (two namespaces may each hold a class of one name). */
  clusterClass: string;
  status: ClusterStatus;
  created: ObjectRef[];
  deleted: ObjectRef[];
  modified: ObjectChange[];
  rollouts: PlannedRollout[];
  /** Machine replacements of its rollouts (a double rollout counts twice). */
  machines: Machines;
  /** Workers upgrade sequencing holds back (their version step follows the control plane's). */
  deferred: DeferredWorker[];
  /** Error results in head that the base did not have. */
  newErrors: Result[];
  /** Every error result of the Cluster in head. */
  errors: Result[];
}

/** What one group of Clusters (a ClusterClass, the fleet) adds up to. */
interface PlanCounts {
  clusters: number;
  changed: number;
  rollingOut: number;
  newlyFailing: number;
  /** Machine replacements (a range where autoscaled pools roll). */
  machines: Machines;
  /** Clusters with workers upgrade sequencing holds back. */
  deferred: number;
  doubleRollouts: number;
}

/** The version of the JSON contract (schemas/plan.v1.json). */
const PLAN_SCHEMA_VERSION = 1;

export interface Plan {
  schemaVersion: typeof PLAN_SCHEMA_VERSION;
  clusters: ClusterPlan[];
  /** ClusterClasses the head's Clusters use that are not among its inputs (said once, not per Cluster). */
  missingClasses: { clusterClass: string; clusters: number }[];
  summary: PlanCounts & {
    stillFailing: number;
    byClass: (PlanCounts & { clusterClass: string })[];
  };
}

interface Rendered {
  objects: Map<string, JsonObject[]>;
  deferred: Map<string, DeferredWorker[]>;
  errors: Map<string, Result[]>;
  classes: Map<string, string>;
}

const refOfObject = (o: JsonObject): ObjectRef => {
  const meta = asObject(o.metadata) ?? {};
  const ref: ObjectRef = { apiVersion: jsonText(o.apiVersion), kind: jsonText(o.kind), name: jsonText(meta.name) };
  if (typeof meta.namespace === 'string') ref.namespace = meta.namespace;
  return ref;
};

/** An object without the bookkeeping annotations of tools (they never reach the cluster). */
function comparable(o: JsonObject): JsonObject {
  const copy = cloneJson(o);
  const meta = asObject(copy.metadata);
  if (meta) dropAnnotations(meta, isToolAnnotation);
  return copy;
}

/** Rotating template clones are matched by name prefix (their 5-character suffix is a content hash). */
function matchKey(o: JsonObject): string {
  const ref = refOfObject(o);
  const rotating =
    ref.kind.endsWith('Template') &&
    asString(asObject(asObject(o.metadata)?.annotations)?.[CLONED_FROM_NAME]) !== undefined;
  return `${ref.kind}/${rotating ? `${ref.name.slice(0, -5)}*` : ref.name}`;
}

function sourceOf(o: JsonObject): string {
  const meta = asObject(o.metadata);
  const labels = asObject(meta?.labels);
  const name =
    asString(asObject(meta?.annotations)?.[CLONED_FROM_NAME]) ??
    asString(labels?.[DEPLOYMENT_NAME_LABEL]) ??
    asString(labels?.[POOL_NAME_LABEL]);
  const kind = jsonText(o.kind);
  return name === undefined ? kind : `${kind} ${name}`;
}

/** The class of a Cluster whose topology cannot be read (its errors say why). */
const INVALID_TOPOLOGY = '(invalid topology)';

function render(side: PlanSide, config: RenderConfig, extras: PipelineExtras): Rendered {
  const out = runPipeline(side.items, { ...config, mode: 'preview' }, side.readResults, extras);
  const objects = new Map<string, JsonObject[]>();
  const deferred = new Map<string, DeferredWorker[]>();
  for (const g of out.generated) {
    objects.set(g.cluster, g.objects.map(comparable));
    if (g.deferred) deferred.set(g.cluster, g.deferred);
  }
  const errors = new Map<string, Result[]>();
  const classes = new Map<string, string>();
  for (const item of classify(side.items, config.defaultNamespace).clusters) {
    const ref = namespacedRef(item, config.defaultNamespace);
    const cluster = normalizeCluster(item.value, ref).value;
    classes.set(clusterKey(ref.namespace, ref.name), cluster ? classKeyOf(cluster) : INVALID_TOPOLOGY);
  }
  for (const r of out.results) {
    if (r.severity !== 'error') continue;
    const cluster =
      r.tags?.cluster ??
      (r.resourceRef?.kind === 'Cluster'
        ? `${r.resourceRef.namespace ?? config.defaultNamespace}/${r.resourceRef.name}`
        : undefined);
    if (!cluster) continue;
    errors.set(cluster, [...(errors.get(cluster) ?? []), r]);
  }
  return { objects, deferred, errors, classes };
}

const resultKey = (r: Result) => `${r.resourceRef?.kind}/${r.resourceRef?.name}/${r.field?.path}/${r.message}`;

/** A Cluster's rollouts between two renders (the report names Clusters without their namespace). */
const rolloutsOf = (cluster: string, before: readonly JsonObject[], after: readonly JsonObject[]): Rollout[] =>
  rolloutReport(before, after).filter((r) => r.cluster === cluster.split('/')[1] || r.cluster === cluster);

function planCluster(
  cluster: string,
  clusterClass: string,
  base: Rendered,
  head: Rendered,
  nextStep: ReadonlyMap<string, JsonObject[]>,
): ClusterPlan {
  const before = base.objects.get(cluster);
  const after = head.objects.get(cluster);
  const baseErrors = base.errors.get(cluster) ?? [];
  const headErrors = head.errors.get(cluster) ?? [];
  const known = new Set(baseErrors.map(resultKey));
  const plan: ClusterPlan = {
    cluster,
    clusterClass,
    status: 'unchanged',
    created: [],
    deleted: [],
    modified: [],
    rollouts: [],
    machines: NO_MACHINES,
    deferred: [],
    newErrors: headErrors.filter((r) => !known.has(resultKey(r))),
    errors: headErrors,
  };
  if (!after) {
    plan.status =
      headErrors.length === 0 ? 'deleted' : !before && base.classes.has(cluster) ? 'still-failing' : 'failing';
    if (plan.status === 'deleted') plan.deleted = (before ?? []).map(refOfObject);
    return plan;
  }
  if (!before) {
    plan.status = base.classes.has(cluster) ? 'fixed' : 'created';
    plan.created = after.map(refOfObject);
    return plan;
  }
  const beforeByKey = new Map(before.map((o) => [matchKey(o), o]));
  const afterByKey = new Map(after.map((o) => [matchKey(o), o]));
  for (const [key, o] of afterByKey) {
    const old = beforeByKey.get(key);
    if (!old) {
      plan.created.push(refOfObject(o));
      continue;
    }
    const oldName = refOfObject(old).name;
    const changes = diffJson(
      { ...old, metadata: { ...asObject(old.metadata), name: null } },
      { ...o, metadata: { ...asObject(o.metadata), name: null } },
    );
    const renamed = oldName !== refOfObject(o).name;
    if (changes.length > 0 || renamed) {
      const change: ObjectChange = { ref: refOfObject(o), source: sourceOf(o), changes };
      if (renamed) change.renamedFrom = oldName;
      plan.modified.push(change);
    }
  }
  for (const [key, o] of beforeByKey) if (!afterByKey.has(key)) plan.deleted.push(refOfObject(o));
  plan.deferred = head.deferred.get(cluster) ?? [];
  const next = nextStep.get(cluster);
  plan.rollouts = plannedRollouts(
    rolloutsOf(cluster, before, after),
    after,
    plan.deferred,
    next ? rolloutsOf(cluster, before, next) : [],
  );
  plan.machines = replacedMachines(plan.rollouts);
  const changed = plan.created.length + plan.deleted.length + plan.modified.length > 0;
  plan.status = changed ? 'changed' : 'unchanged';
  return plan;
}

/**
 * The Clusters whose workers sequencing holds back, rendered as the next apply leaves them (the
 * base taken as their current state): what rolls now, before the version steps that wait.
 */
function renderNextStep(
  head: PlanSide,
  config: RenderConfig,
  extras: PipelineExtras,
  base: Rendered,
  target: Rendered,
): Map<string, JsonObject[]> {
  const held = new Set(target.deferred.keys());
  if (held.size === 0) return new Map();
  const items = head.items.filter(
    (i) =>
      !i.ref || !isClusterObject(i.ref) || held.has(clusterKey(i.ref.namespace ?? config.defaultNamespace, i.ref.name)),
  );
  const current = new Map([...base.objects].filter(([key]) => held.has(key)));
  return render({ items, readResults: [] }, config, { ...extras, previousRendered: current }).objects;
}

/** `extras` serve both sides: with recorded extension answers, base and head replay the same recordings. */
export function computePlan(base: PlanSide, head: PlanSide, config: RenderConfig, extras: PipelineExtras = {}): Plan {
  const b = render(base, config, extras);
  // The head at its target versions, told the base's objects: which workers sequencing holds back on the way.
  const h = render(head, config, { ...extras, sequenceFrom: b.objects });
  // Update rules (class compatibility, version changes) count as new errors of the Clusters they name.
  for (const r of updateResults(base.items, head.items, config)) {
    if (r.severity !== 'error') continue;
    const names =
      r.resourceRef?.kind === 'Cluster'
        ? [r.resourceRef.name]
        : (r.tags?.clusters ?? '').split(',').filter((n) => n !== '');
    const ns = r.resourceRef?.namespace ?? config.defaultNamespace;
    for (const name of names) h.errors.set(`${ns}/${name}`, [...(h.errors.get(`${ns}/${name}`) ?? []), r]);
  }
  const nextStep = renderNextStep(head, config, extras, b, h);
  const clusters = [
    ...new Set([...b.classes.keys(), ...h.classes.keys(), ...b.objects.keys(), ...h.objects.keys()]),
  ].sort();
  const plans = clusters.map((c) => planCluster(c, h.classes.get(c) ?? b.classes.get(c) ?? '', b, h, nextStep));
  const missing = new Map<string, number>();
  for (const p of plans) {
    const key = p.errors.find((r) => r.tags?.rule === 'class-missing')?.tags?.clusterClass;
    if (key) missing.set(key, (missing.get(key) ?? 0) + 1);
  }
  const missingClasses = [...missing]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([clusterClass, n]) => ({ clusterClass, clusters: n }));
  return withSummary(plans, missingClasses);
}

const isChange = (p: ClusterPlan) => p.status !== 'unchanged' && p.status !== 'still-failing';

function counts(plans: readonly ClusterPlan[]): PlanCounts {
  return {
    clusters: plans.length,
    changed: plans.filter(isChange).length,
    rollingOut: plans.filter((p) => p.rollouts.length > 0).length,
    newlyFailing: plans.filter((p) => p.newErrors.length > 0).length,
    machines: plans.reduce((sum, p) => addMachines(sum, p.machines), NO_MACHINES),
    deferred: plans.filter((p) => p.deferred.length > 0).length,
    doubleRollouts: plans.reduce((n, p) => n + p.rollouts.filter((r) => r.double).length, 0),
  };
}

/** A plan of these Clusters, with the fleet's and each ClusterClass's counts. */
export function withSummary(plans: ClusterPlan[], missingClasses: Plan['missingClasses']): Plan {
  const byClass = new Map<string, ClusterPlan[]>();
  for (const p of plans) {
    const members = byClass.get(p.clusterClass);
    if (members) members.push(p);
    else byClass.set(p.clusterClass, [p]);
  }
  return {
    schemaVersion: PLAN_SCHEMA_VERSION,
    clusters: plans,
    missingClasses,
    summary: {
      ...counts(plans),
      stillFailing: plans.filter((p) => p.status === 'still-failing').length,
      byClass: [...byClass]
        .sort(([x], [y]) => (x < y ? -1 : 1))
        .map(([clusterClass, members]) => ({ clusterClass, ...counts(members) })),
    },
  };
}

/** Exit 1 when something changes, or when the plan cannot say (a ClusterClass is not among the inputs). */
export const planHasChanges = (plan: Plan): boolean => plan.summary.changed > 0 || plan.missingClasses.length > 0;
