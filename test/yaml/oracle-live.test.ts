/**
 * The full differential campaign against the real decoder (k8s-yaml-oracle: sigs.k8s.io/yaml
 * YAMLToJSON over go-yaml v2, built from ../shared/tools/k8s-yaml-oracle), when it is built: the
 * hand list and 20,000 seeded random plain scalars, read and written by us in every position
 * (scripts/yaml/campaign.mjs). YAML_ORACLE_SEED and YAML_ORACLE_SCALARS run another campaign;
 * K8S_YAML_ORACLE points at the binary. Skips with a visible line where the oracle is not built.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binaryOracle, runCampaign } from '../../scripts/yaml/campaign.mjs';
import { HAND_LIST, LIVE_CAMPAIGN, randomScalars } from '../../scripts/yaml/cases.mjs';
import { repoRoot } from '../helpers/tools.js';
import { product } from './product.js';

const oraclePath = process.env.K8S_YAML_ORACLE ?? join(repoRoot, '.cache', 'k8s-yaml-oracle');
const missing = !existsSync(oraclePath);
if (missing)
  console.warn(
    `SKIPPED: k8s-yaml-oracle is not built at ${oraclePath}; the live YAML differential campaign did not run`,
  );
const seed = Number(process.env.YAML_ORACLE_SEED ?? LIVE_CAMPAIGN.seed);
const count = Number(process.env.YAML_ORACLE_SCALARS ?? LIVE_CAMPAIGN.scalars);

describe.skipIf(missing)('YAML as Kubernetes reads and writes it: k8s-yaml-oracle, live', () => {
  it(`agrees on the hand list and ${count} random scalars (seed ${seed}), reading and writing`, async () => {
    const scalars = [...HAND_LIST, ...randomScalars(seed, count)];
    const { counts, disagreements } = await runCampaign({ scalars, product, oracle: binaryOracle(oraclePath) });
    console.log(
      `k8s-yaml-oracle campaign, seed ${seed}: ${JSON.stringify(counts)}; ${disagreements.length} disagreements`,
    );
    expect(disagreements.slice(0, 20)).toEqual([]);
    expect(counts.scalars).toBe(HAND_LIST.length + count);
  }, 600_000);
});
