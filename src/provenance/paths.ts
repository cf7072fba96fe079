/** Field paths of explain: `spec.a[0]['x.y/z']` text ↔ segments, and the leaves of a document. */
import type { Json } from '../core/model.js';
import { isObject } from '../core/json.js';
import type { Seg } from '../core/path.js';

export { formatPath, type Seg } from '../core/path.js';

/**
 * Parses `a.b[0]['x.y']` (also `a.b.0` and `a.b["x"]`) into segments. Purely numeric dotted
 * segments stay strings; callers compare both spellings.
 */
export function parsePath(text: string): Seg[] | undefined {
  const segs: Seg[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charAt(i);
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

/** Value at segments (own keys only). */
export { valueAt as getAt } from '../core/json.js';

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
