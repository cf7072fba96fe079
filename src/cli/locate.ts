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
 * `path:line:column` for results about the given items, and about files that could not be read
 * where they broke (undefined for results about other things).
 */
export function locator(
  items: readonly InputItem[],
  files: readonly InputFile[],
  unreadable: readonly UnreadableFile[] = [],
): (r: Result) => string | undefined {
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
  const byFile = new Map<string, InputItem>();
  for (const i of items) if (i.file) byFile.set(`${i.file.path}#${i.file.index ?? 0}`, i);
  return (r) => {
    if (!r.file) return undefined;
    const at = r.tags?.rule === UNREADABLE_FILE ? broken.get(r.file.path) : undefined;
    if (at?.line !== undefined) return `${at.path}:${at.line}:${at.column}`;
    const lc = lineCounter(r.file.path);
    const item = byFile.get(`${r.file.path}#${r.file.index ?? 0}`);
    const node = item && r.field?.path ? (nodeAt(item.node, r.field.path) ?? item.node) : item?.node;
    const offset = node?.range?.[0];
    if (!lc || offset === undefined) return r.file.path;
    const { line, col } = lc.linePos(offset);
    return `${r.file.path}:${line}:${col}`;
  };
}
