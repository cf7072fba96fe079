/**
 * Differential test against Kubernetes' YAML decoder (sigs.k8s.io/yaml over go-yaml v2), replayed
 * from recorded answers so that it runs where the oracle is not built (CI): the hand list and a
 * seeded sample of random plain scalars, read and written by us in every position
 * (scripts/yaml/campaign.mjs). The answers are the oracle's (`npm run yaml:goldens` regenerates
 * them); a text we produce that has no recorded answer fails the test. test/yaml/oracle-live.test.ts
 * runs the full campaign against the binary.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordedOracle, runCampaign } from '../../scripts/yaml/campaign.mjs';
import { CI_SAMPLE, HAND_LIST, randomScalars } from '../../scripts/yaml/cases.mjs';
import { product } from './product.js';

const answers = readFileSync(join(import.meta.dirname, '../golden/yaml/oracle-answers.jsonl'), 'utf8');

describe('YAML as Kubernetes reads and writes it: recorded k8s-yaml-oracle answers', () => {
  it(`agrees on the hand list and ${CI_SAMPLE.scalars} random scalars (seed ${CI_SAMPLE.seed}), reading and writing`, async () => {
    const scalars = [...HAND_LIST, ...randomScalars(CI_SAMPLE.seed, CI_SAMPLE.scalars)];
    const { counts, disagreements } = await runCampaign({ scalars, product, oracle: recordedOracle(answers) });
    console.log(`k8s-yaml-oracle (recorded), seed ${CI_SAMPLE.seed}: ${JSON.stringify(counts)}`);
    expect(disagreements.slice(0, 20)).toEqual([]);
    expect(counts.scalars).toBe(HAND_LIST.length + CI_SAMPLE.scalars);
    expect(counts.comparisons).toBeGreaterThan(10 * counts.scalars);
  });
});
