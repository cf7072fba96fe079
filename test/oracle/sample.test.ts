/**
 * A fixed-seed sample of generated ClusterClass/Cluster cases (scripts/oracle/generate.mjs; the
 * full campaign is npm run oracle:campaign) against every supported CAPI version: live where its
 * oracle is built (npm test builds the default version's when Go is installed), else against the
 * oracle's recorded answers. The differences must be exactly the recorded ones, each a known
 * divergence.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderWithProduct, type ProductRender } from '../../scripts/oracle/compare.mjs';
import { askOracleForSample, CI_SAMPLE, differenceLines, expectedFor, readJSON, recordedSample, writeSample } from '../../scripts/oracle/differential.mjs';
import { versions } from './modes.js';

const files = writeSample(mkdtempSync(join(tmpdir(), 'rcc-oracle-sample-')));
const rendered = new Map<string, ProductRender>();
/** The product's render of the sample under the rules of CAPI `minor`. */
const product = (minor: string): ProductRender => {
  if (!rendered.has(minor)) rendered.set(minor, renderWithProduct(minor, files));
  return rendered.get(minor)!;
};

for (const { minor, capi, mode } of versions('generated sample comparison')) {
  describe.skipIf(mode === 'none')(`generated cases against CAPI ${capi} (${mode})`, () => {
    it(`seed ${CI_SAMPLE.seed}, ${CI_SAMPLE.cases} cases: only the recorded differences, all known`, () => {
      const answer = mode === 'live' ? askOracleForSample(minor, files) : readJSON(recordedSample(minor));
      const lines = differenceLines(answer, product(minor), { minor });
      console.log(`CAPI ${capi} (${mode}), seed ${CI_SAMPLE.seed}: ${answer.clusters.length} Clusters, ${answer.admission.length} objects judged, ${lines.length} known differences`);
      expect(lines).toEqual(expectedFor(minor)?.sample ?? []);
      expect(lines.filter((l) => l.startsWith('[new]'))).toEqual([]);
    });
  });
}
