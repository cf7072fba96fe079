/**
 * `convert` over YAML files: every document planned together (plan.ts), each converted document
 * edited in its own text (yamltree.ts), everything else left byte for byte.
 */
import type { JsonObject } from '../core/model.js';
import { asObject, asString } from '../core/json.js';
import { JsonTree, type ConversionResult } from '../api/conversion/index.js';
import type { Result, ResourceRef } from '../core/result.js';
import { emitYaml } from '../output/emit.js';
import { splitDocuments, type DocumentText } from './documents.js';
import { applyPlan, planConversion, type ObjectPlan } from './plan.js';
import { UnsupportedYaml, YamlTree } from './yamltree.js';

export interface SourceFile {
  path: string;
  text: string;
}

export interface ConvertedFile {
  path: string;
  before: string;
  after: string;
}

export interface FilesOutcome {
  files: ConvertedFile[];
  results: Result[];
}

function refOfValue(value: JsonObject): ResourceRef {
  const meta = asObject(value.metadata);
  const ref: ResourceRef = { apiVersion: asString(value.apiVersion) ?? '', kind: asString(value.kind) ?? '', name: asString(meta?.name) ?? '' };
  const ns = asString(meta?.namespace);
  if (ns) ref.namespace = ns;
  return ref;
}

/** A result about an object, tagged as the converter's. */
export function convertResult(value: JsonObject, r: { severity: Result['severity']; path: string; message: string }, file?: Result['file']): Result {
  return { severity: r.severity, message: r.message, resourceRef: refOfValue(value), field: { path: r.path }, ...(file ? { file } : {}), tags: { rule: 'convert' } };
}

/** One document converted in its text; documents with aliases are converted as data and rewritten whole. */
function convertDocument(doc: DocumentText, plan: ObjectPlan, report: (r: ConversionResult) => void): string {
  const value = doc.value!;
  try {
    const tree = new YamlTree(doc.text);
    applyPlan(tree, value, plan, report);
    return tree.toString();
  } catch (e) {
    if (!(e instanceof UnsupportedYaml)) throw e;
    const copy = structuredClone(value);
    applyPlan(new JsonTree(copy), copy, plan, report);
    report({ severity: 'warning', path: 'metadata', message: `${e.message}: the document was converted as data and written out again, without its comments and layout` });
    const head = /^(---[^\n]*\n)?/.exec(doc.text)![0];
    return `${head}${emitYaml(copy)}`;
  }
}

export function convertFiles(files: readonly SourceFile[], defaultNamespace = 'default'): FilesOutcome {
  const split = files.map((f) => ({ file: f, docs: splitDocuments(f.text) }));
  const located: { value: JsonObject; file: number; doc: number; index: number }[] = [];
  split.forEach((s, file) => {
    let index = 0;
    s.docs.forEach((d, doc) => {
      if (d.value) located.push({ value: d.value, file, doc, index: index++ });
    });
  });
  const plan = planConversion(
    located.map((l) => l.value),
    defaultNamespace,
  );
  const fileOf = (l: (typeof located)[number]): Result['file'] => (l.index > 0 ? { path: files[l.file]!.path, index: l.index } : { path: files[l.file]!.path });
  const results: Result[] = plan.findings.map((f) => convertResult(located[f.object]!.value, f, fileOf(located[f.object]!)));
  const texts = split.map((s) => s.docs.map((d) => d.text));
  located.forEach((l, i) => {
    const objectPlan = plan.objects.get(i);
    if (!objectPlan) return;
    texts[l.file]![l.doc] = convertDocument(split[l.file]!.docs[l.doc]!, objectPlan, (r) => results.push(convertResult(l.value, r, fileOf(l))));
  });
  return { files: files.map((f, i) => ({ path: f.path, before: f.text, after: texts[i]!.join('') })), results };
}
