/**
 * Reading input: a KRM ResourceList (YAML or JSON) from stdin, or a stream of YAML documents from
 * files. The renderer reads plain JSON values converted as Kubernetes converts them
 * (sigs.k8s.io/yaml over go-yaml v2: kubernetes-yaml.ts). A ResourceList's items keep their YAML
 * so pass-through objects are written back untouched: their list entry's text when the list could
 * be read entry by entry (`readResourceListText`), else their node in the whole document. A document of
 * a file keeps nothing but its value.
 */
import YAML, { Document, LineCounter, isMap, isScalar, isSeq, type YAMLMap } from 'yaml';
import type { JsonObject, ObjectRef, SourceLocation } from '../core/model.js';
import { asObject, asString, isObject } from '../core/json.js';
import type { Json } from '../core/model.js';
import type { Result } from '../core/result.js';
import {
  DEFAULT_READ_LIMITS,
  ItemProblem,
  UnreadableInput,
  convertPart,
  countDecoded,
  newConvertState,
  parseYaml,
  positionOf,
  unresolvedAlias,
  whereIs,
  type Conversion,
  type ReadLimits,
} from '../yaml/decode.js';
import { cutEarlierOutputs, listEntries, type CutEarlierOutput, type ListEntries } from './earlier.js';
import { oversizedObject } from './oversized.js';
import { INDEX_ANNOTATION, LEGACY_INDEX_ANNOTATION, LEGACY_PATH_ANNOTATION, PATH_ANNOTATION } from '../core/labels.js';
import type { InputItem, ItemYaml } from './item.js';

export interface ResourceListInput {
  /** The ResourceList document; without its items when they were read entry by entry (they keep their text). */
  doc: Document;
  items: InputItem[];
  /** The `functionConfig` value, of whatever shape the input gave it (parseFunctionConfig judges it). */
  functionConfig?: Json;
  /** Why `functionConfig` could not be read (its YAML, not its shape): an invalid function config. */
  functionConfigProblem?: string;
  results: Result[];
  /** Objects generated on an earlier run, cut from the text before parsing (krm/earlier.ts). */
  earlier?: CutEarlierOutput[];
}

export type ReadOutcome = { ok: true; input: ResourceListInput } | { ok: false; message: string };

/** `apiVersion` keys: one per object, plus the few nested references that carry one. */
const API_VERSION_KEY = /(?:^|[\s{,])["']?apiVersion["']?[ \t]*:/gm;

/**
 * The input is refused before parsing when larger than the limit, when it plainly holds far
 * more objects than the item limit (parsing hundreds of thousands of items is the slow part), or
 * when one object in it is too large to be stored (oversized.ts).
 */
function tooLarge(text: string, limits: ReadLimits, shape: Parameters<typeof oversizedObject>[1]): string | undefined {
  // UTF-16 length is a lower bound of the UTF-8 byte length and the bound the parser's work follows.
  if (text.length > limits.maxInputBytes) {
    return `input is too large (${Buffer.byteLength(text, 'utf8')} bytes; the limit is ${limits.maxInputBytes} bytes, RENDER_CLUSTERCLASS_MAX_INPUT_BYTES changes it)`;
  }
  let objects = 0;
  for (API_VERSION_KEY.lastIndex = 0; API_VERSION_KEY.exec(text) !== null;) {
    if (++objects > limits.maxItems * 3)
      return `input is too large (more than ${objects - 1} objects before parsing; the limit is ${limits.maxItems} items)`;
  }
  const oversized = oversizedObject(text, shape);
  return oversized && `input is too large: ${oversized}`;
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

/** Where an item that is not a Kubernetes object is skipped: a ResourceList item (`{}`, named by its path or place), or a document of a file. */
interface SkipNonObjects {
  location?: SourceLocation;
}

/**
 * One input item. Whatever is wrong with it — not an object, YAML that cannot be decoded, values
 * Kubernetes cannot convert, not a KRM object — is an error result; the item is not used
 * (Kubernetes refuses the whole object) and is echoed back untouched. The messages say what is
 * wrong, not "passed through unchanged": an error that claims to have been let through reads as
 * a contradiction (issue #14). With `skip`, an item not meant as a Kubernetes object at all
 * (`notAnObject`) is no error: it is marked skipped, with an `info` result.
 */
function readItem(
  yaml: ItemYaml | undefined,
  node: YAML.Node,
  converted: Conversion,
  lineCounter: LineCounter,
  where: string,
  results: Result[],
  skip?: SkipNonObjects,
): InputItem {
  const value = converted.ok && isObject(converted.value) ? converted.value : {};
  const item: InputItem = yaml ? { yaml, value } : { value };
  const notObject =
    skip && converted.ok && converted.rejected.length === 0 && isObject(converted.value)
      ? notAnObject(converted.value)
      : undefined;
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
  else if (converted.rejected.length > 0)
    report('error', `${where}: Kubernetes cannot read this object: ${converted.rejected.join('; ')}`);
  else {
    if (ref) item.ref = ref;
    if (notObject) {
      // Returned as it came, like every item: kpt deletes the file of an item left out.
      item.skipped = notObject;
      // kpt shows a result's object, not its file: an item names where it is (a file's line is printed after its path).
      const located = skip?.location;
      results.push(skippedResult(located ? '' : `${file?.path ?? where}: `, notObject, located ?? file));
    } else if (!ref)
      report('error', `${where}${at} is not a KRM object: apiVersion, kind and metadata.name are required`);
  }
  return item;
}

function describeYamlError(e: YAML.YAMLError): string {
  const [first = ''] = e.message.split('\n');
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

const isNull = (node: unknown): boolean =>
  node === undefined || node === null || (isScalar(node) && node.value === null);

/**
 * Parses a KRM ResourceList (YAML or JSON). It fails (one message, with a position where there
 * is one) only when the input as a whole cannot be read or echoed: too large, not YAML, not a
 * ResourceList, nested too deeply, an alias without anchor. Problems of single items are error
 * results (the item is echoed back untouched), problems of the function config are reported with it.
 * Objects this function generated on an earlier run are cut out first and kept as text
 * (krm/earlier.ts; `cutEarlier: false` reads them as items too); the limits apply to the rest.
 * Items are read entry by entry where the text allows (`readResourceListText`); `byEntries: false`
 * reads the document whole, the reference that reading is held to.
 */
export function readResourceList(
  text: string,
  limits: ReadLimits = DEFAULT_READ_LIMITS,
  options: { cutEarlier?: boolean; byEntries?: boolean } = {},
): ReadOutcome {
  const byEntries = options.byEntries !== false;
  const cut = options.cutEarlier === false ? undefined : cutEarlierOutputs(text);
  if (!cut) return readResourceListText(text, limits, listEntries(text), byEntries);
  const read = readResourceListText(cut.rest, limits, cut.restEntries, byEntries);
  // Positions in an error refer to the text as given: read it whole when that is allowed.
  if (!read.ok)
    return text.length <= limits.maxInputBytes
      ? readResourceListText(text, limits, listEntries(text), byEntries)
      : read;
  read.input.earlier = cut.outputs.map(({ owner, digest, inputs, entry }) => {
    let parsed: JsonObject | undefined | null = null;
    return {
      owner,
      digest,
      inputs,
      entry,
      value: () => (parsed === null ? (parsed = parseEntry(entry, limits)) : parsed),
    };
  });
  return read;
}

/** One list entry (`- …`) as an object, read like any item; undefined when it is not a readable one. */
function parseEntry(entry: string, limits: ReadLimits): JsonObject | undefined {
  try {
    const [doc, ...more] = parseYaml(entry, new LineCounter());
    const seq = doc?.contents;
    if (
      !doc ||
      more.length > 0 ||
      doc.errors.length > 0 ||
      !isSeq(seq) ||
      seq.items.length !== 1 ||
      !isMap(seq.items[0])
    )
      return undefined;
    const converted = convertPart(seq.items[0], newConvertState(limits));
    return converted.ok && converted.rejected.length === 0 && isObject(converted.value) ? converted.value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads a ResourceList whose `items:` entries are `list` (krm/earlier.ts `listEntries`; undefined
 * when the text is not split so). The YAML library's document of a whole 10,000-Cluster
 * ResourceList is most of a render's peak memory (about 300 MiB of nodes for 18 MiB of text, and
 * more while it is composed), so the entries are read one at a time (`readParsed` with `list`)
 * when they can be: each is parsed alone and only its text and value are kept. Anything that
 * reading cannot take as it is (`readsByEntries`, `readParsed`) is read whole, as every input was
 * before: same items, values, results, positions and output bytes, and the whole read's message
 * for anything wrong.
 */
function readResourceListText(
  text: string,
  limits: ReadLimits,
  list: ListEntries | undefined,
  byEntries: boolean,
): ReadOutcome {
  const large = tooLarge(text, limits, { resourceList: list });
  if (large) return { ok: false, message: large };
  const read = byEntries && list && readsByEntries(text, list) ? readParsed(text, limits, list) : undefined;
  return read?.ok ? read : readParsed(text, limits, undefined);
}

/** A line holding nothing but spaces: where the YAML library notes a blank line (`spaceBefore`). */
const BLANK_LINE = /^ *$/;

/**
 * Whether the entries can be read one at a time with the same result as the whole document: the
 * entries alone hold no blank line the document would give to a neighbour (a blank line between
 * two entries is the next one's `spaceBefore`, written back), and the text no byte-order mark.
 * Lines between entries may be comments (dropped from the output either way).
 */
function readsByEntries(text: string, list: ListEntries): boolean {
  if (text.startsWith('\uFEFF')) return false;
  const boundaries = [list.start, ...list.entries.map(([from]) => from), list.end];
  for (const at of boundaries) {
    // Lines before the boundary up to the last line with content (a line of `listEntries` that is
    // not blank or a comment); `stop` is where a line ends (the text's last may have no line break).
    for (let stop = text.charCodeAt(at - 1) === 10 ? at - 1 : at; stop >= list.start;) {
      const lineStart = text.lastIndexOf('\n', stop - 1) + 1;
      const line = text.slice(lineStart, stop);
      if (BLANK_LINE.test(line)) return false;
      if (!line.trimStart().startsWith('#')) break;
      stop = lineStart - 1;
    }
  }
  return true;
}

/** The lines of `text`, as the YAML parser would have counted them. */
function lineCounterOf(text: string): LineCounter {
  const lineCounter = new LineCounter();
  lineCounter.addNewLine(0);
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineCounter.addNewLine(i + 1);
  return lineCounter;
}

/**
 * The ResourceList's document without its `items:` entries (`items:` is then empty), every node
 * at its offset in `text`: parsed from the text without them, the nodes after them moved back.
 */
function documentWithoutEntries(text: string, { start, end }: ListEntries): Document[] {
  const docs = parseYaml(text.slice(0, start) + text.slice(end), new LineCounter());
  const moved = (offset: number) => (offset >= start ? offset + end - start : offset);
  for (const doc of docs)
    YAML.visit(doc, {
      Node(_, node) {
        if (node.range) node.range = [moved(node.range[0]), moved(node.range[1]), moved(node.range[2])];
      },
    });
  return docs;
}

/**
 * One list entry (`- …`) of a ResourceList read alone: its node, positioned in the whole text;
 * undefined when it does not read alone as one YAML list entry without errors, or refers to an
 * anchor outside it.
 */
function entryNode(text: string, [from, to]: [number, number], lineCounter: LineCounter): YAML.Node | undefined {
  const docs = parseYaml(text, lineCounter, { from, to });
  const [doc] = docs;
  const seq = doc?.contents;
  if (docs.length !== 1 || !doc || doc.errors.length > 0 || !isSeq(seq) || seq.items.length !== 1) return undefined;
  return unresolvedAlias(doc, lineCounter) === undefined ? (seq.items[0] as YAML.Node) : undefined;
}

/** A ResourceList's document, ready to be converted; or why the input is not one. */
type Parsed = { ok: true; doc: Document; root: YAMLMap; lineCounter: LineCounter } | { ok: false; message: string };

/**
 * Parses the ResourceList whole, or without its entries (`documentWithoutEntries`: `list` given),
 * and checks what it is: one document, a mapping of kind ResourceList, items a list within the
 * limit, no alias without anchor. Reading by entries needs `items:` to be left empty.
 */
function parseResourceList(text: string, limits: ReadLimits, list: ListEntries | undefined): Parsed {
  const lineCounter = list ? lineCounterOf(text) : new LineCounter();
  let doc: Document;
  try {
    const docs = list ? documentWithoutEntries(text, list) : parseYaml(text.replace(/^\uFEFF/, ''), lineCounter);
    const [first, second] = docs;
    if (second)
      return {
        ok: false,
        message: `input is not valid YAML: it holds ${docs.length} documents; a ResourceList is one${whereIs(second.range?.[0] ?? 0, lineCounter)}`,
      };
    // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- parseYaml composes with forceDoc: empty text is one empty document
    doc = first!;
  } catch (e) {
    return { ok: false, message: `input is not valid YAML: ${readErrorMessage(e)}` };
  }
  const [yamlError] = doc.errors;
  if (yamlError) return { ok: false, message: `input is not valid YAML: ${describeYamlError(yamlError)}` };
  const root = doc.contents;
  if (!isMap(root))
    return {
      ok: false,
      message: `input is not a ResourceList: expected a mapping with kind: ResourceList, but ${describeRoot(root)}`,
    };
  const kind = root.get('kind');
  const apiVersion = root.get('apiVersion');
  if (kind !== 'ResourceList')
    return { ok: false, message: `input is not a ResourceList: kind is ${JSON.stringify(kind ?? null)}` };
  if (apiVersion !== 'config.kubernetes.io/v1' && apiVersion !== 'config.kubernetes.io/v1beta1') {
    return {
      ok: false,
      message: `input is not a ResourceList: unsupported apiVersion ${JSON.stringify(apiVersion ?? null)}`,
    };
  }
  const itemsNode = root.get('items', true);
  if (list && !(root.has('items') && isNull(itemsNode))) return { ok: false, message: 'the entries are not its items' };
  if (!isNull(itemsNode) && !isSeq(itemsNode)) {
    return {
      ok: false,
      message: `input is not a ResourceList: items must be a list${positionOf(itemsNode, lineCounter)}`,
    };
  }
  const items = list ? list.entries.length : isSeq(itemsNode) ? itemsNode.items.length : 0;
  if (items > limits.maxItems)
    return { ok: false, message: `input is not a valid ResourceList: ${items} items; the limit is ${limits.maxItems}` };
  const unresolved = unresolvedAlias(doc, lineCounter);
  if (unresolved) return { ok: false, message: `input is not valid YAML: ${unresolved}` };
  return { ok: true, doc, root, lineCounter };
}

/**
 * Reads the ResourceList from its whole document, or, with `list`, from its document without the
 * entries and each entry read alone, in document order (so go-yaml's alias counts see what
 * go-yaml would), keeping of each only its text and value. Reading by entries fails (with no
 * message of its own) whenever the text is not exactly what it expects: the caller then reads
 * the whole.
 */
function readParsed(text: string, limits: ReadLimits, list: ListEntries | undefined): ReadOutcome {
  const parsed = parseResourceList(text, limits, list);
  if (!parsed.ok) return parsed;
  const { doc, root, lineCounter } = parsed;
  const cannotSplit: ReadOutcome = { ok: false, message: 'an entry does not read alone' };
  const input: ResourceListInput = { doc, items: [], results: [] };
  const st = newConvertState(limits, lineCounter);
  const read = (yaml: ItemYaml, node: YAML.Node, i: number) =>
    input.items.push(readItem(yaml, node, convertPart(node, st), lineCounter, `items[${i}]`, input.results, {}));
  try {
    // In document order, so that anchors and go-yaml's alias counts see what go-yaml would.
    countDecoded(st, root, 1, false);
    for (const pair of root.items) {
      countDecoded(st, pair.key, 1, false);
      const key = isScalar(pair.key) ? pair.key.value : undefined;
      if (key === 'items' && list) {
        countDecoded(st, pair.value, 1, false);
        for (const [i, entry] of list.entries.entries()) {
          const node = entryNode(text, entry, lineCounter);
          if (!node) return cannotSplit;
          read({ doc, entry: text.slice(...entry) }, node, i);
        }
      } else if (key === 'items' && isSeq(pair.value)) {
        countDecoded(st, pair.value, 1, false);
        pair.value.items.forEach((node, i) => read({ doc, node: node as YAML.Node }, node as YAML.Node, i));
      } else if (key === 'functionConfig') {
        const fc = convertPart(pair.value, st);
        if (!fc.ok) input.functionConfigProblem = fc.message;
        else if (fc.rejected.length > 0)
          input.functionConfigProblem = `Kubernetes cannot read it: ${fc.rejected.join('; ')}`;
        else if (fc.value !== null) input.functionConfig = fc.value;
      } else {
        const other = convertPart(pair.value, st);
        if (!other.ok)
          return { ok: false, message: `input is not a valid ResourceList: ${String(key)}: ${other.message}` };
      }
    }
  } catch (e) {
    return list ? cannotSplit : { ok: false, message: readErrorMessage(e) };
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
    if (seen.has(id))
      return `Map keys must be unique; ${JSON.stringify(String(id))} is repeated${positionOf(key, lineCounter).replace(/^ \((.*)\)$/, ' at $1')}`;
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
 * Why a document or item is not a Kubernetes object at all (Helm values and Chart.yaml, docs, a
 * kustomization), or undefined when it is meant as one. Repositories hold such files next to
 * manifests (and kpt hands a kustomization to functions), so they are skipped with an `info`. An
 * object with a `kind` or `metadata` is meant as one: missing or misspelt fields are an error (a
 * Cluster whose `apiVersion` has a typo is no reason to prune its output). The one rule for files
 * and ResourceList items.
 */
function notAnObject(value: JsonObject): string | undefined {
  if (typeof value.apiVersion === 'string' && value.apiVersion.startsWith('kustomize.config.k8s.io/'))
    return `a kustomize ${typeof value.kind === 'string' ? value.kind : 'file'}, not a Kubernetes object`;
  if (value.kind === undefined && value.metadata === undefined)
    return 'not a Kubernetes object (no kind and no metadata)';
  return undefined;
}

/** The rule of the `info` result for each skipped document or item (counted in the run's summary). */
export const SKIPPED_RULE = 'not-an-object';

const skippedResult = (where: string, notObject: string, file: SourceLocation | undefined): Result => ({
  severity: 'info',
  message: `${where}${notObject}: skipped`,
  ...(file ? { file } : {}),
  tags: { rule: SKIPPED_RULE },
});

/**
 * The root node of each document of a file that is not empty, by the index `readYamlStream` gives
 * its item (`SourceLocation.index`), positioned by `lineCounter`: for results that point into the
 * file (cli/locate.ts). Empty when the file does not parse.
 */
export function documentRoots(text: string): { roots: YAML.Node[]; lineCounter: LineCounter } {
  const lineCounter = new LineCounter();
  try {
    const docs = parseYaml(text.replace(/^\uFEFF/, ''), lineCounter);
    return { roots: docs.flatMap((doc) => (isNull(doc.contents) ? [] : [doc.contents as YAML.Node])), lineCounter };
  } catch {
    return { roots: [], lineCounter };
  }
}

/**
 * Parses a stream of YAML documents (one file); every document must be a mapping or empty. With
 * `skipNonObjects` (files of the user's), mappings that are not Kubernetes objects are skipped
 * with an `info` result (readItem's rule): they are no items of the stream; otherwise they are
 * items with an error result.
 */
export function readYamlStream(
  text: string,
  relPath: string,
  limits: ReadLimits = DEFAULT_READ_LIMITS,
  options: { skipNonObjects?: boolean } = {},
): { ok: true; items: InputItem[]; results: Result[] } | { ok: false; message: string } {
  const large = tooLarge(text, limits, 'stream');
  if (large) return { ok: false, message: `${relPath}: ${large}` };
  const lineCounter = new LineCounter();
  let docs: Document[];
  try {
    docs = parseYaml(text.replace(/^\uFEFF/, ''), lineCounter);
  } catch (e) {
    return { ok: false, message: `${relPath}: not valid YAML: ${readErrorMessage(e)}` };
  }
  if (!Array.isArray(docs)) return { ok: false, message: `${relPath}: not valid YAML` };
  if (docs.length > limits.maxItems)
    return { ok: false, message: `${relPath}: ${docs.length} documents; the limit is ${limits.maxItems}` };
  const items: InputItem[] = [];
  const results: Result[] = [];
  let index = 0;
  try {
    for (const doc of docs) {
      const [yamlError] = doc.errors;
      if (yamlError) return { ok: false, message: `${relPath}: not valid YAML: ${describeYamlError(yamlError)}` };
      const unresolved = unresolvedAlias(doc, lineCounter);
      if (unresolved) return { ok: false, message: `${relPath}: not valid YAML: ${unresolved}` };
      const root = doc.contents;
      if (isNull(root)) continue;
      if (!isMap(root))
        return {
          ok: false,
          message: `${relPath}: document ${index}${positionOf(root, lineCounter)} is not an object: ${describeRoot(root)}`,
        };
      const converted = convertPart(root, newConvertState(limits, lineCounter));
      if (!converted.ok) return { ok: false, message: `${relPath}: document ${index}: ${converted.message}` };
      const file = index > 0 ? { path: relPath, index } : { path: relPath };
      const item = readItem(
        undefined,
        root,
        converted,
        lineCounter,
        `${relPath} document ${index}`,
        results,
        options.skipNonObjects ? { location: file } : undefined,
      );
      index++;
      if (item.skipped) continue;
      item.file = file;
      items.push(item);
    }
  } catch (e) {
    return { ok: false, message: `${relPath}: ${readErrorMessage(e)}` };
  }
  return { ok: true, items, results };
}
