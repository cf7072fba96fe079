/** The results a run gives besides the stages' own: per Cluster, per input, and for the run as a whole. */
import type { Cluster, JsonObject, ObjectRef } from '../core/model.js';
import type { Result } from '../core/result.js';
import { cloneJson, compareText } from '../core/json.js';
import { closest } from '../core/suggest.js';
import type { InputItem } from '../krm/item.js';
import { rolloutReport } from '../webhooks/compatibility.js';
import { identityOf, namespacedRef, ownerOf, type DuplicateGroup } from './classify.js';

/** The rule of the per-Cluster `info` (reported as one summary unless asked, pipeline/report.ts). */
export const RENDERED_RULE = 'rendered';

export const renderedResult = (ref: ObjectRef, key: string, count: number): Result => ({
  severity: 'info',
  message: `rendered ${count} objects for Cluster ${key}`,
  resourceRef: ref,
  tags: { rule: RENDERED_RULE },
});

export function internalError(ref: ObjectRef, e: unknown): Result {
  const detail = e instanceof Error ? e.message : String(e);
  return {
    severity: 'error',
    message: `internal error while rendering ${ref.kind} "${ref.name}": ${detail} (please report this; other Clusters were rendered)`,
    resourceRef: ref,
    tags: { rule: 'internal' },
  };
}

/** A Cluster's class not among the inputs, with the input class it most likely means (`known`: `namespace/name` of each). */
export function classMissing(ref: ObjectRef, cluster: Cluster, classKey: string, known: readonly string[]): Result {
  const v1beta1 = cluster.sourceApiVersion.endsWith('/v1beta1');
  const [namespace, name] = splitKey(classKey);
  const near = closest(
    name,
    known.map((k) => splitKey(k)[1]),
  );
  // The closest name; in the Cluster's namespace when the class is there, else the first namespace that has it.
  const named = known.filter((k) => splitKey(k)[1] === near).sort(compareText);
  const meant = named.find((k) => splitKey(k)[0] === namespace) ?? named[0];
  const elsewhere =
    meant !== undefined && splitKey(meant)[0] !== namespace
      ? ` (another namespace: set ${v1beta1 ? 'spec.topology.classNamespace' : 'spec.topology.classRef.namespace'})`
      : '';
  const hint = meant === undefined ? '' : `did you mean ClusterClass "${meant}"${elsewhere}? Otherwise `;
  return {
    severity: 'error',
    message: `ClusterClass "${classKey}" not found: ${hint}add it (and its templates) to the input, or fix the class reference`,
    resourceRef: ref,
    field: { path: v1beta1 ? 'spec.topology.class' : 'spec.topology.classRef.name' },
    tags: { rule: 'class-missing', clusterClass: classKey },
  };
}

const splitKey = (key: string): [string, string] => [key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1)];

export const classInvalid = (ref: ObjectRef, classKey: string): Result => ({
  severity: 'error',
  message: `ClusterClass "${classKey}" is invalid (see its results); Cluster not rendered`,
  resourceRef: ref,
  field: { path: 'spec.topology' },
  tags: { rule: 'class-invalid' },
});

/**
 * The Cluster of a ClusterClass whose update the webhook refuses: CAPI keeps the previous class
 * and reconciles the Cluster against it, so a render against the new class would show what does
 * not happen; the earlier output is kept.
 */
export const classUpdateRefused = (ref: ObjectRef, classKey: string): Result => ({
  severity: 'error',
  message: `ClusterClass "${classKey}" is refused on update (see its results): CAPI keeps the previous class, so this Cluster is not rendered against the new one and its earlier output is kept`,
  resourceRef: ref,
  field: { path: 'spec.topology' },
  tags: { rule: 'class-update-refused' },
});

/** Control planes and MachineDeployments whose rendered templates or versions changed since the earlier render. */
export function rolloutResults(
  previous: readonly JsonObject[] | undefined,
  objects: JsonObject[],
  ref: ObjectRef,
  key: string,
): Result[] {
  if (!previous || previous.length === 0) return [];
  return rolloutReport(previous, objects).map((r) => ({
    severity: 'info',
    message: `${r.kind} ${r.name} will roll out: ${r.reasons.map((x) => `${x.template}${x.fields.length > 0 ? ` (${x.fields.join(', ')})` : ''}`).join('; ')}`,
    resourceRef: ref,
    tags: { rule: 'rollout', cluster: key },
  }));
}

/** A Cluster without `spec.topology` is CAPI's classic form: nothing to render. */
export const passedThrough = (ref: ObjectRef): Result => ({
  severity: 'info',
  message: `Cluster ${ref.namespace}/${ref.name} has no spec.topology: passed through unrendered (only Clusters with a managed topology are rendered)`,
  resourceRef: ref,
  field: { path: 'spec.topology' },
  tags: { rule: 'no-topology' },
});

export const located = (i: InputItem) =>
  i.file ? `${i.file.path}${i.file.index ? `#${i.file.index}` : ''}` : 'an input without a file annotation';

/** kustomize refuses a second object of the same identity; so do we, naming where each copy is. */
export function duplicateResults(groups: readonly DuplicateGroup[], ns: string): Result[] {
  return groups.map((group) => {
    const ref = namespacedRef(group[0], ns);
    const what =
      ref.kind === 'Cluster'
        ? 'none of them is rendered'
        : ref.kind === 'ClusterClass'
          ? 'its Clusters are not rendered'
          : 'which one a ClusterClass uses is undefined';
    return {
      severity: 'error',
      message: `may not add resource with an already registered id: ${identityOf(ref, ns)}: defined in ${group.map(located).join(' and ')}; ${what}: rename or remove all but one`,
      resourceRef: ref,
      field: { path: 'metadata.name' },
      tags: { rule: 'duplicate-identity' },
    };
  });
}

/** Strict mode (CI gates): a warning is an error. */
export const strictly = (results: Result[]): Result[] =>
  results.map((r) => (r.severity === 'warning' ? { ...r, severity: 'error', tags: { ...r.tags, strict: 'true' } } : r));

const refKey = (r: ObjectRef, defaultNamespace: string) =>
  `${r.apiVersion}\0${r.kind}\0${r.namespace ?? defaultNamespace}\0${r.name}`;

/** Fills `file` of results about input objects from their path annotations. */
export function withFiles(results: Result[], items: readonly InputItem[], ns: string): Result[] {
  const files = new Map<string, InputItem['file']>();
  // An earlier run's output can share a source object's identity (the classic Cluster); results
  // are about the source, so outputs never claim the file.
  for (const i of items) if (i.ref && i.file && ownerOf(i) === undefined) files.set(refKey(i.ref, ns), i.file);
  return results.map((r) => {
    if (!r.resourceRef || r.file) return r;
    const file = files.get(refKey(r.resourceRef, ns));
    return file ? { ...r, file: cloneJson(file as unknown as JsonObject) as unknown as Result['file'] } : r;
  });
}
