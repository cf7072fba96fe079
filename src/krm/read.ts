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
import { cutEarlierOutputs, type EarlierOutput } from './earlier.js';

export const PATH_ANNOTATION = 'internal.config.kubernetes.io/path';
export const INDEX_ANNOTATION = 'internal.config.kubernetes.io/index';
export const LEGACY_PATH_ANNOTATION = 'config.kubernetes.io/path';
export const LEGACY_INDEX_ANNOTATION = 'config.kubernetes.io/index';
export const LOCAL_CONFIG_ANNOTATION = 'config.kubernetes.io/local-config';

export interface ReadLimits {
  /** Bytes of one input text (a ResourceList, or one file of a YAML stream); checked before parsing. */
  maxInputBytes: number;
  /** Items of one ResourceList or YAML stream. */
  maxItems: number;
  /**
   * Nesting levels (mappings and sequences, aliases expanded) of one document. Every later stage
   * walks values recursively; this keeps them all far from the JavaScript stack's end.
   */
  maxDepth: number;
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

/**
 * 500 levels: the deepest of the 72 real CRDs in the fixtures is 31; the YAML library's parser
 * gives up near 930 and its writer near 650.
 */
export const DEFAULT_READ_LIMITS: ReadLimits = {
  maxInputBytes: maxInputBytesFromEnv(),
  maxItems: 50_000,
  maxDepth: 500,
};

export interface InputItem {
  /** The item's YAML node inside its document (kept for untouched pass-through output). */
  node: YAML.Node;
  doc: Document;
  /** The item as JSON; `{}` for an item that is not an object or could not be read (reported, passed through). */
  value: JsonObject;
  /** Identity; undefined when apiVersion/kind/metadata.name are missing (reported, passed through). */
  ref?: ObjectRef;
  file?: SourceLocation;
}

export interface ResourceListInput {
  /** The ResourceList document (undefined for a plain YAML stream). */
  doc?: Document;
  items: InputItem[];
  /** The `functionConfig` value, of whatever shape the input gave it (parseFunctionConfig judges it). */
  functionConfig?: Json;
  /** Why `functionConfig` could not be read (its YAML, not its shape): an invalid function config. */
  functionConfigProblem?: string;
  results: Result[];
  /** Objects generated on an earlier run, cut from the text before parsing (krm/earlier.ts). */
  earlier?: EarlierOutput[];
}

export type ReadOutcome = { ok: true; input: ResourceListInput } | { ok: false; message: string };

/** Scalars resolve as go-yaml v2 resolves them: `e1000` and `1:20` are strings, `0o12` is 10. */
const parseOptions = () =>
  ({
    ...KUBERNETES_YAML,
    // The library's duplicate-key check is quadratic in the keys of a map (a 100k-key map takes
    // minutes); convertMap() does the same check in one pass.
    uniqueKeys: false,
  }) as const;

/**
 * Double-quoted scalars longer than this are decoded here rather than by the YAML library, which
 * appends one character at a time: a 20 MiB value became a 20-million-piece string, 5 s and 750 MB.
 */
const LONG_QUOTED = 64 * 1024;

const ESCAPES: Record<string, string> = {
  '0': '\0', a: '\x07', b: '\b', e: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', N: '\u0085', _: '\u00a0', L: '\u2028', P: '\u2029',
  ' ': ' ', '"': '"', '/': '/', '\\': '\\', '\t': '\t',
};

/**
 * The YAML library's double-quoted decoding (compose/resolve-flow-scalar.js `doubleQuotedValue`:
 * escapes, line folding, trimmed whitespace), with runs of ordinary characters copied as slices.
 * Returns the offset of the first problem instead when the library would report one.
 */
export function decodeDoubleQuoted(source: string): { value: string } | { problem: string; at: number } {
  const parts: string[] = [];
  let run = 1;
  const flush = (end: number) => {
    if (end > run) parts.push(source.slice(run, end));
  };
  const last = source.length - 1;
  if (source.length < 2 || source[last] !== '"') return { problem: 'Missing closing "quote', at: source.length };
  for (let i = 1; i < last; ++i) {
    const ch = source[i];
    // A CR counts only before an LF (CRLF is a line break); alone it is an ordinary character.
    if (ch === '\r' ? source[i + 1] !== '\n' : ch !== '\n' && ch !== '\\' && ch !== ' ' && ch !== '\t') continue;
    flush(i);
    if (ch === '\r') {
      run = i + 1;
      continue;
    }
    if (ch === '\n') {
      let fold = '';
      let next = source[i + 1];
      while (next === ' ' || next === '\t' || next === '\n' || next === '\r') {
        if (next === '\r' && source[i + 2] !== '\n') break;
        if (next === '\n') fold += '\n';
        next = source[++i + 1];
      }
      parts.push(fold || ' ');
    } else if (ch === '\\') {
      const next = source[++i]!;
      if (Object.prototype.hasOwnProperty.call(ESCAPES, next)) parts.push(ESCAPES[next]!);
      else if (next === '\n' || (next === '\r' && source[i + 1] === '\n')) {
        // An escaped line break: nothing, and the next line's indentation is trimmed.
        if (next === '\r') i++;
        while (source[i + 1] === ' ' || source[i + 1] === '\t') i++;
      } else if (next === 'x' || next === 'u' || next === 'U') {
        const length = next === 'x' ? 2 : next === 'u' ? 4 : 8;
        const hex = source.substr(i + 1, length);
        const code = hex.length === length && /^[0-9a-fA-F]+$/.test(hex) ? parseInt(hex, 16) : NaN;
        if (!(code <= 0x10ffff)) return { problem: `Invalid escape sequence ${source.substr(i - 1, length + 2)}`, at: i - 1 };
        parts.push(String.fromCodePoint(code));
        i += length;
      } else {
        return { problem: `Invalid escape sequence ${source.substr(i - 1, 2)}`, at: i - 1 };
      }
    } else {
      // Spaces and tabs are kept unless a line break follows them.
      const start = i;
      let next = source[i + 1];
      while (next === ' ' || next === '\t') next = source[++i + 1];
      if (next !== '\n' && !(next === '\r' && source[i + 2] === '\n')) parts.push(source.slice(start, i + 1));
    }
    run = i + 1;
  }
  flush(last);
  return { value: parts.join('') };
}

/**
 * The documents of a YAML text, as `YAML.parseAllDocuments` makes them, except that long
 * double-quoted values are decoded by `decodeDoubleQuoted` (their tokens reach the library as
 * `""`, and the decoded text is put into the node that starts at the same offset).
 */
function parseYaml(text: string, lineCounter: LineCounter): Document[] {
  const long = new Map<number, string>();
  const tokens = [...new YAML.Parser(lineCounter.addNewLine).parse(text)];
  try {
    for (const token of tokens) {
      if (token.type !== 'document') continue;
      YAML.CST.visit(token, (item) => {
        const value = item.value;
        if (value?.type !== 'double-quoted-scalar' || value.source.length <= LONG_QUOTED) return;
        const decoded = decodeDoubleQuoted(value.source);
        if ('problem' in decoded) throw new UnreadableInput(`${decoded.problem}${whereIs(value.offset + decoded.at, lineCounter)}`);
        long.set(value.offset, decoded.value);
        value.source = '""';
      });
    }
  } catch (e) {
    // Too deeply nested to walk: the library's composer reports it, with its position.
    if (!(e instanceof RangeError)) throw e;
  }
  const docs = [...new YAML.Composer(parseOptions()).compose(tokens, true, text.length)] as Document[];
  for (const doc of docs) {
    for (const error of doc.errors) error.linePos ??= [lineCounter.linePos(error.pos[0])];
    if (long.size > 0) {
      YAML.visit(doc, {
        Scalar(_, node) {
          const value = node.range && long.get(node.range[0]);
          if (value !== undefined) node.value = value;
        },
      });
    }
  }
  return docs;
}

const whereIs = (offset: number, lineCounter: LineCounter): string => {
  const pos = lineCounter.linePos(offset);
  return ` at line ${pos.line}, column ${pos.col}`;
};

/** Input the reader refuses as a whole (it could not be echoed back); the message names the position. */
class UnreadableInput extends Error {}
/** A problem confined to one item (or the function config): reported, and the rest is read. */
class ItemProblem extends Error {}

/**
 * go-yaml v2's alias-bomb guard, which Kubernetes applies to every document it decodes
 * (gopkg.in/yaml.v2 decode.go, `allowedAliasRatio` and `(*decoder).unmarshal`): up to 99% of the
 * decoded nodes may come from aliases while a document is small (400,000 decoded nodes), a share
 * that falls linearly to 10% at 4,000,000; under 1,000 decoded nodes or 100 aliased ones
 * anything passes. So 100,000 aliases of a short scalar pass and "billion laughs" does not.
 */
function excessiveAliasing(decoded: number, aliased: number): boolean {
  if (aliased <= 100 || decoded <= 1000) return false;
  const allowed = decoded <= 400_000 ? 0.99 : decoded >= 4_000_000 ? 0.1 : 0.99 - 0.89 * ((decoded - 400_000) / 3_600_000);
  return aliased / decoded > allowed;
}

/** A converted node: its JSON value, go-yaml's decode count for it, its nesting height, and the scalar it came from (map keys need its Go type). */
interface Converted {
  value: Json;
  /** Nodes go-yaml unmarshals to decode it (aliases expanded). */
  size: number;
  /** Levels of mappings and sequences in it (aliases expanded); 0 for a scalar. */
  height: number;
  scalar?: Scalar;
}

/** Shared state of converting one YAML document: anchors in document order, go-yaml's decode counts. */
interface ConvertState {
  anchors: Map<string, Converted>;
  decoded: number;
  aliased: number;
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

/** Counts decoded nodes as go-yaml does, refusing the document once aliases dominate it. */
function countDecoded(st: ConvertState, node: unknown, n: number, viaAlias: boolean): void {
  st.decoded += n;
  if (viaAlias) st.aliased += n;
  if (excessiveAliasing(st.decoded, st.aliased)) throw new ItemProblem(`document contains excessive aliasing (an alias bomb)${st.where(node)}`);
}

const tooDeep = (st: ConvertState, node: unknown) =>
  new UnreadableInput(`input is nested too deeply: more than ${st.limits.maxDepth} levels${st.where(node)}`);

/**
 * YAML node → plain JSON in one pass over the document (the YAML library's own toJS rescans the
 * whole document for every alias, which is quadratic on hostile input). Aliases reuse the value
 * of the latest anchor before them, as YAML specifies, and count as go-yaml counts them. `depth`
 * is the nesting level of `node`: deeper input is refused before any later stage recurses into it.
 */
function convertNode(node: unknown, st: ConvertState, depth: number): Converted {
  if (isAlias(node)) {
    const target = st.anchors.get(node.source);
    if (!target) throw new UnreadableInput(`unresolved YAML alias *${node.source}${st.where(node)}`);
    if (depth + target.height > st.limits.maxDepth) throw tooDeep(st, node);
    countDecoded(st, node, 1, false);
    countDecoded(st, node, target.size, true);
    return { ...target, size: target.size + 1 };
  }
  countDecoded(st, node, 1, false);
  let out: Converted;
  if (isMap(node) || isSeq(node) || isPair(node)) {
    if (depth >= st.limits.maxDepth) throw tooDeep(st, node);
    out = isSeq(node) ? convertSeq(node, st, depth) : isPair(node) ? convertMap([node], undefined, st, depth) : convertMap(node.items, node.tag, st, depth);
  } else {
    out = isScalar(node) ? { value: scalarJson(node), size: 1, height: 0, scalar: node } : { value: null, size: 1, height: 0 };
  }
  const anchor = (node as { anchor?: string } | null)?.anchor;
  if (anchor) st.anchors.set(anchor, out);
  return out;
}

/**
 * A mapping's pairs, applied in order as go-yaml v2 does: a later entry replaces an earlier one,
 * and a merge key (`<<`) merges its map, or its list of maps with the earlier ones winning, at its
 * place (decode.go `(*decoder).mapping` and `merge`). Repeated keys are refused, as the YAML
 * library's `uniqueKeys` would (same scalar value), in one pass. A `!!set` becomes the list of its keys.
 */
function convertMap(pairs: readonly YAML.Pair[], tag: string | undefined, st: ConvertState, depth: number): Converted {
  const obj: JsonObject = {};
  const set: Json[] = [];
  const seen = new Set<unknown>();
  let size = 1;
  let height = 1;
  const add = (c: Converted) => {
    size += c.size;
    height = Math.max(height, c.height + 1);
  };
  for (const pair of pairs) {
    if (isMergeKey(pair.key)) {
      const src = convertNode(pair.value, st, depth + 1);
      add(src);
      const sources = Array.isArray(src.value) ? [...src.value].reverse() : [src.value];
      for (const m of sources) {
        if (!isObject(m)) throw new ItemProblem(`map merge requires map or sequence of maps as the value${st.where(pair.value)}`);
        for (const k of Object.keys(m)) defineKey(obj, k, m[k] as Json);
      }
      continue;
    }
    const id = isScalar(pair.key) ? pair.key.value : pair.key;
    if (seen.has(id)) {
      throw new ItemProblem(`Map keys must be unique; ${JSON.stringify(isScalar(pair.key) ? String(pair.key.value) : 'complex key')} is repeated${st.where(pair.key)}`);
    }
    seen.add(id);
    const key = convertNode(pair.key, st, depth + 1);
    add(key);
    if (tag === 'tag:yaml.org,2002:set') {
      set.push(placed(key, pair.key, st));
      continue;
    }
    const keyString = keyText(key, pair.key, st);
    const value = convertNode(pair.value, st, depth + 1);
    add(value);
    defineKey(obj, keyString, placed(value, pair.value, st));
  }
  return { value: tag === 'tag:yaml.org,2002:set' ? set : obj, size, height };
}

/** A sequence; `!!omap` and `!!pairs` entries (single pairs) become a map, or one-entry maps. */
function convertSeq(node: YAML.YAMLSeq, st: ConvertState, depth: number): Converted {
  const omap = node.tag === 'tag:yaml.org,2002:omap';
  const arr: Json[] = [];
  const obj: JsonObject = {};
  let size = 1;
  let height = 1;
  for (const item of node.items) {
    const c = isPair(item) ? convertMap([item], undefined, st, depth) : convertNode(item, st, depth + 1);
    size += c.size;
    height = Math.max(height, c.height + 1);
    // A pair's value is placed by convertMap; other items here.
    const value = isPair(item) ? c.value : placed(c, item, st);
    if (omap && isObject(value)) for (const k of Object.keys(value)) defineKey(obj, k, value[k] as Json);
    else arr.push(value);
  }
  return { value: omap ? obj : arr, size, height };
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
    decoded: 1, // the document node
    aliased: 0,
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
 * rejects (and on alias bombs and nesting past the limit). Integers beyond ±2^53 become the nearest double.
 */
export function documentJson(doc: Document, limits: ReadLimits = DEFAULT_READ_LIMITS): Json {
  const st = newConvertState(limits);
  try {
    const value = placed(convertNode(doc.contents, st, 1), doc.contents, st);
    if (st.rejected.length > 0) throw new KubernetesYamlError(st.rejected[0]);
    return value;
  } catch (e) {
    if (e instanceof UnreadableInput || e instanceof ItemProblem) throw new KubernetesYamlError(e.message);
    throw e;
  }
}

/**
 * Converts one part of a document (an item, the function config). A problem confined to it is
 * returned as a message, and its nodes are left out of the document's alias counts so the parts
 * after it are judged on their own; input that cannot be read at all throws.
 */
type Conversion = { ok: true; value: Json; rejected: string[]; inexact: string[] } | { ok: false; message: string };

function convertPart(node: unknown, st: ConvertState): Conversion {
  const before = { decoded: st.decoded, aliased: st.aliased, rejected: st.rejected.length, inexact: st.inexact.length };
  try {
    const value = placed(convertNode(node, st, 1), node, st);
    return { ok: true, value, rejected: st.rejected.slice(before.rejected), inexact: st.inexact.slice(before.inexact) };
  } catch (e) {
    if (!(e instanceof ItemProblem)) throw e;
    Object.assign(st, { decoded: before.decoded, aliased: before.aliased });
    st.rejected.length = before.rejected;
    st.inexact.length = before.inexact;
    return { ok: false, message: e.message };
  }
}

/** Position of a node as text (` (line 3, column 1)`), or '' when unknown. */
function positionOf(node: unknown, lineCounter: LineCounter): string {
  const offset = (node as { range?: [number, number, number] } | null)?.range?.[0];
  if (offset === undefined) return '';
  const pos = lineCounter.linePos(offset);
  return ` (line ${pos.line}, column ${pos.col})`;
}

/**
 * An alias used before its anchor (the YAML library would throw while writing the output): the
 * document cannot be echoed, so it is refused, with the alias's position.
 */
function unresolvedAlias(doc: Document | YAML.Node, lineCounter: LineCounter): string | undefined {
  let found: string | undefined;
  const anchors = new Set<string>();
  YAML.visit(doc, {
    Node(_, node) {
      if (isAlias(node) && !anchors.has(node.source)) {
        found = `unresolved YAML alias *${node.source}${positionOf(node, lineCounter).replace(/^ \((.*)\)$/, ' at $1')}`;
        return YAML.visit.BREAK;
      }
      if (node.anchor) anchors.add(node.anchor);
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

/**
 * One input item. Whatever is wrong with it — not an object, YAML that cannot be decoded, values
 * Kubernetes cannot convert, not a KRM object — is an error result; the item is not used
 * (Kubernetes refuses the whole object) and is echoed back untouched. The messages say what is
 * wrong, not "passed through unchanged": an error that claims to have been let through reads as
 * a contradiction (issue #14).
 */
function readItem(node: YAML.Node, doc: Document, converted: Conversion, lineCounter: LineCounter, where: string, results: Result[]): InputItem {
  const value = converted.ok && isObject(converted.value) ? converted.value : {};
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
  const at = positionOf(node, lineCounter);
  if (!converted.ok) report('error', `${where}: ${converted.message}`);
  else if (!isObject(converted.value)) report('error', `${where}${at} is not an object: ${describeRoot(node)}`);
  // Kubernetes refuses the whole object (kubectl: "error converting YAML to JSON"): it is neither rendered nor used.
  else if (converted.rejected.length > 0) report('error', `${where}: Kubernetes cannot read this object: ${converted.rejected.join('; ')}`);
  else {
    if (ref) item.ref = ref;
    for (const integer of converted.inexact) {
      report(
        'warning',
        `${where}: the integer ${integer} is beyond ±2^53, which a JavaScript number cannot hold exactly: it is read as the nearest double, which objects rendered from it carry (Kubernetes keeps int64 values exactly; objects passed through keep their text)`,
      );
    }
    if (!ref) report('error', `${where}${at} is not a KRM object: apiVersion, kind and metadata.name are required`);
  }
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

const isNull = (node: unknown): boolean => node === undefined || node === null || (isScalar(node) && node.value === null);

/**
 * Parses a KRM ResourceList (YAML or JSON). It fails (one message, with a position where there
 * is one) only when the input as a whole cannot be read or echoed: too large, not YAML, not a
 * ResourceList, nested too deeply, an alias without anchor. Problems of single items are error
 * results (the item is echoed back untouched), problems of the function config are reported with it.
 * Objects this function generated on an earlier run are cut out first and kept as text
 * (krm/earlier.ts; `cutEarlier: false` reads them as items too); the limits apply to the rest.
 */
export function readResourceList(text: string, limits: ReadLimits = DEFAULT_READ_LIMITS, options: { cutEarlier?: boolean } = {}): ReadOutcome {
  const cut = options.cutEarlier === false ? undefined : cutEarlierOutputs(text);
  if (!cut) return readResourceListText(text, limits);
  const read = readResourceListText(cut.rest, limits);
  // Positions in an error refer to the text as given: read it whole when that is allowed.
  if (!read.ok) return text.length <= limits.maxInputBytes ? readResourceListText(text, limits) : read;
  read.input.earlier = cut.outputs.map(({ owner, digest, inputs, entry }) => {
    let parsed: JsonObject | undefined | null = null;
    return { owner, digest, inputs, entry, value: () => (parsed === null ? (parsed = parseEntry(entry, limits)) : parsed) };
  });
  return read;
}

/** One list entry (`- …`) as an object, read like any item; undefined when it is not a readable one. */
function parseEntry(entry: string, limits: ReadLimits): JsonObject | undefined {
  try {
    const docs = parseYaml(entry, new LineCounter());
    const seq = docs[0]?.contents;
    if (docs.length !== 1 || docs[0]!.errors.length > 0 || !isSeq(seq) || seq.items.length !== 1 || !isMap(seq.items[0])) return undefined;
    const converted = convertPart(seq.items[0], newConvertState(limits));
    return converted.ok && converted.rejected.length === 0 && isObject(converted.value) ? converted.value : undefined;
  } catch {
    return undefined;
  }
}

function readResourceListText(text: string, limits: ReadLimits): ReadOutcome {
  const large = tooLarge(text, limits);
  if (large) return { ok: false, message: large };
  const lineCounter = new LineCounter();
  let doc: Document;
  try {
    const docs = parseYaml(text.replace(/^\uFEFF/, ''), lineCounter);
    doc = docs[0]!;
    if (docs.length > 1) return { ok: false, message: `input is not valid YAML: it holds ${docs.length} documents; a ResourceList is one${whereIs(docs[1]!.range?.[0] ?? 0, lineCounter)}` };
  } catch (e) {
    return { ok: false, message: `input is not valid YAML: ${readErrorMessage(e)}` };
  }
  if (doc.errors.length > 0) return { ok: false, message: `input is not valid YAML: ${describeYamlError(doc.errors[0]!)}` };
  const root = doc.contents;
  if (!isMap(root)) return { ok: false, message: `input is not a ResourceList: expected a mapping with kind: ResourceList, but ${describeRoot(root)}` };
  const kind = root.get('kind');
  const apiVersion = root.get('apiVersion');
  if (kind !== 'ResourceList') return { ok: false, message: `input is not a ResourceList: kind is ${JSON.stringify(kind ?? null)}` };
  if (apiVersion !== 'config.kubernetes.io/v1' && apiVersion !== 'config.kubernetes.io/v1beta1') {
    return { ok: false, message: `input is not a ResourceList: unsupported apiVersion ${JSON.stringify(apiVersion ?? null)}` };
  }
  const itemsNode = root.get('items', true);
  if (!isNull(itemsNode) && !isSeq(itemsNode)) {
    return { ok: false, message: `input is not a ResourceList: items must be a list${positionOf(itemsNode, lineCounter)}` };
  }
  if (isSeq(itemsNode) && itemsNode.items.length > limits.maxItems) {
    return { ok: false, message: `input is not a valid ResourceList: ${itemsNode.items.length} items; the limit is ${limits.maxItems}` };
  }
  const unresolved = unresolvedAlias(doc, lineCounter);
  if (unresolved) return { ok: false, message: `input is not valid YAML: ${unresolved}` };
  const input: ResourceListInput = { doc, items: [], results: [] };
  const st = newConvertState(limits, lineCounter);
  try {
    // In document order, so that anchors and go-yaml's alias counts see what go-yaml would.
    countDecoded(st, root, 1, false);
    for (const pair of root.items) {
      countDecoded(st, pair.key, 1, false);
      const key = isScalar(pair.key) ? pair.key.value : undefined;
      if (key === 'items' && isSeq(itemsNode)) {
        countDecoded(st, itemsNode, 1, false);
        itemsNode.items.forEach((node, i) => input.items.push(readItem(node as YAML.Node, doc, convertPart(node, st), lineCounter, `items[${i}]`, input.results)));
      } else if (key === 'functionConfig') {
        const fc = convertPart(pair.value, st);
        if (!fc.ok) input.functionConfigProblem = fc.message;
        else if (fc.rejected.length > 0) input.functionConfigProblem = `Kubernetes cannot read it: ${fc.rejected.join('; ')}`;
        else if (fc.value !== null) input.functionConfig = fc.value;
      } else {
        const other = convertPart(pair.value, st);
        if (!other.ok) return { ok: false, message: `input is not a valid ResourceList: ${String(key)}: ${other.message}` };
      }
    }
  } catch (e) {
    return { ok: false, message: readErrorMessage(e) };
  }
  const repeated = repeatedKey(root, lineCounter);
  if (repeated) return { ok: false, message: `input is not valid YAML: ${repeated}` };
  return { ok: true, input };
}

/** A key the ResourceList itself repeats (its items are checked while they are read). */
function repeatedKey(root: YAMLMap, lineCounter: LineCounter): string | undefined {
  const seen = new Set<unknown>();
  for (const { key } of root.items) {
    const id = isScalar(key) ? key.value : key;
    if (seen.has(id)) return `Map keys must be unique; ${JSON.stringify(String(id))} is repeated${positionOf(key, lineCounter).replace(/^ \((.*)\)$/, ' at $1')}`;
    seen.add(id);
  }
  return undefined;
}

/** Messages of errors that stop reading: ours as they are; a stack overflow as "nested too deeply". */
function readErrorMessage(e: unknown): string {
  if (e instanceof RangeError && /call stack/i.test(e.message)) return 'input is nested too deeply';
  if (e instanceof UnreadableInput || e instanceof ItemProblem) return e.message;
  throw e;
}

/**
 * Why a document of a YAML stream is not a Kubernetes object at all (Helm values and Chart.yaml,
 * docs, a kustomization), or undefined when it is meant as one. Directories hold such files next
 * to manifests; they are skipped, where an object missing its name is an error.
 */
function notAnObject(value: JsonObject): string | undefined {
  if (typeof value.apiVersion !== 'string' || typeof value.kind !== 'string') return 'not a Kubernetes object (no apiVersion and kind)';
  if (value.apiVersion.startsWith('kustomize.config.k8s.io/')) return `a kustomize ${value.kind}, not a Kubernetes object`;
  return undefined;
}

/**
 * Parses a stream of YAML documents (one file); every document must be a mapping or empty. With
 * `skipNonObjects` (files found in the user's directories), mappings that are not Kubernetes
 * objects are skipped with an `info` result; otherwise they are items with an error result.
 */
export function readYamlStream(
  text: string,
  relPath: string,
  limits: ReadLimits = DEFAULT_READ_LIMITS,
  options: { skipNonObjects?: boolean } = {},
): { ok: true; items: InputItem[]; results: Result[] } | { ok: false; message: string } {
  const large = tooLarge(text, limits);
  if (large) return { ok: false, message: `${relPath}: ${large}` };
  const lineCounter = new LineCounter();
  let docs: Document[];
  try {
    docs = parseYaml(text.replace(/^\uFEFF/, ''), lineCounter);
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
      const unresolved = unresolvedAlias(doc, lineCounter);
      if (unresolved) return { ok: false, message: `${relPath}: not valid YAML: ${unresolved}` };
      const root = doc.contents;
      if (isNull(root)) continue;
      if (!isMap(root)) return { ok: false, message: `${relPath}: document ${index}${positionOf(root, lineCounter)} is not an object: ${describeRoot(root)}` };
      const converted = convertPart(root, newConvertState(limits, lineCounter));
      if (!converted.ok) return { ok: false, message: `${relPath}: document ${index}: ${converted.message}` };
      const file = index > 0 ? { path: relPath, index } : { path: relPath };
      const notObject = options.skipNonObjects && isObject(converted.value) ? notAnObject(converted.value) : undefined;
      index++;
      if (notObject) {
        results.push({ severity: 'info', message: `${notObject}: skipped`, file });
        continue;
      }
      const item = readItem(root, doc, converted, lineCounter, `${relPath} document ${index - 1}`, results);
      item.file = file;
      items.push(item);
    }
  } catch (e) {
    return { ok: false, message: `${relPath}: ${readErrorMessage(e)}` };
  }
  return { ok: true, items, results };
}
