/**
 * Property-based fuzzing of the KRM function, CI-sized (issue #8): 300 generated ResourceLists
 * (ClusterClasses, templates, Clusters, patches, Go templates, junk and corruptions) run
 * in-process. Invariants (scripts/fuzz/core.mjs): no exception escapes and the exit code is in
 * {0,1,2,3}; a second run is byte-identical; every input item is in the output; results are
 * well-formed; re-rendering the output yields the same items; no prototype is modified.
 * The long run is `node scripts/fuzz/run.mjs` (100,000 cases over dist/).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runFunction } from '../../src/cli/render.js';
import { arbitraries, checkInput, render } from '../../scripts/fuzz/core.mjs';

const { input } = arbitraries(fc);
const SEED = Number(process.env.FUZZ_SEED ?? 20260822);

describe('fuzz: KRM function invariants', () => {
  it(`holds for 300 generated inputs (fast-check seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(input, async (generated) => {
        const violations = await checkInput(runFunction, render(generated));
        expect(violations).toEqual([]);
      }),
      { numRuns: 300, seed: SEED, endOnFailure: true },
    );
  });

  it('renders Clusters in a good share of the generated inputs (the generator is not all junk)', async () => {
    let rendered = 0;
    for (const generated of fc.sample(input, { seed: SEED, numRuns: 60 })) {
      let out = '';
      await runFunction({
        readStdin: async () => render(generated),
        stdout: (t) => void (out += t),
        stderr: () => undefined,
      });
      if (/message: "?rendered [1-9]\d* of /.test(out)) rendered++;
    }
    expect(rendered).toBeGreaterThanOrEqual(10);
  });
});
