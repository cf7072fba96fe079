/**
 * Writing output. ResourceList mode keeps every pass-through item as its original YAML node (so
 * untouched objects stay byte-for-byte what they were, modulo comments, which kpt restores by id)
 * and appends generated objects. Manifest mode prints plain multi-document YAML for appliers.
 */
import YAML, { isMap, visit, type Document, type Node, type YAMLMap } from 'yaml';
import type { Json, JsonObject } from '../api/model.js';
import { emitYaml } from './emit.js';
import type { PipelineOutput } from '../pipeline/run.js';
import { PREVIOUS_ANNOTATION, isToolAnnotation } from '../pipeline/classify.js';
import { asObject, cloneJson } from '../api/json.js';
import type { Result } from './result.js';
import { LOCAL_CONFIG_ANNOTATION, PATH_ANNOTATION, annotationsOf, type InputItem } from './read.js';

/** Shared sub-objects must be written out in full: kpt rejects YAML aliases in items. */
const NODE_OPTIONS = { aliasDuplicateObjects: false } as const;

/** Removes every comment: kpt/kustomize put the originals back by object id (krm-integration §2.4). */
function stripComments(doc: Document): void {
  doc.commentBefore = null;
  doc.comment = null;
  visit(doc, {
    Node(_, node) {
      const n = node as Node & { commentBefore?: string | null; comment?: string | null; spaceBefore?: boolean };
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
  child(child(node, 'metadata'), 'annotations').set(doc.createNode(key, NODE_OPTIONS), doc.createNode(value, NODE_OPTIONS));
}

function itemNode(doc: Document, item: InputItem, output: PipelineOutput): Node {
  const edit = output.edits.get(item);
  if (edit?.replaceWith) return doc.createNode(edit.replaceWith, NODE_OPTIONS) as Node;
  const node = item.doc === doc ? item.node : (doc.createNode(item.value, NODE_OPTIONS) as YAMLMap);
  for (const [k, v] of Object.entries(edit?.addAnnotations ?? {})) setAnnotation(doc, node, k, v);
  return node;
}

/** A YAML document body as an entry of the `items:` list (two-space list indentation, as the yaml library prints it). */
function asListEntry(body: string): string {
  const lines = body.replace(/\n$/, '').split('\n');
  return lines.map((line, i) => (i === 0 ? `  - ${line}` : line === '' ? line : `    ${line}`)).join('\n');
}

/**
 * The output ResourceList, reusing the input document for the items it keeps. Generated objects
 * are appended as text (see emit.ts): building yaml nodes for thousands of them cost more than
 * rendering them.
 */
export function writeResourceList(doc: Document, output: PipelineOutput): string {
  stripComments(doc);
  const root = doc.contents as YAMLMap;
  root.delete('results');
  root.delete('items');
  const generated = output.generated.flatMap((g) => g.objects);
  const kept = doc.createNode([]) as YAML.YAMLSeq;
  for (const item of output.keep) kept.items.push(itemNode(doc, item, output));
  // `items` goes last so the generated entries can follow the kept ones.
  root.set('items', kept);
  let text = doc.toString({ lineWidth: 0 });
  if (generated.length > 0) {
    if (kept.items.length === 0) text = `${text.replace(/items: \[\]\n$/, 'items:\n')}`;
    text += `${generated.map((o) => asListEntry(emitYaml(o))).join('\n')}\n`;
  }
  if (output.results.length > 0) text += emitYaml({ results: output.results as unknown as Json });
  return text;
}

/** A fresh ResourceList (CLI input read from files). */
export function newResourceListDocument(): Document {
  return new YAML.Document({ apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items: [] }, { version: '1.1' });
}

/** An output object as a plain value, with edits applied. */
export function outputValue(item: InputItem, output: PipelineOutput): JsonObject {
  const edit = output.edits.get(item);
  if (edit?.replaceWith) return edit.replaceWith;
  const value = cloneJson(item.value);
  if (edit?.addAnnotations) {
    const meta = asObject(value.metadata) ?? (value.metadata = {});
    (meta as JsonObject).annotations = { ...asObject((meta as JsonObject).annotations), ...edit.addAnnotations };
  }
  return value;
}

/**
 * The applyable form of an object: undefined for local-config objects; tool annotations removed.
 * For kustomize the object ids stay (kustomize matches transformer output to its input by them)
 * and local-config objects stay (kustomize drops them itself).
 */
export function toManifest(o: JsonObject, forKustomize = false): JsonObject | undefined {
  const annotations0 = annotationsOf(o);
  if (annotations0[PREVIOUS_ANNOTATION] === 'true') return undefined;
  if (!forKustomize && (annotations0[LOCAL_CONFIG_ANNOTATION] === 'true' || o.kind === 'Kptfile')) return undefined;
  const copy = cloneJson(o);
  const meta = asObject(copy.metadata);
  const annotations = asObject(meta?.annotations);
  if (meta && annotations) {
    for (const k of Object.keys(annotations)) {
      if (isToolAnnotation(k) && !(forKustomize && k.startsWith('kustomize.config.k8s.io/'))) delete annotations[k];
    }
    if (Object.keys(annotations).length === 0) delete meta.annotations;
  }
  return copy;
}

/** Every output object with the file it belongs to: inputs their source file, rendered ones outputDir. */
export function outputFiles(output: PipelineOutput): { path: string; object: JsonObject }[] {
  return [
    ...output.keep.map((i) => ({ path: i.file?.path ?? 'objects.yaml', object: outputValue(i, output) })),
    ...output.generated.flatMap((g) => g.objects.map((o) => ({ path: String(annotationsOf(o)[PATH_ANNOTATION]), object: o }))),
  ];
}

export function stringifyDocuments(objects: JsonObject[]): string {
  return objects.map(emitYaml).join('---\n');
}

/** Human-readable results for stderr (CLI, Argo CD, kustomize: no structured channel). */
export function formatResults(results: readonly Result[], minimum: 'info' | 'warning' | 'error' = 'warning'): string {
  const rank = { info: 0, warning: 1, error: 2 } as const;
  return results
    // Rollouts and held-back upgrades are information a reviewer always wants to see, unlike "rendered N objects".
    .filter((r) => rank[r.severity] >= rank[minimum] || r.tags?.rule === 'rollout' || r.tags?.rule === 'upgrade-sequence')
    .map((r) => {
      const ref = r.resourceRef ? `${r.resourceRef.kind} ${r.resourceRef.namespace ? `${r.resourceRef.namespace}/` : ''}${r.resourceRef.name}` : '';
      const field = r.field ? ` ${r.field.path}` : '';
      const file = r.file ? ` (${r.file.path}${r.file.index ? `#${r.file.index}` : ''})` : '';
      const where = `${ref}${field}${file}`;
      return `[${r.severity}] ${where ? `${where}: ` : ''}${r.message}\n`;
    })
    .join('');
}
