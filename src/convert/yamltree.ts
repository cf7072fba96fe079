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
import YAML, { isAlias, isMap, isScalar, isSeq, type Document, type Node, type Pair, type Scalar, type YAMLMap, type YAMLSeq } from 'yaml';
import type { Json, JsonObject } from '../core/model.js';
import { isObject, jsonText } from '../core/json.js';
import { KUBERNETES_YAML } from '../yaml/kubernetes.js';
import { JsonTree, anchorKey, lastOf, parentOf, type Path, type Tree } from '../api/conversion/index.js';

/** YAML as Kubernetes reads it (go-yaml v2 resolution, src/yaml/kubernetes.ts), as the renderer reads input. */
export const PARSE_OPTIONS = { ...KUBERNETES_YAML, uniqueKeys: false } as const;

export class UnsupportedYaml extends Error {}

type Container = YAMLMap | YAMLSeq;
interface Located {
  node: Node | null;
  /** The pair holding the node (map values). */
  pair?: Pair;
  parent?: Container;
}

const INDENT = 2;

const indentLines = (text: string, col: number): string =>
  text
    .split('\n')
    .map((l) => (l === '' ? l : ' '.repeat(col) + l))
    .join('\n');

function dedentLines(lines: string[], col: number): string[] {
  return lines.map((l) => {
    let n = 0;
    while (n < col && l[n] === ' ') n++;
    return l.slice(n);
  });
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
  const trailing = /\n*$/.exec(value)![0].length;
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
  if (isObject(value)) return `{${Object.entries(value).map(([k, v]) => `${formatString(k)}: ${flowText(v)}`).join(', ')}}`;
  return formatScalar(value);
}

export class YamlTree implements Tree {
  private doc!: Document.Parsed;

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
    return m ? m[1]!.length === m[2]!.length : false;
  }

  toString(): string {
    return this.text;
  }

  opaqueText(): boolean {
    return false;
  }

  private reparse(): void {
    const doc = YAML.parseDocument(this.text, PARSE_OPTIONS);
    if (doc.errors.length > 0) throw new Error(`internal: edited YAML no longer parses: ${doc.errors[0]!.message}`);
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
      const node = cur.node;
      if (isAlias(node)) throw new UnsupportedYaml('the document uses YAML aliases');
      if (typeof seg === 'number') {
        if (!isSeq(node) || seg >= node.items.length) return undefined;
        cur = { node: node.items[seg] as Node, parent: node };
      } else {
        if (!isMap(node)) return undefined;
        const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === seg);
        if (!pair) return undefined;
        cur = { node: pair.value as Node | null, pair, parent: node };
      }
    }
    return cur;
  }

  get(path: Path): Json | undefined {
    const at = this.locate(path);
    if (!at) return undefined;
    return at.node === null ? null : (at.node.toJS(this.doc) as Json);
  }

  // ------------------------------------------------------------------ text positions

  private lineStart(offset: number): number {
    return this.text.lastIndexOf('\n', offset - 1) + 1;
  }

  private column(offset: number): number {
    return offset - this.lineStart(offset);
  }

  /** True when the key is the first thing on its line (not after a `- `). */
  private ownLine(pair: Pair): boolean {
    const start = (pair.key as Node).range![0];
    return this.text.slice(this.lineStart(start), start).trim() === '';
  }

  /** Start of the pair's text: its line, or the comment lines right above it. */
  private pairStart(pair: Pair): number {
    const keyStart = (pair.key as Node).range![0];
    if (!this.ownLine(pair)) return keyStart;
    let start = this.lineStart(keyStart);
    const col = this.column(keyStart);
    while (start > 0) {
      const prev = this.lineStart(start - 1);
      const line = this.text.slice(prev, start - 1);
      if (!line.startsWith(' '.repeat(col) + '#')) break;
      start = prev;
    }
    return start;
  }

  /** End of the pair's text, after the newline that ends its last line. */
  private pairEnd(pair: Pair): number {
    const node = (pair.value as Node | null) ?? (pair.key as Node);
    const end = node.range![2];
    if (end >= this.text.length || this.text[end - 1] === '\n') return end;
    const nl = this.text.indexOf('\n', end);
    if (nl === -1) return this.text.length;
    return this.text.slice(end, nl).trim() === '' ? nl + 1 : end;
  }

  /** The column of a block map's keys. */
  private mapColumn(map: YAMLMap): number {
    return this.column((map.items[0]!.key as Node).range![0]);
  }

  /** The pair's text, as lines relative to its key's column (the key line first). */
  private pairLines(pair: Pair): string[] {
    const col = this.column((pair.key as Node).range![0]);
    const start = this.pairStart(pair);
    const text = this.text.slice(start, this.pairEnd(pair)).replace(/\n$/, '');
    const lines = text.split('\n');
    if (!this.ownLine(pair)) return [lines[0]!, ...dedentLines(lines.slice(1), col)];
    return dedentLines(lines, col);
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
    if (typeof value === 'string' && value.includes('\n')) return [...`${k}: ${blockLiteral(value, INDENT)}`.split('\n')];
    return [`${k}: ${flowText(value)}`];
  }

  /** A non-empty map or list as block lines at column 0. */
  private renderBlock(value: Json): string[] {
    return YAML.stringify(value, { ...KUBERNETES_YAML, lineWidth: 0, indentSeq: !this.flatLists, aliasDuplicateObjects: false })
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
  private valueEnd(node: Node): number {
    const end = node.range![1];
    return end > node.range![0] && this.text[end - 1] === '\n' ? end - 1 : end;
  }

  /** A value written after `key:` or `- ` (scalars keep their quoting style). */
  private oneLine(value: Json, node: Node | null, col: number): string {
    if (typeof value === 'string' && value.includes('\n')) return blockLiteral(value, col + INDENT);
    return isScalar(node) ? formatScalar(value, node.type) : flowText(value);
  }

  /**
   * Replaces the value at an existing path (a map value, a list item or the root) by `value`, or
   * by `lines` (block content relative to the value's column: a list when `value` is an array).
   */
  private replaceValue(path: Path, value: Json, lines?: string[]): void {
    const at = this.locate(path)!;
    const node = at.node;
    const block = lines ?? (this.isBlockValue(value) ? this.renderBlock(value) : undefined);
    if (at.pair) {
      const keyNode = at.pair.key as Node;
      const colon = this.text.indexOf(':', keyNode.range![1]);
      const col = this.column(keyNode.range![0]);
      const hasText = node !== null && !(isScalar(node) && node.source === '' && node.value === null);
      if (!block && hasText && isScalar(node)) {
        this.splice(node.range![0], this.valueEnd(node), this.oneLine(value, node, col));
        return;
      }
      const end = hasText ? this.valueEnd(node) : colon + 1;
      const childCol = Array.isArray(value) && this.flatLists ? col : col + INDENT;
      this.splice(colon + 1, end, block ? `\n${indentLines(block.join('\n'), childCol)}` : ` ${this.oneLine(value, node, col)}`);
      return;
    }
    const start = node!.range![0];
    const col = this.column(start);
    const text = block ? block.map((l, i) => (i === 0 || l === '' ? l : ' '.repeat(col) + l)).join('\n') : this.oneLine(value, node, col);
    this.splice(start, this.valueEnd(node!), text);
  }

  /** Inserts a pair, given as lines relative to its key's column, into the map at `mapPath`. */
  private insertPair(mapPath: Path, lines: string[], before: string | undefined): void {
    const at = this.locate(mapPath)!;
    const map = at.node;
    if (!isMap(map) || map.items.length === 0) {
      // An empty map (`{}` or nothing): the pair becomes its block content.
      this.replaceValue(mapPath, {}, lines);
      return;
    }
    const col = this.mapColumn(map);
    const anchor = before === undefined ? undefined : map.items.find((p) => isScalar(p.key) && String(p.key.value) === before);
    if (anchor && !this.ownLine(anchor)) {
      // Before the first key of a list item: the new pair takes the `- ` line.
      const text = `${lines[0]}${lines.slice(1).map((l) => `\n${l === '' ? l : ' '.repeat(col) + l}`).join('')}\n${' '.repeat(col)}`;
      this.splice((anchor.key as Node).range![0], (anchor.key as Node).range![0], text);
      return;
    }
    // Before a sibling: below that sibling's comment lines, which then head what takes its place
    // (a container emptied by the conversion leaves its comments to what moved out of it).
    const offset = anchor ? this.lineStart((anchor.key as Node).range![0]) : this.pairEnd(map.items[map.items.length - 1]!);
    const lead = offset > 0 && this.text[offset - 1] !== '\n' ? '\n' : '';
    this.splice(offset, offset, `${lead}${indentLines(lines.join('\n'), col)}\n`);
  }

  /** Removes a pair with its comment lines; the last pair of a map leaves `{}`. */
  private removePair(path: Path): void {
    const at = this.locate(path)!;
    const map = at.parent as YAMLMap;
    if (map.items.length === 1) {
      this.replaceValue(parentOf(path), {});
      return;
    }
    const pair = at.pair!;
    if (!this.ownLine(pair)) {
      // The first key of a list item: the next pair moves up onto the `- ` line.
      const next = map.items[map.items.indexOf(pair) + 1]!;
      this.splice((pair.key as Node).range![0], this.pairStart(next) + this.column((next.key as Node).range![0]), '');
      return;
    }
    this.splice(this.pairStart(pair), this.pairEnd(pair), '');
  }

  private ensureMap(path: Path, anchor: Path | undefined): void {
    for (let i = 0; i < path.length; i++) {
      const sub = path.slice(0, i + 1);
      const seg = path[i]!;
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
    const pair = this.locate(from)!.pair!;
    const flow = this.flowAncestor(parentOf(from)) ?? this.flowAncestor(parentOf(to));
    if (flow || typeof lastOf(to) !== 'string') {
      const value = this.get(from)!;
      this.remove(from);
      this.set(to, value, from);
      return;
    }
    const sameParent = parentOf(from).length === parentOf(to).length && parentOf(from).every((s, i) => s === parentOf(to)[i]);
    const key = lastOf(to) as string;
    if (lastOf(from) !== key) {
      const k = pair.key as Node;
      this.splice(k.range![0], k.range![1], formatString(key));
    }
    if (sameParent) return;
    const renamed = [...parentOf(from), key];
    this.ensureMap(parentOf(to), renamed);
    const moved = this.locate(renamed)!;
    const lines = this.pairLines(moved.pair!);
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
    const item = at.node!;
    const start = this.lineStart(item.range![0]);
    const end = this.itemEnd(item);
    this.splice(start, end, '');
  }

  private itemEnd(item: Node): number {
    const end = item.range![2];
    if (end >= this.text.length || this.text[end - 1] === '\n') return end;
    const nl = this.text.indexOf('\n', end);
    return nl === -1 ? this.text.length : nl + 1;
  }

  mapToArgs(path: Path, order: readonly string[]): void {
    const flow = this.flowAncestor(path);
    const map = this.locate(path)!.node as YAMLMap;
    if (flow || map.flow) {
      const value = this.get(path) as JsonObject;
      this.replaceValue(path, order.map((name) => ({ name, value: value[name] as Json })));
      return;
    }
    const items = order.map((name) => {
      const pair = map.items.find((p) => isScalar(p.key) && String(p.key.value) === name)!;
      const key = pair.key as Scalar;
      const value = pair.value as Node | null;
      const lines = this.pairLines(pair);
      const keyLine = lines.findIndex((l) => !l.startsWith('#'));
      const comments = lines.slice(0, keyLine);
      const nameText = typeof key.value === 'string' ? this.text.slice(key.range![0], key.range![1]) : JSON.stringify(String(key.value));
      const valueText = value && isScalar(value) && !String(value.type).startsWith('BLOCK')
        ? this.text.slice(value.range![0], value.range![2]).replace(/\n$/, '').trimEnd()
        : formatScalar((value?.toJS(this.doc) ?? '') as Json);
      return [...comments, `- name: ${nameText}`, `  value: ${valueText}`];
    });
    this.replaceValue(path, [], items.flat());
  }

  insert(path: Path, index: number, value: Json): void {
    const seq = this.locate(path)?.node;
    if (!isSeq(seq) || seq.flow || seq.items.length === 0) {
      const list = (this.get(path) as Json[] | undefined) ?? [];
      this.set(path, [...list.slice(0, index), value, ...list.slice(index)]);
      return;
    }
    const dashCol = this.column(seq.items[0] ? (seq.items[0] as Node).range![0] : 0) - INDENT;
    const lines = this.renderBlock([value]);
    const text = `${indentLines(lines.join('\n'), dashCol)}\n`;
    const offset = index < seq.items.length ? this.lineStart((seq.items[index] as Node).range![0]) : this.itemEnd(seq.items[seq.items.length - 1] as Node);
    const lead = offset > 0 && this.text[offset - 1] !== '\n' ? '\n' : '';
    this.splice(offset, offset, lead + text);
  }
}
