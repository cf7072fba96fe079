/**
 * Structural pruning simulation (apiextensions-apiserver `schema/pruning`): lists the fields
 * the API server would drop because the schema does not declare them and no
 * `x-kubernetes-preserve-unknown-fields` covers them. Paths are relative to the variable value,
 * dotted, with `[i]` segments for list items (`a.[0].b`), as `UnknownFieldPathOptions` builds them.
 */
import type { Json } from '../core/model.js';
import { isObject } from '../core/json.js';
import type { SchemaNode } from './schema.js';

export function unknownFieldPaths(value: Json, s: SchemaNode | undefined): string[] {
  const found: string[] = [];
  walk(value, s, [], found);
  return found.sort();
}

function walk(value: Json, s: SchemaNode | undefined, parent: string[], found: string[]): void {
  if (Array.isArray(value)) {
    if (!s) return;
    value.forEach((v, i) => walk(v, s.items, [...parent, `[${i}]`], found));
    return;
  }
  if (!isObject(value) || !s) return;
  const preserve = s.preserveUnknownFields === true;
  for (const k of Object.keys(value)) {
    const v = value[k] as Json;
    const prop = s.properties?.get(k);
    if (prop) walk(v, prop, [...parent, k], found);
    else if (s.additionalProperties) walk(v, s.additionalProperties, [...parent, k], found);
    else if (!preserve) found.push([...parent, k].join('.'));
    // Preserved unknown fields are kept as-is and not descended into (no schema to prune with).
  }
}
