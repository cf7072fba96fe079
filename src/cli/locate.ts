/**
 * Where a result points in the files the user gave, as compilers and linters say it:
 * `path:line:column` of the field when the result names one that is written in the file, else of
 * the object. Positions come from the YAML nodes the reader kept (`InputItem.node`).
 */
import { LineCounter, isMap, isScalar, isSeq, type Node } from 'yaml';
import type { Result } from '../core/result.js';
import { UNREADABLE_FILE, type InputFile, type UnreadableFile } from './inputs.js';
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

/** The node field segments lead to, with the node to point at (a map entry's key); undefined when absent. */
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
 * Positions in the files read: of a field of an input item (its nearest written ancestor when the
 * field itself is not written), and of results about the given items and about files that could
 * not be read where they broke (undefined for results about other things).
 */
export function positions(
  items: readonly InputItem[],
  files: readonly InputFile[],
  unreadable: readonly UnreadableFile[] = [],
): {
  ofField: (item: InputItem, fieldPath: string) => Position | undefined;
  ofResult: (r: Result) => Position | undefined;
} {
  const broken = new Map(unreadable.map((u) => [u.path, u]));
  const texts = new Map(files.map((f) => [f.path, f.text.replace(/^\uFEFF/, '')]));
  const counters = new Map<string, LineCounter>();
  const lineCounter = (path: string): LineCounter | undefined => {
    let lc = counters.get(path);
    const text = texts.get(path);
    if (!lc && text !== undefined) {
      lc = new LineCounter();
      lc.addNewLine(0);
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lc.addNewLine(i + 1);
      counters.set(path, lc);
    }
    return lc;
  };
  const at = (path: string, node: Node | undefined): Position => {
    const lc = lineCounter(path);
    const offset = node?.range?.[0];
    if (!lc || offset === undefined) return { path };
    const { line, col } = lc.linePos(offset);
    return { path, line, column: col };
  };
  const byFile = new Map<string, InputItem>();
  for (const i of items) if (i.file) byFile.set(`${i.file.path}#${i.file.index ?? 0}`, i);
  return {
    ofField(item, fieldPath) {
      if (!item.file) return undefined;
      const segments = fieldSegments(fieldPath);
      for (let n = segments.length; n > 0; n--) {
        const node = nodeAt(item.node, segments.slice(0, n));
        if (node) return at(item.file.path, node);
      }
      return at(item.file.path, item.node);
    },
    ofResult(r) {
      if (!r.file) return undefined;
      const stop = r.tags?.rule === UNREADABLE_FILE ? broken.get(r.file.path) : undefined;
      if (stop?.line !== undefined) return { path: stop.path, line: stop.line, column: stop.column };
      const item = byFile.get(`${r.file.path}#${r.file.index ?? 0}`);
      const node = item && r.field?.path ? (nodeAt(item.node, fieldSegments(r.field.path)) ?? item.node) : item?.node;
      return at(r.file.path, node);
    },
  };
}

/** `path:line:column` of a result, as compilers and linters print it (see `positions`). */
export function locator(
  items: readonly InputItem[],
  files: readonly InputFile[],
  unreadable: readonly UnreadableFile[] = [],
): (r: Result) => string | undefined {
  const { ofResult } = positions(items, files, unreadable);
  return (r) => {
    const p = ofResult(r);
    return p && (p.line === undefined ? p.path : `${p.path}:${p.line}:${p.column}`);
  };
}
