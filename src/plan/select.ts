/** Narrowing a plan: `--class NS/NAME` (the Clusters of some ClusterClasses) and `--only rollouts`. */
import { closestMatches, didYouMean } from '../core/suggest.js';
import { withSummary, type Plan } from './plan.js';

/** Why `--class` names no ClusterClass of the plan, with the closest ones; undefined when every one is known. */
export function unknownClass(plan: Plan, classes: readonly string[]): string | undefined {
  const known = new Set([
    ...plan.clusters.map((c) => c.clusterClass),
    ...plan.missingClasses.map((m) => m.clusterClass),
  ]);
  const unknown = classes.find((c) => !known.has(c));
  if (unknown === undefined) return undefined;
  const hint = didYouMean(closestMatches(unknown, known, 3));
  const form = unknown.includes('/') ? '' : ' (write it NAMESPACE/NAME)';
  return `--class ${unknown}: no Cluster of the plan uses this ClusterClass${form}${hint ? `; ${hint}` : ''}`;
}

/** The Clusters of these ClusterClasses only: the counts and the gates are theirs. */
export function selectClasses(plan: Plan, classes: readonly string[]): Plan {
  const wanted = new Set(classes);
  return withSummary(
    plan.clusters.filter((c) => wanted.has(c.clusterClass)),
    plan.missingClasses.filter((m) => wanted.has(m.clusterClass)),
  );
}

/** Only the Clusters that roll out, and of their changes only the rollouts; the counts stay those of every Cluster selected. */
export function onlyRollouts(plan: Plan): Plan {
  return {
    ...plan,
    clusters: plan.clusters
      .filter((c) => c.rollouts.length > 0)
      .map((c) => ({ ...c, created: [], deleted: [], modified: [], newErrors: [], errors: [] })),
  };
}
