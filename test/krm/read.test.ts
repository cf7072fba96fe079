/**
 * The reader against Kubernetes' own YAML decoding (the k8s-yaml-oracle: sigs.k8s.io/yaml over
 * go-yaml v2, ../shared/tools/k8s-yaml-oracle): which alias-heavy documents go-yaml accepts
 * (decode.go `allowedAliasRatio`), and what merge keys (`<<`) produce. Skips visibly without the
 * oracle binary (.cache/k8s-yaml-oracle).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { readResourceList } from '../../src/krm/read.js';
import { decodeDoubleQuoted } from '../../src/yaml/decode.js';

const ORACLE = process.env.K8S_YAML_ORACLE ?? join(import.meta.dirname, '..', '..', '.cache', 'k8s-yaml-oracle');
const haveOracle = existsSync(ORACLE);
if (!haveOracle)
  console.warn(
    `SKIPPED: k8s-yaml-oracle not found at ${ORACLE}; build it with ../shared/tools/k8s-yaml-oracle/build.sh`,
  );

/** The oracle's verdict on each text: the decoded first document, or its error. */
function oracle(texts: string[]): ({ v: unknown } | { err: string })[] {
  const out = execFileSync(ORACLE, ['-batch'], {
    input: texts.map((t) => JSON.stringify(t)).join('\n') + '\n',
    maxBuffer: 1 << 30,
    encoding: 'utf8',
  });
  return out
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as ({ v: unknown } | { err: string })[])[0]!);
}

const list = (item: string) =>
  `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: c}\n${item}`;

/** `aliases` aliases of an anchored list of `width` scalars, `depth` times over (depth 2+: lists of aliases of the level below). */
function aliasDocument(width: number, aliases: number, depth: number): string {
  let text = `  data:\n    l0: &l0 [${Array(width).fill('"x"').join(', ')}]\n`;
  for (let d = 1; d <= depth; d++)
    text += `    l${d}: &l${d} [${Array(d === depth ? aliases : width)
      .fill(`*l${d - 1}`)
      .join(', ')}]\n`;
  return list(text);
}

describe('long double-quoted values (decoded in slices, not by the YAML library)', () => {
  // Pieces that exercise every branch: escapes (valid and not), folded and escaped line breaks, CRLF, lone CR, trailing blanks.
  const piece = fc.constantFrom(
    'a',
    'é',
    '😀',
    ' ',
    '\t',
    '\n',
    '\r\n',
    '\r',
    '  \n  ',
    '\\n',
    '\\t',
    '\\\t',
    '\\ ',
    '\\"',
    '\\/',
    '\\\\',
    '\\0',
    '\\e',
    '\\N',
    '\\_',
    '\\L',
    '\\P',
    '\\x41',
    '\\u00e9',
    '\\U0001F600',
    '\\\n   ',
    '\\\r\n\t',
    '\\q',
    '\\x4',
    '\\U00110000',
    '\n\n\n',
    '\t\r\n',
  );

  it('decodes exactly as the library does, and fails where it reports an error (seed 707)', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const source = `"${pieces.join('')}"`;
        // At the document root, where continuation lines need no indentation.
        const doc = YAML.parseDocument(source, { version: '1.1' });
        const ours = decodeDoubleQuoted(source);
        if (doc.errors.length > 0) expect(ours).toHaveProperty('problem');
        else expect(ours).toEqual({ value: (doc.contents as YAML.Scalar).value });
      }),
      { seed: 707, numRuns: 3000 },
    );
  });

  it('a 20 MiB value reads as the library reads it, and an invalid escape at its end is refused with its position', () => {
    const value = `${'x'.repeat(20 * 1024 * 1024)}\\u00e9 end`;
    const read = readResourceList(list(`  data: {mode: "${value}"}\n`));
    expect(read.ok && read.input.items[0]!.value.data).toEqual({ mode: `${'x'.repeat(20 * 1024 * 1024)}é end` });
    const bad = readResourceList(list(`  data: {mode: "${'x'.repeat(100_000)}\\q"}\n`));
    expect(bad).toEqual({
      ok: false,
      message: 'input is not valid YAML: Invalid escape sequence \\q at line 7, column 100017',
    });
  });
});

describe.skipIf(!haveOracle)('reading YAML as Kubernetes does (k8s-yaml-oracle)', () => {
  it('accepts and refuses alias-heavy documents exactly where go-yaml v2 does (seed 1313)', () => {
    // Around the 99% alias share (anchors of ~99 nodes) and across the 400,000-4,000,000 node range.
    const shape = fc.record({
      width: fc.oneof(
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 90, max: 110 }),
        fc.integer({ min: 300, max: 600 }),
      ),
      aliases: fc.integer({ min: 1, max: 3000 }),
      depth: fc.integer({ min: 1, max: 3 }),
    });
    const shapes = fc
      .sample(shape, { seed: 1313, numRuns: 60 })
      .filter((s) => s.width ** s.depth * s.aliases < 3_000_000);
    const texts = shapes.map((s) => aliasDocument(s.width, s.aliases, s.depth));
    const verdicts = oracle(texts);
    let refused = 0;
    texts.forEach((text, i) => {
      const read = readResourceList(text);
      expect(read.ok, JSON.stringify(shapes[i])).toBe(true);
      const ours = read.ok && read.input.results.some((r) => r.message.includes('excessive aliasing'));
      const theirs = 'err' in verdicts[i]! && verdicts[i]!.err.includes('excessive aliasing');
      if (theirs) refused++;
      expect(ours, `${JSON.stringify(shapes[i])}: go-yaml ${theirs ? 'refuses' : 'accepts'} it`).toBe(theirs);
    });
    // Both verdicts occur, so the comparison means something.
    expect(refused).toBeGreaterThan(5);
    expect(refused).toBeLessThan(texts.length - 5);
  });

  it('accepts 100,000 aliases of a short scalar, and refuses billion laughs', () => {
    const many = list(`  data: {k: &v short}\n  list:\n${'  - *v\n'.repeat(100_000)}`);
    const laughs = aliasDocument(9, 9, 9);
    const [manyVerdict, laughsVerdict] = oracle([many, laughs]);
    expect(manyVerdict).toHaveProperty('v');
    expect(laughsVerdict).toMatchObject({ err: expect.stringContaining('excessive aliasing') });
    const readMany = readResourceList(many);
    expect(readMany.ok && readMany.input.results).toEqual([]);
    expect(readMany.ok && readMany.input.items[0]!.value).toEqual(
      (manyVerdict as { v: { items: unknown[] } }).v.items[0],
    );
    const readLaughs = readResourceList(laughs);
    expect(readLaughs.ok && readLaughs.input.results.map((r) => r.message)).toEqual([
      expect.stringMatching(
        /^items\[0\]: document contains excessive aliasing \(an alias bomb\) at line \d+, column \d+$/,
      ),
    ]);
  });

  it('applies merge keys as go-yaml v2 does: in order, later entries winning, earlier sources of a list winning', () => {
    const items = [
      '  data: {a: "1", <<: {a: "2", b: "2"}}\n',
      '  data: {<<: {a: "2", b: "2"}, a: "1"}\n',
      '  data: {<<: [{a: "1", b: "1"}, {b: "2", c: "2"}], c: "3"}\n',
      '  base: &base {a: "1", b: {x: "1"}}\n  data:\n    <<: *base\n    b: "2"\n',
      '  base: &m1 {a: "1"}\n  more: &m2 {a: "2", z: "2"}\n  data:\n    <<: [*m2, *m1]\n    k: "v"\n',
    ].map(list);
    const verdicts = oracle(items);
    items.forEach((text, i) => {
      const read = readResourceList(text);
      expect(read.ok && read.input.results, text).toEqual([]);
      expect(read.ok && read.input.items[0]!.value, text).toEqual(
        (verdicts[i] as { v: { items: unknown[] } }).v.items[0],
      );
    });
  });
});
