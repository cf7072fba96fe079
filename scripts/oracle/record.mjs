#!/usr/bin/env node
// Records the CAPI oracle's answers and the differences found with the product, for every CAPI
// version whose oracle is built (npm run oracle:record; build them first with npm run oracle:capi):
//   test/oracle/recorded/<minor>/fixtures/<fixture>.json   the oracle's answer per real-world fixture
//   test/oracle/recorded/<minor>/hand/<case>.json          the oracle's answer per hand-written case
//   test/oracle/recorded/<minor>/sample-<seed>-<cases>.json the oracle's answer for the CI sample
//   test/oracle/expected/<minor>.json                      the differences found, one line each
// The tests (test/oracle/) compare with these where an oracle is not built, and always with the
// expected differences. Options: --version v1.14 (repeatable) records only those versions.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { askOracle, renderWithProduct } from './compare.mjs';
import { oracleBuilt, pinnedRelease, supportedVersions } from './capi-versions.mjs';
import {
  askOracleForSample,
  differenceLines,
  EXPECTED_DIR,
  fixtureNames,
  fixturePath,
  forRecording,
  handCaseNames,
  recordedFixture,
  recordedHandCase,
  recordedSample,
  writeHandCases,
  writeSample,
} from './differential.mjs';
import { writeProviderCrds } from './fixture-crds.mjs';

const { values } = parseArgs({ options: { version: { type: 'string', multiple: true, default: [] } } });
const minors = (values.version.length ? values.version : supportedVersions()).filter((m) => {
  if (oracleBuilt(m)) return true;
  console.warn(`SKIPPED: the CAPI oracle ${m} is not built (npm run oracle:capi -- --version ${m}); its recordings are left as they are`);
  return false;
});

const write = (path, value) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 1)}\n`);
};

const work = mkdtempSync(join(tmpdir(), 'capi-oracle-record-'));
try {
  const crds = writeProviderCrds(join(work, 'crds'));
  const handFiles = writeHandCases(join(work, 'hand'));
  const sampleFiles = writeSample(join(work, 'sample'));
  for (const minor of minors) {
    // The product renders under the rules of the minor it is compared with.
    const products = new Map(fixtureNames().map((name) => [name, renderWithProduct(minor, { paths: [fixturePath(name)], crds })]));
    const handProducts = new Map(handCaseNames().map((name) => [name, renderWithProduct(minor, handFiles.get(name))]));
    const sampleProduct = renderWithProduct(minor, sampleFiles);
    const expected = { capi: pinnedRelease(minor), fixtures: {}, hand: {}, sample: [] };
    for (const name of fixtureNames()) {
      const answer = askOracle(minor, { paths: [fixturePath(name)], crds });
      write(recordedFixture(minor, name), forRecording(answer));
      expected.fixtures[name] = differenceLines(answer, products.get(name), { minor, fixture: name });
    }
    for (const name of handCaseNames()) {
      const answer = askOracle(minor, handFiles.get(name));
      write(recordedHandCase(minor, name), forRecording(answer));
      expected.hand[name] = differenceLines(answer, handProducts.get(name), { minor });
    }
    const sample = askOracleForSample(minor, sampleFiles);
    write(recordedSample(minor), forRecording(sample));
    expected.sample = differenceLines(sample, sampleProduct, { minor });
    write(join(EXPECTED_DIR, `${minor}.json`), expected);
    const count = Object.values(expected.fixtures).flat().length;
    console.log(`${minor} (CAPI ${expected.capi}): ${fixtureNames().length} fixtures (${count} differences), sample of ${sample.clusters.length} Clusters (${expected.sample.length} differences) recorded`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
