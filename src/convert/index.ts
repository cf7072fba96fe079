/**
 * `convert`: a ClusterClass estate from v1beta1 to v1beta2 without changing what it renders.
 * The CLI (files, text kept) and the KRM function (a ResourceList) share the plan and the proof;
 * the exit code is 0 when everything converted and every Cluster renders the same, 1 when a
 * patch could not be converted or a rendered object differs.
 */
import type { JsonObject } from '../core/model.js';
import { cloneJson } from '../core/json.js';
import { JsonTree } from '../api/conversion/index.js';
import { hasErrors, type Result } from '../core/result.js';
import type { RenderConfig } from '../krm/config.js';
import { readYamlStream, refOf } from '../krm/read.js';
import { DEFAULT_READ_LIMITS } from '../yaml/decode.js';
import { writeResourceList } from '../output/write.js';
import type { Document } from 'yaml';
import { convertFiles, convertResult, type ConvertedFile, type SourceFile } from './files.js';
import { applyPlan, planConversion } from './plan.js';
import { proofResults, proveEquivalent, type Proof } from './proof.js';
import type { InputItem } from '../krm/item.js';

export { unifiedDiff } from './unified.js';
export type { ConvertedFile, SourceFile } from './files.js';

export interface ConvertOutcome {
  files: ConvertedFile[];
  results: Result[];
  proof?: Proof;
  /** 0: converted and proven equivalent; 1: an unconvertible patch, a difference or unreadable input. */
  code: 0 | 1;
}

/** Settings of the renders the proof compares (contracts, default namespace…). */
export type ProofSettings = Partial<Pick<RenderConfig, 'defaultNamespace' | 'contractVersions'>>;

const codeOf = (results: readonly Result[], proof: Proof | undefined): 0 | 1 =>
  hasErrors(results) || !proof?.equivalent ? 1 : 0;

function readItems(
  files: readonly { path: string; text: string }[],
): { ok: true; items: InputItem[] } | { ok: false; message: string } {
  const items: InputItem[] = [];
  for (const f of files) {
    const read = readYamlStream(f.text, f.path, DEFAULT_READ_LIMITS, { skipNonObjects: true });
    if (!read.ok) return read;
    items.push(...read.items);
  }
  return { ok: true, items };
}

/** Converts files and proves the conversion: render the files before and after, compare. */
export function convertSources(sources: readonly SourceFile[], settings: ProofSettings = {}): ConvertOutcome {
  const before = readItems(sources);
  if (!before.ok)
    return {
      files: [],
      results: [{ severity: 'error', message: `unreadable input: ${before.message}`, tags: { rule: 'convert' } }],
      code: 1,
    };
  const converted = convertFiles(sources, settings.defaultNamespace);
  const after = readItems(converted.files.map((f) => ({ path: f.path, text: f.after })));
  if (!after.ok) throw new Error(`the converted files do not read back: ${after.message}`);
  const proof = proveEquivalent(before.items, after.items, settings);
  const results = [...converted.results, ...proofResults(proof)];
  return { files: converted.files, results, proof, code: codeOf(results, proof) };
}

/**
 * Annotations by which kpt matches a function's output items to its input to copy comments back;
 * kpt fails on a field that changed from a map to a list, so a converted item is handed back
 * without them (kpt writes it as a new object at the same file and index, without its comments).
 */
const KPT_IDENTITY = [
  'internal.config.kubernetes.io/id',
  'config.k8s.io/id',
  'internal.config.kubernetes.io/annotations-migration-resource-id',
];

/** The KRM function form: the ResourceList's items converted as data. */
export function convertResourceList(
  doc: Document,
  items: readonly InputItem[],
  config: RenderConfig,
  readResults: readonly Result[] = [],
): { text: string; results: Result[]; code: 0 | 1 } {
  const plan = planConversion(items, config.defaultNamespace);
  const results: Result[] = [
    ...readResults,
    ...plan.findings.map((f) => convertResult(f.object.value, f, f.object.file)),
  ];
  const edits = new Map<InputItem, { replaceWith: JsonObject }>();
  const after = items.map((item, i) => {
    const p = plan.objects.get(i);
    if (!p) return item;
    const value = cloneJson(item.value);
    const tree = new JsonTree(value);
    applyPlan(tree, value, p, (r) => results.push(convertResult(item.value, r, item.file)));
    for (const key of KPT_IDENTITY) tree.remove(['metadata', 'annotations', key]);
    edits.set(item, { replaceWith: value });
    const ref = refOf(value);
    return { ...item, value, ...(ref ? { ref } : {}) };
  });
  const proof = proveEquivalent(items, after, {
    defaultNamespace: config.defaultNamespace,
    contractVersions: config.contractVersions,
  });
  results.push(...proofResults(proof));
  const text = writeResourceList(doc, { keep: [...items], keepEntries: [], edits, results, generated: [] });
  return { text, results, code: codeOf(results, proof) };
}
