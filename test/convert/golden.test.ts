/**
 * Golden conversions: every folder under test/golden/convert holds an input.yaml; expected.yaml
 * is the converted file and results.txt what `convert` reports (rewrites, notes, the proof).
 * They show, reviewed by eye, that only converted fields change: comments (above, after and
 * inside moved fields), blank lines, key order, quoting, flow collections and the document's
 * list indentation survive. Regenerate with `npm run golden:update` and review the diff.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertSources } from '../../src/convert/index.js';
import { formatResults } from '../../src/output/write.js';

const root = join(import.meta.dirname, '..', 'golden', 'convert');
const update = process.env.UPDATE_GOLDEN === '1';
const cases = readdirSync(root)
  .filter((d) => existsSync(join(root, d, 'input.yaml')))
  .sort();

describe('golden conversions', () => {
  it.each(cases)('%s', (name) => {
    const dir = join(root, name);
    const input = readFileSync(join(dir, 'input.yaml'), 'utf8');
    const outcome = convertSources([{ path: 'input.yaml', text: input }]);
    const out = outcome.files[0]!.after;
    const results = formatResults(outcome.results, 'info');
    if (update) {
      writeFileSync(join(dir, 'expected.yaml'), out);
      writeFileSync(join(dir, 'results.txt'), results);
    }
    expect(out).toBe(readFileSync(join(dir, 'expected.yaml'), 'utf8'));
    expect(results).toBe(readFileSync(join(dir, 'results.txt'), 'utf8'));
    // Converting the converted file again changes nothing.
    expect(convertSources([{ path: 'input.yaml', text: out }]).files[0]!.after).toBe(out);
  });
});
