/**
 * Issue 23 scope 9: the invariants of a rendered directory as a model-based test. Seeded random
 * sequences of what a repository and its rendered DIR go through — Clusters and classes added,
 * edited, broken in each way they can fail, renamed, copied and deleted; links among the inputs
 * and in DIR, links on the paths a run writes, hostile outputs-list lines, stale staging, temp
 * files and a dead run's lock; runs killed with SIGKILL and SIGTERM at random points; two runs at
 * once — each step through the real CLI (scripts/fuzz/model.mjs says what is checked after each:
 * nothing outside DIR changed, every Cluster has its fresh render or its last output, nothing
 * orphaned, no litter). A fixed, printed seed here; `npm run fuzz -- --model` runs thousands
 * of sequences from any seed, and `MODEL_SEED`/`MODEL_SEQUENCES` replay one here.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMMAND_KINDS, freshRenderer, newStats, runSequence, runTour, summary } from '../../scripts/fuzz/model.mjs';

const SEED = Number(process.env.MODEL_SEED ?? 23_0009);
const SEQUENCES = Number(process.env.MODEL_SEQUENCES ?? 40);

describe('a rendered directory through random sequences of edits, links, litter, kills and concurrent runs (the real CLI)', () => {
  it(`holds every invariant over every command once and ${SEQUENCES} sequences (seed ${SEED})`, async () => {
    const stats = newStats();
    const fresh = freshRenderer(stats);
    const started = performance.now();
    // Every command once first, so that the sample, however small, runs each.
    await runTour(fc, SEED, { stats, fresh });
    for (let i = 0; i < SEQUENCES; i++) await runSequence(fc, SEED + i, { maxCommands: 10, stats, fresh });
    console.log(summary(stats, SEED, performance.now() - started));
    const violations = stats.violations.map(
      (v) =>
        `seed ${v.seed} (replay: MODEL_SEED=${v.seed} MODEL_SEQUENCES=1):\n  ${v.steps.join('\n  ')}\n  ${v.message}`,
    );
    expect(violations).toEqual([]);
    expect(
      COMMAND_KINDS.filter((k) => !stats.kinds.has(k)),
      'commands no sequence ran',
    ).toEqual([]);
    // No wall-clock limit: each step is a child process, and a loaded machine queues them.
  }, 0);
});
