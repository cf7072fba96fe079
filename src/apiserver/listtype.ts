/**
 * The API server's uniqueness rule of `x-kubernetes-list-type: set` and `map` lists, as
 * apiextensions-apiserver pkg/apiserver/schema/listtype/validation.go `ValidateListSetsAndMaps`
 * checks a custom resource (after schema validation, before CEL rules): the second appearance of
 * an item (set) or of a key (map) is a `Duplicate value` at the item, its value the key fields
 * (`spec.topology.workers.machineDeployments[3]: Duplicate value: {"name":"dup"}`); later
 * appearances are not reported again.
 *
 * The schema is an `openAPIV3Schema` as written (`properties`, `additionalProperties`, `items`,
 * `x-kubernetes-list-type`, `x-kubernetes-list-map-keys`): a CRD's, or the fragment of CAPI's
 * CRDs the product knows (strict.ts).
 */
import type { Json, JsonObject } from '../core/model.js';
import { fieldError, index, invalid, type BadValue, type FieldError } from '../core/fielderror.js';
import { goMarshal, hasOwn, isJsonObject } from '../core/go/json.js';

const schemaAt = (s: JsonObject, k: string): JsonObject | undefined => {
  const v = s[k];
  return isJsonObject(v) ? v : undefined;
};

/** Duplicate items and keys of the list sets and maps of `value` (an object) under `schema`. */
export function listSetAndMapErrors(schema: JsonObject, value: JsonObject, path = ''): FieldError[] {
  const errors: FieldError[] = [];
  const properties = schemaAt(schema, 'properties');
  const additional = schemaAt(schema, 'additionalProperties');
  for (const [k, v] of Object.entries(value)) {
    const child = path === '' ? k : `${path}.${k}`;
    if (additional) errors.push(...valueErrors(additional, v, `${path}[${k}]`));
    const sub = properties && schemaAt(properties, k);
    if (sub) errors.push(...valueErrors(sub, v, child));
  }
  return errors;
}

function valueErrors(schema: JsonObject, value: Json, path: string): FieldError[] {
  if (Array.isArray(value)) return arrayErrors(schema, value, path);
  return isJsonObject(value) ? listSetAndMapErrors(schema, value, path) : [];
}

function arrayErrors(schema: JsonObject, list: Json[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  const listType = schema['x-kubernetes-list-type'];
  if (listType === 'set') {
    for (const i of secondAppearances(list))
      errors.push(fieldError('Duplicate value', index(path, i), '', badValue(list[i] as Json)));
  } else if (listType === 'map') errors.push(...listMapErrors(schema, list, path));
  const items = schemaAt(schema, 'items');
  if (items) list.forEach((item, i) => errors.push(...valueErrors(items, item, index(path, i))));
  return errors;
}

/** A field error's value as `ErrorBody` prints it: Go's `json.Marshal` for maps and lists. */
const badValue = (v: Json): BadValue => (isJsonObject(v) || Array.isArray(v) ? { go: goMarshal(v) } : v);

/** `validateListSet`: the indexes where an item appears the second time (Go's map equality: same JSON). */
function secondAppearances(items: readonly (Json | typeof UNSPECIFIED)[]): number[] {
  const seen = new Map<string, number>();
  const out: number[] = [];
  items.forEach((x, i) => {
    const k = x === UNSPECIFIED ? 'unspecified' : `${typeof x}:${goMarshal(x)}`;
    const times = seen.get(k) ?? 0;
    seen.set(k, times + 1);
    if (times === 1) out.push(i);
  });
  return out;
}

/** An item without the key field (`unspecifiedKeyValue`), distinct from a `null` key. */
const UNSPECIFIED = Symbol('unspecified key');

/** `validateListMap`: items must be objects; the second appearance of a key is reported with the key fields. */
function listMapErrors(schema: JsonObject, list: Json[], path: string): FieldError[] {
  const notObject = list.findIndex((x) => x !== null && !isJsonObject(x));
  if (notObject >= 0)
    return [
      invalid(
        index(path, notObject),
        badValue(list[notObject] as Json),
        'must be an object for an array of list-type map',
      ),
    ];
  const keyFields = Array.isArray(schema['x-kubernetes-list-map-keys'])
    ? schema['x-kubernetes-list-map-keys'].filter((k): k is string => typeof k === 'string')
    : [];
  const keyOf = (x: Json): JsonObject => {
    const key: JsonObject = {};
    for (const f of keyFields) if (isJsonObject(x) && hasOwn(x, f)) key[f] = x[f] as Json;
    return key;
  };
  if (keyFields.length === 1) {
    // One key field: the key's value itself is compared, and an item without it is unspecified.
    const [f] = keyFields as [string];
    const keys = list.map((x) => (isJsonObject(x) && hasOwn(x, f) ? (x[f] as Json) : UNSPECIFIED));
    return secondAppearances(keys).map((i) => {
      const k = keys[i];
      return fieldError('Duplicate value', index(path, i), '', badValue(k === UNSPECIFIED ? {} : { [f]: k as Json }));
    });
  }
  const keys = list.map(keyOf);
  return secondAppearances(keys).map((i) =>
    fieldError('Duplicate value', index(path, i), '', badValue(keys[i] as Json)),
  );
}
