/**
 * The dry run's unified diff against the real tools: GNU `patch -p1` must turn the old text into
 * the new one, and on line-level edits the hunks are what GNU `diff -u` prints.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { unifiedDiff } from '../../src/convert/unified.js';
import { run, skipUnless } from '../helpers/tools.js';

const SEED = 1717;

function gnuDiff(before: string, after: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'rcc-diff-'));
  writeFileSync(join(dir, 'old'), before);
  writeFileSync(join(dir, 'new'), after);
  return run('diff', ['-u', '--label', 'a/f.yaml', '--label', 'b/f.yaml', 'old', 'new'], { cwd: dir }).stdout;
}

function patched(before: string, diff: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'rcc-patch-'));
  writeFileSync(join(dir, 'f.yaml'), before);
  const r = run('patch', ['-p1', '--quiet', '--no-backup-if-mismatch'], { cwd: dir, input: diff });
  if (r.code !== 0) throw new Error(`patch failed: ${r.stdout}${r.stderr}`);
  return readFileSync(join(dir, 'f.yaml'), 'utf8');
}

/** Texts made of a few distinct lines, so edits collide with equal lines as in YAML files. */
const text = fc
  .array(fc.constantFrom('a: 1', 'b: 2', '  - x', '', '# c', 'spec:'), { maxLength: 30 })
  .chain((lines) => fc.boolean().map((nl) => (lines.length === 0 ? '' : lines.join('\n') + (nl ? '\n' : ''))));

describe.skipIf(skipUnless('diff') || skipUnless('patch'))(
  'unified diff (differential against GNU diff and patch)',
  () => {
    it(`GNU patch applies it, for random edits (seed ${SEED})`, () => {
      fc.assert(
        fc.property(text, text, (before, after) => {
          expect(patched(before, unifiedDiff(before, after, 'f.yaml'))).toBe(after);
        }),
        { seed: SEED, numRuns: 150 },
      );
    });

    it('prints the hunks GNU diff -u prints', () => {
      const cases: [string, string][] = [
        ['a\nb\nc\n', 'a\nB\nc\n'],
        ['1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n', '1\n2\nx\n4\n5\n6\n7\n8\n9\n10\ny\n12\n'],
        [
          '1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n',
          '0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n',
        ],
        ['keep\nno newline', 'keep\nno newline\n'],
        ['', 'new\n'],
        ['old\n', ''],
      ];
      for (const [before, after] of cases) expect(unifiedDiff(before, after, 'f.yaml')).toBe(gnuDiff(before, after));
    });

    it('is empty for equal texts', () => {
      expect(unifiedDiff('a\n', 'a\n', 'f.yaml')).toBe('');
    });
  },
);
