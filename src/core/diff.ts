/** Field-level differences between two JSON values, as dotted paths with `[i]` for list items. */
import type { Json } from './model.js';
import { isObject } from './json.js';

export interface FieldChange {
  path: string;
  before?: Json;
  after?: Json;
}

const join = (base: string, key: string): string => (base === '' ? key : `${base}.${key}`);

/**
 * Leaf changes from `a` to `b`. Objects are compared key by key; lists element by element (a
 * list whose length changed is still compared by index, with added/removed tails reported).
 */
export function diffJson(a: Json | undefined, b: Json | undefined, path = ''): FieldChange[] {
  if (a === undefined && b === undefined) return [];
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) => diffJson(a[k], b[k], join(path, k)));
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const out: FieldChange[] = [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) out.push(...diffJson(a[i], b[i], `${path}[${i}]`));
    return out;
  }
  if (JSON.stringify(a) === JSON.stringify(b)) return [];
  const change: FieldChange = { path };
  if (a !== undefined) change.before = a;
  if (b !== undefined) change.after = b;
  return [change];
}
