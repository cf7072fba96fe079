/**
 * The results a run reports, for a reader who sees only the first few: kpt prints about four
 * results of a function and truncates the rest. So errors come first, then warnings, then infos
 * (each severity in the order the results arose), and the per-Cluster "rendered N objects" infos
 * are one summary of the run, which says what was rendered, kept, pruned and skipped, and why
 * (each of them on request: `reportEachCluster`).
 */
import type { Result, Severity } from '../core/result.js';
import { KEPT_BECAUSE, type KeepReason } from './keep.js';
import { RENDERED_RULE } from './results.js';

/** What became of the Clusters and items of a run. */
export interface RunTally {
  /** `rendered`, or `validated` (validate mode: nothing is emitted, kept or pruned). */
  verb: 'rendered' | 'validated';
  /** Clusters in the inputs (in this shard) that are rendered when all goes well. */
  clusters: number;
  rendered: number;
  objects: number;
  /** Clusters whose earlier objects stay, by reason (pipeline/keep.ts). */
  kept: ReadonlyMap<KeepReason, number>;
  /** Clusters whose earlier objects are dropped: gone from every input. */
  pruned: number;
  /** Inputs that are not Kubernetes objects (a kustomization, Helm values): skipped, items returned as they came. */
  notObjects: number;
  /** Inputs (items, files) that could not be read (each has its error result). */
  unreadable: number;
}

const SEVERITY_ORDER: readonly Severity[] = ['error', 'warning', 'info'];

const SUMMARY_RULE = 'summary';

/** `1 object`, `2 objects`. */
const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The reasons of a count, when it is not zero: ` (1 not a Kubernetes object, 2 could not be read)`. */
function because(reasons: readonly [number, string][]): string {
  const given = reasons.filter(([n]) => n > 0);
  return given.length === 0 ? '' : ` (${given.map(([n, why]) => (given.length > 1 ? `${n} ${why}` : why)).join(', ')})`;
}

/**
 * `rendered 1998 of 2000 Clusters (31968 objects), 2 failed (see the errors); earlier outputs: 2
 * kept (of Clusters not rendered), 0 pruned; 1 input skipped (not a Kubernetes object)`.
 */
function summaryResult(t: RunTally): Result {
  const failed = t.clusters - t.rendered;
  const parts = [
    `${t.verb} ${t.rendered} of ${count(t.clusters, 'Cluster')}${t.verb === 'rendered' ? ` (${count(t.objects, 'object')})` : ''}, ${failed} failed${failed > 0 ? ' (see the errors)' : ''}`,
  ];
  if (t.verb === 'rendered') {
    const kept = [...t.kept.values()].reduce((a, b) => a + b, 0);
    parts.push(
      `earlier outputs: ${kept} kept${because([...t.kept].map(([reason, n]) => [n, KEPT_BECAUSE[reason]]))}, ${t.pruned} pruned${t.pruned > 0 ? ' (gone from the inputs)' : ''}`,
    );
  }
  const skipped = t.notObjects + t.unreadable;
  parts.push(
    `${count(skipped, 'input')} skipped${because([
      [t.notObjects, 'not a Kubernetes object'],
      [t.unreadable, 'could not be read'],
    ])}`,
  );
  return { severity: 'info', message: parts.join('; '), tags: { rule: SUMMARY_RULE } };
}

/** The run's summary among its reported results (the CLI prints it where no result is shown). */
export const runSummary = (results: readonly Result[]): string =>
  results.find((r) => r.tags?.rule === SUMMARY_RULE)?.message ?? '';

/** Whether a run has anything to summarise: a Cluster, an earlier output, a skipped input. */
const eventful = (t: RunTally): boolean =>
  t.clusters + t.pruned + t.notObjects + t.unreadable + [...t.kept.values()].reduce((a, b) => a + b, 0) > 0;

/** The run's results as reported: ordered by severity, the summary (when there is anything to say) first among the infos. */
export function reportedResults(results: readonly Result[], tally: RunTally, reportEachCluster: boolean): Result[] {
  const shown = [
    ...(eventful(tally) ? [summaryResult(tally)] : []),
    ...results.filter((r) => reportEachCluster || r.tags?.rule !== RENDERED_RULE),
  ];
  return SEVERITY_ORDER.flatMap((severity) => shown.filter((r) => r.severity === severity));
}
