/**
 * The webhooks' update rules between a previous input set and the current one: ClusterClass
 * compatibility for the Clusters using it, Cluster version and class changes.
 */
import type { Cluster, ClusterClass, ObjectRef } from '../core/model.js';
import { hasErrors, type Result } from '../core/result.js';
import { capiProfileOf, type RenderConfig } from '../krm/config.js';
import type { CapiProfile } from '../core/capi-release.js';
import { clusterClassListCaps } from '../apiserver/crd-caps.js';
import { classWebhookResults } from '../webhooks/clusterclass.js';
import { compileClassVariables } from '../variables/index.js';
import { checksNumberRanges, newSchemaCompiler } from '../variables/openapi.js';
import { normalizeCluster, normalizeClusterClass } from '../api/normalize.js';
import { classify, classKeyOf, clusterKey, namespacedRef } from './classify.js';
import { compareClusterClasses, compareClusters } from '../webhooks/compatibility.js';
import type { InputItem } from '../krm/item.js';
import { FIX, withFix } from '../core/fixes.js';
import type { CurrentState } from '../topology/upgrade.js';

/**
 * The current state of a Cluster of the previous inputs (`namespace/name`) with its class there,
 * as the webhook's version rules read it; undefined when nothing is known of it.
 */
export type CurrentStateOf = (key: string, cluster: Cluster, cc: ClusterClass) => CurrentState | undefined;

interface Normalized {
  classes: Map<string, { cc: ClusterClass; ref: ObjectRef }>;
  clusters: Map<string, { cluster: Cluster; ref: ObjectRef }>;
}

/** ClusterClasses and topology Clusters of one side, by `namespace/name` (shape errors are ignored here). */
function normalizeSide(items: readonly InputItem[], config: RenderConfig): Normalized {
  const ns = config.defaultNamespace;
  const { classes, clusters } = classify(items, ns);
  const out: Normalized = { classes: new Map(), clusters: new Map() };
  for (const item of classes) {
    const ref = namespacedRef(item, ns);
    const cc = normalizeClusterClass(item.value, ref).value;
    if (cc) out.classes.set(clusterKey(ref.namespace, ref.name), { cc, ref });
  }
  for (const item of clusters) {
    const ref = namespacedRef(item, ns);
    const cluster = normalizeCluster(item.value, ref).value;
    if (cluster) out.clusters.set(clusterKey(ref.namespace, ref.name), { cluster, ref });
  }
  return out;
}

/** Update-rule violations from `before` to `after` (results about the current objects). */
export function updateResults(
  before: readonly InputItem[],
  after: readonly InputItem[],
  config: RenderConfig,
  currentOf?: CurrentStateOf,
): Result[] {
  const old = normalizeSide(before, config);
  const cur = normalizeSide(after, config);
  const results: Result[] = [];
  const capi = capiProfileOf(config);
  for (const [key, { cc, ref }] of cur.classes) {
    const prev = old.classes.get(key);
    // A previous class its create rules refuse was never stored: the current one is a create.
    if (!prev || refusedOnCreate(prev.cc, prev.ref, capi)) continue;
    const usingOf = (side: Normalized) =>
      [...side.clusters.values()].map((c) => c.cluster).filter((c) => classKeyOf(c) === key);
    const now = compareClusterClasses(prev.cc, cc, ref, usingOf(cur));
    results.push(...now);
    // CAPI checks the update against the Clusters stored when the class is applied
    // (core/webhooks/admission/clusterclass.go `ClusterClass.validate` over
    // `getClustersUsingClusterClass`; v1.12/v1.13 internal/webhooks/clusterclass.go): before the
    // Clusters of this change are applied, the previous ones.
    const reported = new Set(now.map(resultKey));
    const classFirst = compareClusterClasses(prev.cc, cc, ref, usingOf(old)).filter((r) => !reported.has(resultKey(r)));
    results.push(...classFirst.map(appliedBeforeClusters));
  }
  for (const [key, { cluster, ref }] of cur.clusters) {
    const prev = old.clusters.get(key);
    if (!prev) continue;
    const classes: { old?: ClusterClass; new?: ClusterClass } = {};
    const oldClass = old.classes.get(classKeyOf(prev.cluster))?.cc;
    const newClass = cur.classes.get(classKeyOf(cluster))?.cc;
    if (oldClass) classes.old = oldClass;
    if (newClass) classes.new = newClass;
    const current = currentOf && oldClass ? () => currentOf(key, prev.cluster, oldClass) : undefined;
    results.push(...compareClusters(prev.cluster, cluster, ref, classes, current));
  }
  return results;
}

/**
 * Whether the API server's list caps or CAPI's ClusterClass webhook (its rules and its variable
 * validation, internal/topology/variables/clusterclass_variable_validation.go) refuse the class on create.
 */
const refusedOnCreate = (cc: ClusterClass, ref: ObjectRef, capi: CapiProfile): boolean =>
  clusterClassListCaps(cc, ref).length > 0 ||
  hasErrors(classWebhookResults(cc, ref, capi)) ||
  hasErrors(compileClassVariables(cc, ref, [], newSchemaCompiler({ numberRanges: checksNumberRanges(capi) })).results);

const resultKey = (r: Result) => `${r.field?.path ?? ''}\u0000${r.message}`;

/**
 * A refusal of a ClusterClass update that only the previous Clusters cause: CAPI gives it when the
 * class is applied before them. GitOps tools apply one change in different orders: kustomize's
 * legacy order sorts by group, version, then kind, so a Cluster before its ClusterClass; Argo CD
 * (gitops-engine pkg/sync/sync_tasks.go) puts both kinds, unknown to its kind order, in the same
 * wave and applies that wave's tasks together. So it is an error (the change may not apply, and an
 * automated Argo CD sync is not retried for the same revision by default) that says how to make
 * the change apply in any order.
 */
function appliedBeforeClusters(r: Result): Result {
  const clusters = r.tags?.clusters?.split(',') ?? [];
  return {
    ...r,
    message: withFix(r.message, FIX.classAppliedFirst(clusters)),
    tags: { ...r.tags, rule: 'class-update-order' },
  };
}

/**
 * CAPI's Cluster webhook refuses an update that removes `spec.topology` from a Cluster that has
 * one (`core/webhooks/admission/cluster.go` `(*Cluster).validate`, which `ValidateUpdate` calls;
 * `internal/webhooks/cluster.go` before v1.14): "cannot be removed from an existing Cluster".
 * Offline, a Cluster has one where it is applied when an earlier render of it exists; that
 * output is kept (pipeline/keep.ts), so this says why.
 */
export function topologyRemoved(ref: ObjectRef): Result {
  return {
    severity: 'error',
    message:
      'Forbidden: cannot be removed from an existing Cluster: this Cluster was rendered before with a topology and CAPI refuses the update, so its earlier output is kept as it was. ' +
      'Restore spec.topology (a misspelt key such as "topolgy" hides it), or remove the Cluster and its output to delete it',
    resourceRef: ref,
    field: { path: 'spec.topology' },
    tags: { rule: 'topology-removed' },
  };
}
