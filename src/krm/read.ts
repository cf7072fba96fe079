/**
 * Reading input: a KRM ResourceList (YAML or JSON) from stdin, or a stream of YAML documents from
 * files. Items keep their YAML nodes so pass-through objects are written back untouched; the
 * renderer reads plain JSON values converted as Kubernetes converts them (sigs.k8s.io/yaml over
 * go-yaml v2: kubernetes-yaml.ts).
 */
import YAML, { Document, LineCounter, isAlias, isMap, isPair, isScalar, isSeq, type Scalar, type YAMLMap } from 'yaml';
import type { JsonObject, ObjectRef, SourceLocation } from '../api/model.js';
import { asObject, asString, defineKey, isObject } from '../api/json.js';
import type { Json } from '../api/model.js';
import type { Result } from './result.js';
import { KUBERNETES_YAML, KubernetesYamlError, mapKeyJson, scalarJson, unsupportedValue } from './kubernetes-yaml.js';

export const PATH_ANNOTATION = 'internal.config.kubernetes.io/path';
export const INDEX_ANNOTATION = 'internal.config.kubernetes.io/index';
export const LEGACY_PATH_ANNOTATION = 'config.kubernetes.io/path';
export const LEGACY_INDEX_ANNOTATION = 'config.kubernetes.io/index';
export const LOCAL_CONFIG_ANNOTATION = 'config.kubernetes.io/local-config';

export interface ReadLimits {
  /** Alias nodes allowed per YAML document. */
  maxAliasCount: number;
  /** Nodes that alias expansion may add per YAML document ("billion laughs" guard). */
  maxAliasExpansion: number;
  /** Bytes of one input text (a ResourceList, or one file of a YAML stream); checked before parsing. */
  maxInputBytes: number;
  /** Items of one ResourceList or YAML stream. */
  maxItems: number;
}

/**
 * 32 MiB by default (a 10,000-Cluster fleet is about 18 MiB); `RENDER_CLUSTERCLASS_MAX_INPUT_BYTES`
 * raises or lowers it (bytes). It is an environment setting because it applies before the
 * function config, which is part of the input, can be read.
 */
function maxInputBytesFromEnv(): number {
  const v = Number(process.env.RENDER_CLUSTERCLASS_MAX_INPUT_BYTES);
  return Number.isSafeInteger(v) && v > 0 ? v : 32 * 1024 * 1024;
}

export const DEFAULT_READ_LIMITS: ReadLimits = {
  maxAliasCount: 1000,
  maxAliasExpansion: 100_000,
  maxInputBytes: maxInputBytesFromEnv(),
  maxItems: 50_000,
};

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

/** Scalars resolve as go-yaml v2 resolves them: `e1000` and `1:20` are strings, `0o12` is 10. */
const parseOptions = (limits: ReadLimits, lineCounter?: LineCounter) =>
  ({
    ...KUBERNETES_YAML,
    maxAliasCount: limits.maxAliasCount,
    // The library's duplicate-key check is quadratic in the keys of a map (a 100k-key map takes
    // minutes); duplicateKey() below does the same check in one pass.
    uniqueKeys: false,
    prettyErrors: true,
    ...(lineCounter ? { lineCounter } : {}),
  }) as const;

/** Input the reader refuses (limits, aliases); the message names the position when it can. */
class InputLimitError extends Error {}

/** A converted node: its JSON value, its size in nodes, and the scalar it came from (map keys need its Go type). */
interface Converted {
  value: Json;
  size: number;
  scalar?: Scalar;
}

/** Shared state of converting one YAML document: anchors in document order, alias budget. */
interface ConvertState {
  anchors: Map<string, Converted>;
  aliases: number;
  expanded: number;
  limits: ReadLimits;
  where: (node: unknown) => string;
  /** Integers beyond ±2^53 read as the nearest double, with their position. */
  inexact: string[];
  /** What Kubernetes refuses to convert (`.inf` values, null keys), with its position. */
  rejected: string[];
}

const MERGE_TAG = 'tag:yaml.org,2002:merge';
const isMergeKey = (key: unknown): boolean =>
  isScalar(key) && (typeof key.value === 'symbol' || (key.tag === MERGE_TAG && key.value === '<<'));

/**
 * YAML node → plain JSON in one pass over the document (the YAML library's own toJS rescans the
 * whole document for every alias, which is quadratic on hostile input). Aliases reuse the value
 * of the latest anchor before them, as YAML specifies; every alias adds the size of its value to
 * an expansion budget, so "billion laughs" documents stop early. Keys are set in document order,
 * a later one replacing an earlier one, and a merge (`<<`) sets its sources' keys where it stands
 * (earlier sources of a list winning), as go-yaml v2 decodes a map (decode.go `mapping`, `merge`).
 */
function convertNode(node: unknown, st: ConvertState): Converted {
  let out: Converted;
  if (isAlias(node)) {
    if (++st.aliases > st.limits.maxAliasCount) {
      throw new InputLimitError(`more than ${st.limits.maxAliasCount} YAML aliases in one document${st.where(node)}`);
    }
    const target = st.anchors.get(node.source);
    if (!target) throw new InputLimitError(`unresolved YAML alias *${node.source}${st.where(node)}`);
    st.expanded += target.size;
    if (st.expanded > st.limits.maxAliasExpansion) {
      throw new InputLimitError(
        `YAML aliases expand to more than ${st.limits.maxAliasExpansion} nodes (an alias bomb?)${st.where(node)}`,
      );
    }
    return target;
  }
  if (isScalar(node)) {
    out = { value: scalarJson(node), size: 1, scalar: node };
  } else if (isMap(node)) {
    const isSet = node.tag === 'tag:yaml.org,2002:set';
    const obj: JsonObject = {};
    const list: Json[] = [];
    let size = 1;
    for (const pair of node.items) {
      if (isMergeKey(pair.key)) {
        const src = convertNode(pair.value, st);
        size += src.size;
        for (const m of Array.isArray(src.value) ? [...src.value].reverse() : [src.value]) {
          if (!isObject(m)) throw new InputLimitError(`merge (<<) sources must be maps${st.where(pair.value)}`);
          for (const k of Object.keys(m)) defineKey(obj, k, m[k] as Json);
        }
        continue;
      }
      const key = convertNode(pair.key, st);
      size += key.size;
      if (isSet) {
        list.push(placed(key, pair.key, st));
        continue;
      }
      const keyString = keyText(key, pair.key, st);
      const value = convertNode(pair.value, st);
      size += value.size;
      defineKey(obj, keyString, placed(value, pair.value, st));
    }
    out = { value: isSet ? list : obj, size };
  } else if (isSeq(node)) {
    const omap = node.tag === 'tag:yaml.org,2002:omap';
    const arr: Json[] = [];
    const obj: JsonObject = {};
    let size = 1;
    for (const item of node.items) {
      if (isPair(item)) {
        const key = convertNode(item.key, st);
        const value = convertNode(item.value, st);
        size += key.size + value.size;
        if (omap) defineKey(obj, keyText(key, item.key, st), placed(value, item.value, st));
        else {
          const single: JsonObject = {};
          defineKey(single, keyText(key, item.key, st), placed(value, item.value, st));
          arr.push(single);
        }
        continue;
      }
      const v = convertNode(item, st);
      size += v.size;
      arr.push(placed(v, item, st));
    }
    out = { value: omap ? obj : arr, size };
  } else if (isPair(node)) {
    const key = convertNode(node.key, st);
    const value = convertNode(node.value, st);
    const single: JsonObject = {};
    defineKey(single, keyText(key, node.key, st), placed(value, node.value, st));
    out = { value: single, size: 1 + key.size + value.size };
  } else {
    out = { value: null, size: 1 };
  }
  const anchor = (node as { anchor?: string } | null)?.anchor;
  if (anchor) st.anchors.set(anchor, out);
  return out;
}

/**
 * A converted node where it becomes a value (not a map key, where `.inf` is fine): a value
 * Kubernetes cannot write as JSON is noted as rejected (and read as null), an inexact integer noted.
 */
function placed(c: Converted, node: unknown, st: ConvertState): Json {
  const unsupported = unsupportedValue(c.value);
  if (unsupported) {
    st.rejected.push(`${unsupported}${st.where(node)}`);
    return null;
  }
  if (typeof c.scalar?.value === 'bigint') st.inexact.push(`${c.scalar.value}${st.where(node)}`);
  return c.value;
}

/**
 * A map key as sigs.k8s.io/yaml writes it (kubernetes-yaml.ts). Keys it refuses (null, uint64,
 * and lists and maps, which go-yaml v2 refuses) are noted as rejected.
 */
function keyText(key: Converted, node: unknown, st: ConvertState): string {
  try {
    if (key.value !== null && typeof key.value === 'object') throw new KubernetesYamlError('yaml: invalid map key');
    return mapKeyJson(key.scalar ?? null);
  } catch (e) {
    if (!(e instanceof KubernetesYamlError)) throw e;
    st.rejected.push(`${e.message}${st.where(node)}`);
    return String(key.value);
  }
}

function newConvertState(limits: ReadLimits, lineCounter?: LineCounter): ConvertState {
  return {
    anchors: new Map(),
    aliases: 0,
    expanded: 0,
    limits,
    inexact: [],
    rejected: [],
    where: (node) => {
      const offset = (node as { range?: [number, number, number] } | null)?.range?.[0];
      if (!lineCounter || offset === undefined) return '';
      const pos = lineCounter.linePos(offset);
      return ` at line ${pos.line}, column ${pos.col}`;
    },
  };
}

/**
 * A parsed document's JSON as Kubernetes makes it (sigs.k8s.io/yaml `YAMLToJSON`), for YAML that
 * is a value rather than an object (Go-template output, template data). Throws on what Kubernetes
 * rejects. Integers beyond ±2^53 become the nearest double.
 */
export function documentJson(doc: Document, limits: ReadLimits = DEFAULT_READ_LIMITS): Json {
  const st = newConvertState(limits);
  const value = placed(convertNode(doc.contents, st), doc.contents, st);
  if (st.rejected.length > 0) throw new KubernetesYamlError(st.rejected[0]);
  return value;
}

function nodeToJson(node: YAMLMap, st: ConvertState): JsonObject {
  const value = convertNode(node, st).value;
  return isObject(value) ? value : {};
}

/** Position of a node as text (` (line 3, column 1)`), or '' when unknown. */
function positionOf(node: unknown, lineCounter: LineCounter): string {
  const offset = (node as { range?: [number, number, number] } | null)?.range?.[0];
  if (offset === undefined) return '';
  const pos = lineCounter.linePos(offset);
  return ` (line ${pos.line}, column ${pos.col})`;
}

/**
 * The first structural problem of a parsed document the YAML library leaves for later: a
 * duplicate map key (same rule as the library's `uniqueKeys`: scalar keys with equal values) or an
 * alias used before its anchor (the library would throw while writing the output), as an error
 * message with its position.
 */
function documentProblem(doc: Document, lineCounter: LineCounter): string | undefined {
  let found: string | undefined;
  const anchors = new Set<string>();
  YAML.visit(doc, {
    Node(_, node) {
      if (isAlias(node)) {
        if (!anchors.has(node.source)) {
          found = `unresolved YAML alias *${node.source}${positionOf(node, lineCounter).replace(/^ \((.*)\)$/, ' at $1')}`;
          return YAML.visit.BREAK;
        }
        return undefined;
      }
      if (node.anchor) anchors.add(node.anchor);
      if (!isMap(node)) return undefined;
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        const key = pair.key;
        if (isMergeKey(key)) continue;
        const id = isScalar(key) ? key.value : key;
        if (seen.has(id)) {
          const where = positionOf(key, lineCounter).replace(/^ \((.*)\)$/, ' at $1');
          found = `Map keys must be unique; ${JSON.stringify(isScalar(key) ? String(key.value) : 'complex key')} is repeated${where}`;
          return YAML.visit.BREAK;
        }
        seen.add(id);
      }
      return undefined;
    },
  });
  return found;
}

/** `apiVersion` keys: one per object, plus the few nested references that carry one. */
const API_VERSION_KEY = /(?:^|[\s{,])["']?apiVersion["']?[ \t]*:/gm;

/**
 * The input is refused before parsing when larger than the limit, or when it plainly holds far
 * more objects than the item limit (parsing hundreds of thousands of items is the slow part).
 */
function tooLarge(text: string, limits: ReadLimits): string | undefined {
  // UTF-16 length is a lower bound of the UTF-8 byte length and the bound the parser's work follows.
  if (text.length > limits.maxInputBytes) {
    return `input is too large (${Buffer.byteLength(text, 'utf8')} bytes; the limit is ${limits.maxInputBytes} bytes, RENDER_CLUSTERCLASS_MAX_INPUT_BYTES changes it)`;
  }
  let objects = 0;
  for (API_VERSION_KEY.lastIndex = 0; API_VERSION_KEY.exec(text) !== null; ) {
    if (++objects > limits.maxItems * 3) return `input is too large (more than ${objects - 1} objects before parsing; the limit is ${limits.maxItems} items)`;
  }
  return undefined;
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

function makeItem(node: YAMLMap, doc: Document, st: ConvertState, results: Result[], where: string): InputItem {
  const [inexactBefore, rejectedBefore] = [st.inexact.length, st.rejected.length];
  const value = nodeToJson(node, st);
  const item: InputItem = { node, doc, value };
  const ref = refOf(value);
  const file = fileOf(value);
  if (file) item.file = file;
  const report = (severity: Result['severity'], message: string) => {
    const result: Result = { severity, message };
    if (ref) result.resourceRef = ref;
    if (file) result.file = file;
    results.push(result);
  };
  const rejected = st.rejected.slice(rejectedBefore);
  if (rejected.length > 0) {
    // Kubernetes refuses the whole object (kubectl: "error converting YAML to JSON"): it is neither rendered nor used.
    report('error', `${where}: Kubernetes cannot read this object: ${rejected.join('; ')}; passed through unchanged`);
    return item;
  }
  if (ref) item.ref = ref;
  for (const integer of st.inexact.slice(inexactBefore)) {
    report(
      'warning',
      `${where}: the integer ${integer} is beyond ±2^53, which a JavaScript number cannot hold exactly: it is read as the nearest double, which objects rendered from it carry (Kubernetes keeps int64 values exactly; objects passed through keep their text)`,
    );
  }
  if (!ref) report('error', `${where} is not a KRM object: apiVersion, kind and metadata.name are required; passed through unchanged`);
  return item;
}

function describeYamlError(e: YAML.YAMLError): string {
  const first = e.message.split('\n')[0]!;
  if (/Maximum call stack size exceeded|too much recursion/i.test(first)) {
    const pos = e.linePos?.[0];
    return `input is nested too deeply${pos ? ` (at line ${pos.line}, column ${pos.col})` : ''}`;
  }
  // prettyErrors already appends "at line L, column C" to the first line.
  if (/ at line \d+, column \d+/.test(first)) return first.replace(/:$/, '');
  const pos = e.linePos?.[0];
  return `${first}${pos ? ` at line ${pos.line}, column ${pos.col}` : ''}`;
}

/** What a document's root is, for messages about wrong shapes. */
function describeRoot(root: unknown): string {
  if (root === null || root === undefined) return 'the input is empty';
  if (isSeq(root)) return 'it is a list';
  if (isScalar(root)) return `it is a scalar (${typeof root.value === 'string' ? 'text' : String(root.value)})`;
  return 'it is not a mapping';
}

/** Parses a KRM ResourceList (YAML or JSON). */
export function readResourceList(text: string, limits: ReadLimits = DEFAULT_READ_LIMITS): ReadOutcome {
  const large = tooLarge(text, limits);
  if (large) return { ok: false, message: large };
  const clean = text.replace(/^\uFEFF/, '');
  const lineCounter = new LineCounter();
  let doc: Document;
  try {
    doc = YAML.parseDocument(clean, parseOptions(limits, lineCounter));
  } catch (e) {
    return { ok: false, message: `input is not valid YAML: ${(e as Error).message}` };
  }
  if (doc.errors.length > 0) return { ok: false, message: `input is not valid YAML: ${describeYamlError(doc.errors[0]!)}` };
  const dup = documentProblem(doc, lineCounter);
  if (dup) return { ok: false, message: `input is not valid YAML: ${dup}` };
  const root = doc.contents;
  if (!isMap(root)) return { ok: false, message: `input is not a ResourceList: expected a mapping with kind: ResourceList, but ${describeRoot(root)}` };
  const kind = root.get('kind');
  const apiVersion = root.get('apiVersion');
  if (kind !== 'ResourceList') return { ok: false, message: `input is not a ResourceList: kind is ${JSON.stringify(kind ?? null)}` };
  if (apiVersion !== 'config.kubernetes.io/v1' && apiVersion !== 'config.kubernetes.io/v1beta1') {
    return { ok: false, message: `input is not a ResourceList: unsupported apiVersion ${JSON.stringify(apiVersion ?? null)}` };
  }
  const itemsNode = root.get('items', true);
  const results: Result[] = [];
  const items: InputItem[] = [];
  if (itemsNode !== undefined && itemsNode !== null && !(isScalar(itemsNode) && itemsNode.value === null) && !isSeq(itemsNode)) {
    return { ok: false, message: `input is not a ResourceList: items must be a list${positionOf(itemsNode, lineCounter)}` };
  }
  try {
    const st = newConvertState(limits, lineCounter);
    if (isSeq(itemsNode)) {
      if (itemsNode.items.length > limits.maxItems) {
        throw new InputShapeError(`${itemsNode.items.length} items; the limit is ${limits.maxItems}`);
      }
      itemsNode.items.forEach((node, i) => {
        if (!isMap(node)) throw new InputShapeError(`items[${i}]${positionOf(node, lineCounter)} must be an object`);
        items.push(makeItem(node, doc, st, results, `items[${i}]`));
      });
    }
    const fc = root.get('functionConfig', true);
    const input: ResourceListInput = { doc, items, results };
    if (isMap(fc)) {
      const rejectedBefore = st.rejected.length;
      input.functionConfig = nodeToJson(fc, st);
      if (st.rejected.length > rejectedBefore) throw new InputShapeError(`functionConfig: ${st.rejected[rejectedBefore]}`);
    }
    else if (fc !== undefined && fc !== null && !(isScalar(fc) && fc.value === null)) {
      throw new InputShapeError(`functionConfig${positionOf(fc, lineCounter)} must be an object`);
    }
    return { ok: true, input };
  } catch (e) {
    return { ok: false, message: `input is not a valid ResourceList: ${readErrorMessage(e)}` };
  }
}

class InputShapeError extends Error {}

/** Messages of errors while converting: ours as they are; a stack overflow as "nested too deeply". */
function readErrorMessage(e: unknown): string {
  if (e instanceof RangeError && /call stack/i.test(e.message)) return 'input is nested too deeply';
  return e instanceof Error ? e.message : String(e);
}

/** Parses a stream of YAML documents (one file); every document must be an object or empty. */
export function readYamlStream(
  text: string,
  relPath: string,
  limits: ReadLimits = DEFAULT_READ_LIMITS,
): { ok: true; items: InputItem[]; results: Result[] } | { ok: false; message: string } {
  const large = tooLarge(text, limits);
  if (large) return { ok: false, message: `${relPath}: ${large}` };
  const clean = text.replace(/^\uFEFF/, '');
  const lineCounter = new LineCounter();
  let docs: Document[];
  try {
    docs = YAML.parseAllDocuments(clean, parseOptions(limits, lineCounter)) as Document[];
  } catch (e) {
    return { ok: false, message: `${relPath}: not valid YAML: ${readErrorMessage(e)}` };
  }
  if (!Array.isArray(docs)) return { ok: false, message: `${relPath}: not valid YAML` };
  if (docs.length > limits.maxItems) return { ok: false, message: `${relPath}: ${docs.length} documents; the limit is ${limits.maxItems}` };
  const items: InputItem[] = [];
  const results: Result[] = [];
  let index = 0;
  try {
    for (const doc of docs) {
      if (doc.errors.length > 0) return { ok: false, message: `${relPath}: not valid YAML: ${describeYamlError(doc.errors[0]!)}` };
      const dup = documentProblem(doc, lineCounter);
      if (dup) return { ok: false, message: `${relPath}: not valid YAML: ${dup}` };
      const root = doc.contents;
      if (root === null || root === undefined || (isScalar(root) && root.value === null)) continue;
      if (!isMap(root)) return { ok: false, message: `${relPath}: document ${index}${positionOf(root, lineCounter)} is not an object: ${describeRoot(root)}` };
      const item = makeItem(root, doc, newConvertState(limits, lineCounter), results, `${relPath} document ${index}`);
      item.file = index > 0 ? { path: relPath, index } : { path: relPath };
      items.push(item);
      index++;
    }
  } catch (e) {
    return { ok: false, message: `${relPath}: ${readErrorMessage(e)}` };
  }
  return { ok: true, items, results };
}
