#!/usr/bin/env node
// Regenerates test/golden/gotemplate/*.jsonl by running every case table in
// scripts/gotemplate/cases/ through the reference renderer (gotmpl-oracle: Go text/template + sprig,
// configured like Cluster API). Build the oracle first:
//   bash ../shared/tools/gotmpl-oracle/build.sh "$PWD/.cache/gotmpl-oracle"
// Usage: node scripts/gotemplate/generate-goldens.mjs [--oracle PATH] [table ...]
import { spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const args = process.argv.slice(2);
let oracle = process.env.GOTMPL_ORACLE ?? join(root, '.cache/gotmpl-oracle');
const oi = args.indexOf('--oracle');
if (oi >= 0) {
  oracle = args[oi + 1];
  args.splice(oi, 2);
}
if (!existsSync(oracle)) {
  console.error(`gotmpl-oracle not found at ${oracle}; build it with ../shared/tools/gotmpl-oracle/build.sh`);
  process.exit(2);
}

// Functions whose results are random or time-dependent (never in goldens).
const RANDOM = /\b(randInt|shuffle|ago|bcrypt|htpasswd|encryptAES|genPrivateKey|genCA|genCAWithKey|genSelfSignedCert|genSelfSignedCertWithKey|genSignedCert|genSignedCertWithKey|buildCustomCert|derivePassword)\b/;

const casesDir = join(here, 'cases');
const tables = readdirSync(casesDir).filter((f) => f.endsWith('.mjs') && !f.startsWith('_')).sort();
const outDir = join(root, 'test/golden/gotemplate');
mkdirSync(outDir, { recursive: true });

let total = 0;
for (const file of tables) {
  const name = file.replace(/\.mjs$/, '');
  if (args.length > 0 && !args.includes(name)) continue;
  const mod = await import(pathToFileURL(join(casesDir, file)).href);
  const cases = (typeof mod.cases === 'function' ? mod.cases() : mod.cases).filter((c) => !RANDOM.test(c.template));
  const seen = new Set();
  const unique = [];
  for (const c of cases) {
    const key = JSON.stringify([c.template, c.data ?? null]);
    if (seen.has(key)) continue;
    seen.add(key);
    unique.push(c);
  }
  const input = unique.map((c, i) => JSON.stringify({ id: i, template: c.template, data: c.data ?? {} })).join('\n') + '\n';
  const r = spawnSync(oracle, [], { input, maxBuffer: 1 << 28 });
  if (r.status !== 0) {
    console.error(`oracle failed on ${name}: ${r.stderr}`);
    process.exit(1);
  }
  const lines = r.stdout.toString('utf8').trim().split('\n').map((l) => JSON.parse(l));
  const out = [];
  let skipped = 0;
  for (const res of lines) {
    const c = unique[res.id];
    if (res.phase === 'input' || res.invalid_utf8 || (res.error && res.error.startsWith('panic:'))) {
      skipped++;
      continue;
    }
    const expect = res.phase ? { phase: res.phase, error: res.error } : { output: res.output };
    out.push(JSON.stringify({ id: `${name}/${c.id ?? res.id}`, template: c.template, data: c.data ?? {}, expect }));
  }
  writeFileSync(join(outDir, `${name}.jsonl`), out.join('\n') + '\n');
  total += out.length;
  console.log(`${name}: ${out.length} cases${skipped ? ` (${skipped} skipped)` : ''}`);
}
console.log(`total: ${total}`);
