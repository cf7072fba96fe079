#!/usr/bin/env node
// The I/O floor of a KRM render: what any renderer written on the `yaml` package must at least do
// for a given input and output, with no rendering at all. See bench/README.md ("The floor").
//
//   node bench/floor.mjs --prepare INPUT.yaml RENDERED.yaml > PRECOMPUTED.json   (untimed set-up)
//   node bench/floor.mjs PRECOMPUTED.json < INPUT.yaml > OUTPUT.yaml             (the floor)
//
// The floor reads the ResourceList from stdin and parses it exactly as src/krm/read.ts does
// (parseDocument, YAML 1.1 without the timestamp tag, same limits), applies the same edits to the
// input items that the renderer made (the local-config annotation on each source Cluster), appends
// the renderer's own output objects and results as new nodes (createNode with
// aliasDuplicateObjects: false, as src/output/write.ts), serialises with doc.toString({lineWidth: 0})
// and writes to stdout. Its output is byte-identical to the renderer's (bench/run.mjs checks).
//
// The precomputed objects are loaded with JSON.parse, timed on their own and reported on stderr as
// `floor-load-ms=<ms>`, so the bench can subtract that cost (the renderer computes these objects,
// it never loads them). Phase timings go to stderr as `floor-phases ...`.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import YAML, { isMap } from 'yaml';

/**
 * src/krm/read.ts parseOptions with DEFAULT_READ_LIMITS. read.ts turns the library's (quadratic)
 * duplicate-key check off and runs its own one-pass check, and counts lines for error positions:
 * both are the renderer's validation work, not part of the floor.
 */
export const PARSE_OPTIONS = {
  version: '1.1',
  customTags: (tags) => tags.filter((t) => t.tag !== 'tag:yaml.org,2002:timestamp'),
  maxAliasCount: 1000,
  uniqueKeys: false,
  prettyErrors: true,
};
/** src/output/write.ts NODE_OPTIONS and the toString options of writeResourceList. */
const NODE_OPTIONS = { aliasDuplicateObjects: false };
const TO_STRING_OPTIONS = { lineWidth: 0 };

function parseResourceList(text) {
  const doc = YAML.parseDocument(text.replace(/^\uFEFF/, ''), PARSE_OPTIONS);
  if (doc.errors.length > 0) throw new Error(`input is not valid YAML: ${doc.errors[0].message}`);
  return doc;
}

/**
 * Set-up (untimed): splits the renderer's output into what the floor needs. The renderer keeps
 * every input item in order (fresh package: no earlier outputs, keepClassInputs) and appends the
 * generated objects; per kept item we record the annotations it added.
 */
export function prepare(inputText, renderedText) {
  const input = parseResourceList(inputText).toJS().items ?? [];
  const output = parseResourceList(renderedText).toJS();
  const items = output.items ?? [];
  const annotate = [];
  for (let i = 0; i < input.length; i++) {
    const before = input[i]?.metadata?.annotations ?? {};
    const after = items[i]?.metadata?.annotations ?? {};
    if (items[i]?.metadata?.name !== input[i]?.metadata?.name || items[i]?.kind !== input[i]?.kind) {
      throw new Error(`rendered item ${i} is not input item ${i}: the floor expects inputs first, in order`);
    }
    for (const [k, v] of Object.entries(after)) if (!(k in before)) annotate.push([i, k, v]);
  }
  return { annotate, generated: items.slice(input.length), results: output.results ?? [] };
}

/** src/output/write.ts setAnnotation. */
function setAnnotation(doc, node, key, value) {
  const child = (parent, name) => {
    const existing = parent.get(name, true);
    if (isMap(existing)) return existing;
    const created = doc.createNode({});
    parent.set(name, created);
    return created;
  };
  child(child(node, 'metadata'), 'annotations').set(
    doc.createNode(key, NODE_OPTIONS),
    doc.createNode(value, NODE_OPTIONS),
  );
}

/** The floor proper: parse, edit, append, serialise. Returns the output text and phase times. */
export function floor(inputText, pre) {
  const t0 = performance.now();
  const doc = parseResourceList(inputText);
  const root = doc.contents;
  const inputItems = root.get('items', true)?.items ?? [];
  const t1 = performance.now();
  for (const [i, k, v] of pre.annotate) setAnnotation(doc, inputItems[i], k, v);
  const items = doc.createNode([]);
  for (const node of inputItems) items.items.push(node);
  for (const obj of pre.generated) items.items.push(doc.createNode(obj, NODE_OPTIONS));
  // items, then results, after the input's other keys (functionConfig, …), as src/output/write.ts.
  root.delete('items');
  root.delete('results');
  root.set('items', items);
  if (pre.results.length > 0) root.set('results', doc.createNode(pre.results, NODE_OPTIONS));
  const t2 = performance.now();
  const text = doc.toString(TO_STRING_OPTIONS);
  const t3 = performance.now();
  return { text, phases: { parse: t1 - t0, build: t2 - t1, stringify: t3 - t2 } };
}

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

async function cli(args) {
  if (args[0] === '--prepare') {
    process.stdout.write(JSON.stringify(prepare(readFileSync(args[1], 'utf8'), readFileSync(args[2], 'utf8'))));
  } else if (args.length === 1) {
    const l0 = performance.now();
    const pre = JSON.parse(readFileSync(args[0], 'utf8'));
    const loadMs = performance.now() - l0;
    const s0 = performance.now();
    const input = await readStdin();
    const readMs = performance.now() - s0;
    const { text, phases } = floor(input, pre);
    const w0 = performance.now();
    process.stdout.write(text);
    const writeMs = performance.now() - w0;
    const f = (x) => x.toFixed(1);
    process.stderr.write(
      `floor-phases read=${f(readMs)} parse=${f(phases.parse)} build=${f(phases.build)} stringify=${f(phases.stringify)} write=${f(writeMs)}\n` +
        `floor-load-ms=${f(loadMs)}\n`,
    );
  } else {
    process.stderr.write(
      'usage: floor.mjs --prepare INPUT RENDERED > PRE.json | floor.mjs PRE.json < INPUT > OUTPUT\n',
    );
    process.exitCode = 2;
  }
}

// Not on import: bench/cold-floor.mjs bundles the floor (where import.meta is empty).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  cli(process.argv.slice(2));
}
