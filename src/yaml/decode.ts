/**
 * Kubernetes YAML decoding: YAML text to the JSON values Kubernetes makes of it (sigs.k8s.io/yaml
 * over go-yaml v2, with kubernetes.ts's schema), with go-yaml's alias-bomb guard and the nesting
 * and size limits every later stage relies on. The ResourceList reader (krm/read.ts) and the
 * template engine's YAML output (gotemplate/yaml-output.ts) both decode through it.
 */
import YAML, { Document, LineCounter, isAlias, isMap, isPair, isScalar, isSeq, type Scalar } from 'yaml';
import type { Json, JsonObject } from '../core/model.js';
import { defineKey, isObject, jsonText } from '../core/json.js';
import { KUBERNETES_YAML, KubernetesYamlError, mapKeyJson, scalarJson, unsupportedValue } from './kubernetes.js';

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

const ESCAPES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    '0': '\0',
    a: '\x07',
    b: '\b',
    e: '\x1b',
    f: '\f',
    n: '\n',
    r: '\r',
    t: '\t',
    v: '\v',
    N: '\u0085',
    _: '\u00a0',
    L: '\u2028',
    P: '\u2029',
    ' ': ' ',
    '"': '"',
    '/': '/',
    '\\': '\\',
    '\t': '\t',
  }),
);

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
      const next = source[++i];
      const escaped = next === undefined ? undefined : ESCAPES.get(next);
      if (escaped !== undefined) parts.push(escaped);
      else if (next === '\n' || (next === '\r' && source[i + 1] === '\n')) {
        // An escaped line break: nothing, and the next line's indentation is trimmed.
        if (next === '\r') i++;
        while (source[i + 1] === ' ' || source[i + 1] === '\t') i++;
      } else if (next === 'x' || next === 'u' || next === 'U') {
        const length = next === 'x' ? 2 : next === 'u' ? 4 : 8;
        const hex = source.substr(i + 1, length);
        const code = hex.length === length && /^[0-9a-fA-F]+$/.test(hex) ? parseInt(hex, 16) : NaN;
        if (!(code <= 0x10ffff))
          return { problem: `Invalid escape sequence ${source.substr(i - 1, length + 2)}`, at: i - 1 };
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

/** A piece of a text, as [from, to) offsets. */
export interface Span {
  from: number;
  to: number;
}

/**
 * The documents of a YAML text, as `YAML.parseAllDocuments` makes them, except that long
 * double-quoted values are decoded by `decodeDoubleQuoted` (their tokens reach the library as
 * `""`, and the decoded text is put into the node that starts at the same offset). With `span`,
 * only that piece of the text is parsed, as if it were the whole text, but with node ranges and
 * error positions as offsets into `text`; `lineCounter` must then already hold every line of `text`.
 */
export function parseYaml(text: string, lineCounter: LineCounter, span?: Span): Document[] {
  const long = new Map<number, string>();
  const parser = new YAML.Parser(span ? undefined : lineCounter.addNewLine);
  // The parser counts offsets from here: every token, node range and error is placed in `text`.
  if (span) parser.offset = span.from;
  const tokens = [...parser.parse(span ? text.slice(span.from, span.to) : text)];
  try {
    for (const token of tokens) {
      if (token.type !== 'document') continue;
      YAML.CST.visit(token, (item) => {
        const value = item.value;
        if (value?.type !== 'double-quoted-scalar' || value.source.length <= LONG_QUOTED) return;
        const decoded = decodeDoubleQuoted(value.source);
        if ('problem' in decoded)
          throw new UnreadableInput(`${decoded.problem}${whereIs(value.offset + decoded.at, lineCounter)}`);
        long.set(value.offset, decoded.value);
        value.source = '""';
      });
    }
  } catch (e) {
    // Too deeply nested to walk: the library's composer reports it, with its position.
    if (!(e instanceof RangeError)) throw e;
  }
  const docs = [...new YAML.Composer(parseOptions()).compose(tokens, true, span ? span.to : text.length)] as Document[];
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

export const whereIs = (offset: number, lineCounter: LineCounter): string => {
  const pos = lineCounter.linePos(offset);
  return ` at line ${pos.line}, column ${pos.col}`;
};

/** Input the reader refuses as a whole (it could not be echoed back); the message names the position. */
export class UnreadableInput extends Error {}
/** A problem confined to one item (or the function config): reported, and the rest is read. */
export class ItemProblem extends Error {}

/**
 * go-yaml v2's alias-bomb guard, which Kubernetes applies to every document it decodes
 * (gopkg.in/yaml.v2 decode.go, `allowedAliasRatio` and `(*decoder).unmarshal`): up to 99% of the
 * decoded nodes may come from aliases while a document is small (400,000 decoded nodes), a share
 * that falls linearly to 10% at 4,000,000; under 1,000 decoded nodes or 100 aliased ones
 * anything passes. So 100,000 aliases of a short scalar pass and "billion laughs" does not.
 */
function excessiveAliasing(decoded: number, aliased: number): boolean {
  if (aliased <= 100 || decoded <= 1000) return false;
  const allowed =
    decoded <= 400_000 ? 0.99 : decoded >= 4_000_000 ? 0.1 : 0.99 - 0.89 * ((decoded - 400_000) / 3_600_000);
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
export interface ConvertState {
  anchors: Map<string, Converted>;
  decoded: number;
  aliased: number;
  limits: ReadLimits;
  where: (node: unknown) => string;
  /** What Kubernetes refuses to convert (`.inf` values, null keys), with its position. */
  rejected: string[];
}

const MERGE_TAG = 'tag:yaml.org,2002:merge';
const isMergeKey = (key: unknown): boolean =>
  isScalar(key) && (typeof key.value === 'symbol' || (key.tag === MERGE_TAG && key.value === '<<'));

/** Counts decoded nodes as go-yaml does, refusing the document once aliases dominate it. */
export function countDecoded(st: ConvertState, node: unknown, n: number, viaAlias: boolean): void {
  st.decoded += n;
  if (viaAlias) st.aliased += n;
  if (excessiveAliasing(st.decoded, st.aliased))
    throw new ItemProblem(`document contains excessive aliasing (an alias bomb)${st.where(node)}`);
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
    out = isSeq(node)
      ? convertSeq(node, st, depth)
      : isPair(node)
        ? convertMap([node], undefined, st, depth)
        : convertMap(node.items, node.tag, st, depth);
  } else {
    out = isScalar(node)
      ? { value: scalarJson(node), size: 1, height: 0, scalar: node }
      : { value: null, size: 1, height: 0 };
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
        if (!isObject(m))
          throw new ItemProblem(`map merge requires map or sequence of maps as the value${st.where(pair.value)}`);
        for (const k of Object.keys(m)) defineKey(obj, k, m[k] as Json);
      }
      continue;
    }
    const id = isScalar(pair.key) ? pair.key.value : pair.key;
    if (seen.has(id)) {
      throw new ItemProblem(
        `Map keys must be unique; ${JSON.stringify(isScalar(pair.key) ? String(pair.key.value) : 'complex key')} is repeated${st.where(pair.key)}`,
      );
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
 * Kubernetes cannot write as JSON is noted as rejected (and read as null).
 */
function placed(c: Converted, node: unknown, st: ConvertState): Json {
  const unsupported = unsupportedValue(c.value);
  if (unsupported) {
    st.rejected.push(`${unsupported}${st.where(node)}`);
    return null;
  }
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
    return jsonText(key.value);
  }
}

export function newConvertState(limits: ReadLimits, lineCounter?: LineCounter): ConvertState {
  return {
    anchors: new Map(),
    decoded: 1, // the document node
    aliased: 0,
    limits,
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
 * rejects (and on alias bombs and nesting past the limit).
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
export type Conversion = { ok: true; value: Json; rejected: string[] } | { ok: false; message: string };

export function convertPart(node: unknown, st: ConvertState): Conversion {
  const before = { decoded: st.decoded, aliased: st.aliased, rejected: st.rejected.length };
  try {
    const value = placed(convertNode(node, st, 1), node, st);
    return { ok: true, value, rejected: st.rejected.slice(before.rejected) };
  } catch (e) {
    if (!(e instanceof ItemProblem)) throw e;
    Object.assign(st, { decoded: before.decoded, aliased: before.aliased });
    st.rejected.length = before.rejected;
    return { ok: false, message: e.message };
  }
}

/** Position of a node as text (` (line 3, column 1)`), or '' when unknown. */
export function positionOf(node: unknown, lineCounter: LineCounter): string {
  const offset = (node as { range?: [number, number, number] } | null)?.range?.[0];
  if (offset === undefined) return '';
  const pos = lineCounter.linePos(offset);
  return ` (line ${pos.line}, column ${pos.col})`;
}

/**
 * An alias used before its anchor (the YAML library would throw while writing the output): the
 * document cannot be echoed, so it is refused, with the alias's position.
 */
export function unresolvedAlias(doc: Document | YAML.Node, lineCounter: LineCounter): string | undefined {
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
