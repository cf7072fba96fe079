/**
 * Update safety: the webhook's update rules, applied between a previous input set and the current
 * one (ClusterClass compatibility, Cluster version and class changes), plus the rollouts the change
 * causes. Shared by `render --previous` and `plan`.
 */
import type { Result } from '../krm/result.js';
import type { RenderConfig } from '../krm/config.js';
import type { InputItem } from '../krm/read.js';
import { clusterKey } from '../pipeline/classify.js';
import { runPipeline } from '../pipeline/run.js';
import { rolloutReport, type Rollout } from '../validation/compatibility.js';
import { normalizeSide, updateResults } from '../validation/update.js';

export interface InputSide {
  items: InputItem[];
  readResults: Result[];
}

/** Rollouts between the renders of two input sets. */
export function rolloutsBetween(before: InputSide, after: InputSide, config: RenderConfig): Rollout[] {
  const render = (side: InputSide) => runPipeline(side.items, { ...config, mode: 'preview' }, side.readResults).generated.flatMap((g) => g.objects);
  return rolloutReport(render(before), render(after));
}

/** Results for `render --previous`: update-rule violations, then one info result per rollout. */
export function previousStateResults(before: InputSide, after: InputSide, config: RenderConfig): Result[] {
  const clusters = normalizeSide(after.items, config).clusters;
  const rollouts = rolloutsBetween(before, after, config).map((r): Result => {
    const key = clusterKey(r.namespace ?? config.defaultNamespace, r.cluster);
    const result: Result = {
      severity: 'info',
      message: `${r.kind} ${r.name} will roll out: ${r.reasons.map((x) => `${x.template}${x.fields.length > 0 ? ` (${x.fields.join(', ')})` : ''}`).join('; ')}`,
      tags: { rule: 'rollout', cluster: key },
    };
    const ref = clusters.get(key)?.ref;
    if (ref) result.resourceRef = ref;
    return result;
  });
  return [...updateResults(before.items, after.items, config), ...rollouts];
}
