/**
 * Which earlier outputs a run keeps: one rule for every mode, the objects an earlier run
 * generated that kpt hands back to the function (pipeline/outputs.ts) and the files of `-o DIR`
 * (cli/render.ts). A rendered output is a fleet's source of truth: Flux, Argo CD and kpt prune
 * what disappears from it, and CAPI then deletes the workload cluster. So an output is replaced
 * only by a fresh render, and pruned only when its Cluster is gone from every input:
 *
 * - a Cluster rendered this run: its earlier output is replaced by the new one;
 * - a Cluster in the inputs that is not rendered, whatever the reason (a result says which), or
 *   that belongs to another shard: its earlier output is kept as it was;
 * - a Cluster absent from the inputs: its earlier output is pruned, unless an input could not be
 *   read (a file that does not parse, an item that is not an object). The Cluster may be in it,
 *   so nothing at all is pruned in such a run.
 */
import type { Result } from '../core/result.js';

/** Why an earlier output stays: its Cluster is in the inputs (or another shard's) but was not rendered; or an input could not be read. */
export type KeepReason = 'not-rendered' | 'unreadable-input';

export interface KeptOutputs {
  /**
   * Why the earlier output of `cluster` (`namespace/name`; undefined for an input copied by
   * `-o DIR --with-inputs`) stays, or undefined when it is replaced or pruned.
   */
  reason: (cluster: string | undefined) => KeepReason | undefined;
  /** The inputs that could not be read, as the user names them (a file path, `items[3]`). */
  unreadable: readonly string[];
}

export function keptOutputs(
  present: ReadonlySet<string>,
  rendered: ReadonlySet<string>,
  unreadable: readonly string[],
  inThisShard: (cluster: string) => boolean,
): KeptOutputs {
  return {
    unreadable,
    reason(cluster) {
      if (cluster !== undefined && rendered.has(cluster)) return undefined;
      if (cluster !== undefined && (present.has(cluster) || !inThisShard(cluster))) return 'not-rendered';
      return unreadable.length > 0 ? 'unreadable-input' : undefined;
    },
  };
}

/** Why earlier outputs stay, as the summaries say it (`2 kept (of Clusters not rendered)`). */
export const KEPT_BECAUSE: Record<KeepReason, string> = {
  'not-rendered': 'of Clusters not rendered',
  'unreadable-input': 'not pruned: an input could not be read',
};

const MAX_NAMED = 3;

/** `a`, `a and b`, `a, b, c and 2 more`. */
export function named(list: readonly string[]): string {
  const shown = list.slice(0, MAX_NAMED);
  const rest = list.length - shown.length;
  if (rest > 0) return `${shown.join(', ')} and ${rest} more`;
  return shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}` : shown.join('');
}

/**
 * Says that outputs of Clusters not found this run were kept because `unreadable` inputs could
 * not be read (`kept`: what was kept, e.g. `2 files of Clusters not found this run`).
 */
export function unreadableKeptResult(kept: string, unreadable: readonly string[]): Result {
  return {
    severity: 'warning',
    message: `${kept} kept: input ${named(unreadable)} could not be read; nothing is pruned while an input cannot be read (the Clusters missing from this run may be in it)`,
    tags: { rule: 'unreadable-input-kept' },
  };
}
