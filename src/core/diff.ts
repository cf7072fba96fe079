/** Field-level differences between two JSON values, as dotted paths with `[i]` for list items. */
import type { Json } from './model.js';
import { isObject, jsonString } from './json.js';

export interface FieldChange {
  path: string;
  before?: Json;
  after?: Json;
}

const join = (base: string, key: string): string => (base === '' ? key : `${base}.${key}`);

/** The items by `name` when every item is an object with a distinct string `name` (in list order). */
function byName(list: readonly Json[]): Map<string, Json> | undefined {
  const named = new Map<string, Json>();
  for (const item of list) {
    if (!isObject(item) || typeof item.name !== 'string' || named.has(item.name)) return undefined;
    named.set(item.name, item);
  }
  return named;
}

/**
 * Lists of named items (containers, volumes, machine deployments, …) compared item by item by
 * name, as Kubernetes merges them (`listType: map` keyed by `name`): inserting one item is one
 * change at `list[name=x]`, not a change at every later index. A different order of the same
 * names is one more change at `list (order)`, since the applied list keeps its order.
 */
function diffNamed(before: Map<string, Json>, after: Map<string, Json>, path: string): FieldChange[] {
  const names = [...before.keys(), ...[...after.keys()].filter((n) => !before.has(n))];
  const out = names.flatMap((n) => diffJson(before.get(n), after.get(n), `${path}[name=${n}]`));
  const order = {
    before: [...before.keys()].filter((n) => after.has(n)),
    after: [...after.keys()].filter((n) => before.has(n)),
  };
  if (order.before.some((n, i) => n !== order.after[i])) out.push({ path: `${path} (order)`, ...order });
  return out;
}

/**
 * Leaf changes from `a` to `b`. Objects are compared key by key; lists of named items by name
 * (diffNamed); other lists element by element (a list whose length changed is still compared by
 * index, with added/removed tails reported).
 */
export function diffJson(a: Json | undefined, b: Json | undefined, path = ''): FieldChange[] {
  if (a === undefined && b === undefined) return [];
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) => diffJson(a[k], b[k], join(path, k)));
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const before = byName(a);
    const after = byName(b);
    if (before && after) return diffNamed(before, after, path);
    const out: FieldChange[] = [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) out.push(...diffJson(a[i], b[i], `${path}[${i}]`));
    return out;
  }
  if (jsonString(a) === jsonString(b)) return [];
  const change: FieldChange = { path };
  if (a !== undefined) change.before = a;
  if (b !== undefined) change.after = b;
  return [change];
}
