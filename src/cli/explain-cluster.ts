/**
 * `explain CLUSTER` (issue #6): one Cluster rendered as `render` renders it, with provenance
 * recorded (see ./objects.ts), and the explained objects picked from that render.
 */
import type { ObjectRef } from '../core/model.js';
import type { ExtensionInputs } from '../extensions/client.js';
import type { RenderConfig } from '../krm/config.js';
import { classify, clusterKey as keyOf } from '../pipeline/classify.js';
import { runPipeline } from '../pipeline/run.js';
import type { ExplainResult } from '../provenance/types.js';
import type { InputItem } from '../krm/item.js';

export type { ExplainResult } from '../provenance/types.js';

/**
 * Renders one Cluster of the input (`namespace/name`, or a name that is unique across
 * namespaces) as `render` does, recording provenance, and explains every field of every object
 * rendered for it. Results carry the reasons when the Cluster is missing or does not render
 * (then `objects` is empty). `extensions`: the Runtime SDK setup (ExtensionConfigs, recordings)
 * the render uses, as for `render`.
 */
export function explainCluster(items: InputItem[], config: RenderConfig, clusterKey: string, extensions?: ExtensionInputs): ExplainResult {
  const ns = config.defaultNamespace;
  const { clusters } = classify(items, ns);
  const refOfItem = (i: InputItem): ObjectRef => ({ ...i.ref!, namespace: i.ref!.namespace ?? ns });
  const keyOfItem = (i: InputItem) => keyOf(refOfItem(i).namespace!, refOfItem(i).name);
  const matches = clusters.filter((i) => (clusterKey.includes('/') ? keyOfItem(i) === clusterKey : refOfItem(i).name === clusterKey));
  if (matches.length !== 1) {
    const known = clusters.map(keyOfItem).sort();
    const message =
      matches.length === 0
        ? `Cluster "${clusterKey}" not found among the topology Clusters of the input${known.length > 0 ? ` (${known.join(', ')})` : ''}`
        : `Cluster name "${clusterKey}" is ambiguous: ${matches.map(keyOfItem).join(', ')}; use namespace/name`;
    return { objects: [], results: [{ severity: 'error', message, tags: { rule: 'explain-cluster' } }] };
  }
  const item = matches[0]!;
  const cluster = refOfItem(item);
  // The other Clusters are left out: the render of this one is the same without them.
  const input = items.filter((i) => i === item || !clusters.some((c) => c === i));
  const { shard: _all, ...unsharded } = config;
  const run = runPipeline(input, { ...unsharded, provenance: true, strict: false, mode: config.mode === 'expand' ? 'expand' : 'preview' }, [], extensions ? { extensions } : {});
  const provenance = run.generated.find((g) => g.cluster === keyOfItem(item))?.provenance;
  const results = run.results;
  if (!provenance) return { objects: [], results, cluster };
  return { objects: provenance.objects, results, cluster, ...(provenance.clusterClass ? { clusterClass: provenance.clusterClass } : {}) };
}
