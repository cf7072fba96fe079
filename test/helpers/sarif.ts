/**
 * SARIF 2.1.0 logs as the tests read them: validated against the SARIF 2.1.0 JSON Schema that
 * Microsoft's `@microsoft/jest-sarif` package ships (`sarif-2.1.0-rtm.5.json`, draft-04, so ajv's
 * draft-04 build), and each location resolved to the line of the file it names.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import Ajv04 from 'ajv-draft-04';
import { expect } from 'vitest';

const require = createRequire(import.meta.url);
const schemaFile = join(
  require.resolve('@microsoft/jest-sarif/package.json'),
  '..',
  'lib',
  'schemas',
  'sarif-2.1.0-rtm.5.json',
);
// The schema's `format: uri` and friends are documentation here: ajv checks structure, types,
// enums and patterns. Its language-tag pattern has a stray `]`, valid only outside unicode mode.
// A CommonJS module: its class is `default` of what `import` gives.
const validate = new Ajv04.default({
  allErrors: true,
  strict: false,
  validateFormats: false,
  unicodeRegExp: false,
}).compile(JSON.parse(readFileSync(schemaFile, 'utf8')) as object);

export interface SarifLocation {
  physicalLocation?: {
    artifactLocation: { uri: string; uriBaseId?: string };
    region?: { startLine: number; startColumn?: number };
  };
  logicalLocations?: { name: string; kind?: string }[];
  message?: { text: string };
}

export interface SarifResult {
  ruleId: string;
  level: string;
  message: { text: string };
  locations?: SarifLocation[];
  relatedLocations?: SarifLocation[];
  partialFingerprints: Record<string, string>;
  properties: { clusters: string[]; machines?: { min: number; max: number } };
}

export interface SarifLog {
  version: string;
  runs: { tool: { driver: { name: string; version: string; rules: { id: string }[] } }; results: SarifResult[] }[];
}

/** The log, after checking it against the SARIF 2.1.0 schema (the test fails with ajv's errors). */
export function validSarif(text: string): SarifLog {
  const log = JSON.parse(text) as SarifLog;
  expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
  return log;
}

/** The text of the line a location points at, its file read below `root` (SRCROOT). */
export function lineAt(root: string, location: SarifLocation | undefined): string {
  const physical = location?.physicalLocation;
  if (!physical?.region) throw new Error(`no line in ${JSON.stringify(location)}`);
  const file = join(root, decodeURIComponent(physical.artifactLocation.uri));
  return readFileSync(file, 'utf8').split('\n')[physical.region.startLine - 1] ?? '';
}
