#!/usr/bin/env node
// The YAML differential campaign (scripts/yaml/campaign.mjs) on the built renderer (dist/) against
// the real decoder. Build both first: `npm run build` and
//   bash ../shared/tools/k8s-yaml-oracle/build.sh "$PWD/.cache/k8s-yaml-oracle"
// Usage:
//   node scripts/yaml/oracle-campaign.mjs [--seed S] [--scalars N] [--oracle PATH]
//       runs the hand list and N seeded random scalars (default: the live test's campaign), prints
//       the seed, the counts and every disagreement; exits 1 on any disagreement (npm run fuzz:yaml).
//   node scripts/yaml/oracle-campaign.mjs --record
//       runs the CI sample (cases.mjs CI_SAMPLE) and writes the oracle's answers to
//       test/golden/yaml/oracle-answers.jsonl, which test/yaml/oracle-golden.test.ts replays (npm run yaml:goldens).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { binaryOracle, goldenKey, runCampaign } from './campaign.mjs';
import { CI_SAMPLE, HAND_LIST, LIVE_CAMPAIGN, randomScalars } from './cases.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const option = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const record = args.includes('--record');
const oraclePath = option('oracle', process.env.K8S_YAML_ORACLE ?? join(root, '.cache/k8s-yaml-oracle'));
if (!existsSync(oraclePath)) {
  console.error(`k8s-yaml-oracle not found at ${oraclePath}; build it with ../shared/tools/k8s-yaml-oracle/build.sh`);
  process.exit(2);
}
const dist = (path) => import(join(root, 'dist', path));
const [{ runFunction }, { parseTemplateOutput }, { emitYaml }, { readYamlStream }, { goMarshal }] = await Promise.all(
  ['cli/render.js', 'gotemplate/index.js', 'output/emit.js', 'krm/read.js', 'core/go/json.js'].map(dist),
);
const product = {
  readYamlStream,
  parseTemplateOutput,
  emitYaml,
  goMarshal,
  async krmFunction(text) {
    let out = '';
    let err = '';
    const code = await runFunction({
      readStdin: async () => text,
      stdout: (t) => void (out += t),
      stderr: (t) => void (err += t),
    });
    return { code, out: code === 0 ? out : err };
  },
};

const { seed, scalars: count } = record
  ? CI_SAMPLE
  : { seed: Number(option('seed', LIVE_CAMPAIGN.seed)), scalars: Number(option('scalars', LIVE_CAMPAIGN.scalars)) };
const recorded = [];
const real = binaryOracle(oraclePath);
const oracle = (texts) => {
  const lines = real(texts);
  texts.forEach((t, i) => recorded.push(JSON.stringify([goldenKey(t), lines[i]])));
  return lines;
};
const { counts, disagreements } = await runCampaign({
  scalars: [...HAND_LIST, ...randomScalars(seed, count)],
  product,
  oracle,
});
console.log(
  `k8s-yaml-oracle campaign, seed ${seed}: ${HAND_LIST.length} hand-written + ${count} random scalars; ${JSON.stringify(counts)}; ${disagreements.length} disagreements`,
);
for (const d of disagreements) console.log(JSON.stringify(d));
if (record) {
  const out = join(root, 'test/golden/yaml/oracle-answers.jsonl');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${recorded.join('\n')}\n`);
  console.log(`wrote ${recorded.length} answers to ${out}`);
}
if (disagreements.length > 0) process.exitCode = 1;
