/**
 * Plan: render a base and a head input set and say, per Cluster, which objects are created,
 * deleted or modified (field by field), which control planes and MachineDeployments roll out and
 * why, and which Clusters newly fail validation — summarised across the fleet.
 */
import type { JsonObject, ObjectRef } from '../core/model.js';
import type { Result } from '../core/result.js';
import { capiProfileOf, type RenderConfig } from '../krm/config.js';
import { asObject, asString, jsonText } from '../core/json.js';
import { runPipeline, type PipelineExtras } from '../pipeline/run.js';
import { classify, classKeyOf, clusterKey, isClusterObject, namespacedRef } from '../pipeline/classify.js';
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
import { comparedFields, storedForm } from './stored.js';
import { keepUnrotatedNames, matchKey } from './rotation.js';
import { loadCrds } from '../apiserver/crds.js';
import { admittedObject } from '../apiserver/admission.js';

/** One side of a plan: the input items of a revision and what reading them reported. */
export interface PlanSide {
  items: InputItem[];
  readResults: Result[];
}

/**
 * What the management cluster runs: the CAPI release and feature gates (`config.capiVersion`,
 * `config.featureGates`) and the CRDs installed besides those among the inputs (`--crds`); an
 * input CRD of the same name as one of these is replaced by it (a provider upgrade installs its
 * new CRDs over the old).
 */
interface Platform {
  config: RenderConfig;
  crds: readonly JsonObject[];
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
  /**
   * Error results in head that the base did not have, of a Cluster that newly fails: one failing on
   * both sides is `still-failing` with all its errors listed, whatever their text became (an edit of
   * the class renumbers the patches its errors name, as `convert` does).
   */
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

/** What one comparison finds: each Cluster, and the sums. */
export interface PlanSection {
  clusters: ClusterPlan[];
  /** ClusterClasses the head's Clusters use that are not among its inputs (said once, not per Cluster). */
  missingClasses: { clusterClass: string; clusters: number }[];
  summary: PlanCounts & {
    stillFailing: number;
    byClass: (PlanCounts & { clusterClass: string })[];
  };
}

/** The management cluster's side of an upgrade preview, as the command line named it. */
interface PlatformName {
  capiVersion: string;
  /** The `--crds` / `--to-crds` directory, when CRDs are installed besides the inputs'. */
  crds?: string;
}

/**
 * An upgrade of the management cluster (`--to-capi-version`, `--to-crds`): the head's inputs
 * rendered as the current platform and the target one render them, apart from the change.
 */
export interface UpgradeSection extends PlanSection {
  from: PlatformName;
  to: PlatformName;
}

/** The change (base → head, on the current platform) and, when asked, the upgrade of the head. */
export interface Plan extends PlanSection {
  schemaVersion: typeof PLAN_SCHEMA_VERSION;
  upgrade?: UpgradeSection;
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

const crdName = (o: JsonObject) => asString(asObject(o.metadata)?.name);

/** The inputs as the platform sees them: an input CRD the platform installs anew is left out (its CRD replaces it). */
function onPlatform(side: PlanSide, platform: Platform): PlanSide {
  if (platform.crds.length === 0) return side;
  const installed = new Set(platform.crds.map(crdName));
  const replaced = (i: InputItem) => i.ref?.kind === 'CustomResourceDefinition' && installed.has(i.ref.name);
  return { ...side, items: side.items.filter((i) => !replaced(i)) };
}

/**
 * Renders one side on a platform. CAPI objects come out in v1beta2 and every object is kept as the
 * API server stores it (plan/stored.ts): both sides are compared at one API version, so a class
 * moved to v1beta2 by `convert` changes nothing.
 */
function render(side: PlanSide, platform: Platform, extras: PipelineExtras): Rendered {
  const config: RenderConfig = { ...platform.config, mode: 'preview', outputApiVersion: 'v1beta2' };
  const { items, readResults } = onPlatform(side, platform);
  const out = runPipeline(items, config, readResults, {
    ...extras,
    ...(platform.crds.length > 0 ? { crds: platform.crds } : {}),
  });
  const objects = new Map<string, JsonObject[]>();
  const deferred = new Map<string, DeferredWorker[]>();
  for (const g of out.generated) {
    objects.set(g.cluster, g.objects.map(storedForm));
    // Only Clusters that hold a worker back: an empty list would cost them a render of the next step.
    if (g.deferred && g.deferred.length > 0) deferred.set(g.cluster, g.deferred);
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

/** A clone is compared without its name (a rotation is said once, as `renamedFrom`). */
const unnamed = (o: JsonObject): JsonObject => ({ ...o, metadata: { ...asObject(o.metadata), name: null } });

function planCluster(
  cluster: string,
  clusterClass: string,
  base: Rendered,
  head: Rendered,
  nextStep: ReadonlyMap<string, JsonObject[]>,
  inPlace: boolean,
): ClusterPlan {
  const before = base.objects.get(cluster);
  const rendered = head.objects.get(cluster);
  const after = before && rendered ? keepUnrotatedNames(before, rendered) : rendered;
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
    if (plan.status === 'still-failing') plan.newErrors = [];
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
    // The head's object is the desired state: it decides which endpoint fields CAPI leaves alone.
    const changes = diffJson(unnamed(comparedFields(old, o)), unnamed(comparedFields(o, o)));
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
    next ? rolloutsOf(cluster, before, keepUnrotatedNames(before, next)) : [],
    inPlace,
  );
  plan.machines = replacedMachines(plan.rollouts);
  const changed = plan.created.length + plan.deleted.length + plan.modified.length > 0;
  plan.status = changed ? 'changed' : 'unchanged';
  return plan;
}

/**
 * The Clusters whose workers sequencing holds back, rendered as the next apply leaves them (the
 * base taken as their current state): what rolls now, before the version steps that wait. No
 * render when no worker is held back.
 */
function renderNextStep(
  head: PlanSide,
  platform: Platform,
  extras: PipelineExtras,
  base: Rendered,
  target: Rendered,
): Map<string, JsonObject[]> {
  const held = new Set(target.deferred.keys());
  if (held.size === 0) return new Map();
  const ns = platform.config.defaultNamespace;
  const items = head.items.filter(
    (i) => !i.ref || !isClusterObject(i.ref) || held.has(clusterKey(i.ref.namespace ?? ns, i.ref.name)),
  );
  const current = new Map([...base.objects].filter(([key]) => held.has(key)));
  return render({ items, readResults: [] }, platform, { ...extras, previousRendered: current }).objects;
}

/**
 * The base's objects as the head's platform reads them, when the platforms differ (an upgrade):
 * CAPI dry-runs the current object through the API server before comparing, so the new CRDs'
 * defaults and webhooks reach it too (core/reconcilers/topology/cluster/structuredmerge/dryrun.go
 * `dryRunSSAPatch`).
 */
function readOnPlatform(base: Rendered, side: PlanSide, platform: Platform): Rendered {
  const inputCrds = onPlatform(side, platform)
    .items.filter((i) => i.ref?.kind === 'CustomResourceDefinition')
    .map((i) => i.value);
  const { crds } = loadCrds([...inputCrds, ...platform.crds]);
  const objects = new Map([...base.objects].map(([c, list]) => [c, list.map((o) => admittedObject(crds, o))]));
  return { ...base, objects };
}

/** Each Cluster's plan between two renders, with the sums; `head` is the one told `sequenceFrom` the base's objects. */
function compareRenders(
  headSide: PlanSide,
  platform: Platform,
  extras: PipelineExtras,
  base: Rendered,
  head: Rendered,
): PlanSection {
  const nextStep = renderNextStep(headSide, platform, extras, base, head);
  // CAPI v1.12+ (feature/feature.go `InPlaceUpdates`, alpha, off by default).
  const inPlace = capiProfileOf(platform.config).gates.InPlaceUpdates;
  const clusters = [
    ...new Set([...base.classes.keys(), ...head.classes.keys(), ...base.objects.keys(), ...head.objects.keys()]),
  ].sort();
  const plans = clusters.map((c) =>
    planCluster(c, head.classes.get(c) ?? base.classes.get(c) ?? '', base, head, nextStep, inPlace),
  );
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

/** What a plan compares: a change (base → head) on the current platform, and optionally an upgrade of the platform. */
export interface PlanRequest {
  /** The base; absent when only an upgrade is previewed (the head is then compared with itself: no change). */
  base?: PlanSide;
  head: PlanSide;
  current: Platform & { name: PlatformName };
  /** The platform after the upgrade (`--to-capi-version`, `--to-crds`). */
  target?: Platform & { name: PlatformName };
}

/** `extras` serve every render: with recorded extension answers, each side replays the same recordings. */
export function computePlan(request: PlanRequest, extras: PipelineExtras = {}): Plan {
  const { head, current, target } = request;
  const base = request.base;
  const b = base ? render(base, current, extras) : undefined;
  // The head at its target versions, told the base's objects: which workers sequencing holds back on the way.
  const h = render(head, current, b ? { ...extras, sequenceFrom: b.objects } : extras);
  // Update rules (class compatibility, version changes) count as new errors of the Clusters they name.
  const config = current.config;
  for (const r of base ? updateResults(base.items, head.items, config) : []) {
    if (r.severity !== 'error') continue;
    const names =
      r.resourceRef?.kind === 'Cluster'
        ? [r.resourceRef.name]
        : (r.tags?.clusters ?? '').split(',').filter((n) => n !== '');
    const ns = r.resourceRef?.namespace ?? config.defaultNamespace;
    for (const name of names) h.errors.set(`${ns}/${name}`, [...(h.errors.get(`${ns}/${name}`) ?? []), r]);
  }
  const change = compareRenders(head, current, extras, b ?? h, h);
  const plan: Plan = { schemaVersion: PLAN_SCHEMA_VERSION, ...change };
  if (target) {
    // The upgrade meets the head as the change leaves it: its objects are the current state.
    const after = render(head, target, { ...extras, sequenceFrom: h.objects });
    // New CRDs reach the current objects too; a CAPI release alone leaves them as they are.
    const sameCrds = target.crds.length === current.crds.length && target.crds.every((c, i) => c === current.crds[i]);
    const before = sameCrds ? h : readOnPlatform(h, head, target);
    plan.upgrade = { from: current.name, to: target.name, ...compareRenders(head, target, extras, before, after) };
  }
  return plan;
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

/** These Clusters, with the fleet's and each ClusterClass's counts. */
export function withSummary(plans: ClusterPlan[], missingClasses: PlanSection['missingClasses']): PlanSection {
  const byClass = new Map<string, ClusterPlan[]>();
  for (const p of plans) {
    const members = byClass.get(p.clusterClass);
    if (members) members.push(p);
    else byClass.set(p.clusterClass, [p]);
  }
  return {
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

/** Exit 1 when something changes (by the change or the upgrade), or when the plan cannot say (a ClusterClass is not among the inputs). */
export const planHasChanges = (plan: Plan): boolean =>
  [plan, ...(plan.upgrade ? [plan.upgrade] : [])].some((s) => s.summary.changed > 0 || s.missingClasses.length > 0);
