/**
 * What `explain` and the provenance report show (issue #6), read from one normal render: for every
 * leaf of every rendered object, the origin the stage that set it recorded
 * (src/provenance/recorder.ts) — a ClusterClass template, the ClusterClass, the Cluster, a patch
 * with the variables it read, a default, or the topology controller itself. Nothing here renders
 * or patches, so there is nothing to check afterwards.
 */
import type { JsonObject } from '../core/model.js';
import { asObject, jsonText } from '../core/json.js';
import { inputFieldOf } from '../api/conversion/index.js';
import type { OriginRecorder } from './recorder.js';
import { SECONDS_AS_DURATION } from './sources.js';
import type { ExplainedObject, Source } from './types.js';
import { formatPath, leaves } from './paths.js';

const UNATTRIBUTED: Source = { kind: 'unknown', detail: 'not attributed' };

function refOf(o: JsonObject): ExplainedObject['ref'] {
  const meta = asObject(o.metadata) ?? {};
  return {
    apiVersion: jsonText(o.apiVersion ?? ''),
    kind: jsonText(o.kind ?? ''),
    name: jsonText(meta.name ?? ''),
    namespace: jsonText(meta.namespace ?? ''),
  };
}

/** The Cluster and ClusterClass documents a render read, as written. */
export interface RenderInputs {
  cluster: JsonObject;
  clusterClass: JsonObject;
}

/**
 * A Cluster or ClusterClass field named as the input wrote it: stages record fields by their path
 * in the internal (v1beta2) model; a v1beta1 document spells many of them differently, and gave
 * durations where the model has seconds (the conversion, src/api/conversion, undone).
 */
function asWritten(s: Source, inputs: RenderInputs): Source {
  if (s.kind !== 'topology' && s.kind !== 'clusterClass') return s;
  const written = inputFieldOf(s.kind === 'topology' ? inputs.cluster : inputs.clusterClass, s.path);
  if (!written.seconds) return written.path === s.path ? s : { ...s, path: written.path };
  return {
    ...s,
    path: written.path,
    note: s.note === SECONDS_AS_DURATION ? 'duration in Go format' : (s.note ?? 'duration converted to seconds'),
  };
}

/** Every leaf of each rendered object with its recorded origin, and the patches considered for it. */
export function explainObjects(
  objects: readonly { role: string; object: JsonObject }[],
  recorder: OriginRecorder,
  inputs: RenderInputs,
): ExplainedObject[] {
  return objects.map(({ role, object }) => {
    const fields = leaves(object).map((l) => ({
      path: formatPath(l.segs),
      value: l.value,
      source: asWritten(recorder.sourceOf(object, l.segs) ?? UNATTRIBUTED, inputs),
    }));
    const out: ExplainedObject = { ref: refOf(object), role, fields };
    const patches = recorder.patchesOf(object);
    if (patches) out.patches = patches;
    return out;
  });
}
