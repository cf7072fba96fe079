/**
 * One Cluster of a run: admitted as the API server and CAPI's webhook would, rendered against its
 * current state (or its earlier objects reused), its objects validated against their CRDs and
 * annotated for the output.
 */
import { provenanceFile, renderedFile } from './layout.js';
import type { Cluster, JsonObject, ObjectRef } from '../core/model.js';
import { hasErrors, type Result } from '../core/result.js';
import { asObject } from '../core/json.js';
import { LOCAL_CONFIG_ANNOTATION } from '../core/labels.js';
import { annotationsOf, refOf } from '../krm/read.js';
import { normalizeCluster } from '../api/normalize.js';
import type { Blueprint } from '../blueprint/blueprint.js';
import { withValueOrigins, type FieldOriginsOf } from '../apiserver/crds.js';
import { validateOnCreate, withStoredTemplateHint } from '../apiserver/admission.js';
import { apiServerDecodingErrors } from '../apiserver/strict.js';
import { capiProfileOf } from '../krm/config.js';
import { clusterNameResults } from '../webhooks/cluster.js';
import { explainObjects } from '../provenance/objects.js';
import { describeSource } from '../provenance/format.js';
import type { ExplainedObject } from '../provenance/types.js';
import { provenanceReport } from '../provenance/report.js';
import type { OriginRecorder } from '../provenance/recorder.js';
import { renderCluster, type RenderClusterOptions, type RenderedCluster } from '../topology/render.js';
import { classicCluster } from '../topology/cluster.js';
import { defaultAndValidateClusterVariables } from '../variables/index.js';
import type { CoreVersion } from '../topology/types.js';
import { classKeyOf, clusterKey, dropAnnotations, isToolAnnotation, type IdentifiedItem } from './classify.js';
import type { RunContext } from './context.js';
import { annotateGenerated, markReusable, renderWithState, type Attempt } from './outputs.js';
import { classInvalid, classMissing, classUpdateRefused, renderedResult, rolloutResults } from './results.js';
import { clusterInputsDigest, inputsMark, reusable } from './reuse.js';
import type { EarlierOutput } from '../krm/earlier.js';
import { coreVersionFor } from './versions.js';
import type { ClusterOutput, ClusterRuns, ItemEdit } from './types.js';

/** A Cluster admitted for rendering, with its class. */
interface Target {
  item: IdentifiedItem;
  ref: ObjectRef & { namespace: string };
  /** `namespace/name`. */
  key: string;
  cluster: Cluster;
  classKey: string;
  blueprint: Blueprint;
  /** The Cluster and its class as written (explain names their fields). */
  inputs: { cluster: JsonObject; clusterClass: JsonObject };
  coreVersion: CoreVersion;
  /** Why the Cluster's class does not reconcile (its templates are refused). */
  classUnreconciled?: Result;
}

/**
 * Renders one Cluster (its results go to the run's, in the order they arise) and returns its
 * output, if it has one this run.
 */
export function renderClusterItem(
  ctx: RunContext,
  item: IdentifiedItem,
  ref: Target['ref'],
  runs: ClusterRuns,
): ClusterOutput | undefined {
  const t = admitted(ctx, item, ref);
  // A Cluster refused before its webhooks run is still refused for its update (one that reaches them: renderCluster).
  if (!t) {
    ctx.results.push(...(ctx.clusterUpdates.get(clusterKey(ref.namespace, ref.name)) ?? []));
    return undefined;
  }
  const { key } = t;
  const earlier = ctx.classified.generated.get(key);
  const classDigest = ctx.classInputsOf(t.classKey, t.blueprint, t.inputs.clusterClass);
  const inputs =
    classDigest && annotationsOf(item.value)['kustomize.config.k8s.io/id'] === undefined
      ? clusterInputsDigest(classDigest, item.value)
      : undefined;
  const reused = inputs && reusedOutput(ctx, key, earlier, inputs);
  if (reused) {
    ctx.results.push(...(ctx.clusterUpdates.get(key) ?? []));
    runs.rendered.add(key);
    if (ctx.mode.expands) runs.edits.set(item, { addAnnotations: { [LOCAL_CONFIG_ANNOTATION]: 'true' } });
    ctx.results.push(renderedResult(ref, key, reused.objects));
    runs.objects += reused.objects;
    return { cluster: key, objects: [], reused: reused.items };
  }
  const stateful = ctx.observed.length > 0 || ctx.extensions !== undefined;
  const { done, stateless } = renderWithState(
    (state) => attempt(ctx, t, state),
    earlier,
    ctx.previousRender?.get(key),
    stateful,
  );
  ctx.results.push(...done.results);
  if (done.unreconciled) runs.unreconciled.add(key);
  if (!done.objects) return undefined;
  runs.rendered.add(key);
  if (!ctx.mode.emits) return undefined;
  if (done.edit) runs.edits.set(item, done.edit);
  const markable = inputs && stateless && done.results.length === 0;
  // -o DIR marks its files in its outputs list; under kpt the objects carry the mark.
  if (markable && !ctx.extras.earlierFiles) markReusable(done.objects, inputsMark(inputs, done.objects.length));
  ctx.results.push(renderedResult(ref, key, done.objects.length));
  runs.objects += done.objects.length;
  return {
    cluster: key,
    objects: done.objects,
    ...(done.provenance ? { provenance: done.provenance } : {}),
    ...(done.deferred ? { deferred: done.deferred } : {}),
    ...(markable && ctx.extras.earlierFiles ? { inputs } : {}),
  };
}

/**
 * The earlier output of a Cluster that is reused as it is, when it is all of one reusable render
 * of these inputs (pipeline/reuse.ts): under kpt its objects' entries (the current state a render
 * would read, a fixed point); for `-o DIR` its files' paths, unless the render would read another
 * current state (the previous inputs' render).
 */
function reusedOutput(
  ctx: RunContext,
  key: string,
  earlier: readonly EarlierOutput[] | undefined,
  inputs: string,
): { items: string[]; objects: number } | undefined {
  const files = ctx.extras.earlierFiles;
  if (files) {
    const found = ctx.previousRender?.has(key) ? undefined : reusable(files.get(key), inputs);
    return found && { items: found.map((f) => f.path), objects: found.reduce((n, f) => n + f.objects, 0) };
  }
  const entries = reusable(earlier, inputs)?.flatMap((e) => (e.entry === undefined ? [] : [e.entry]));
  return entries && entries.length === earlier?.length ? { items: entries, objects: entries.length } : undefined;
}

/** The Cluster as the API server decodes it and CAPI's webhook admits it, with its compiled class; undefined when refused. */
function admitted(ctx: RunContext, item: IdentifiedItem, ref: Target['ref']): Target | undefined {
  const { results } = ctx;
  const decoding = apiServerDecodingErrors(item.value, ref, ctx.crds, capiProfileOf(ctx.config));
  const schemaErrors = ctx.checkInput ? ctx.checkInput(item.value, ref) : [];
  // A field the CRD does not declare fails the request as it is decoded. Everything else the API
  // server checks in one pass (name, labels, annotations, schema) and refuses with every invalid
  // field listed; only a Cluster it accepts reaches the validating webhook.
  if (decoding.some((r) => r.tags?.rule === 'strict-decoding')) {
    results.push(...decoding, ...schemaErrors);
    return undefined;
  }
  const naming = clusterNameResults(ref);
  const normalized = normalizeCluster(item.value, ref);
  const cluster = normalized.value;
  const apiServer = [...decoding, ...schemaErrors, ...naming.apiServer, ...normalized.results];
  if (hasErrors(decoding) || hasErrors(schemaErrors) || naming.apiServer.length > 0 || !cluster) {
    // Mutating admission runs between decoding and that pass: a refusal of the defaulting webhook is all CAPI reports.
    const defaulting = cluster ? defaultingRefusal(ctx, cluster, ref) : [];
    results.push(...(defaulting.length > 0 ? defaulting : apiServer));
    return undefined;
  }
  results.push(...apiServer);
  results.push(...naming.webhook);
  if (naming.webhook.length > 0) return undefined;
  const classKey = classKeyOf(cluster);
  if (ctx.refusedClassUpdates.has(classKey)) {
    results.push(classUpdateRefused(ref, classKey));
    return undefined;
  }
  const entry = ctx.blueprints.get(classKey);
  if (!entry?.ok) {
    results.push(
      entry || ctx.duplicateClasses.has(classKey)
        ? classInvalid(ref, classKey)
        : classMissing(ref, cluster, classKey, ctx.blueprints.keys),
    );
    return undefined;
  }
  const inputs = { cluster: item.value, clusterClass: entry.document };
  return {
    item,
    ref,
    key: clusterKey(ref.namespace, ref.name),
    cluster,
    classKey,
    blueprint: entry.blueprint,
    inputs,
    coreVersion: coreVersionFor(cluster, ctx.config),
    ...(entry.templatesRefused ? { classUnreconciled: classInvalid(ref, classKey) } : {}),
  };
}

/**
 * The Cluster defaulting webhook's refusal (CAPI v1.14.2 core/webhooks/admission/cluster.go,
 * v1.12/v1.13 internal/webhooks/cluster.go, `Cluster.Default` -> `DefaultAndValidateVariables`):
 * its variables' errors when its class is found and reconciled; renderCluster runs the same
 * check for a Cluster the API server accepts.
 */
function defaultingRefusal(ctx: RunContext, cluster: Cluster, ref: ObjectRef): Result[] {
  const entry = ctx.blueprints.get(classKeyOf(cluster));
  // No variables are defaulted or validated against a class that does not reconcile (judgedOnly).
  if (!entry?.ok || entry.templatesRefused) return [];
  const { results } = defaultAndValidateClusterVariables(entry.blueprint.variables, cluster, ref);
  return hasErrors(results) ? results : [];
}

interface RenderedObject {
  /** What the object is in the topology, e.g. `ControlPlane`, `MachineDeployment md-0`. */
  role: string;
  object: JsonObject;
}

/** The rendered objects of one Cluster, in a fixed order (also their index in the output file). */
function renderedObjects(r: RenderedCluster): RenderedObject[] {
  const d = r.desired;
  const out: RenderedObject[] = [];
  const add = (role: string, object: JsonObject | undefined) => object && out.push({ role, object });
  add('InfrastructureCluster', d.infrastructureCluster);
  add('ControlPlaneMachineTemplate', d.controlPlaneMachineTemplate);
  add('ControlPlane', d.controlPlane);
  add('ControlPlaneHealthCheck', d.controlPlaneHealthCheck);
  for (const md of d.machineDeployments) {
    const name = md.topology.name;
    add(`MachineDeploymentBootstrapTemplate ${name}`, md.bootstrapTemplate);
    add(`MachineDeploymentInfrastructureTemplate ${name}`, md.infrastructureTemplate);
    add(`MachineDeployment ${name}`, md.machineDeployment);
    add(`MachineDeploymentHealthCheck ${name}`, md.healthCheck);
  }
  for (const mp of d.machinePools) {
    const name = mp.topology.name;
    add(`MachinePoolBootstrap ${name}`, mp.bootstrapObject);
    add(`MachinePoolInfrastructure ${name}`, mp.infrastructureObject);
    add(`MachinePool ${name}`, mp.machinePool);
  }
  return out;
}

/** One render of the Cluster against a current state (the earlier objects, observed objects). */
function attempt(ctx: RunContext, t: Target, earlier: readonly JsonObject[] | undefined): Attempt {
  const out: Result[] = [];
  const current = earlier || ctx.observed.length > 0 ? { previous: earlier, observed: ctx.observed } : undefined;
  const sequenceFrom = ctx.extras.sequenceFrom?.get(t.key);
  const updates = ctx.clusterUpdates.get(t.key) ?? [];
  const options = {
    coreVersion: t.coreVersion,
    upgrade: ctx.config.upgrade,
    ...(current ? { current } : {}),
    ...(sequenceFrom ? { sequenceFrom } : {}),
    ...(ctx.extensions ? { extensions: ctx.extensions } : {}),
    ...(hasErrors(updates) ? { updateRefused: true } : {}),
    ...(t.classUnreconciled ? { classUnreconciled: t.classUnreconciled } : {}),
  };
  // With provenance, the render records where every value came from (a plain render records nothing). So it does
  // when CRDs may reject a value and extensions are called: the origins of such an error come from this render.
  const recorder = ctx.config.provenance || (ctx.haveCrds && ctx.extensions) ? ctx.newRecorder() : undefined;
  const outcome = renderCluster(t.blueprint, t.cluster, t.ref, recorder ? { ...options, recorder } : options);
  // The update rules are the validating webhook's: not reached when the defaulting webhook refused.
  if (outcome.ok || outcome.validated) out.push(...updates);
  out.push(...outcome.results.map((r) => withStoredTemplateHint(r, ctx.crds)));
  if (!outcome.ok) return { results: out, ...(outcome.admitted ? { unreconciled: true } : {}) };
  const entries = renderedObjects(outcome.rendered);
  const objects = entries.map((e) => e.object);
  if (ctx.haveCrds) out.push(...crdResults(ctx, t, objects, originsOf(ctx, t, options, entries, recorder)));
  out.push(...rolloutResults(earlier, objects, t.ref, t.key));
  if (!ctx.mode.emits) return { results: out, objects };
  const { deferred } = outcome.rendered;
  return { results: out, ...emitted(ctx, t, outcome.rendered, entries, recorder), ...(deferred ? { deferred } : {}) };
}

/** As on create: CRD defaults, the provider's defaulting webhook, CRD defaults, then the schema (admission.ts). */
function crdResults(
  ctx: RunContext,
  t: Target,
  objects: readonly JsonObject[],
  origins: () => ExplainedObject[],
): Result[] {
  const rejected = objects.flatMap((o) => {
    const objRef = refOf(o);
    return objRef ? validateOnCreate(ctx.crds, o, objRef) : [];
  });
  return withValueOrigins(rejected, fieldOrigins(origins, t.blueprint.classRef.name)).map((r) => ({
    ...r,
    tags: { ...r.tags, cluster: t.key },
  }));
}

/** Where a rejected value came from: recorded by this render, or else by the same render once more with a recorder. */
function originsOf(
  ctx: RunContext,
  t: Target,
  options: RenderClusterOptions,
  entries: readonly RenderedObject[],
  recorder: OriginRecorder | undefined,
): () => ExplainedObject[] {
  return () => {
    if (recorder) return explainObjects(entries, recorder, t.inputs);
    const again = ctx.newRecorder();
    const r = renderCluster(t.blueprint, t.cluster, t.ref, { ...options, recorder: again });
    return r.ok ? explainObjects(renderedObjects(r.rendered), again, t.inputs) : [];
  };
}

/** Field origins of rendered objects for CRD errors, from `explain` (computed once, on the first error). */
function fieldOrigins(explain: () => ExplainedObject[], className: string): FieldOriginsOf {
  let objects: ExplainedObject[] | undefined;
  return (r) => {
    try {
      objects ??= explain();
    } catch {
      objects = [];
    }
    const fields = objects.find((o) => o.ref.kind === r.kind && o.ref.name === r.name)?.fields;
    return fields?.map((f) => ({ path: f.path, origin: describeSource(f.source, className) }));
  };
}

/** The objects as written: in expand mode the classic Cluster too, the tool's annotations, and with provenance its report. */
function emitted(
  ctx: RunContext,
  t: Target,
  rendered: RenderedCluster,
  entries: RenderedObject[],
  recorder: OriginRecorder | undefined,
): Omit<Attempt, 'results'> {
  const objects = entries.map((e) => e.object);
  const classic = ctx.mode.expands
    ? classicCluster(t.item.value, rendered.desired, t.coreVersion, recorder)
    : undefined;
  let edit: ItemEdit | undefined;
  if (classic) {
    if (annotationsOf(t.item.value)['kustomize.config.k8s.io/id'] !== undefined) {
      edit = { replaceWith: classic };
    } else {
      edit = { addAnnotations: { [LOCAL_CONFIG_ANNOTATION]: 'true' } };
      objects.unshift(stripToolAnnotations(classic));
    }
  }
  // Read before the tool's own annotations are added: they are bookkeeping, not rendered values.
  const provenance = recorder && {
    cluster: t.ref,
    clusterClass: t.blueprint.classRef,
    objects: explainObjects(classic ? [{ role: 'Cluster', object: classic }, ...entries] : entries, recorder, t.inputs),
  };
  const below = (file: string) => `${ctx.config.outputDir}/${file}`;
  annotateGenerated(objects, t.key, below(renderedFile(t.ref.namespace, t.ref.name)), ctx.mode.localConfig);
  if (provenance) {
    const report = provenanceReport(provenance);
    annotateGenerated([report], t.key, below(provenanceFile(t.ref.namespace, t.ref.name)), true);
    objects.push(report);
  }
  return { objects, ...(edit ? { edit } : {}), ...(provenance ? { provenance } : {}) };
}

function stripToolAnnotations(obj: JsonObject): JsonObject {
  const meta = asObject(obj.metadata);
  // Only tool annotations (kpt's) or none: the same object either way.
  if (meta) dropAnnotations(meta, isToolAnnotation);
  return obj;
}
