/**
 * Template rotation as CAPI performs it. The renderer names a template clone after its content;
 * CAPI gives the desired clone the current clone's name (exp/topology/desiredstate/desired_state.go
 * `templateToTemplate`) and a new one only when the spec differs once both are defaulted
 * (core/reconcilers/topology/cluster/reconcile_state.go `reconcileReferencedTemplate`, via
 * structuredmerge/dryrun.go `dryRunSSAPatch`, which dry-runs the current object too "because
 * otherwise differences in defaulting would trigger rollouts"). So a clone whose name changed
 * while its spec did not — a new API version, a new CRD default — keeps its name here too.
 */
import type { Json, JsonObject } from '../core/model.js';
import { asObject, asString, canonicalJson, isObject, jsonText } from '../core/json.js';
import { CLONED_FROM_NAME } from '../core/labels.js';

const nameOf = (o: JsonObject): string => jsonText(asObject(o.metadata)?.name);

/** Whether the object is a template clone that rotates (it records the class template it was cloned from). */
const rotates = (o: JsonObject): boolean =>
  jsonText(o.kind).endsWith('Template') &&
  asString(asObject(asObject(o.metadata)?.annotations)?.[CLONED_FROM_NAME]) !== undefined;

/** An object's identity across renders: a rotating clone by its name's prefix (its 5-character suffix is a content hash). */
export function matchKey(o: JsonObject): string {
  const name = nameOf(o);
  return `${jsonText(o.kind)}/${rotates(o) ? `${name.slice(0, -5)}*` : name}`;
}

/** Every string that is one of the names, replaced. */
function renamed(v: Json, names: ReadonlyMap<string, string>): Json {
  if (typeof v === 'string') return names.get(v) ?? v;
  if (Array.isArray(v)) return v.map((x) => renamed(x, names));
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, renamed(x, names)]));
  return v;
}

/**
 * The head's objects with each clone that CAPI would not rotate named as in the base, and every
 * reference to it with it. `before` must be defaulted as the head's platform defaults it.
 */
export function keepUnrotatedNames(before: readonly JsonObject[], after: readonly JsonObject[]): JsonObject[] {
  const current = new Map(before.filter(rotates).map((o) => [matchKey(o), o]));
  const names = new Map<string, string>();
  for (const o of after) {
    const old = rotates(o) ? current.get(matchKey(o)) : undefined;
    if (old && nameOf(old) !== nameOf(o) && canonicalJson(old.spec ?? null) === canonicalJson(o.spec ?? null))
      names.set(nameOf(o), nameOf(old));
  }
  return names.size === 0 ? [...after] : after.map((o) => renamed(o, names) as JsonObject);
}
