/** Field paths of explain: segments ↔ `spec.a[0]['x.y/z']` text, and JSON pointers → segments. */
import type { Json } from '../api/model.js';
import { isObject } from '../api/json.js';

export type Seg = string | number;

const PLAIN_KEY = /^[^.[\]'\s]+$/;

/** Appends segments to a dotted path. */
export function joinPath(base: string, segs: readonly Seg[]): string {
  let out = base;
  for (const s of segs) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (PLAIN_KEY.test(s)) out += out === '' ? s : `.${s}`;
    else out += `['${s}']`;
  }
  return out;
}

export const formatPath = (segs: readonly Seg[]): string => joinPath('', segs);

/**
 * Parses `a.b[0]['x.y']` (also `a.b.0` and `a.b["x"]`) into segments. Purely numeric dotted
 * segments stay strings; callers compare both spellings.
 */
export function parsePath(text: string): Seg[] | undefined {
  const segs: Seg[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === '.') {
      i++;
      continue;
    }
    if (c === '[') {
      const q = text[i + 1];
      if (q === "'" || q === '"') {
        const end = text.indexOf(`${q}]`, i + 2);
        if (end < 0) return undefined;
        segs.push(text.slice(i + 2, end));
        i = end + 2;
      } else {
        const end = text.indexOf(']', i);
        if (end < 0) return undefined;
        const body = text.slice(i + 1, end);
        if (!/^\d+$/.test(body)) return undefined;
        segs.push(Number(body));
        i = end + 1;
      }
      continue;
    }
    let j = i;
    while (j < n && text[j] !== '.' && text[j] !== '[') j++;
    segs.push(text.slice(i, j));
    i = j;
  }
  return segs;
}

/** True when `prefix` selects `path` or one of its children (numbers match their decimal text). */
export function segsHavePrefix(path: readonly Seg[], prefix: readonly Seg[]): boolean {
  if (prefix.length > path.length) return false;
  return prefix.every((p, i) => String(p) === String(path[i]));
}

export function decodePointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Value at segments (own keys only). */
export function getAt(root: Json | undefined, segs: readonly Seg[]): Json | undefined {
  let cur: Json | undefined = root;
  for (const s of segs) {
    if (Array.isArray(cur) && typeof s === 'number') cur = cur[s];
    else if (isObject(cur) && typeof s === 'string' && Object.prototype.hasOwnProperty.call(cur, s)) cur = cur[s];
    else return undefined;
  }
  return cur;
}

/**
 * Resolves a JSON pointer against a document: pointer tokens addressing list items become
 * numbers (`-` the list length). Returns the container path and the last segment.
 */
export function resolvePointer(doc: Json, pointer: string): { parent: Seg[]; last: Seg; parentIsArray: boolean } | undefined {
  const tokens = decodePointer(pointer);
  if (tokens.length === 0) return undefined;
  const parent: Seg[] = [];
  let cur: Json | undefined = doc;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const isLast = i === tokens.length - 1;
    let seg: Seg = t;
    if (Array.isArray(cur)) {
      seg = t === '-' ? cur.length : /^\d+$/.test(t) ? Number(t) : t;
      if (typeof seg !== 'number') return undefined;
    }
    if (isLast) return { parent, last: seg, parentIsArray: Array.isArray(cur) };
    parent.push(seg);
    cur = getAt(cur, [seg]);
    if (cur === undefined) return undefined;
  }
  return undefined;
}

/** Every scalar leaf and every empty object/list, in document order. */
export function leaves(value: Json, prefix: Seg[] = []): { segs: Seg[]; value: Json }[] {
  if (Array.isArray(value)) {
    if (value.length === 0) return [{ segs: prefix, value }];
    return value.flatMap((v, i) => leaves(v, [...prefix, i]));
  }
  if (isObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0) return [{ segs: prefix, value }];
    return keys.flatMap((k) => leaves(value[k] as Json, [...prefix, k]));
  }
  return [{ segs: prefix, value }];
}
