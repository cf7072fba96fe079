// The differential runs the tests replay and `npm run oracle:record` records: every real-world
// fixture of ../shared, and a fixed-seed sample of generated cases, per CAPI version. What the
// oracle answered is recorded under test/oracle/recorded/<minor>/ (our own data: the answers, not
// CAPI's code), and the differences found then, one line each with its divergence, under
// test/oracle/expected/<minor>.json, so that a change of the product or of CAPI shows as a change
// of those lines.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { askOracle, compareAnswers, signatureOf } from './compare.mjs';
import { writeCases } from './campaign.mjs';
import { HAND_CASES } from './hand-cases.mjs';
import { classify } from './divergences.mjs';
import { generateCase } from './generate.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURE_DIR = resolve(root, '../shared/fixtures/real-world');
export const RECORDED_DIR = join(root, 'test/oracle/recorded');
export const EXPECTED_DIR = join(root, 'test/oracle/expected');

/** The generated sample CI runs: one batch, the same cases on every machine. */
export const CI_SAMPLE = { seed: 24, cases: 60 };

export const fixtureNames = () => readdirSync(FIXTURE_DIR).filter((f) => f.endsWith('.yaml')).sort().map((f) => f.slice(0, -'.yaml'.length));
export const fixturePath = (name) => join(FIXTURE_DIR, `${name}.yaml`);

/** Sorted lines, one per difference: `[divergence] signature`. */
export function differenceLines(answer, product, context) {
  return compareAnswers(answer, product)
    .differences.map((d) => `[${classify(d, context)}] ${signatureOf(d)}`)
    .sort();
}

/** The sample's cases written to `dir` (inputs, previous state, CRDs). */
export function writeSample(dir) {
  const cases = [];
  for (let i = 0; i < CI_SAMPLE.cases; i++) cases.push(generateCase(CI_SAMPLE.seed, i));
  return writeCases(dir, cases);
}

export const handCaseNames = () => HAND_CASES.map((c) => c.name);

/** Each hand-written case written to `dir/<name>/` (scripts/oracle/hand-cases.mjs): name → files. */
export function writeHandCases(dir) {
  return new Map(HAND_CASES.map((c) => [c.name, writeCases(join(dir, c.name), [{ objects: c.objects('hand'), previous: [] }])]));
}

/** The oracle's answer for the sample written by writeSample. */
export const askOracleForSample = (minor, files) => askOracle(minor, { ...files, previous: files.previous && join(files.previous, 'previous.yaml') });

export const recordedFixture = (minor, name) => join(RECORDED_DIR, minor, 'fixtures', `${name}.json`);
export const recordedHandCase = (minor, name) => join(RECORDED_DIR, minor, 'hand', `${name}.json`);
export const recordedSample = (minor) => join(RECORDED_DIR, minor, `sample-${CI_SAMPLE.seed}-${CI_SAMPLE.cases}.json`);

/** What a recorded answer keeps: everything the comparison reads (not the stored inputs). */
export function forRecording(answer) {
  const { modules: _modules, ...oracle } = answer.oracle;
  return { ...answer, oracle, admission: answer.admission.map(({ stored: _stored, ...rest }) => rest) };
}

export const readJSON = (path) => JSON.parse(readFileSync(path, 'utf8'));

/** The differences expected for `minor` ({ fixtures: {name: lines}, sample: lines }), if recorded. */
export function expectedFor(minor) {
  const path = join(EXPECTED_DIR, `${minor}.json`);
  return existsSync(path) ? readJSON(path) : undefined;
}
