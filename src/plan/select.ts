/** Narrowing a plan: `--class NS/NAME` (the Clusters of some ClusterClasses) and `--only rollouts`. */
import { closestMatches, didYouMean } from '../core/suggest.js';
import { withSummary, type Plan, type PlanSection } from './plan.js';

/** The plan's sections: the change, and the upgrade when previewed. */
const sectionsOf = (plan: Plan): PlanSection[] => [plan, ...(plan.upgrade ? [plan.upgrade] : [])];

/** Why `--class` names no ClusterClass of the plan, with the closest ones; undefined when every one is known. */
export function unknownClass(plan: Plan, classes: readonly string[]): string | undefined {
  const known = new Set(
    sectionsOf(plan).flatMap((s) => [
      ...s.clusters.map((c) => c.clusterClass),
      ...s.missingClasses.map((m) => m.clusterClass),
    ]),
  );
  const unknown = classes.find((c) => !known.has(c));
  if (unknown === undefined) return undefined;
  const hint = didYouMean(closestMatches(unknown, known, 3));
  const form = unknown.includes('/') ? '' : ' (write it NAMESPACE/NAME)';
  return `--class ${unknown}: no Cluster of the plan uses this ClusterClass${form}${hint ? `; ${hint}` : ''}`;
}

/** The Clusters of these ClusterClasses only, in each section: the counts and the gates are theirs. */
export function selectClasses(plan: Plan, classes: readonly string[]): Plan {
  const wanted = new Set(classes);
  const select = (s: PlanSection) =>
    withSummary(
      s.clusters.filter((c) => wanted.has(c.clusterClass)),
      s.missingClasses.filter((m) => wanted.has(m.clusterClass)),
    );
  return {
    ...plan,
    ...select(plan),
    ...(plan.upgrade ? { upgrade: { ...plan.upgrade, ...select(plan.upgrade) } } : {}),
  };
}

/** Only the Clusters that roll out, and of their changes only the rollouts, in each section; the counts stay those of every Cluster selected. */
export function onlyRollouts(plan: Plan): Plan {
  const only = (s: PlanSection) =>
    s.clusters
      .filter((c) => c.rollouts.length > 0)
      .map((c) => ({ ...c, created: [], deleted: [], modified: [], newErrors: [], errors: [] }));
  return {
    ...plan,
    clusters: only(plan),
    ...(plan.upgrade ? { upgrade: { ...plan.upgrade, clusters: only(plan.upgrade) } } : {}),
  };
}
