/**
 * An origin tree shadowing one JSON document: every node knows the source of its subtree and
 * children override their parent. Path-based sources (template, ClusterClass, Cluster) extend
 * their path with the relative path of what lies below, so one node stands for a whole copied
 * subtree. List items are numbers; a list is filled out to its length before items are inserted
 * or removed, so shifted items keep their own origins.
 */
import type { Source } from './sources.js';
import { joinPath, type Path, type Seg } from '../core/path.js';

export interface OriginNode {
  source?: Source;
  keys?: Map<string, OriginNode>;
  /** May have holes: a hole has its parent's source, rebased. */
  items?: (OriginNode | undefined)[];
}

/** The source of `segs` below a node whose source is `s`. */
function rebase(s: Source | undefined, segs: Path): Source | undefined {
  if (!s || segs.length === 0 || (s.kind !== 'template' && s.kind !== 'clusterClass' && s.kind !== 'topology'))
    return s;
  return { ...s, path: joinPath(s.path, segs) };
}

const leaf = (source: Source | undefined): OriginNode => (source ? { source } : {});

function child(n: OriginNode, seg: Seg): OriginNode {
  if (typeof seg === 'number') {
    const items = (n.items ??= []);
    return (items[seg] ??= leaf(rebase(n.source, [seg])));
  }
  const keys = (n.keys ??= new Map<string, OriginNode>());
  let c = keys.get(seg);
  if (!c) keys.set(seg, (c = leaf(rebase(n.source, [seg]))));
  return c;
}

const walk = (root: OriginNode, segs: Path): OriginNode => segs.reduce(child, root);

/** Replaces the subtree at `path` (the whole tree for an empty path). */
export function setNode(root: OriginNode, path: Path, sub: OriginNode): void {
  if (path.length === 0) {
    root.source = sub.source;
    root.keys = sub.keys;
    root.items = sub.items;
    return;
  }
  const parent = walk(root, path.slice(0, -1));
  // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- the empty path returned above
  const last = path[path.length - 1]!;
  if (typeof last === 'number') (parent.items ??= [])[last] = sub;
  else (parent.keys ??= new Map()).set(last, sub);
}

/** The items of the list at `path`, filled out to `length` so that splicing shifts real nodes. */
function listItems(root: OriginNode, path: Path, length: number): (OriginNode | undefined)[] {
  const list = walk(root, path);
  const items = (list.items ??= []);
  for (let i = 0; i < length; i++) items[i] ??= leaf(rebase(list.source, [i]));
  return items;
}

/** An item inserted at `index` into the list at `listPath`, which held `length` items. */
export function insertNode(root: OriginNode, listPath: Path, index: number, length: number, sub: OriginNode): void {
  listItems(root, listPath, length).splice(index, 0, sub);
}

/** Removes the value at `path`; `length` is the length of its list when it is a list item. */
export function removeNode(root: OriginNode, path: Path, length?: number): void {
  const last = path.at(-1);
  if (last === undefined) return;
  const parentPath = path.slice(0, -1);
  if (typeof last === 'number') listItems(root, parentPath, length ?? last + 1).splice(last, 1);
  else walk(root, parentPath).keys?.delete(last);
}

function cloneNode(n: OriginNode): OriginNode {
  const out: OriginNode = leaf(n.source);
  if (n.keys) out.keys = new Map([...n.keys].map(([k, v]) => [k, cloneNode(v)]));
  if (n.items) out.items = n.items.map((v) => v && cloneNode(v));
  return out;
}

/** A detached copy of the subtree at `path` (the deepest existing node, rebased for the rest). */
export function extractNode(root: OriginNode, path: Path): OriginNode {
  let n = root;
  for (const [i, s] of path.entries()) {
    const c = typeof s === 'number' ? n.items?.[s] : n.keys?.get(s);
    if (!c) return leaf(rebase(n.source, path.slice(i)));
    n = c;
  }
  return cloneNode(n);
}

/** The source of the value at `path`. */
export function sourceAt(root: OriginNode, path: Path): Source | undefined {
  let n = root;
  for (const [i, s] of path.entries()) {
    const c = typeof s === 'number' ? n.items?.[s] : n.keys?.get(s);
    if (!c) return rebase(n.source, path.slice(i));
    n = c;
  }
  return n.source;
}
