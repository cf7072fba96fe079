#!/usr/bin/env node
// Regenerates test/golden/gotemplate/*.jsonl by running every case table in
// scripts/gotemplate/cases/ through the template oracle (oracle/gotmpl: Go text/template + sprig,
// configured like Cluster API), and records what the oracle was built from in
// test/golden/gotemplate/oracle.json. Build the oracle first: npm run oracle:gotmpl.
// Usage: node scripts/gotemplate/generate-goldens.mjs [--check] [--oracle PATH] [table ...]
//   --check: compare the oracle's answers (error texts included) with the committed goldens
//            instead of writing them; prints each difference, exit 1 if there is one.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { gotmplOracle, oracleVersions } from '../oracle/gotmpl-oracle.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const goldenDir = join(resolve(here, '../..'), 'test/golden/gotemplate');
const casesDir = join(here, 'cases');

// Functions whose results are random or time-dependent (never in goldens).
const RANDOM =
  /\b(randInt|shuffle|ago|bcrypt|htpasswd|encryptAES|genPrivateKey|genCA|genCAWithKey|genSelfSignedCert|genSelfSignedCertWithKey|genSignedCert|genSignedCertWithKey|buildCustomCert|derivePassword)\b/;

/** The case tables of scripts/gotemplate/cases/, by name. */
export const tableNames = () =>
  readdirSync(casesDir)
    .filter((f) => f.endsWith('.mjs') && !f.startsWith('_'))
    .map((f) => f.replace(/\.mjs$/, ''))
    .sort();

/** The golden lines of one table as the oracle answers them, and how many cases it left out. */
export async function answer(oracle, name) {
  const mod = await import(pathToFileURL(join(casesDir, `${name}.mjs`)).href);
  const cases = (typeof mod.cases === 'function' ? mod.cases() : mod.cases).filter((c) => !RANDOM.test(c.template));
  const seen = new Set();
  const unique = cases.filter((c) => {
    const key = JSON.stringify([c.template, c.data ?? null]);
    return !seen.has(key) && seen.add(key);
  });
  const input =
    unique.map((c, i) => JSON.stringify({ id: i, template: c.template, data: c.data ?? {} })).join('\n') + '\n';
  const r = spawnSync(oracle, [], { input, maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`oracle failed on ${name}: ${r.stderr}`);
  const lines = [];
  let skipped = 0;
  for (const res of r.stdout
    .toString('utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))) {
    const c = unique[res.id];
    if (res.phase === 'input' || res.invalid_utf8 || res.error?.startsWith('panic:')) {
      skipped++;
      continue;
    }
    const expect = res.phase ? { phase: res.phase, error: res.error } : { output: res.output };
    lines.push(JSON.stringify({ id: `${name}/${c.id ?? res.id}`, template: c.template, data: c.data ?? {}, expect }));
  }
  return { lines, skipped };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values: options, positionals } = parseArgs({
    allowPositionals: true,
    options: { check: { type: 'boolean', default: false }, oracle: { type: 'string', default: gotmplOracle } },
  });
  if (!existsSync(options.oracle)) {
    console.error(`gotmpl-oracle not found at ${options.oracle}; build it with npm run oracle:gotmpl`);
    process.exit(2);
  }
  mkdirSync(goldenDir, { recursive: true });
  let total = 0;
  let differences = 0;
  for (const name of tableNames().filter((n) => positionals.length === 0 || positionals.includes(n))) {
    const { lines, skipped } = await answer(options.oracle, name);
    const file = join(goldenDir, `${name}.jsonl`);
    if (options.check) {
      const committed = existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : [];
      for (let i = 0; i < Math.max(lines.length, committed.length); i++) {
        if (lines[i] === committed[i]) continue;
        differences++;
        console.log(`${name}.jsonl line ${i + 1}\n  golden: ${committed[i]}\n  oracle: ${lines[i]}`);
      }
    } else writeFileSync(file, lines.join('\n') + '\n');
    total += lines.length;
    console.log(`${name}: ${lines.length} cases${skipped ? ` (${skipped} skipped)` : ''}`);
  }
  const versions = `${JSON.stringify(oracleVersions(options.oracle), null, 1)}\n`;
  const versionsFile = join(goldenDir, 'oracle.json');
  if (!options.check) writeFileSync(versionsFile, versions);
  else if (readFileSync(versionsFile, 'utf8') !== versions)
    console.log(`oracle.json: the goldens come from\n${readFileSync(versionsFile, 'utf8')}this oracle is\n${versions}`);
  console.log(`total: ${total}${options.check ? `; ${differences} differences` : ''}`);
  if (differences > 0) process.exitCode = 1;
}
