/**
 * Objects this function generated on an earlier run, as kpt hands them back on a re-render (the
 * package's `rendered/` files). At fleet size they are most of the input (a 10,000-Cluster
 * package sends ~280 MiB of them next to ~18 MiB of Clusters and classes), and parsing them with
 * the YAML library cost four times the render itself. So they are cut out of the ResourceList
 * text before parsing (a line scan), kept as text, written back as text when kept or reused
 * (without kpt's per-run annotations), and parsed one at a time only when a Cluster's earlier
 * objects are really needed (see the reuse and digest checks in pipeline/run.ts). They do not
 * count against the input-size limit: they are never parsed as one document.
 *
 * The cut is taken only where it is unambiguous: block-style YAML with `items:` at column 0, each
 * item a `- ` entry at column 0 or 2 (kyaml's and the yaml library's styles), and the owner
 * annotation as a plain line of `metadata.annotations`. Anything else (JSON, flow style, CRLF,
 * several documents) is read the ordinary way.
 */
import type { JsonObject } from '../core/model.js';
import { DIGEST_ANNOTATION, INPUTS_ANNOTATION, OWNER_ANNOTATION } from '../core/labels.js';
import type { InputItem } from './item.js';

/**
 * Annotations kpt sets on every item it hands a function, numbered afresh each run. An object
 * handed back with them is matched to its input and, by kyaml's FunctionFilter, has comments
 * copied and its field order synced from it: at fleet size most of kpt's own re-render time
 * (kpt 1.0.0-beta.56, 8,500 objects: 26.6 s CPU against 12.5 s without them). Entries written
 * back as text drop them: they are objects of this function, not edits of the input's.
 */
const KPT_RUN_ANNOTATIONS = [
  'config.k8s.io/id',
  'internal.config.kubernetes.io/id',
  'internal.config.kubernetes.io/annotations-migration-resource-id',
];
/** kpt numbers them: a value that is one line for sure (not `|`, `>`, an anchor or a tag). */
const RUN_VALUE = /^\d+$/;

/** One object generated on an earlier run. */
export interface EarlierOutput {
  /** `<namespace>/<name>` of the Cluster it was generated for. */
  owner: string;
  /** Its digest annotation, when it has one. */
  digest: string | undefined;
  /** Its inputs annotation, when it has one (`INPUTS_ANNOTATION`). */
  inputs?: string | undefined;
  /** The object, parsed on first use (undefined when its text does not parse as one object). */
  value(): JsonObject | undefined;
  /**
   * Cut from the ResourceList text: the list entry with its dash at column 2 (as the output's
   * `items:` list has them), written back as it was but for kpt's per-run annotations.
   */
  entry?: string;
  /** Read as an ordinary input item (files, JSON input). */
  item?: InputItem;
}

/** The objects of earlier outputs whose text parses. */
export const earlierObjects = (earlier: readonly EarlierOutput[]): JsonObject[] =>
  earlier.map((e) => e.value()).filter((v): v is JsonObject => v !== undefined);

/** An earlier output cut from a ResourceList's text: written back as its entry. */
export type CutEarlierOutput = EarlierOutput & { entry: string };

export interface CutOutputs {
  /** The ResourceList text without the earlier outputs (parse this). */
  rest: string;
  /** The entries of `rest`'s `items:` list (what `listEntries(rest)` finds), when any are left. */
  restEntries: ListEntries | undefined;
  outputs: { owner: string; digest: string | undefined; inputs: string | undefined; entry: string }[];
}

/** A plain or quoted annotation value without escapes. */
const VALUE = /^(?:'([^']*)'|"([^"\\]*)"|([^\s'"#][^\s#]*))\s*$/;

function annotationValue(line: string, key: string): string | undefined {
  if (!line.startsWith(key) || line.charCodeAt(key.length) !== 58 /* : */) return undefined;
  const m = VALUE.exec(line.slice(key.length + 1).trimStart());
  return m ? (m[1] ?? m[2] ?? m[3]) : undefined;
}

/** The lines of `text` from `start` to `end`, as [start, end) offsets without the newline. */
function* linesOf(text: string, start: number, end: number): Generator<[number, number]> {
  for (let pos = start; pos < end;) {
    const nl = text.indexOf('\n', pos);
    const stop = nl < 0 || nl > end ? end : nl;
    yield [pos, stop];
    pos = stop + 1;
  }
}

function indentAt(text: string, pos: number, stop: number): number {
  let i = pos;
  while (i < stop && text.charCodeAt(i) === 32) i++;
  return i - pos;
}

/** Empty or comment-only lines belong to whatever block they are in. */
const isBlank = (text: string, pos: number, stop: number, indent: number): boolean =>
  pos + indent === stop || text.charCodeAt(pos + indent) === 35; /* # */
const isDash = (text: string, at: number, stop: number): boolean =>
  text.charCodeAt(at) === 45 /* - */ && (at + 1 === stop || text.charCodeAt(at + 1) === 32);

interface EntryAnnotations {
  owner: string;
  digest: string | undefined;
  inputs: string | undefined;
  /** Lines of kpt's per-run annotations, as [start, end) offsets including the newline. */
  runLines: [number, number][];
}

/**
 * Owner, digest and inputs annotations of one list entry (`text` from `start` to `end`, its dash
 * at column `dash`), read from `metadata.annotations` by indentation, with the lines of kpt's
 * per-run annotations; undefined when it has no owner annotation there.
 */
function entryAnnotations(text: string, start: number, end: number, dash: number): EntryAnnotations | undefined {
  const c = dash + 2;
  let state: 'top' | 'metadata' | 'annotations' = 'top';
  let owner: string | undefined;
  let digest: string | undefined;
  let inputs: string | undefined;
  const runLines: [number, number][] = [];
  for (const [pos, stop] of linesOf(text, start, end)) {
    // The dash line's content starts at column c, like its siblings below.
    const indent = pos === start ? c : indentAt(text, pos, stop);
    if (pos !== start && isBlank(text, pos, stop, indent)) continue;
    if (state === 'annotations' && indent <= c + 2) state = indent === c ? 'top' : 'metadata';
    else if (state === 'metadata' && indent <= c) state = 'top';
    const key = (name: string) =>
      text.startsWith(name, pos + indent) && /^\s*$/.test(text.slice(pos + indent + name.length, stop));
    if (state === 'top' && indent === c && key('metadata:')) state = 'metadata';
    else if (state === 'metadata' && indent === c + 2 && key('annotations:')) state = 'annotations';
    else if (state === 'annotations' && indent === c + 4) {
      const line = text.slice(pos + indent, stop);
      owner ??= annotationValue(line, OWNER_ANNOTATION);
      digest ??= annotationValue(line, DIGEST_ANNOTATION);
      inputs ??= annotationValue(line, INPUTS_ANNOTATION);
      if (KPT_RUN_ANNOTATIONS.some((k) => RUN_VALUE.test(annotationValue(line, k) ?? '')))
        runLines.push([pos, Math.min(stop + 1, end)]);
    }
  }
  return owner ? { owner, digest, inputs, runLines } : undefined;
}

/** `text` from `start` to `end` without the given line ranges (in order, inside it). */
function without(text: string, start: number, end: number, lines: readonly [number, number][]): string {
  let out = '';
  let at = start;
  for (const [from, to] of lines) {
    out += text.slice(at, from);
    at = to;
  }
  return out + text.slice(at, end);
}

/** The entries of a ResourceList's `items:` list, as [start, end) offsets, when it is block-style YAML as kpt writes it. */
export interface ListEntries {
  /** Where the list's first entry starts, and where the list ends. */
  start: number;
  end: number;
  /** The column of the entries' dashes (0 or 2). */
  dash: number;
  entries: [number, number][];
}

/** The `items:` entries of a ResourceList's text by a line scan, or undefined when the text is not in the expected shape. */
export function listEntries(text: string): ListEntries | undefined {
  if (text.includes('\r') || /^(?:---|\.\.\.)\s*$/m.test(text)) return undefined;
  const itemsLine = /^items:[ \t]*\n/m.exec(text);
  if (!itemsLine) return undefined;
  const start = itemsLine.index + itemsLine[0].length;
  // Entries start at a dash in column `dash`; the block ends at the next key at a lower column.
  const starts: number[] = [];
  let dash = -1;
  let end = text.length;
  for (const [pos, stop] of linesOf(text, start, text.length)) {
    const indent = indentAt(text, pos, stop);
    if (isBlank(text, pos, stop, indent)) continue;
    if (dash < 0) {
      if ((indent !== 0 && indent !== 2) || !isDash(text, pos + indent, stop)) return undefined;
      dash = indent;
    }
    if (indent < dash || (indent === dash && !isDash(text, pos + indent, stop))) {
      end = pos;
      break;
    }
    if (indent === dash) starts.push(pos);
  }
  if (starts.length === 0) return undefined;
  // Each entry runs to the next one, the last to the end of the block.
  return { start, end, dash, entries: starts.map((from, i): [number, number] => [from, starts[i + 1] ?? end]) };
}

/** Cuts the earlier outputs out of a ResourceList's text, or undefined when the text is not in the expected shape. */
export function cutEarlierOutputs(text: string): CutOutputs | undefined {
  if (!text.includes(OWNER_ANNOTATION)) return undefined;
  const list = listEntries(text);
  if (!list) return undefined;
  const { start, end, dash, entries } = list;
  const rest: string[] = [text.slice(0, start)];
  const restEntries: [number, number][] = [];
  let restEnd = start;
  const outputs: CutOutputs['outputs'] = [];
  for (const [from, to] of entries) {
    const found = entryAnnotations(text, from, to, dash);
    if (!found) {
      rest.push(text.slice(from, to));
      restEntries.push([restEnd, (restEnd += to - from)]);
      continue;
    }
    const { runLines, ...annotations } = found;
    const entry = without(text, from, to, runLines);
    // kyaml indents list entries by two spaces, as the output does: most entries are not copied again.
    outputs.push({ ...annotations, entry: dash === 2 ? entry : entry.replace(/^(?=.)/gm, '  ') });
  }
  if (outputs.length === 0) return undefined;
  rest.push(text.slice(end));
  return {
    rest: rest.join(''),
    restEntries: restEntries.length > 0 ? { start, end: restEnd, dash, entries: restEntries } : undefined,
    outputs,
  };
}
