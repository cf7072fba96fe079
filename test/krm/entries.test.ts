/**
 * Reading a ResourceList entry by entry (krm/read.ts `readResourceListText`) against reading its
 * whole document, the reference: over generated ResourceLists (kyaml's and the yaml library's
 * styles, comments, multi-line strings, anchors within an item, JSON items, unicode, items that
 * are not objects, values Kubernetes refuses or reads inexactly, a function config before or after
 * the items), both give the same items, values, results (positions included) and output bytes,
 * edits applied. Inputs it cannot split (CRLF, `---`, a byte-order mark, blank lines between
 * entries, an alias of another entry's anchor) are read whole.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import type { JsonObject } from '../../src/core/model.js';
import { readResourceList, type ResourceListInput } from '../../src/krm/read.js';
import type { InputItem } from '../../src/krm/item.js';
import { writeResourceList } from '../../src/output/write.js';
import type { ItemEdit } from '../../src/pipeline/run.js';

const SEED = 2727;

/** An entry written at column 0 (`- …`); `dash` moves it to column 2. */
const entryAt = (entry: string, dash: 0 | 2): string =>
  dash === 0
    ? entry
    : entry
        .split('\n')
        .map((line) => (line === '' ? line : `  ${line}`))
        .join('\n');

/** Written by hand: what generated objects do not cover. */
const SPECIAL_ENTRIES = [
  '- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: anchored}\n  data:\n    a: &x hello\n    b: *x\n    m: &m {k: v}\n    n: *m\n',
  '- {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "json"}, "data": {"k": "v\\u00e9"}}\n',
  '- 42\n',
  '- [1, 2]\n',
  '- kind: ConfigMap\n  data: {}\n',
  '- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: big\n  data:\n    n: 12345678901234567890\n    inf: .inf\n',
  '- apiVersion: v1 # trailing\n  # a comment line\n  kind: ConfigMap\n  metadata:\n    name: commented\n    annotations:\n      config.kubernetes.io/path: c.yaml\n# a comment at column 0\n  data:\n    literal: |\n      one\n\n      three\n    kept: |+\n      kept\n\n    folded: >-\n      a\n      b\n',
  '- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: \'unicode-é\'\n  data:\n    s: "é😀\\u2028x"\n    multi: "first\n      second"\n',
  '- apiVersion: kustomize.config.k8s.io/v1beta1\n  kind: Kustomization\n  resources: [a.yaml]\n',
];

const scalar = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.constantFrom('true', 'null', '0x1F', '1e3', 'a: b', '- x', '#', 'é😀', 'line\nbreak', 'tail \n\n', ' lead'),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);
const value = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), tie('value'), { maxKeys: 3 }),
  ),
})).value;

const object = fc.record({
  name: fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/),
  data: fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), value, { maxKeys: 4 }),
  path: fc.option(fc.constantFrom('a.yaml', 'dir/b.yaml'), { nil: undefined }),
});

/** A generated object as the yaml library writes it in one of its styles, as a list entry at column 0. */
const generatedEntry = fc
  .tuple(
    object,
    fc.record({ indentSeq: fc.boolean(), singleQuote: fc.boolean(), lineWidth: fc.constantFrom(0, 20, 80) }),
  )
  .map(([o, style]) => {
    const metadata: JsonObject = { name: o.name };
    if (o.path) metadata.annotations = { 'config.kubernetes.io/path': o.path };
    const text = YAML.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata, data: o.data }, style);
    return text
      .replace(/\n$/, '')
      .split('\n')
      .map((line, i) => (i === 0 ? `- ${line}` : line === '' ? line : `  ${line}`))
      .join('\n')
      .concat('\n');
  });

/** What makes a text one the reader must read whole. */
const WHOLE = [
  'crlf',
  'document-start',
  'byte-order-mark',
  'blank-line',
  'blank-line-first',
  'blank-line-last',
  'alias-across-entries',
] as const;

const resourceList = fc.record({
  entries: fc.array(fc.oneof(generatedEntry, fc.constantFrom(...SPECIAL_ENTRIES)), { minLength: 1, maxLength: 6 }),
  dash: fc.constantFrom(0 as const, 2 as const),
  /** Comment lines between entries (never blank lines: those are `blank-line`). */
  comments: fc.array(fc.constantFrom('', '# between\n', '  # indented\n'), { maxLength: 6 }),
  functionConfig: fc.constantFrom('none', 'before', 'after', 'after-refused'),
  whole: fc.option(fc.constantFrom(...WHOLE), { nil: undefined, freq: 3 }),
  finalLineBreak: fc.boolean(),
});

type Generated = typeof resourceList extends fc.Arbitrary<infer T> ? T : never;

const FUNCTION_CONFIG =
  'functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: fn}\n  data: {mode: expand}\n';

function textOf(g: Generated): string {
  const fnConfig =
    g.functionConfig === 'after-refused'
      ? FUNCTION_CONFIG.replace('{mode: expand}', '{mode: expand, n: .inf}')
      : FUNCTION_CONFIG;
  let entries = g.entries.map((e, i) => `${g.comments[i] ?? ''}${entryAt(e, g.dash)}`);
  if (g.whole === 'blank-line') entries = [entries[0]!, '\n', ...entries.slice(1)];
  if (g.whole === 'blank-line-first') entries = ['\n', ...entries];
  if (g.whole === 'blank-line-last') entries = [...entries, '\n'];
  if (g.whole === 'alias-across-entries')
    entries = [
      entryAt('- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: &n anchor}\n', g.dash),
      ...entries,
      entryAt('- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: *n}\n', g.dash),
    ];
  let text = [
    'apiVersion: config.kubernetes.io/v1\n# the head\nkind: ResourceList\n',
    g.functionConfig === 'before' ? FUNCTION_CONFIG : '',
    'items:\n',
    ...entries,
    g.functionConfig.startsWith('after') ? fnConfig : '',
  ].join('');
  // Only where nothing else is meant to be read whole (a blank last line is a final line break and one more).
  if (!g.finalLineBreak && g.whole === undefined) text = text.replace(/\n$/, '');
  if (g.whole === 'crlf') return text.replace(/\n/g, '\r\n');
  if (g.whole === 'document-start') return `---\n${text}`;
  if (g.whole === 'byte-order-mark') return `\uFEFF${text}`;
  return text;
}

/** Edits of every kind on some items, by index: what the pipeline hands the writer. */
function edits(items: readonly InputItem[]): Map<InputItem, ItemEdit> {
  const out = new Map<InputItem, ItemEdit>();
  items.forEach((item, i) => {
    if (i % 3 === 1) out.set(item, { addAnnotations: { 'config.kubernetes.io/local-config': 'true' } });
    if (i % 4 === 2)
      out.set(item, { replaceWith: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `r${i}` } } });
  });
  return out;
}

const written = (input: ResourceListInput): string =>
  writeResourceList(input.doc, {
    keep: input.items,
    keepEntries: [],
    edits: edits(input.items),
    generated: [],
    results: input.results,
  });

/** What a read gives, as plain data: items without their YAML, results, the function config, and the output. */
function outcome(text: string, byEntries: boolean) {
  const read = readResourceList(text, undefined, { byEntries });
  if (!read.ok) return { read: { message: read.message }, byEntries: false };
  const { input } = read;
  return {
    read: {
      items: input.items.map(({ yaml: _, ...rest }) => rest),
      results: input.results,
      functionConfig: input.functionConfig,
      functionConfigProblem: input.functionConfigProblem,
      output: written(input),
    },
    byEntries: input.items.length > 0 && input.items.every((i) => i.yaml !== undefined && 'entry' in i.yaml),
  };
}

describe(`reading a ResourceList entry by entry (fast-check seed ${SEED})`, () => {
  it('gives the whole document’s items, results, positions and output bytes; reads whole what it cannot split', () => {
    let split = 0;
    const runs = Number(process.env.ENTRIES_RUNS ?? 400);
    fc.assert(
      fc.property(resourceList, (g) => {
        const text = textOf(g);
        const whole = outcome(text, false);
        const entries = outcome(text, true);
        expect(entries.read).toEqual(whole.read);
        // A text to read whole is read whole (others too, where an entry ends in blank lines: a `|+` value).
        if (g.whole !== undefined) expect(entries.byEntries).toBe(false);
        if (entries.byEntries) split++;
      }),
      { seed: SEED, numRuns: runs },
    );
    // The property is about the entry-by-entry read: a good share of the generated lists must take it.
    expect(split).toBeGreaterThan(runs / 4);
  });

  it('points results about an entry and about the function config after the items at their lines in the text', () => {
    const text = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
  - apiVersion: v1
    kind: ConfigMap
    metadata: {name: a}
  - 42
  - apiVersion: v1
    kind: ConfigMap
    metadata: {name: b}
    data: {n: .inf}
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata: {name: fn}
  data: {n: .inf}
`;
    const read = readResourceList(text);
    if (!read.ok) throw new Error(read.message);
    expect(read.input.items.map((i) => i.yaml && 'entry' in i.yaml)).toEqual([true, true, true]);
    expect(read.input.results.map((r) => r.message)).toEqual([
      'items[1] (line 7, column 5) is not an object: it is a scalar (42)',
      expect.stringContaining(
        'items[2]: Kubernetes cannot read this object: json: unsupported value: +Inf at line 11, column 15',
      ),
    ]);
    // Without the final line break, ending in an entry: read by entries too.
    const ending = readResourceList(text.slice(0, text.indexOf('functionConfig:') - 1));
    expect(ending.ok && ending.input.items.every((i) => i.yaml && 'entry' in i.yaml)).toBe(true);
    expect(read.input.functionConfigProblem).toBe(
      'Kubernetes cannot read it: json: unsupported value: +Inf at line 16, column 13',
    );
  });
});
