/**
 * The conversion rules' Tree over the text of one YAML document, editing only the text of the
 * nodes a rule touches: everything else — comments, key order, quoting, indentation, blank
 * lines — stays byte for byte. Each edit is a splice of the text at the node's source range,
 * after which the document is parsed again (documents are small; a fleet file is split into its
 * documents first).
 *
 * A moved key takes its own comment lines with it and is re-indented for its new place. Edits
 * inside a flow collection (`{a: 1}`) rewrite that collection on one line. Documents using
 * anchors and aliases are not edited in place (the caller converts them as plain data).
 */
import YAML, {
  isAlias,
  isMap,
  isScalar,
  isSeq,
  type Document,
  type Pair,
  type ParsedNode,
  type Scalar,
  type YAMLMap,
  type YAMLSeq,
} from 'yaml';
import type { Json, JsonObject } from '../core/model.js';
import { isObject, jsonText } from '../core/json.js';
import { KUBERNETES_YAML } from '../yaml/kubernetes.js';
import { JsonTree, anchorKey, lastOf, parentOf, pathText, type Path, type Tree } from '../api/conversion/index.js';

/** YAML as Kubernetes reads it (go-yaml v2 resolution, src/yaml/kubernetes.ts), as the renderer reads input. */
export const PARSE_OPTIONS = { ...KUBERNETES_YAML, uniqueKeys: false } as const;

export class UnsupportedYaml extends Error {}

/*
 * Nodes of a parsed document (the tree only ever holds one, parsed afresh after each edit) carry
 * their source range: the yaml library's `Parsed` types say so.
 */
type MapPair = Pair<ParsedNode, ParsedNode | null>;
type ParsedMap = YAMLMap.Parsed;
type ParsedSeq = YAMLSeq.Parsed;

/** A node found by its path: a map value with its pair, a list item, or the document's root. */
type Located =
  | { node: ParsedNode | null; pair: MapPair; parent: ParsedMap }
  | { node: ParsedNode; pair?: undefined; parent: ParsedSeq }
  | { node: ParsedNode | null; pair?: undefined; parent?: undefined };

/** Where a pair's key starts. */
const keyStart = (pair: MapPair): number => pair.key.range[0];

const INDENT = 2;

const indentLines = (text: string, col: number): string =>
  text
    .split('\n')
    .map((l) => (l === '' ? l : ' '.repeat(col) + l))
    .join('\n');

function dedentLine(line: string, col: number): string {
  let n = 0;
  while (n < col && line[n] === ' ') n++;
  return line.slice(n);
}

/** Plain when it reads back as the same string, else quoted (double quotes unless the old style was single). */
function formatString(value: string, oldType?: string): string {
  if (oldType === 'QUOTE_SINGLE' && !value.includes('\n')) return `'${value.replace(/'/g, "''")}'`;
  if (oldType !== 'QUOTE_DOUBLE' && value !== '' && !value.includes('\n') && value.trim() === value) {
    try {
      if ((YAML.parse(`k: ${value}`, PARSE_OPTIONS) as { k?: unknown } | null)?.k === value) return value;
    } catch {
      // not plain
    }
  }
  return JSON.stringify(value);
}

function formatScalar(value: Json, oldType?: string): string {
  if (typeof value === 'string') return formatString(value, oldType);
  return value === null ? 'null' : jsonText(value);
}

/** A literal block scalar (`|`, `|-`, `|+`) with its content at column `col`. */
function blockLiteral(value: string, col: number): string {
  const trailing = value.length - value.replace(/\n+$/, '').length;
  const chomp = trailing === 0 ? '-' : trailing === 1 ? '' : '+';
  const body = trailing > 0 ? value.slice(0, -1) : value;
  return `|${chomp}\n${body
    .split('\n')
    .map((l) => (l === '' ? '' : ' '.repeat(col) + l))
    .join('\n')}`;
}

/** A value on one line (scalars, flow collections). */
function flowText(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(flowText).join(', ')}]`;
  if (isObject(value))
    return `{${Object.entries(value)
      .map(([k, v]) => `${formatString(k)}: ${flowText(v)}`)
      .join(', ')}}`;
  return formatScalar(value);
}

export class YamlTree implements Tree {
  private doc!: Document.Parsed<ParsedNode>;

  constructor(
    private text: string,
    /** `key:\n- item` (true) or `key:\n  - item` (false): how this document writes block lists. */
    private readonly flatLists = YamlTree.detectFlatLists(text),
  ) {
    this.reparse();
  }

  /** Whether the document writes block lists at the indentation of their key (kubectl style). */
  static detectFlatLists(text: string): boolean {
    const m = /^( *)[^\s#-][^\n]*:[ \t]*\n( *)- /m.exec(text);
    return m !== null && m[1]?.length === m[2]?.length;
  }

  toString(): string {
    return this.text;
  }

  opaqueText(): boolean {
    return false;
  }

  private reparse(): void {
    const doc = YAML.parseDocument(this.text, PARSE_OPTIONS);
    const [error] = doc.errors;
    if (error) throw new Error(`internal: edited YAML no longer parses: ${error.message}`);
    let alias = false;
    YAML.visit(doc, { Alias: () => ((alias = true), YAML.visit.BREAK) });
    if (alias) throw new UnsupportedYaml('the document uses YAML aliases');
    this.doc = doc;
  }

  private splice(start: number, end: number, replacement: string): void {
    this.text = this.text.slice(0, start) + replacement + this.text.slice(end);
    this.reparse();
  }

  private locate(path: Path): Located | undefined {
    let cur: Located = { node: this.doc.contents };
    for (const seg of path) {
      const node: ParsedNode | null = cur.node;
      if (isAlias(node)) throw new UnsupportedYaml('the document uses YAML aliases');
      if (typeof seg === 'number') {
        const item: ParsedNode | undefined = isSeq(node) ? node.items[seg] : undefined;
        if (!isSeq(node) || item === undefined) return undefined;
        cur = { node: item, parent: node };
      } else {
        if (!isMap(node)) return undefined;
        const pair: MapPair | undefined = node.items.find((p) => isScalar(p.key) && String(p.key.value) === seg);
        if (!pair) return undefined;
        cur = { node: pair.value, pair, parent: node };
      }
    }
    return cur;
  }

  /** The node at a path an edit found or made before. */
  private existing(path: Path): Located {
    const at = this.locate(path);
    if (!at) throw new Error(`internal: nothing at ${pathText(path)}`);
    return at;
  }

  /** The map pair at a path an edit found or made before. */
  private pairAt(path: Path): Located & { pair: MapPair } {
    const at = this.existing(path);
    if (!at.pair) throw new Error(`internal: no map key at ${pathText(path)}`);
    return at;
  }

  private valueOf(node: ParsedNode | null): Json {
    return node === null ? null : (node.toJS(this.doc) as Json);
  }

  get(path: Path): Json | undefined {
    const at = this.locate(path);
    return at && this.valueOf(at.node);
  }

  // ------------------------------------------------------------------ text positions

  private lineStart(offset: number): number {
    return this.text.lastIndexOf('\n', offset - 1) + 1;
  }

  private column(offset: number): number {
    return offset - this.lineStart(offset);
  }

  /** True when the key is the first thing on its line (not after a `- `). */
  private ownLine(pair: MapPair): boolean {
    const start = keyStart(pair);
    return this.text.slice(this.lineStart(start), start).trim() === '';
  }

  /** Start of the pair's text: its line, or the comment lines right above it. */
  private pairStart(pair: MapPair): number {
    const key = keyStart(pair);
    if (!this.ownLine(pair)) return key;
    let start = this.lineStart(key);
    const col = this.column(key);
    while (start > 0) {
      const prev = this.lineStart(start - 1);
      const line = this.text.slice(prev, start - 1);
      if (!line.startsWith(' '.repeat(col) + '#')) break;
      start = prev;
    }
    return start;
  }

  /** End of the pair's text, after the newline that ends its last line. */
  private pairEnd(pair: MapPair): number {
    const end = (pair.value ?? pair.key).range[2];
    if (end >= this.text.length || this.text[end - 1] === '\n') return end;
    const nl = this.text.indexOf('\n', end);
    if (nl === -1) return this.text.length;
    return this.text.slice(end, nl).trim() === '' ? nl + 1 : end;
  }

  /** The pair's text, as lines relative to its key's column (the key line first). */
  private pairLines(pair: MapPair): string[] {
    const col = this.column(keyStart(pair));
    const start = this.pairStart(pair);
    const text = this.text.slice(start, this.pairEnd(pair)).replace(/\n$/, '');
    // A key after `- ` keeps its line as it is: the dash is not the key's indentation.
    const afterDash = !this.ownLine(pair);
    return text.split('\n').map((l, i) => (i === 0 && afterDash ? l : dedentLine(l, col)));
  }

  /** The text of `key: value` as lines relative to the key's column. */
  private renderPair(key: string, value: Json): string[] {
    const k = formatString(key);
    if (isObject(value) && Object.keys(value).length > 0) {
      return [`${k}:`, ...this.renderBlock(value).map((l) => (l === '' ? l : ' '.repeat(INDENT) + l))];
    }
    if (Array.isArray(value) && value.length > 0) {
      const pad = this.flatLists ? '' : ' '.repeat(INDENT);
      return [`${k}:`, ...this.renderBlock(value).map((l) => (l === '' ? l : pad + l))];
    }
    if (typeof value === 'string' && value.includes('\n'))
      return [...`${k}: ${blockLiteral(value, INDENT)}`.split('\n')];
    return [`${k}: ${flowText(value)}`];
  }

  /** A non-empty map or list as block lines at column 0. */
  private renderBlock(value: Json): string[] {
    return YAML.stringify(value, {
      ...KUBERNETES_YAML,
      lineWidth: 0,
      indentSeq: !this.flatLists,
      aliasDuplicateObjects: false,
    })
      .replace(/\n$/, '')
      .split('\n');
  }

  // ------------------------------------------------------------------ edits

  /** The outermost flow collection on the way to `path`, if any. */
  private flowAncestor(path: Path): Path | undefined {
    for (let i = 0; i <= path.length; i++) {
      const at = this.locate(path.slice(0, i));
      if (!at) return undefined;
      if ((isMap(at.node) || isSeq(at.node)) && at.node.flow) return path.slice(0, i);
    }
    return undefined;
  }

  /** Applies an edit to a flow collection as data and writes the collection back on one line. */
  private editFlow(flowPath: Path, edit: (tree: Tree, rel: (p: Path) => Path) => void): void {
    const box: JsonObject = { v: this.get(flowPath) as Json };
    edit(new JsonTree(box), (p) => ['v', ...p.slice(flowPath.length)]);
    this.replaceValue(flowPath, box.v as Json);
  }

  private isBlockValue(value: Json): boolean {
    return (isObject(value) && Object.keys(value).length > 0) || (Array.isArray(value) && value.length > 0);
  }

  /** Where a value's text ends: a block collection or block scalar up to its last line (its newline stays). */
  private valueEnd(node: ParsedNode): number {
    const [start, end] = node.range;
    return end > start && this.text[end - 1] === '\n' ? end - 1 : end;
  }

  /** A value written after `key:` or `- ` (scalars keep their quoting style). */
  private oneLine(value: Json, node: ParsedNode | null, col: number): string {
    if (typeof value === 'string' && value.includes('\n')) return blockLiteral(value, col + INDENT);
    return isScalar(node) ? formatScalar(value, node.type) : flowText(value);
  }

  /**
   * Replaces the value at an existing path (a map value, a list item or the root) by `value`, or
   * by `lines` (block content relative to the value's column: a list when `value` is an array).
   */
  private replaceValue(path: Path, value: Json, lines?: string[]): void {
    const at = this.existing(path);
    const node = at.node;
    const block = lines ?? (this.isBlockValue(value) ? this.renderBlock(value) : undefined);
    if (at.pair) {
      const [keyStart, keyEnd] = at.pair.key.range;
      const colon = this.text.indexOf(':', keyEnd);
      const col = this.column(keyStart);
      const hasText = node !== null && !(isScalar(node) && node.source === '' && node.value === null);
      if (!block && hasText && isScalar(node)) {
        this.splice(node.range[0], this.valueEnd(node), this.oneLine(value, node, col));
        return;
      }
      const end = hasText ? this.valueEnd(node) : colon + 1;
      const childCol = Array.isArray(value) && this.flatLists ? col : col + INDENT;
      this.splice(
        colon + 1,
        end,
        block ? `\n${indentLines(block.join('\n'), childCol)}` : ` ${this.oneLine(value, node, col)}`,
      );
      return;
    }
    // A list item, or the root: the document holds the object being converted.
    if (node === null) throw new Error(`internal: no value at ${pathText(path)}`);
    const start = node.range[0];
    const col = this.column(start);
    const text = block
      ? block.map((l, i) => (i === 0 || l === '' ? l : ' '.repeat(col) + l)).join('\n')
      : this.oneLine(value, node, col);
    this.splice(start, this.valueEnd(node), text);
  }

  /** Inserts a pair, given as lines relative to its key's column, into the map at `mapPath`. */
  private insertPair(mapPath: Path, lines: string[], before: string | undefined): void {
    const map = this.existing(mapPath).node;
    const first = isMap(map) ? map.items[0] : undefined;
    if (!isMap(map) || !first) {
      // An empty map (`{}` or nothing): the pair becomes its block content.
      this.replaceValue(mapPath, {}, lines);
      return;
    }
    const col = this.column(keyStart(first));
    const anchor =
      before === undefined ? undefined : map.items.find((p) => isScalar(p.key) && String(p.key.value) === before);
    if (anchor && !this.ownLine(anchor)) {
      // Before the first key of a list item: the new pair takes the `- ` line.
      const text = `${lines[0]}${lines
        .slice(1)
        .map((l) => `\n${l === '' ? l : ' '.repeat(col) + l}`)
        .join('')}\n${' '.repeat(col)}`;
      this.splice(keyStart(anchor), keyStart(anchor), text);
      return;
    }
    // Before a sibling: below that sibling's comment lines, which then head what takes its place
    // (a container emptied by the conversion leaves its comments to what moved out of it).
    const offset = anchor ? this.lineStart(keyStart(anchor)) : this.pairEnd(map.items.at(-1) ?? first);
    const lead = offset > 0 && this.text[offset - 1] !== '\n' ? '\n' : '';
    this.splice(offset, offset, `${lead}${indentLines(lines.join('\n'), col)}\n`);
  }

  /** Removes a pair with its comment lines; the last pair of a map leaves `{}`. */
  private removePair(path: Path): void {
    const { pair, parent: map } = this.pairAt(path);
    if (map.items.length === 1) {
      this.replaceValue(parentOf(path), {});
      return;
    }
    // The first key of a list item: the next pair moves up onto the `- ` line.
    const next = this.ownLine(pair) ? undefined : map.items[map.items.indexOf(pair) + 1];
    if (next) {
      this.splice(keyStart(pair), this.pairStart(next) + this.column(keyStart(next)), '');
      return;
    }
    this.splice(this.pairStart(pair), this.pairEnd(pair), '');
  }

  private ensureMap(path: Path, anchor: Path | undefined): void {
    for (const [i, seg] of path.entries()) {
      const sub = path.slice(0, i + 1);
      const at = this.locate(sub);
      if (at && (isMap(at.node) || isSeq(at.node))) continue;
      if (typeof seg === 'number') throw new Error(`internal: no list item at ${String(seg)}`);
      if (at) this.replaceValue(sub, {});
      else this.insertPair(sub.slice(0, -1), [`${formatString(seg)}: {}`], anchorKey(sub.slice(0, -1), anchor));
    }
  }

  move(from: Path, to: Path): void {
    if (from.length === to.length && from.every((s, i) => s === to[i])) return;
    if (!this.locate(from)?.pair) return;
    // The destination's old value, if any, is replaced (as in JSON).
    this.remove(to);
    const { pair } = this.pairAt(from);
    const flow = this.flowAncestor(parentOf(from)) ?? this.flowAncestor(parentOf(to));
    if (flow || typeof lastOf(to) !== 'string') {
      const value = this.valueOf(pair.value);
      this.remove(from);
      this.set(to, value, from);
      return;
    }
    const sameParent =
      parentOf(from).length === parentOf(to).length && parentOf(from).every((s, i) => s === parentOf(to)[i]);
    const key = lastOf(to) as string;
    if (lastOf(from) !== key) {
      const [start, end] = pair.key.range;
      this.splice(start, end, formatString(key));
    }
    if (sameParent) return;
    const renamed = [...parentOf(from), key];
    this.ensureMap(parentOf(to), renamed);
    const lines = this.pairLines(this.pairAt(renamed).pair);
    this.removePair(renamed);
    this.insertPair(parentOf(to), lines, anchorKey(parentOf(to), renamed));
  }

  set(path: Path, value: Json, anchor?: Path): void {
    const flow = this.flowAncestor(parentOf(path));
    if (flow) {
      this.editFlow(flow, (t, rel) => t.set(rel(path), value));
      return;
    }
    const at = this.locate(path);
    if (at) {
      this.replaceValue(path, value);
      return;
    }
    this.ensureMap(parentOf(path), anchor);
    this.insertPair(parentOf(path), this.renderPair(lastOf(path) as string, value), anchorKey(parentOf(path), anchor));
  }

  remove(path: Path): void {
    const at = this.locate(path);
    if (!at) return;
    const flow = this.flowAncestor(parentOf(path));
    if (flow) {
      this.editFlow(flow, (t, rel) => t.remove(rel(path)));
      return;
    }
    if (at.pair) {
      this.removePair(path);
      return;
    }
    const seq = at.parent as YAMLSeq;
    if (seq.items.length === 1) {
      this.replaceValue(parentOf(path), []);
      return;
    }
    // Not a map value, not the root (a remove names a field): a list item.
    if (at.node === null) throw new Error(`internal: no list item at ${pathText(path)}`);
    const start = this.lineStart(at.node.range[0]);
    const end = this.itemEnd(at.node);
    this.splice(start, end, '');
  }

  private itemEnd(item: ParsedNode): number {
    const end = item.range[2];
    if (end >= this.text.length || this.text[end - 1] === '\n') return end;
    const nl = this.text.indexOf('\n', end);
    return nl === -1 ? this.text.length : nl + 1;
  }

  mapToArgs(path: Path, order: readonly string[]): void {
    const flow = this.flowAncestor(path);
    const map = this.existing(path).node as ParsedMap;
    if (flow || map.flow) {
      const value = this.get(path) as JsonObject;
      this.replaceValue(
        path,
        order.map((name) => ({ name, value: value[name] as Json })),
      );
      return;
    }
    const items = order.map((name) => {
      const pair = map.items.find((p) => isScalar(p.key) && String(p.key.value) === name);
      // ConvertToArgs orders the keys the map has.
      if (!pair) throw new Error(`internal: no key ${name} at ${pathText(path)}`);
      const key = pair.key as Scalar.Parsed;
      const value = pair.value;
      const lines = this.pairLines(pair);
      const keyLine = lines.findIndex((l) => !l.startsWith('#'));
      const comments = lines.slice(0, keyLine);
      const nameText =
        typeof key.value === 'string' ? this.text.slice(key.range[0], key.range[1]) : JSON.stringify(String(key.value));
      const valueText =
        value && isScalar(value) && !String(value.type).startsWith('BLOCK')
          ? this.text.slice(value.range[0], value.range[2]).replace(/\n$/, '').trimEnd()
          : formatScalar((value?.toJS(this.doc) ?? '') as Json);
      return [...comments, `- name: ${nameText}`, `  value: ${valueText}`];
    });
    this.replaceValue(path, [], items.flat());
  }

  insert(path: Path, index: number, value: Json): void {
    const seq = this.locate(path)?.node;
    const first = isSeq(seq) ? seq.items[0] : undefined;
    if (!isSeq(seq) || seq.flow || !first) {
      const list = (this.get(path) as Json[] | undefined) ?? [];
      this.set(path, [...list.slice(0, index), value, ...list.slice(index)]);
      return;
    }
    const dashCol = this.column(first.range[0]) - INDENT;
    const lines = this.renderBlock([value]);
    const text = `${indentLines(lines.join('\n'), dashCol)}\n`;
    const at = seq.items[index];
    const offset = at ? this.lineStart(at.range[0]) : this.itemEnd(seq.items.at(-1) ?? first);
    const lead = offset > 0 && this.text[offset - 1] !== '\n' ? '\n' : '';
    this.splice(offset, offset, lead + text);
  }
}
