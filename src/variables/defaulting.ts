/**
 * Kubernetes structural defaulting (apiextensions-apiserver `schema/defaulting/algorithm.go`),
 * as a pure function: returns a new value and never mutates its input.
 *
 * Rules (CAPI internal/topology/variables/cluster_variable_defaulting.go): declared properties with a default that are missing or
 * `null` get a deep copy of it; recursion into present properties, additionalProperties values
 * (a `null` value takes the additionalProperties default) and array items (a `null` item takes
 * the items default). Defaults under allOf/anyOf/oneOf/not never apply. Because a parent's
 * default is inserted before recursion, `default: {}` on an object yields its nested defaults.
 */
import type { Json, JsonObject } from '../core/model.js';
import { cloneJson, defineKey, isObject } from '../core/json.js';
import { hasOwn } from '../core/go/json.js';
import type { SchemaNode } from './schema.js';

/** Told of each default applied, by its path below the defaulted value (list items as numbers). */
export type DefaultObserver = (path: (string | number)[]) => void;

const ROOT: readonly (string | number)[] = [];

/** `observe` (and `at`, the path of `value`, used with it) report each default applied. */
export function applyStructuralDefaults(
  value: Json,
  s: SchemaNode,
  observe?: DefaultObserver,
  at: readonly (string | number)[] = ROOT,
): Json {
  if (Array.isArray(value)) {
    const items = s.items;
    if (!items) return value.map((v) => v);
    return value.map((v, i) => {
      const fallback = v === null ? items.default : undefined;
      if (fallback) observe?.([...at, i]);
      return applyStructuralDefaults(fallback ? cloneJson(fallback.value) : v, items, observe, observe && [...at, i]);
    });
  }
  if (!isObject(value)) return value;

  const out: JsonObject = {};
  for (const k of Object.keys(value)) defineKey(out, k, value[k] as Json);
  if (s.properties) {
    for (const [name, prop] of s.properties) {
      if (!prop.default) continue;
      if (!hasOwn(out, name) || out[name] === null) {
        defineKey(out, name, cloneJson(prop.default.value));
        observe?.([...at, name]);
      }
    }
  }
  for (const k of Object.keys(out)) {
    const prop = s.properties?.get(k);
    const below = observe && [...at, k];
    if (prop) {
      defineKey(out, k, applyStructuralDefaults(out[k] as Json, prop, observe, below));
    } else if (s.additionalProperties) {
      const ap = s.additionalProperties;
      const fallback = out[k] === null ? ap.default : undefined;
      if (fallback) observe?.([...at, k]);
      defineKey(
        out,
        k,
        applyStructuralDefaults(fallback ? cloneJson(fallback.value) : (out[k] as Json), ap, observe, below),
      );
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
