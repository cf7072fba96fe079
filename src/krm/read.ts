/**
 * Reading input: a KRM ResourceList (YAML or JSON) from stdin, or a stream of YAML documents from
 * files. Items keep their YAML nodes so pass-through objects are written back untouched; the
 * renderer reads plain JSON values converted with YAML 1.1 semantics (what Kubernetes tools mean
 * by the same text) but with timestamps kept as strings.
 */
import YAML, { Document, isMap, isSeq, type YAMLMap } from 'yaml';
import type { JsonObject, ObjectRef, SourceLocation } from '../api/model.js';
import { asObject, asString, defineKey, isObject } from '../api/json.js';
import type { Json } from '../api/model.js';
import type { Result } from './result.js';

export const PATH_ANNOTATION = 'internal.config.kubernetes.io/path';
export const INDEX_ANNOTATION = 'internal.config.kubernetes.io/index';
export const LEGACY_PATH_ANNOTATION = 'config.kubernetes.io/path';
export const LEGACY_INDEX_ANNOTATION = 'config.kubernetes.io/index';
export const LOCAL_CONFIG_ANNOTATION = 'config.kubernetes.io/local-config';

export interface ReadLimits {
  /** Alias expansions allowed per document (YAML "billion laughs" guard). */
  maxAliasCount: number;
}

export const DEFAULT_READ_LIMITS: ReadLimits = { maxAliasCount: 1000 };

export interface InputItem {
  /** The item's YAML node inside its document (kept for untouched pass-through output). */
  node: YAMLMap;
  doc: Document;
  value: JsonObject;
  /** Identity; undefined when apiVersion/kind/metadata.name are missing (reported, passed through). */
  ref?: ObjectRef;
  file?: SourceLocation;
}

export interface ResourceListInput {
  /** The ResourceList document (undefined for a plain YAML stream). */
  doc?: Document;
  items: InputItem[];
  functionConfig?: JsonObject;
  results: Result[];
}

export type ReadOutcome = { ok: true; input: ResourceListInput } | { ok: false; message: string };

/** YAML 1.1 without the timestamp tag: `2026-08-19T22:21:07Z` stays a string, as in Kubernetes. */
const parseOptions = (limits: ReadLimits) =>
  ({
    version: '1.1',
    customTags: (tags: YAML.Tags) => tags.filter((t) => (t as { tag?: string }).tag !== 'tag:yaml.org,2002:timestamp'),
    maxAliasCount: limits.maxAliasCount,
    uniqueKeys: true,
    prettyErrors: true,
  }) as const;

/** Converts what the YAML library produced into plain JSON (Maps, Sets, binary, bigints). */
function toJson(v: unknown): Json {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(toJson);
  if (v instanceof Set) return [...v].map(toJson);
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (v instanceof Date) return v.toISOString();
  if (v instanceof Map) {
    const out: JsonObject = {};
    for (const [k, val] of v) defineKey(out, String(k), toJson(val));
    return out;
  }
  if (typeof v === 'object') {
    const out: JsonObject = {};
    for (const k of Object.keys(v)) defineKey(out, k, toJson((v as Record<string, unknown>)[k]));
    return out;
  }
  return String(v);
}

function nodeToJson(node: YAMLMap, doc: Document, limits: ReadLimits): JsonObject {
  const value = toJson(node.toJS(doc, { mapAsMap: true, maxAliasCount: limits.maxAliasCount }));
  return isObject(value) ? value : {};
}

/** Identity of a KRM object, or undefined when it is not one. */
export function refOf(value: JsonObject): ObjectRef | undefined {
  const apiVersion = asString(value.apiVersion);
  const kind = asString(value.kind);
  const meta = asObject(value.metadata);
  const name = asString(meta?.name);
  if (!apiVersion || !kind || !name) return undefined;
  const ref: ObjectRef = { apiVersion, kind, name };
  const namespace = asString(meta?.namespace);
  if (namespace) ref.namespace = namespace;
  return ref;
}

export function annotationsOf(value: JsonObject): Record<string, unknown> {
  return asObject(asObject(value.metadata)?.annotations) ?? {};
}

function fileOf(value: JsonObject): SourceLocation | undefined {
  const a = annotationsOf(value);
  const path = asString(a[PATH_ANNOTATION]) ?? asString(a[LEGACY_PATH_ANNOTATION]);
  if (!path) return undefined;
  const index = Number(asString(a[INDEX_ANNOTATION]) ?? asString(a[LEGACY_INDEX_ANNOTATION]) ?? '0');
  return Number.isInteger(index) && index > 0 ? { path, index } : { path };
}

function makeItem(node: YAMLMap, doc: Document, limits: ReadLimits, results: Result[], where: string): InputItem {
  const value = nodeToJson(node, doc, limits);
  const item: InputItem = { node, doc, value };
  const ref = refOf(value);
  if (ref) item.ref = ref;
  const file = fileOf(value);
  if (file) item.file = file;
  if (!ref) {
    const result: Result = {
      severity: 'error',
      message: `${where} is not a KRM object: apiVersion, kind and metadata.name are required; passed through unchanged`,
    };
    if (file) result.file = file;
    results.push(result);
  }
  return item;
}

function describeYamlError(e: YAML.YAMLError): string {
  const pos = e.linePos?.[0];
  const where = pos ? ` at line ${pos.line}, column ${pos.col}` : '';
  return `${e.message.split('\n')[0]}${where}`;
}

/** Parses a KRM ResourceList (YAML or JSON). */
export function readResourceList(text: string, limits: ReadLimits = DEFAULT_READ_LIMITS): ReadOutcome {
  const clean = text.replace(/^\uFEFF/, '');
  let doc: Document;
  try {
    doc = YAML.parseDocument(clean, parseOptions(limits));
  } catch (e) {
    return { ok: false, message: `input is not valid YAML: ${(e as Error).message}` };
  }
  if (doc.errors.length > 0) return { ok: false, message: `input is not valid YAML: ${describeYamlError(doc.errors[0]!)}` };
  const root = doc.contents;
  if (!isMap(root)) return { ok: false, message: 'input is not a ResourceList: expected a mapping with kind: ResourceList' };
  const kind = root.get('kind');
  const apiVersion = root.get('apiVersion');
  if (kind !== 'ResourceList') return { ok: false, message: `input is not a ResourceList: kind is ${JSON.stringify(kind ?? null)}` };
  if (apiVersion !== 'config.kubernetes.io/v1' && apiVersion !== 'config.kubernetes.io/v1beta1') {
    return { ok: false, message: `input is not a ResourceList: unsupported apiVersion ${JSON.stringify(apiVersion ?? null)}` };
  }
  const itemsNode = root.get('items', true);
  const results: Result[] = [];
  const items: InputItem[] = [];
  if (itemsNode !== undefined && itemsNode !== null && !isSeq(itemsNode)) {
    return { ok: false, message: 'input is not a ResourceList: items must be a list' };
  }
  try {
    if (isSeq(itemsNode)) {
      itemsNode.items.forEach((node, i) => {
        if (!isMap(node)) throw new InputShapeError(`items[${i}] must be an object`);
        items.push(makeItem(node, doc, limits, results, `items[${i}]`));
      });
    }
    const fc = root.get('functionConfig', true);
    const input: ResourceListInput = { doc, items, results };
    if (isMap(fc)) input.functionConfig = nodeToJson(fc, doc, limits);
    else if (fc !== undefined && fc !== null) throw new InputShapeError('functionConfig must be an object');
    return { ok: true, input };
  } catch (e) {
    return { ok: false, message: `input is not a valid ResourceList: ${(e as Error).message}` };
  }
}

class InputShapeError extends Error {}

/** Parses a stream of YAML documents (one file); every document must be an object or empty. */
export function readYamlStream(
  text: string,
  relPath: string,
  limits: ReadLimits = DEFAULT_READ_LIMITS,
): { ok: true; items: InputItem[]; results: Result[] } | { ok: false; message: string } {
  const clean = text.replace(/^\uFEFF/, '');
  let docs: Document[];
  try {
    docs = YAML.parseAllDocuments(clean, parseOptions(limits)) as Document[];
  } catch (e) {
    return { ok: false, message: `${relPath}: not valid YAML: ${(e as Error).message}` };
  }
  if (!Array.isArray(docs)) return { ok: false, message: `${relPath}: not valid YAML` };
  const items: InputItem[] = [];
  const results: Result[] = [];
  let index = 0;
  try {
    for (const doc of docs) {
      if (doc.errors.length > 0) return { ok: false, message: `${relPath}: not valid YAML: ${describeYamlError(doc.errors[0]!)}` };
      const root = doc.contents;
      if (root === null || root === undefined) continue;
      if (!isMap(root)) return { ok: false, message: `${relPath}: document ${index} is not an object` };
      const item = makeItem(root, doc, limits, results, `${relPath} document ${index}`);
      item.file = index > 0 ? { path: relPath, index } : { path: relPath };
      items.push(item);
      index++;
    }
  } catch (e) {
    return { ok: false, message: `${relPath}: ${(e as Error).message}` };
  }
  return { ok: true, items, results };
}
