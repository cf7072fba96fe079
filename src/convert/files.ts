/**
 * `convert` over YAML files: every document planned together (plan.ts), each converted document
 * edited in its own text (yamltree.ts), everything else left byte for byte.
 */
import type { JsonObject } from '../core/model.js';
import { asObject, asString } from '../core/json.js';
import { JsonTree, type ConversionResult } from '../api/conversion/index.js';
import type { Result, ResourceRef } from '../core/result.js';
import { emitYaml } from '../output/emit.js';
import { splitDocuments } from './documents.js';
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
  const ref: ResourceRef = {
    apiVersion: asString(value.apiVersion) ?? '',
    kind: asString(value.kind) ?? '',
    name: asString(meta?.name) ?? '',
  };
  const ns = asString(meta?.namespace);
  if (ns) ref.namespace = ns;
  return ref;
}

/** A result about an object, tagged as the converter's. */
export function convertResult(
  value: JsonObject,
  r: { severity: Result['severity']; path: string; message: string },
  file?: Result['file'],
): Result {
  return {
    severity: r.severity,
    message: r.message,
    resourceRef: refOfValue(value),
    field: { path: r.path },
    ...(file ? { file } : {}),
    tags: { rule: 'convert' },
  };
}

/** One document converted in its text; documents with aliases are converted as data and rewritten whole. */
function convertDocument(
  text: string,
  value: JsonObject,
  plan: ObjectPlan,
  report: (r: ConversionResult) => void,
): string {
  try {
    const tree = new YamlTree(text);
    applyPlan(tree, value, plan, report);
    return tree.toString();
  } catch (e) {
    if (!(e instanceof UnsupportedYaml)) throw e;
    const copy = structuredClone(value);
    applyPlan(new JsonTree(copy), copy, plan, report);
    report({
      severity: 'warning',
      path: 'metadata',
      message: `${e.message}: the document was converted as data and written out again, without its comments and layout`,
    });
    const head = /^---[^\n]*\n/.exec(text)?.[0] ?? '';
    return `${head}${emitYaml(copy)}`;
  }
}

export function convertFiles(files: readonly SourceFile[], defaultNamespace = 'default'): FilesOutcome {
  // Each file's documents, and their texts: converted ones are replaced in place.
  const converted = files.map((file) => {
    const docs = splitDocuments(file.text);
    return { path: file.path, before: file.text, docs, texts: docs.map((d) => d.text) };
  });
  /** Every object of every file: its text (the `doc`th of its file's texts) and its index among the file's objects. */
  const located: { value: JsonObject; text: string; texts: string[]; doc: number; path: string; index: number }[] = [];
  for (const { path, docs, texts } of converted) {
    let index = 0;
    docs.forEach((d, doc) => {
      if (d.value) located.push({ value: d.value, text: d.text, texts, doc, path, index: index++ });
    });
  }
  const plan = planConversion(located, defaultNamespace);
  const fileOf = (l: (typeof located)[number]): Result['file'] =>
    l.index > 0 ? { path: l.path, index: l.index } : { path: l.path };
  const results: Result[] = plan.findings.map((f) => convertResult(f.object.value, f, fileOf(f.object)));
  located.forEach((l, i) => {
    const objectPlan = plan.objects.get(i);
    if (!objectPlan) return;
    l.texts[l.doc] = convertDocument(l.text, l.value, objectPlan, (r) =>
      results.push(convertResult(l.value, r, fileOf(l))),
    );
  });
  return { files: converted.map(({ path, before, texts }) => ({ path, before, after: texts.join('') })), results };
}
