/**
 * The provenance report written next to the rendered files (function config `provenance: true`):
 * a local-config object, never applied, listing for every rendered object where each field came
 * from — a one-line summary and the structured source.
 */
import type { Json, JsonObject, ObjectRef } from '../core/model.js';
import type { ExplainedObject, Source } from './types.js';
import { describePatch, describeSource } from './format.js';
import { LOCAL_CONFIG_ANNOTATION } from '../core/labels.js';
import { defineKey } from '../core/json.js';

const PROVENANCE_API_VERSION = 'fn.render-clusterclass.dev/v1alpha1';
export const PROVENANCE_KIND = 'ProvenanceReport';

export interface ProvenanceInput {
  cluster: ObjectRef;
  clusterClass?: ObjectRef;
  objects: ExplainedObject[];
}

export interface ProvenanceOptions {
  /** Include each field's value (default false: the values are in the rendered file next to it). */
  values?: boolean;
}

/** A structured value as plain JSON, without undefined members (values, int64s too, as they are). */
function plain(v: unknown): Json {
  if (Array.isArray(v)) return v.map(plain);
  if (v === null || typeof v !== 'object') return v as Json;
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(v)) if (x !== undefined) defineKey(out, k, plain(x));
  return out;
}

const sourceJson = (s: Source): JsonObject => plain(s) as JsonObject;

/** `<cluster>_provenance.yaml` content: kind ProvenanceReport, marked local-config. */
export function provenanceReport(explained: ProvenanceInput, options: ProvenanceOptions = {}): JsonObject {
  const ns = explained.cluster.namespace ?? 'default';
  const className = explained.clusterClass?.name;
  const objects: Json[] = explained.objects.map((o) => {
    const entry: JsonObject = {
      apiVersion: o.ref.apiVersion,
      kind: o.ref.kind,
      name: o.ref.name,
      namespace: o.ref.namespace,
    };
    if (o.role) entry.role = o.role;
    entry.fields = o.fields.map((f) => {
      const field: JsonObject = { path: f.path };
      if (options.values) field.value = f.value;
      field.from = describeSource(f.source, className);
      field.source = sourceJson(f.source);
      return field;
    });
    if (o.patches && o.patches.length > 0) entry.patches = o.patches.map((p) => describePatch(p));
    return entry;
  });
  const spec: JsonObject = { cluster: { namespace: ns, name: explained.cluster.name } };
  if (explained.clusterClass)
    spec.clusterClass = { namespace: explained.clusterClass.namespace ?? ns, name: explained.clusterClass.name };
  spec.objects = objects;
  return {
    apiVersion: PROVENANCE_API_VERSION,
    kind: PROVENANCE_KIND,
    metadata: {
      name: `${explained.cluster.name}-provenance`,
      namespace: ns,
      annotations: { [LOCAL_CONFIG_ANNOTATION]: 'true' },
    },
    spec,
  };
}
