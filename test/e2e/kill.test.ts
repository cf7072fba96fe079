/**
 * Issue 23: `render -o DIR` killed at random points (bench/kill.mjs, a fixed printed seed): after
 * every kill each file in DIR is complete (old or new content), the outputs list names every
 * file, nothing outside DIR changed, SIGTERM leaves no litter; the next run converges to a fresh
 * render with no litter. `node bench/kill.mjs` runs the same at 10,000 Clusters.
 */
import { describe, expect, it } from 'vitest';
import { killCampaign } from '../../bench/kill.mjs';

const SEED = 2323;

describe('render -o killed at random points', () => {
  it(`200 Clusters, SIGKILL and SIGTERM three times each (seed ${SEED}): every file old or new, no litter after the next run`, async () => {
    const figures = await killCampaign({ clusters: 200, kills: 3, seed: SEED, log: (line) => console.log(line) });
    expect(figures.violations).toEqual([]);
    expect(figures.kills).toBe(6);
    expect(figures.litterAfterRerun).toBe(0);
    // No wall-clock limit: four whole renders per kill take minutes on a loaded machine.
  }, 0);
});
