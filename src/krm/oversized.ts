/**
 * Objects too large for the API server, refused before the YAML library parses them.
 *
 * etcd refuses a request over 1.5 MiB by default (`--max-request-bytes`, 1572864), and custom
 * resources (Cluster, ClusterClass, every template) are stored as JSON, where every value costs at
 * least two bytes (`0,`). An object of more than 786,432 values can never be stored: the API
 * server answers `etcdserver: request is too large`. The YAML library's document model costs about
 * 1 KiB per value (a 1,000,000-element array is 7 MiB of text and took 1.9 GiB), so the values of
 * such an object are counted with the library's streaming lexer, in a few MiB, and the input is
 * refused before it is parsed. A value is at least one character, so only a piece of text longer
 * than the limit is counted: ordinary inputs cost a line scan, and only when they are that long.
 */
import { CST, Lexer } from 'yaml';
import type { ListEntries } from './earlier.js';

const { SCALAR } = CST;

/** etcd's default request limit (1.5 MiB) at two bytes per JSON value. */
const MAX_OBJECT_VALUES = 786_432;

/**
 * The values of `text`, counted up to `limit + 1`: scalars (keys included) and flow collections,
 * each of which is at least one JSON value or key. Aliases and empty values are not counted, so
 * this is a lower bound of what the object holds.
 */
export function valueCount(text: string, limit: number): number {
  let count = 0;
  let scalarSource = false;
  for (const token of new Lexer().lex(text)) {
    // A plain or block scalar is a SCALAR marker followed by its source, whatever that begins with.
    if (scalarSource) scalarSource = false;
    else if (token === SCALAR) {
      count++;
      scalarSource = true;
    } else if (token !== '' && '"\'[{'.includes(token.charAt(0))) count++;
    if (count > limit) break;
  }
  return count;
}

/** The [start, end) offsets of the documents of a YAML stream, split at `---` lines. */
function documentsOf(text: string): [number, number][] {
  const starts = [0, ...[...text.matchAll(/^---(?=[ \t\r\n]|$)/gm)].map((m) => m.index)];
  return starts.map((from, i) => [from, starts[i + 1] ?? text.length]);
}

/**
 * Why the input is refused, when one object in it (an item of a ResourceList in block style, as
 * kpt and kustomize write it: its `entries`, found by `listEntries`; or a document of a YAML
 * stream) has too many values. A ResourceList in flow style or JSON is not split into items, so it
 * is not checked.
 */
export function oversizedObject(
  text: string,
  shape: { resourceList: ListEntries | undefined } | 'stream',
): string | undefined {
  if (text.length <= MAX_OBJECT_VALUES) return undefined;
  const pieces = shape === 'stream' ? documentsOf(text) : (shape.resourceList?.entries ?? []);
  for (const [i, [from, to]] of pieces.entries()) {
    if (to - from <= MAX_OBJECT_VALUES || valueCount(text.slice(from, to), MAX_OBJECT_VALUES) <= MAX_OBJECT_VALUES)
      continue;
    const line = text.slice(0, from).split('\n').length;
    const what = shape === 'stream' ? `the document starting at line ${line}` : `items[${i}] (line ${line})`;
    return `${what} holds more than ${MAX_OBJECT_VALUES} values: as JSON it is over etcd's default request limit of 1.5 MiB, so the API server would refuse it ("etcdserver: request is too large")`;
  }
  return undefined;
}
