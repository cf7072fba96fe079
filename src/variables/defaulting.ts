/**
 * Kubernetes structural defaulting (apiextensions-apiserver `schema/defaulting/algorithm.go`),
 * as a pure function: returns a new value and never mutates its input.
 *
 * Rules (topology-semantics §5.4): declared properties with a default that are missing or
 * `null` get a deep copy of it; recursion into present properties, additionalProperties values
 * (a `null` value takes the additionalProperties default) and array items (a `null` item takes
 * the items default). Defaults under allOf/anyOf/oneOf/not never apply. Because a parent's
 * default is inserted before recursion, `default: {}` on an object yields its nested defaults.
 */
import type { Json, JsonObject } from '../api/model.js';
import { cloneJson, defineKey, isObject } from '../api/json.js';
import { hasOwn } from './json.js';
import type { SchemaNode } from './schema.js';

export function applyStructuralDefaults(value: Json, s: SchemaNode | undefined): Json {
  if (!s) return value;
  if (Array.isArray(value)) {
    const items = s.items;
    if (!items) return value.map((v) => v);
    return value.map((v) => {
      const filled = v === null && items.default ? cloneJson(items.default.value) : v;
      return applyStructuralDefaults(filled, items);
    });
  }
  if (!isObject(value)) return value;

  const out: JsonObject = {};
  for (const k of Object.keys(value)) defineKey(out, k, value[k] as Json);
  if (s.properties) {
    for (const [name, prop] of s.properties) {
      if (!prop.default) continue;
      if (!hasOwn(out, name) || out[name] === null) defineKey(out, name, cloneJson(prop.default.value));
    }
  }
  for (const k of Object.keys(out)) {
    const prop = s.properties?.get(k);
    if (prop) {
      defineKey(out, k, applyStructuralDefaults(out[k] as Json, prop));
    } else if (s.additionalProperties) {
      const ap = s.additionalProperties;
      const v = out[k] === null && ap.default ? cloneJson(ap.default.value) : (out[k] as Json);
      defineKey(out, k, applyStructuralDefaults(v, ap));
    }
  }
  return out;
}

/**
 * Defaulting of one variable value the way CAPI does it: the value is wrapped as property
 * `<name>` of an object whose schema declares only that property, so a missing/`null` value
 * takes the top-level default.
 */
export function defaultVariableValue(value: Json | undefined, s: SchemaNode): Json {
  const v = value === undefined || value === null ? (s.default ? cloneJson(s.default.value) : null) : value;
  return applyStructuralDefaults(v, s);
}
