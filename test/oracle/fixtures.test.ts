/**
 * Every real-world fixture of ../shared under every supported CAPI version: the product's render
 * (bin/render-clusterclass) against what CAPI's own code does with the same input (the oracle,
 * oracle/capi: webhooks, API-server schema checks, ClusterClass controller, desired-state
 * generator). The differences must be exactly the recorded ones (test/oracle/expected/<minor>.json,
 * each named after a divergence of test/oracle/DIVERGENCES.md): a new one fails, and so does one
 * that went away (the product was fixed: record again with npm run oracle:record).
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { askOracle, renderWithProduct, type ProductRender } from '../../scripts/oracle/compare.mjs';
import { differenceLines, expectedFor, FIXTURE_DIR, fixtureNames, fixturePath, readJSON, recordedFixture } from '../../scripts/oracle/differential.mjs';
import { CRD_DIR, writeProviderCrds } from '../../scripts/oracle/fixture-crds.mjs';
import { versions } from './modes.js';

const missing = !existsSync(FIXTURE_DIR) || !existsSync(CRD_DIR);
if (missing) console.warn(`SKIPPED: ${FIXTURE_DIR} or ${CRD_DIR} is not available; the CAPI oracle fixture comparison did not run`);
const names = missing ? [] : fixtureNames();
const crds = missing ? '' : writeProviderCrds(mkdtempSync(join(tmpdir(), 'rcc-oracle-crds-')));

const products = new Map<string, ProductRender>();
/** The product's render of a fixture under the rules of CAPI `minor`. */
const product = (minor: string, name: string): ProductRender => {
  const key = `${minor} ${name}`;
  if (!products.has(key)) products.set(key, renderWithProduct(minor, { paths: [fixturePath(name)], crds }));
  return products.get(key)!;
};

for (const { minor, capi, mode } of versions('real-world fixture comparison')) {
  describe.skipIf(missing || mode === 'none')(`real-world fixtures against CAPI ${capi} (${mode})`, () => {
    for (const name of names) {
      it(`${name}: only the recorded differences`, () => {
        const answer = mode === 'live' ? askOracle(minor, { paths: [fixturePath(name)], crds }) : readJSON(recordedFixture(minor, name));
        const lines = differenceLines(answer, product(minor, name), { minor, fixture: name });
        expect(lines).toEqual(expectedFor(minor)?.fixtures[name] ?? []);
        expect(lines.filter((l) => l.startsWith('[new]'))).toEqual([]);
      });
    }
  });
}
