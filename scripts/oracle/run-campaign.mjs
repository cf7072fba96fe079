#!/usr/bin/env node
// The CAPI differential campaign on the built CLI (npm run oracle:campaign -- ...):
//   --version v1.14   the oracle to ask (built by npm run oracle:capi; default: the default version)
//   --seed N          the campaign (printed; the same seed gives the same cases everywhere)
//   --cases N         how many cases (default 1000), --from K the first one (default 0)
//   --batch N         cases per render/oracle run (default 100)
//   --keep DIR        keep each case with differences in DIR/case-<seed>-<index>/ (input.yaml,
//                     crds.yaml, previous/) as its reproduction
//   --allow-known     exit 0 when every difference is a known divergence (scripts/oracle/divergences.mjs)
// Prints the seed, the counts, the differences by kind and by divergence, and each difference with
// its case, its broken rule and the commands that reproduce it. Exit code 1 on any difference.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { reproduction, runCampaign } from './campaign.mjs';
import { signatureOf } from './compare.mjs';
import { DEFAULT_VERSION, oracleBuilt, pinnedRelease } from './capi-versions.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const { values } = parseArgs({
  options: {
    version: { type: 'string', default: DEFAULT_VERSION },
    seed: { type: 'string', default: String(Date.now() % 1000000) },
    cases: { type: 'string', default: '1000' },
    from: { type: 'string', default: '0' },
    batch: { type: 'string', default: '100' },
    keep: { type: 'string' },
    'allow-known': { type: 'boolean', default: false },
  },
});
const minor = values.version;
const [seed, count, from, batch] = [values.seed, values.cases, values.from, values.batch].map(Number);
const keep = values.keep && resolve(values.keep);

if (!oracleBuilt(minor)) {
  console.error(`the CAPI oracle ${minor} is not built: npm run oracle:capi -- --version ${minor}`);
  process.exit(2);
}
if (!existsSync(join(root, 'dist'))) spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });

console.log(`CAPI differential campaign: seed ${seed}, cases ${from}..${from + count - 1}, CAPI ${pinnedRelease(minor)} (${minor})`);
const started = Date.now();
const result = runCampaign({
  minor,
  seed,
  from,
  count,
  batch,
  keep,
  onBatch: ({ done, totals }) => process.stderr.write(`\r${done}/${count} cases, ${totals.differences} differences`),
});
process.stderr.write('\n');
const { totals, byKind, byDivergence, failing } = result;
console.log(`seed ${seed}: ${totals.cases} cases (${totals.broken} broken on purpose, ${totals.updates} updates), ${totals.clusters} Clusters, ${totals.objects} input objects judged, ${totals.renderedObjects} rendered objects compared, in ${Math.round((Date.now() - started) / 1000)} s`);
console.log(`${totals.differences} differences in ${failing.length} cases; by kind ${JSON.stringify(byKind)}; by divergence ${JSON.stringify(byDivergence)}`);
for (const f of failing) {
  console.log(`\ncase ${f.index}${f.broken ? ` (broken: ${f.broken})` : ''} [${f.features.join(', ')}]`);
  for (const d of f.differences) console.log(`  [${d.divergence}] ${signatureOf(d)}`);
  if (f.directory) for (const line of reproduction(f.directory, minor)) console.log(`  reproduce: ${line}`);
  else console.log(`  reproduce: npm run oracle:campaign -- --version ${minor} --seed ${seed} --from ${f.index} --cases 1 --keep DIR`);
}
const unknown = failing.flatMap((f) => f.differences).filter((d) => d.divergence === 'new').length;
process.exitCode = totals.differences === 0 || (values['allow-known'] && unknown === 0) ? 0 : 1;
