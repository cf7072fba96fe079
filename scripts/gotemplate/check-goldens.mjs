#!/usr/bin/env node
// Compares the built engine (dist/gotemplate) with the committed goldens and prints disagreements.
// Usage: npx tsc -p tsconfig.build.json && node scripts/gotemplate/check-goldens.mjs [filter]
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const { parseTemplate, executeTemplate } = await import(join(root, 'dist/gotemplate/index.js'));
const dir = join(root, 'test/golden/gotemplate');
const filter = process.argv[2];
let total = 0;
let bad = 0;
for (const f of readdirSync(dir)
  .filter((x) => x.endsWith('.jsonl'))
  .sort()) {
  for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const c = JSON.parse(line);
    if (filter && !c.id.includes(filter)) continue;
    total++;
    const p = parseTemplate(c.template);
    const r = p.ok ? executeTemplate(p.template, c.data) : p;
    const got = r.ok ? { output: r.output } : { phase: r.phase, error: r.error };
    const ok = c.expect.phase ? got.phase === c.expect.phase : got.output === c.expect.output;
    if (!ok) {
      bad++;
      console.log(
        `${c.id}\n  template: ${JSON.stringify(c.template)}\n  expect:   ${JSON.stringify(c.expect)}\n  got:      ${JSON.stringify(got)}`,
      );
    }
  }
}
console.log(`${total - bad}/${total} agree`);
