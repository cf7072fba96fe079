import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Json } from '../../src/core/model.js';
import { executeTemplate, parseTemplate } from '../../src/gotemplate/index.js';

interface GoldenCase {
  id: string;
  template: string;
  data: Json;
  expect: { output: string } | { phase: 'parse' | 'exec'; error?: string };
}

const dir = join(__dirname, '../golden/gotemplate');
const files = readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort();

function load(file: string): GoldenCase[] {
  return readFileSync(join(dir, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as GoldenCase);
}

function run(c: GoldenCase): { output: string } | { phase: string; error: string } {
  const p = parseTemplate(c.template);
  if (!p.ok) return { phase: p.phase, error: p.error };
  const r = executeTemplate(p.template, c.data);
  return r.ok ? { output: r.output } : { phase: r.phase, error: r.error };
}

describe('conformance with Go text/template + sprig (gotmpl-oracle goldens)', () => {
  const all = files.flatMap(load);

  it('has at least 1500 golden cases', () => {
    expect(all.length).toBeGreaterThanOrEqual(1500);
  });

  for (const file of files) {
    it(`agrees on every case of ${file}`, () => {
      const failures: string[] = [];
      for (const c of load(file)) {
        const got = run(c);
        const ok =
          'phase' in c.expect
            ? 'phase' in got && got.phase === c.expect.phase
            : 'output' in got && got.output === c.expect.output;
        if (!ok) {
          failures.push(`${c.id}: ${JSON.stringify(c.template)}\n  expected ${JSON.stringify(c.expect)}\n  got      ${JSON.stringify(got)}`);
        }
      }
      expect(failures.join('\n')).toBe('');
    });
  }
});
