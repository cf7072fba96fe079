/**
 * A provenance tree shadowing a JSON document: every node knows the origin of its subtree;
 * children override their parent. Origins that are "rebased" (template, ClusterClass, Cluster
 * paths) extend their path with the relative path of a leaf below them, so one node can stand
 * for a whole copied subtree. Lists are materialised before items are inserted or removed so
 * shifted items keep their own origins.
 */
import type { Json } from '../api/model.js';
import { isObject } from '../api/json.js';
import type { Source } from './types.js';
import { getAt, joinPath, type Seg } from './paths.js';

export interface Origin {
  source: Source;
  /** The source path names the node itself; leaves below append their relative path. */
  rebase: boolean;
}

export interface PNode {
  origin: Origin | undefined;
  obj?: Map<string, PNode>;
  arr?: PNode[];
}

export const UNATTRIBUTED: Origin = { rebase: false, source: { kind: 'unknown', detail: 'not attributed' } };

export function rebaseOrigin(o: Origin | undefined, segs: readonly Seg[]): Origin | undefined {
  if (!o || !o.rebase || segs.length === 0) return o;
  const s = o.source;
  if (s.kind !== 'template' && s.kind !== 'clusterClass' && s.kind !== 'topology') return o;
  return { rebase: true, source: { ...s, path: joinPath(s.path, segs) } };
}

export const node = (origin: Origin | undefined): PNode => ({ origin });
/** A subtree at `path` of a source, rebased for what lies below. */
export const at = (source: Source): PNode => ({ origin: { source, rebase: true } });
/** A subtree whose every leaf has this same source. */
export const fixedNode = (source: Source): PNode => ({ origin: { source, rebase: false } });

export function cloneNode(n: PNode): PNode {
  const out: PNode = { origin: n.origin };
  if (n.obj) out.obj = new Map([...n.obj].map(([k, v]) => [k, cloneNode(v)]));
  if (n.arr) out.arr = n.arr.map(cloneNode);
  return out;
}

/** Children for the current value of the node (lists fully, objects lazily). */
function ensureKids(n: PNode, value: Json | undefined): void {
  if (Array.isArray(value)) {
    if (!n.arr || n.arr.length !== value.length) {
      const old = n.arr ?? [];
      n.arr = value.map((_, i) => old[i] ?? node(rebaseOrigin(n.origin, [i])));
    }
    delete n.obj;
  } else if (isObject(value)) {
    n.obj ??= new Map();
    delete n.arr;
  }
}

function childOf(n: PNode, value: Json | undefined, seg: Seg): PNode {
  ensureKids(n, value);
  if (typeof seg === 'number') {
    if (!n.arr) n.arr = [];
    let c = n.arr[seg];
    if (!c) {
      c = node(rebaseOrigin(n.origin, [seg]));
      n.arr[seg] = c;
    }
    return c;
  }
  if (!n.obj) {
    n.obj = new Map();
    delete n.arr;
  }
  let c = n.obj.get(seg);
  if (!c) {
    c = node(rebaseOrigin(n.origin, [seg]));
    n.obj.set(seg, c);
  }
  return c;
}

/** Walks (creating nodes) to `segs`; `doc` is the document the tree shadows. */
function walk(root: PNode, doc: Json | undefined, segs: readonly Seg[]): { n: PNode; value: Json | undefined } {
  let n = root;
  let value = doc;
  for (const s of segs) {
    n = childOf(n, value, s);
    value = getAt(value, [s]);
  }
  return { n, value };
}

/** Replaces the subtree at `segs` (which must not be empty). */
export function setAt(root: PNode, doc: Json | undefined, segs: readonly Seg[], sub: PNode): void {
  const parent = walk(root, doc, segs.slice(0, -1));
  const last = segs[segs.length - 1]!;
  ensureKids(parent.n, parent.value);
  if (typeof last === 'number') {
    parent.n.arr ??= [];
    parent.n.arr[last] = sub;
  } else {
    if (!parent.n.obj) {
      parent.n.obj = new Map();
      delete parent.n.arr;
    }
    parent.n.obj.set(last, sub);
  }
}

/** Inserts an item into the list at `listSegs` (the document still holds the list before insertion). */
export function insertAt(root: PNode, doc: Json | undefined, listSegs: readonly Seg[], index: number, sub: PNode): void {
  const list = walk(root, doc, listSegs);
  ensureKids(list.n, list.value);
  (list.n.arr ??= []).splice(index, 0, sub);
}

export function removeAt(root: PNode, doc: Json | undefined, segs: readonly Seg[]): void {
  const parent = walk(root, doc, segs.slice(0, -1));
  const last = segs[segs.length - 1]!;
  ensureKids(parent.n, parent.value);
  if (typeof last === 'number') parent.n.arr?.splice(last, 1);
  else parent.n.obj?.delete(last);
}

/** The subtree at `segs` as a detached node (deepest existing node, rebased for the rest). */
export function extract(root: PNode, segs: readonly Seg[]): PNode {
  let n = root;
  let i = 0;
  for (; i < segs.length; i++) {
    const s = segs[i]!;
    const c = typeof s === 'number' ? n.arr?.[s] : n.obj?.get(s);
    if (!c) break;
    n = c;
  }
  if (i === segs.length) return cloneNode(n);
  return node(rebaseOrigin(n.origin, segs.slice(i)));
}

export function lookup(root: PNode, segs: readonly Seg[]): Origin | undefined {
  return extract(root, segs).origin;
}

/** The source of a leaf, with the path resolved. */
export function sourceAt(root: PNode, segs: readonly Seg[]): Source {
  return (lookup(root, segs) ?? UNATTRIBUTED).source;
}
