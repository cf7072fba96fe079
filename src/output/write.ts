/**
 * Writing output. ResourceList mode writes every pass-through item from its original YAML node
 * (so untouched objects stay what they were, modulo comments, which kpt restores by id) and
 * appends generated objects. An item read as a list entry (krm/read.ts) is parsed again when it
 * is written, alone: the whole ResourceList's nodes are never held at once. Manifest mode prints plain multi-document YAML for appliers.
 *
 * The output ResourceList is, in this order: the input's own keys (apiVersion, kind,
 * functionConfig, …) as they were, then `items` (the kept input items in input order, then the
 * generated objects by Cluster), then `results`. `items` and `results` come last so the generated
 * entries and the results can be appended as text: `resourceListWriter` serialises each Cluster's
 * objects as soon as it is rendered and writes the whole list in pieces, `writeResourceList` in one
 * string; the bytes are the same.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import YAML, { LineCounter, isMap, isNode, isSeq, visit, type Document, type Node, type YAMLMap } from 'yaml';
import { parseYaml } from '../yaml/decode.js';
import type { Json, JsonObject } from '../core/model.js';
import { emitYaml } from './emit.js';
import { KUBERNETES_YAML } from '../yaml/kubernetes.js';
import {
  compareClusterOutputs,
  type ClusterOutput,
  type PipelineOutput,
  type PipelineSummary,
} from '../pipeline/run.js';
import { dropAnnotations, isToolAnnotation } from '../pipeline/classify.js';
import { asObject, cloneJson, jsonString } from '../core/json.js';
import type { Result } from '../core/result.js';
import { annotationsOf } from '../krm/read.js';
import { LOCAL_CONFIG_ANNOTATION, PREVIOUS_ANNOTATION } from '../core/labels.js';
import type { InputItem } from '../krm/item.js';

/** Shared sub-objects must be written out in full: kpt rejects YAML aliases in items. */
const NODE_OPTIONS = { aliasDuplicateObjects: false } as const;

/** Removes every comment: kpt/kustomize put the originals back by object id (KRM Functions Specification: kustomize cmd/config/docs/api-conventions/functions-spec.md). */
function stripComments(doc: Document): void {
  doc.commentBefore = null;
  doc.comment = null;
  visit(doc, {
    Node(_, node) {
      const n = node;
      n.commentBefore = null;
      n.comment = null;
    },
  });
}

/** Sets metadata.annotations[key] on a YAML map node without creating 1.1 `!!omap` nodes. */
function setAnnotation(doc: Document, node: YAMLMap, key: string, value: string): void {
  const child = (parent: YAMLMap, name: string): YAMLMap => {
    const existing: unknown = parent.get(name, true);
    if (isMap(existing)) return existing;
    const created = doc.createNode({}) as YAMLMap;
    parent.set(name, created);
    return created;
  };
  child(child(node, 'metadata'), 'annotations').set(
    doc.createNode(key, NODE_OPTIONS),
    doc.createNode(value, NODE_OPTIONS),
  );
}

/** A kept item's node in `doc`, edited: its `own` node from that document, else one made from its value. */
function itemNode(doc: Document, item: InputItem, own: Node | undefined, output: PipelineSummary): Node {
  const edit = output.edits.get(item);
  if (edit?.replaceWith) return doc.createNode(edit.replaceWith, NODE_OPTIONS);
  const node = own ?? doc.createNode(item.value, NODE_OPTIONS);
  if (isMap(node)) for (const [k, v] of Object.entries(edit?.addAnnotations ?? {})) setAnnotation(doc, node, k, v);
  return node;
}

/** Indents every line but empty ones by two spaces (an empty line in a block scalar has no indentation). */
const indentedTwo = (text: string): string =>
  text
    .split('\n')
    .map((line) => (line === '' ? line : `  ${line}`))
    .join('\n');

/** A list entry's text (krm/read.ts read it as a list of one item) parsed alone: the list's document. */
function entryDocument(entry: string): { doc: Document; seq: YAML.YAMLSeq<Node> } {
  const [doc] = parseYaml(entry, new LineCounter());
  const seq = doc?.contents;
  if (!doc || !isSeq<Node>(seq) || !isNode(seq.items[0])) throw new Error('a list entry no longer reads as one');
  return { doc, seq };
}

/** A kept item's own node when it came in `doc`: its node, or its list entry's, parsed again (a different document's). */
function ownNode(doc: Document, item: InputItem): Node | undefined {
  const yaml = item.yaml;
  if (yaml?.doc !== doc) return undefined;
  return 'node' in yaml ? yaml.node : entryDocument(yaml.entry).seq.items[0];
}

/**
 * A kept item read as a list entry, as `doc` writes it in `items:`: the entry parsed alone is a
 * list of one item, written at column 0 and moved to the list's column 2 (every line of a node's
 * text is relative to its column; lineWidth 0 folds no line).
 */
function entryText(item: InputItem, entry: string, output: PipelineSummary): string {
  const { doc, seq } = entryDocument(entry);
  seq.items = [itemNode(doc, item, seq.items[0], output)];
  stripComments(doc);
  return indentedTwo(doc.toString({ lineWidth: 0 }));
}

/**
 * The kept items as `items:` entries when every one was read as a list entry of `doc` (the text
 * `doc` writes with their nodes, without holding them all), else undefined.
 */
function keptEntries(doc: Document, summary: PipelineSummary): string | undefined {
  let text = '';
  for (const item of summary.keep) {
    if (item.yaml?.doc !== doc || !('entry' in item.yaml)) return undefined;
    text += entryText(item, item.yaml.entry, summary);
  }
  return text;
}

/** A YAML document body as an entry of the `items:` list (two-space list indentation, as the yaml library prints it). */
function asListEntry(body: string): string {
  const lines = body.replace(/\n$/, '').split('\n');
  return lines.map((line, i) => (i === 0 ? `  - ${line}` : line === '' ? line : `    ${line}`)).join('\n');
}

/** Objects as entries of the `items:` list, each ending with a newline. */
function itemEntries(objects: readonly JsonObject[]): string {
  let text = '';
  for (const o of objects) text += `${asListEntry(emitYaml(o))}\n`;
  return text;
}

/** Earlier outputs kept as text (krm/earlier.ts: already indented as entries of the `items:` list). */
const textEntries = (entries: readonly string[]): string =>
  entries.map((e) => (e.endsWith('\n') ? e : `${e}\n`)).join('');

/** One Cluster's entries: its rendered objects, or its earlier objects reused as they came. */
const clusterEntries = (output: ClusterOutput): string =>
  output.reused ? textEntries(output.reused) : itemEntries(output.objects);

/**
 * The ResourceList up to its kept items, reusing the input document for them, then the earlier
 * outputs kept as text; `entriesFollow` says whether generated entries will be appended (an
 * empty list is then opened as `items:`).
 */
function resourceListHead(doc: Document, summary: PipelineSummary, entriesFollow: boolean): string {
  stripComments(doc);
  const root = doc.contents as YAMLMap;
  // A JSON (flow-style) input is answered in block style, so the appended entries and results
  // continue it; its items keep their own style, exactly as they came.
  root.flow = false;
  root.delete('results');
  root.delete('items');
  const kept = doc.createNode([]) as YAML.YAMLSeq;
  const keptText = keptEntries(doc, summary);
  if (keptText === undefined)
    for (const item of summary.keep) kept.items.push(itemNode(doc, item, ownNode(doc, item), summary));
  // `items` goes last so the generated entries can follow the kept ones.
  root.set('items', kept);
  const text = doc.toString({ lineWidth: 0 });
  const entries = `${keptText ?? ''}${textEntries(summary.keepEntries)}`;
  const opened = (entriesFollow || entries !== '') && kept.items.length === 0;
  return `${opened ? text.replace(/items: \[\]\n$/, 'items:\n') : text}${entries}`;
}

const resourceListTail = (results: readonly Result[]): string =>
  results.length > 0 ? emitYaml({ results: results as unknown as Json }) : '';

/**
 * The output ResourceList as one string, reusing the input document for the items it keeps.
 * Generated objects are appended as text (see emit.ts): building yaml nodes for thousands of them
 * cost more than rendering them.
 */
export function writeResourceList(doc: Document, output: PipelineOutput): string {
  const entries = output.generated.map(clusterEntries).join('');
  return resourceListHead(doc, output, entries !== '') + entries + resourceListTail(output.results);
}

/**
 * Spooled text is compressed (about 7× for rendered objects) at zlib's fastest level, once the
 * spool holds this many characters as text: a run of a few Clusters never loads zlib.
 */
const SPOOL_DEFLATE = { level: 1 } as const;
const SPOOL_TEXT_CHARS = 1 << 20;

/** Pieces handed to the writer are joined up to about this many characters. */
const PIECE_CHARS = 1 << 20;

/** Receives rendered Clusters while the pipeline runs, then yields the output ResourceList in pieces. */
export interface ResourceListWriter {
  /** Serialises one Cluster's objects now (a `ClusterSink`); only their text is kept. */
  add(output: ClusterOutput): void;
  /** Clusters added so far. */
  readonly clusters: number;
  /** The whole output, in order (same bytes as `writeResourceList`), once every Cluster is added. */
  pieces(doc: Document, summary: PipelineSummary): Iterable<string>;
}

/**
 * The streaming form of `writeResourceList`. The kept items come first in the list but depend on
 * every Cluster's outcome (a rendered source Cluster is marked local-config or replaced, its
 * earlier outputs dropped), so nothing can be written before the last Cluster is rendered; what
 * this saves is holding every rendered object: each Cluster's entries are kept as text, and the
 * text is written in Cluster order.
 */
export function resourceListWriter(): ResourceListWriter {
  // Reused entries stay text: they are slices of the input, held anyway.
  const spool: { cluster: string; text: Buffer | string }[] = [];
  let spooledText = 0;
  return {
    add(output) {
      const text = clusterEntries(output);
      const keepText = output.reused || spooledText + text.length <= SPOOL_TEXT_CHARS;
      if (keepText && !output.reused) spooledText += text.length;
      spool.push({ cluster: output.cluster, text: keepText ? text : deflateRawSync(text, SPOOL_DEFLATE) });
    },
    get clusters() {
      return spool.length;
    },
    *pieces(doc, summary) {
      yield resourceListHead(
        doc,
        summary,
        spool.some((s) => s.text.length > 0),
      );
      spool.sort(compareClusterOutputs);
      let piece = '';
      for (const spooled of spool) {
        const text = spooled.text;
        piece += typeof text === 'string' ? text : inflateRawSync(text).toString('utf8');
        spooled.text = '';
        if (piece.length >= PIECE_CHARS) {
          yield piece;
          piece = '';
        }
      }
      piece += resourceListTail(summary.results);
      if (piece !== '') yield piece;
    },
  };
}

/** A fresh ResourceList (CLI input read from files). */
export function newResourceListDocument(): Document {
  return new YAML.Document({ apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items: [] }, KUBERNETES_YAML);
}

/** An output object as a plain value, with edits applied. */
export function outputValue(item: InputItem, output: PipelineOutput): JsonObject {
  const edit = output.edits.get(item);
  if (edit?.replaceWith) return edit.replaceWith;
  const value = cloneJson(item.value);
  if (edit?.addAnnotations) {
    const meta = asObject(value.metadata) ?? (value.metadata = {});
    meta.annotations = { ...asObject(meta.annotations), ...edit.addAnnotations };
  }
  return value;
}

/**
 * The applyable form of an object: undefined for local-config objects; tool annotations removed.
 * For kustomize the object ids stay (kustomize matches transformer output to its input by them)
 * and local-config objects stay (kustomize drops them itself). `shown` keeps a local-config
 * object (what preview mode renders is meant to be looked at).
 */
export function toManifest(o: JsonObject, forKustomize = false, shown = false): JsonObject | undefined {
  const annotations0 = annotationsOf(o);
  if (annotations0[PREVIOUS_ANNOTATION] === 'true') return undefined;
  if (!forKustomize && !shown && (annotations0[LOCAL_CONFIG_ANNOTATION] === 'true' || o.kind === 'Kptfile'))
    return undefined;
  const copy = cloneJson(o);
  const meta = asObject(copy.metadata);
  if (meta)
    dropAnnotations(meta, (k) => isToolAnnotation(k) && !(forKustomize && k.startsWith('kustomize.config.k8s.io/')));
  return copy;
}

export function stringifyDocuments(objects: JsonObject[]): string {
  return objects.map(emitYaml).join('---\n');
}

/** The objects as one JSON document, a v1 List as `kubectl get -o json` prints several: two-space indent, final newline. */
export const jsonList = (objects: JsonObject[]): string =>
  `${jsonString({ apiVersion: 'v1', kind: 'List', items: objects }, 2)}\n`;

/** How results are printed: with colour (a terminal), and where each points (`path:line:column`). */
export interface ResultFormat {
  colour?: boolean;
  /** Where a result points; by default the file path it names. */
  locate?: (r: Result) => string | undefined;
}

const SEVERITY_COLOUR = { error: '\x1b[1;31m', warning: '\x1b[1;33m', info: '\x1b[1;36m' } as const;

/**
 * Human-readable results for stderr (CLI, Argo CD, kustomize: no structured channel), one per
 * line as compilers print them: `path:line:column: severity: Kind ns/name field: message`.
 */
export function formatResults(
  results: readonly Result[],
  minimum: 'info' | 'warning' | 'error' = 'warning',
  format: ResultFormat = {},
): string {
  const rank = { info: 0, warning: 1, error: 2 } as const;
  const paint = (code: string, s: string) => (format.colour ? `${code}${s}\x1b[0m` : s);
  return (
    results
      // Rollouts and held-back upgrades are information a reviewer always wants to see, unlike "rendered N objects".
      .filter(
        (r) => rank[r.severity] >= rank[minimum] || r.tags?.rule === 'rollout' || r.tags?.rule === 'upgrade-sequence',
      )
      .map((r) => {
        const where = format.locate ? format.locate(r) : r.file?.path;
        const ref = r.resourceRef
          ? `${r.resourceRef.kind} ${r.resourceRef.namespace ? `${r.resourceRef.namespace}/` : ''}${r.resourceRef.name}`
          : '';
        const subject = `${ref}${r.field ? ` ${r.field.path}` : ''}`.trim();
        return `${where ? `${paint('\x1b[1m', where)}: ` : ''}${paint(SEVERITY_COLOUR[r.severity], r.severity)}: ${subject ? `${subject}: ` : ''}${r.message}\n`;
      })
      .join('')
  );
}
