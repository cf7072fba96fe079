/**
 * The goldens (test/golden/gotemplate/) and the isPrint table (src/gotemplate/unicode-print.ts) must
 * come from the Go and sprig that Cluster API is built with: oracle/gotmpl/go.mod pins them (its
 * toolchain line and module versions, taken from the default CAPI minor by
 * `node scripts/oracle/build-gotmpl.mjs --pin`), oracle.json records what the goldens came from.
 * Offline these records must agree with each other and with CAPI's module file; with the oracle
 * built (.cache/gotmpl-oracle) it must answer every golden case exactly as recorded.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRINTABLE_SOURCE } from '../../src/gotemplate/unicode-print.js';
import { answer, goldenDir, tableNames } from '../../scripts/gotemplate/generate-goldens.mjs';
import {
  DEFAULT_VERSION,
  oracleSourceDir as capiSourceDir,
  supportedVersions,
} from '../../scripts/oracle/capi-versions.mjs';
import {
  gotmplOracle,
  gotmplSourceDir,
  oracleVersions,
  pinnedToolchain,
  type OracleVersions,
} from '../../scripts/oracle/gotmpl-oracle.mjs';

const recorded = JSON.parse(readFileSync(join(goldenDir, 'oracle.json'), 'utf8')) as OracleVersions;
const built = oracleVersions();
if (!built)
  console.warn(`SKIPPED: ${gotmplOracle} is not built (npm run oracle:gotmpl); the goldens were not compared with Go`);

/** `module version` pairs of a go.mod's require lines. */
function requires(goMod: string): Map<string, string> {
  return new Map([...goMod.matchAll(/^(?:require)?\s+(\S+) (v\S+)/gm)].map((m) => [m[1]!, m[2]!]));
}
const capiModules = (minor: string) => requires(readFileSync(join(capiSourceDir, 'modules', `${minor}.mod`), 'utf8'));

describe('the goldens and the isPrint table come from the Go and sprig CAPI is built with', () => {
  it('the goldens come from the toolchain oracle/gotmpl/go.mod pins, and the isPrint table from the same Go', () => {
    expect(recorded.go).toBe(pinnedToolchain());
    expect(PRINTABLE_SOURCE).toEqual({ go: recorded.go, unicode: recorded.unicode });
  });

  it(`the goldens' modules are oracle/gotmpl's pins, at the versions CAPI ${DEFAULT_VERSION} selects`, () => {
    const pinned = requires(readFileSync(join(gotmplSourceDir, 'go.mod'), 'utf8'));
    const capi = capiModules(DEFAULT_VERSION);
    expect(recorded.modules['github.com/Masterminds/sprig/v3']).toBe('v3.3.0');
    for (const [module, version] of Object.entries(recorded.modules)) {
      expect({ module, version }).toEqual({ module, version: pinned.get(module) });
      expect({ module, version }).toEqual({ module, version: capi.get(module) });
    }
  });

  it('the other CAPI minors differ from those modules only in golang.org/x/crypto (bcrypt, scrypt: never in goldens)', () => {
    for (const minor of supportedVersions()) {
      const capi = capiModules(minor);
      const differing = Object.entries(recorded.modules)
        .filter(([m, v]) => capi.get(m) !== v)
        .map(([m]) => m);
      expect({ minor, differing }).toEqual({
        minor,
        differing: minor === DEFAULT_VERSION ? [] : ['golang.org/x/crypto'],
      });
    }
  });

  it.skipIf(!built)('the built oracle is the one the goldens were recorded with', () => {
    expect(built).toEqual(recorded);
  });

  it.skipIf(!built)('the built oracle answers every golden case as recorded, error texts included', async () => {
    for (const name of tableNames()) {
      const { lines } = await answer(gotmplOracle, name);
      const committed = readFileSync(join(goldenDir, `${name}.jsonl`), 'utf8')
        .trim()
        .split('\n');
      const differing = lines.flatMap((l, i) => (l === committed[i] ? [] : [`${name}.jsonl:${i + 1}: ${l}`]));
      expect({ name, count: committed.length, differing: differing.slice(0, 5) }).toEqual({
        name,
        count: lines.length,
        differing: [],
      });
    }
  });
});
