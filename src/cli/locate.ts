/**
 * Where a result points in the files the user gave, as compilers and linters say it:
 * `path:line:column` of the field when the result names one that is written in the file, else of
 * the object. The reader keeps no YAML nodes of files (a fleet's would be most of a run's memory):
 * a file is parsed again when a result about it needs a position.
 */
import { isMap, isScalar, isSeq, type Node } from 'yaml';
import type { Result } from '../core/result.js';
import { UNREADABLE_FILE, type InputFile, type UnreadableFile } from './inputs.js';
import { documentRoots } from '../krm/read.js';
import type { InputItem } from '../krm/item.js';

type Segment = { key: string } | { index: number } | { name: string };

/**
 * A Kubernetes field path (`spec.topology.workers.machineDeployments[0].class`,
 * `metadata.labels['a.b/c']`, `variables[region].value`) as segments; `[x]` is the list entry
 * named x, as in CAPI's field errors.
 */
function fieldSegments(path: string): Segment[] {
  const out: Segment[] = [];
  const re = /([^.[\]]+)|\[(?:'([^']*)'|"([^"]*)"|(\d+)|([^\]]*))\]/g;
  for (let m = re.exec(path); m !== null; m = re.exec(path)) {
    const [, key, singleQuoted, doubleQuoted, index, name = ''] = m;
    const quoted = singleQuoted ?? doubleQuoted;
    if (key !== undefined) out.push({ key });
    else if (quoted !== undefined) out.push({ key: quoted });
    else if (index !== undefined) out.push({ index: Number(index) });
    else out.push({ name });
  }
  return out;
}

/** The node a field path leads to, with the node to point at (a map entry's key); undefined when absent. */
function nodeAt(root: Node, segments: readonly Segment[]): Node | undefined {
  let node: unknown = root;
  let at: Node | undefined;
  for (const seg of segments) {
    if ('index' in seg) {
      node = isSeq(node) ? node.items[seg.index] : undefined;
      at = node as Node | undefined;
    } else if ('name' in seg) {
      node = isSeq(node)
        ? node.items.find((e) => isMap(e) && e.get('name') === seg.name)
        : isMap(node)
          ? node.get(seg.name, true)
          : undefined;
      at = node as Node | undefined;
    } else {
      const pair = isMap(node) ? node.items.find((p) => isScalar(p.key) && String(p.key.value) === seg.key) : undefined;
      node = pair?.value;
      at = pair?.key as Node | undefined;
    }
    if (node === undefined || node === null) return undefined;
  }
  return at;
}

/** A place in an input file: 1-based line and column when the file and node are known. */
export interface Position {
  path: string;
  line?: number;
  column?: number;
}

/**
 * Positions in the given files: of a field of an input item (its nearest written ancestor when the
 * field itself is not written), and of results about documents of the files and about files that
 * could not be read, where they broke (undefined for results about other things). Positions are
 * asked by Cluster, so mostly several about one file in a row: the last file parsed is kept.
 */
export function positions(
  files: readonly InputFile[],
  unreadable: readonly UnreadableFile[] = [],
): {
  ofField: (item: InputItem, fieldPath: string) => Position | undefined;
  ofResult: (r: Result) => Position | undefined;
} {
  const broken = new Map(unreadable.map((u) => [u.path, u]));
  const texts = new Map(files.map((f) => [f.path, f.text]));
  let last: { path: string; parsed: ReturnType<typeof documentRoots> } | undefined;
  /**
   * The position of the node `segments` leads to in document `index` of `path`: else of its nearest
   * written ancestor (`nearest`), or of the document.
   */
  const at = (path: string, index: number, segments: readonly Segment[], nearest: boolean): Position => {
    const text = texts.get(path);
    if (text === undefined) return { path };
    if (last?.path !== path) last = { path, parsed: documentRoots(text) };
    const { roots, lineCounter } = last.parsed;
    const root = roots[index];
    if (!root) return { path };
    let node: Node | undefined;
    for (let n = segments.length; n > 0 && !node && (nearest || n === segments.length); n--)
      node = nodeAt(root, segments.slice(0, n));
    const offset = (node ?? root).range?.[0];
    if (offset === undefined) return { path };
    const { line, col } = lineCounter.linePos(offset);
    return { path, line, column: col };
  };
  return {
    ofField: (item, fieldPath) => item.file && at(item.file.path, item.file.index ?? 0, fieldSegments(fieldPath), true),
    ofResult(r) {
      if (!r.file) return undefined;
      const stop = r.tags?.rule === UNREADABLE_FILE ? broken.get(r.file.path) : undefined;
      if (stop?.line !== undefined) return { path: stop.path, line: stop.line, column: stop.column };
      return at(r.file.path, r.file.index ?? 0, r.field?.path ? fieldSegments(r.field.path) : [], false);
    },
  };
}

/** `path:line:column` of a result, as compilers and linters print it (see `positions`). */
export function locator(
  files: readonly InputFile[],
  unreadable: readonly UnreadableFile[] = [],
): (r: Result) => string | undefined {
  const { ofResult } = positions(files, unreadable);
  return (r) => {
    const p = ofResult(r);
    return p && (p.line === undefined ? p.path : `${p.path}:${p.line}:${p.column}`);
  };
}
