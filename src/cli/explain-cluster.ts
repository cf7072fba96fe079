/**
 * `explain CLUSTER` (issue #6): one Cluster rendered as `render` renders it, with provenance
 * recorded (see ./objects.ts), and the explained objects picked from that render.
 */
import type { ExtensionInputs } from '../extensions/client.js';
import type { RenderConfig } from '../krm/config.js';
import { classify, clusterKey as keyOf, namespacedRef, type IdentifiedItem } from '../pipeline/classify.js';
import { runPipeline } from '../pipeline/run.js';
import type { ExplainResult } from '../provenance/types.js';
import type { InputItem } from '../krm/item.js';
import { compareText } from '../core/json.js';
import { plural } from './progress.js';
import { closestMatches, didYouMean } from '../core/suggest.js';

export type { ExplainResult } from '../provenance/types.js';

/** At most this many names are suggested for a Cluster not found (a fleet has thousands). */
const SUGGESTED = 5;

/**
 * A Cluster not found, with the closest `namespace/name` keys of the input (compared by name
 * unless the user typed a namespace), or how many there are when none is close.
 */
function notFound(typed: string, known: readonly string[]): string {
  const byName = !typed.includes('/');
  const nameOf = (key: string) => (byName ? key.slice(key.indexOf('/') + 1) : key);
  const near = closestMatches(nameOf(typed), known.map(nameOf), SUGGESTED);
  const keys = known
    .filter((k) => near.includes(nameOf(k)))
    .sort((a, b) => near.indexOf(nameOf(a)) - near.indexOf(nameOf(b)) || compareText(a, b))
    .slice(0, SUGGESTED);
  const found = `Cluster "${typed}" not found among the input's ${plural(known.length, 'topology Cluster')}`;
  if (keys.length > 0) return `${found}; ${didYouMean(keys)}`;
  return known.length > 0 && known.length <= SUGGESTED
    ? `${found} (${[...known].sort(compareText).join(', ')})`
    : found;
}

/**
 * Renders one Cluster of the input (`namespace/name`, or a name that is unique across
 * namespaces) as `render` does, recording provenance, and explains every field of every object
 * rendered for it. Results carry the reasons when the Cluster is missing or does not render
 * (then `objects` is empty). `extensions`: the Runtime SDK setup (ExtensionConfigs, recordings)
 * the render uses, as for `render`.
 */
export function explainCluster(
  items: InputItem[],
  config: RenderConfig,
  clusterKey: string,
  extensions?: ExtensionInputs,
): ExplainResult {
  const ns = config.defaultNamespace;
  const { clusters } = classify(items, ns);
  const refOfItem = (i: IdentifiedItem) => namespacedRef(i, ns);
  const keyOfItem = (i: IdentifiedItem) => keyOf(refOfItem(i).namespace, refOfItem(i).name);
  const matches = clusters.filter((i) =>
    clusterKey.includes('/') ? keyOfItem(i) === clusterKey : refOfItem(i).name === clusterKey,
  );
  const [item] = matches;
  if (item === undefined || matches.length > 1) {
    const message =
      matches.length === 0
        ? notFound(clusterKey, clusters.map(keyOfItem))
        : `Cluster name "${clusterKey}" is ambiguous: ${matches.map(keyOfItem).join(', ')}; use namespace/name`;
    return { objects: [], results: [{ severity: 'error', message, tags: { rule: 'explain-cluster' } }] };
  }
  const cluster = refOfItem(item);
  // The other Clusters are left out: the render of this one is the same without them.
  const input = items.filter((i) => i === item || !clusters.some((c) => c === i));
  const { shard: _all, ...unsharded } = config;
  const run = runPipeline(
    input,
    { ...unsharded, provenance: true, strict: false, mode: config.mode === 'expand' ? 'expand' : 'preview' },
    [],
    extensions ? { extensions } : {},
  );
  const provenance = run.generated.find((g) => g.cluster === keyOfItem(item))?.provenance;
  const results = run.results;
  if (!provenance) return { objects: [], results, cluster };
  return {
    objects: provenance.objects,
    results,
    cluster,
    ...(provenance.clusterClass ? { clusterClass: provenance.clusterClass } : {}),
  };
}
