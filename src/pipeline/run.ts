/**
 * The whole function, independent of I/O: input items + config → kept/edited input items,
 * generated objects per Cluster, and results. One Cluster's failure (even an internal bug) never
 * stops another; a Cluster that fails keeps what an earlier run generated for it.
 *
 * `renderPipeline` hands each Cluster's objects to a sink as soon as they are rendered (input
 * order), so a writer can serialise and drop them (a fleet's output is far larger than its
 * input); `runPipeline` collects them, sorted by Cluster, for plan, explain and tests.
 *
 * The recipe: set up what every Cluster shares (context.ts), render each Cluster (cluster.ts),
 * then decide what is written back and the run's results (outputs.ts, results.ts).
 */
import type { Result } from '../core/result.js';
import type { RenderConfig } from '../krm/config.js';
import type { InputItem } from '../krm/item.js';
import { namespacedRef } from './classify.js';
import { runContext, type PreviousRender } from './context.js';
import { judgeUnusedClasses } from './blueprints.js';
import { renderClusterItem } from './cluster.js';
import { compareClusterOutputs, summarize } from './outputs.js';
import { internalError } from './results.js';
import type {
  ClusterOutput,
  ClusterRuns,
  ClusterSink,
  KeepDecision,
  PipelineExtras,
  PipelineOutput,
  PipelineSummary,
  Unreconciled,
} from './types.js';

export { compareClusterOutputs } from './outputs.js';
export type {
  ClusterOutput,
  ClusterSink,
  ItemEdit,
  KeepDecision,
  PipelineExtras,
  PipelineOutput,
  PipelineSummary,
} from './types.js';

/**
 * The run with every Cluster's output collected (sorted by Cluster): as rendered, or what `held`
 * keeps of it until the run ends (`render -o` keeps its files' text, not its objects).
 */
export function runPipeline(
  items: readonly InputItem[],
  config: RenderConfig,
  readResults: readonly Result[] = [],
  extras: PipelineExtras = {},
  held: (g: ClusterOutput) => ClusterOutput = (g) => g,
): PipelineOutput & KeepDecision & Unreconciled {
  const generated: ClusterOutput[] = [];
  const summary = renderPipeline(items, config, readResults, extras, (g) => generated.push(held(g)));
  return { ...summary, generated: generated.sort(compareClusterOutputs) };
}

/** The run, handing each rendered Cluster's objects to `sink` as soon as they are rendered (input order). */
export function renderPipeline(
  items: readonly InputItem[],
  config: RenderConfig,
  readResults: readonly Result[],
  extras: PipelineExtras,
  sink: ClusterSink,
): PipelineSummary & KeepDecision & Unreconciled {
  const ctx = runContext(items, config, readResults, extras, previousRender(config, extras));
  const { clusters } = ctx.classified;
  const runs: ClusterRuns = { edits: new Map(), rendered: new Set(), objects: 0, unreconciled: new Set() };
  for (const [done, item] of clusters.entries()) {
    extras.progress?.(done, clusters.length);
    const ref = namespacedRef(item, ctx.ns);
    if (!ctx.inThisShard(ref.namespace, ref.name)) continue;
    let output: ClusterOutput | undefined;
    try {
      output = renderClusterItem(ctx, item, ref, runs);
    } catch (e) {
      ctx.results.push(internalError(ref, e));
    }
    // Outside the try: a failing sink (the writer) fails the run rather than passing for this Cluster's error.
    if (output) sink(output);
  }
  judgeUnusedClasses(ctx.blueprints, clusters, ctx.ns, ctx.config.shard);
  return summarize(ctx, runs);
}

/**
 * The previous inputs as a preview run renders them (with this run's CRDs and extensions): each
 * Cluster's objects, and the Clusters admitted whose render failed.
 */
function previousRender(config: RenderConfig, extras: PipelineExtras): PreviousRender {
  const { crds, extensions } = extras;
  return (inputs) => {
    const earlier = runPipeline(inputs, { ...config, mode: 'preview', strict: false, provenance: false }, [], {
      ...(crds ? { crds } : {}),
      ...(extensions ? { extensions } : {}),
    });
    return {
      rendered: new Map(earlier.generated.map((g) => [g.cluster, g.objects])),
      unreconciled: earlier.unreconciled,
    };
  };
}
