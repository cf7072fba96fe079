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
function nodeAt(root: Node, path: string): Node | undefined {
  let node: unknown = root;
  let at: Node | undefined;
  for (const seg of fieldSegments(path)) {
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

/**
 * `path:line:column` for results about documents of the given files, and about files that could
 * not be read where they broke (undefined for results about other things). Results come by
 * Cluster, so mostly several about one file in a row: the last file parsed is kept.
 */
export function locator(
  files: readonly InputFile[],
  unreadable: readonly UnreadableFile[] = [],
): (r: Result) => string | undefined {
  const broken = new Map(unreadable.map((u) => [u.path, u]));
  const texts = new Map(files.map((f) => [f.path, f.text]));
  let last: { path: string; parsed: ReturnType<typeof documentRoots> } | undefined;
  const parsed = (path: string, text: string) =>
    (last?.path === path ? last : (last = { path, parsed: documentRoots(text) })).parsed;
  return (r) => {
    if (!r.file) return undefined;
    const at = r.tags?.rule === UNREADABLE_FILE ? broken.get(r.file.path) : undefined;
    if (at?.line !== undefined) return `${at.path}:${at.line}:${at.column}`;
    const text = texts.get(r.file.path);
    if (text === undefined) return r.file.path;
    const { roots, lineCounter } = parsed(r.file.path, text);
    const root = roots[r.file.index ?? 0];
    const node = root && r.field?.path ? (nodeAt(root, r.field.path) ?? root) : root;
    const offset = node?.range?.[0];
    if (offset === undefined) return r.file.path;
    const { line, col } = lineCounter.linePos(offset);
    return `${r.file.path}:${line}:${col}`;
  };
}
