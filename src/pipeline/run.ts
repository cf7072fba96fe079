/**
 * The whole function, independent of I/O: input items + config → kept/edited input items,
 * generated objects per Cluster, and results. One Cluster's failure (even an internal bug) never
 * stops another; a Cluster that fails keeps what an earlier run generated for it.
 *
 * `renderPipeline` hands each Cluster's objects to a sink as soon as they are rendered (input
 * order), so a writer can serialise and drop them (a fleet's output is far larger than its
 * input); `runPipeline` collects them, sorted by Cluster, for plan, explain and tests.
 */
import type { Cluster, ClusterClass, JsonObject, ObjectRef } from '../core/model.js';
import type { Result } from '../core/result.js';
import { capiProfileOf, type RenderConfig } from '../krm/config.js';
import { annotationsOf, refOf } from '../krm/read.js';
import { normalizeCluster, normalizeClusterClass } from '../api/normalize.js';
import { asObject, canonicalJson, cloneJson } from '../core/json.js';
import { buildBlueprint, templateKey, type Blueprint, type TemplateIndex } from '../blueprint/blueprint.js';
import { contractLookup, type ContractLookup } from '../blueprint/contract.js';
import { contractVersionsFromCrds, loadCrds, withValueOrigins, type CrdIndex, type FieldOriginsOf } from '../apiserver/crds.js';
import { inputCrdValidator, storedTemplate, validateOnCreate, withStoredTemplateHint } from '../apiserver/admission.js';
import { rolloutReport } from '../webhooks/compatibility.js';
import { topologyRemoved, updateResults } from './update.js';
import { clusterNameResults } from '../webhooks/cluster.js';
import { renderCluster, type RenderedCluster } from '../topology/render.js';
import { classicCluster } from '../topology/cluster.js';
import { coreVersionFor } from './versions.js';
import { explainObjects } from '../provenance/objects.js';
import { describeSource } from '../provenance/format.js';
import type { ExplainedObject } from '../provenance/types.js';
import { provenanceReport, type ProvenanceInput } from '../provenance/report.js';
import { OriginRecorder, type TemplateDefaults } from '../provenance/recorder.js';
import { classify, clusterKey, identityOf, isToolAnnotation, ownerOf, shardOf } from './classify.js';
import { apiServerDecodingErrors } from '../apiserver/strict.js';
import { hasErrors } from '../core/result.js';
import { extensionClientFor, type ExtensionClient, type ExtensionInputs } from '../extensions/client.js';
import { type EarlierOutput } from '../krm/earlier.js';
import { classInputsDigest, clusterInputsDigest, inputsMark, reusableEntries, runInputsDigest } from './reuse.js';
import { createHash } from 'node:crypto';
import { keptOutputs, named, unreadableKeptResult, type KeptOutputs } from './keep.js';
import { DIGEST_ANNOTATION, INDEX_ANNOTATION, INPUTS_ANNOTATION, LEGACY_INDEX_ANNOTATION, LEGACY_PATH_ANNOTATION, LOCAL_CONFIG_ANNOTATION, OWNER_ANNOTATION, PATH_ANNOTATION, PREVIOUS_ANNOTATION } from '../core/labels.js';
import type { InputItem } from '../krm/item.js';
import { templateRefsOf } from '../api/refs.js';

export interface ItemEdit {
  /** Replace the item with this object (kustomize: the classic Cluster takes the topology Cluster's place). */
  replaceWith?: JsonObject;
  /** Annotations to add to the item (expand mode marks the source Cluster local-config). */
  addAnnotations?: Record<string, string>;
}

export interface ClusterOutput {
  cluster: string;
  objects: JsonObject[];
  /** With `provenance: true`: where every field of the rendered objects came from. */
  provenance?: ProvenanceInput;
  /**
   * A Cluster whose earlier objects are reused as they came (pipeline/reuse.ts; only with earlier
   * outputs cut from a ResourceList, so only in KRM function mode): their list entries, as text.
   * `objects` is then empty.
   */
  reused?: string[];
}

/** What a run decides besides the generated objects (known once every Cluster is rendered). */
export interface PipelineSummary {
  /** Input items to write back, in input order (previous outputs being replaced are left out). */
  keep: InputItem[];
  /** Earlier outputs cut from the input text (`PipelineExtras.earlier`) to write back as they were. */
  keepEntries: string[];
  edits: Map<InputItem, ItemEdit>;
  results: Result[];
}

/** Whose earlier output a run keeps, and why (pipeline/keep.ts): one rule for the earlier objects among the items and for `-o DIR` files. */
export interface KeepDecision {
  kept: KeptOutputs;
}

export interface PipelineOutput extends PipelineSummary {
  /** Sorted by Cluster (`compareClusterOutputs`). */
  generated: ClusterOutput[];
}

/** Receives one Cluster's rendered objects; the objects are the receiver's from then on. */
export type ClusterSink = (output: ClusterOutput) => void;

/** The output order of generated objects: by Cluster key (a stable sort keeps duplicates in input order). */
export const compareClusterOutputs = (a: Pick<ClusterOutput, 'cluster'>, b: Pick<ClusterOutput, 'cluster'>): number => (a.cluster < b.cluster ? -1 : a.cluster > b.cluster ? 1 : 0);

const refKey = (r: ObjectRef, defaultNamespace: string) => `${r.apiVersion}\0${r.kind}\0${r.namespace ?? defaultNamespace}\0${r.name}`;

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

/** One render of a Cluster: its results and, when it rendered, its objects (and item edit, provenance). */
interface Attempt {
  results: Result[];
  objects?: JsonObject[];
  edit?: ItemEdit;
  provenance?: ProvenanceInput;
}

/** A digest of an object's content, whatever the key order of the inputs it was built from. */
const objectDigest = (obj: JsonObject): string => createHash('sha256').update(canonicalJson(obj)).digest('hex').slice(0, 32);

/** Whether every object's digest is among the earlier outputs' (as a multiset). */
function containsDigests(earlier: readonly EarlierOutput[], objects: readonly JsonObject[]): boolean {
  const count = new Map<string, number>();
  for (const e of earlier) count.set(e.digest!, (count.get(e.digest!) ?? 0) + 1);
  return objects.every((o) => {
    const d = String(annotationsOf(o)[DIGEST_ANNOTATION]);
    const n = count.get(d) ?? 0;
    count.set(d, n - 1);
    return n > 0;
  });
}

/**
 * Owner, file path/index (both annotation generations), in preview local-config, and the digest
 * of the object as rendered (what a re-render compares instead of parsing the earlier output).
 */
function annotateGenerated(objects: JsonObject[], owner: string, path: string, preview: boolean): void {
  objects.forEach((obj, index) => {
    const digest = objectDigest(obj);
    const meta = asObject(obj.metadata) ?? {};
    const annotations: JsonObject = { ...asObject(meta.annotations) };
    annotations[OWNER_ANNOTATION] = owner;
    if (preview) annotations[LOCAL_CONFIG_ANNOTATION] = 'true';
    annotations[PATH_ANNOTATION] = path;
    annotations[INDEX_ANNOTATION] = String(index);
    annotations[LEGACY_PATH_ANNOTATION] = path;
    annotations[LEGACY_INDEX_ANNOTATION] = String(index);
    annotations[DIGEST_ANNOTATION] = digest;
    meta.annotations = annotations;
    obj.metadata = meta;
  });
}

/** Marks a render's objects as reusable by a re-render with the same inputs (pipeline/reuse.ts). */
function markReusable(objects: readonly JsonObject[], mark: string): void {
  for (const obj of objects) asObject(asObject(obj.metadata)!.annotations)![INPUTS_ANNOTATION] = mark;
}

const renderedResult = (ref: ObjectRef, key: string, count: number): Result => ({
  severity: 'info',
  message: `rendered ${count} objects for Cluster ${key}`,
  resourceRef: ref,
  tags: { rule: 'rendered' },
});

function internalError(ref: ObjectRef, e: unknown): Result {
  const detail = e instanceof Error ? e.message : String(e);
  return {
    severity: 'error',
    message: `internal error while rendering ${ref.kind} "${ref.name}": ${detail} (please report this; other Clusters were rendered)`,
    resourceRef: ref,
    tags: { rule: 'internal' },
  };
}

/** Inputs that are not items of this run (CLI `--crds`, `--previous`, `--observed`). */
export interface PipelineExtras {
  crds?: readonly JsonObject[];
  /** The inputs as they were before this change (CLI `--previous`); in a package, items marked `render-clusterclass.dev/previous`. */
  previousInputs?: readonly InputItem[];
  /** Live objects exported from the management cluster, with their status. */
  observed?: readonly JsonObject[];
  /** Runtime SDK extensions: ExtensionConfigs from files, URL overrides, live/record/replay. */
  extensions?: ExtensionInputs;
  /** Objects generated on an earlier run, cut from a ResourceList's text (krm/earlier.ts). */
  earlier?: readonly EarlierOutput[];
  /** The renderer's build (cli/build.ts): with one and `reuse: true`, renders are marked reusable and earlier ones reused (pipeline/reuse.ts). */
  renderer?: string;
  /** Told after each Cluster (the CLI's progress indicator). */
  progress?: (done: number, total: number) => void;
  /** Input files that could not be read or parsed (the CLI's; reported already): while there are any, nothing is pruned. */
  unreadable?: readonly string[];
  /** Clusters with output from an earlier run that is not among the items (the CLI's `-o DIR`). */
  earlierClusters?: ReadonlySet<string>;
}

/** A compiled class, with the document it was read from (explain names its fields as written). */
type BlueprintEntry = { blueprint?: Blueprint; document?: JsonObject; ok: boolean };

/** Validates an input object against its CRD (each object once); absent without CRDs. */
type InputCheck = (obj: JsonObject, ref: ObjectRef) => Result[];

/**
 * ClusterClasses by `namespace/name`, compiled the first time a Cluster of this run uses them;
 * `checkInput` sees each used class and the templates it references, as written.
 */
function blueprintCache(classes: readonly InputItem[], templates: TemplateIndex, config: RenderConfig, contractOf: ContractLookup, results: Result[], crds: CrdIndex, extensions: ExtensionClient | undefined, checkInput?: InputCheck) {
  const ns = config.defaultNamespace;
  // Every class is decoded as the API server would, used or not: one it rejects is never compiled.
  const rejected = new Set<InputItem>();
  for (const item of classes) {
    const decoding = apiServerDecodingErrors(item.value, { ...item.ref!, namespace: item.ref!.namespace ?? ns }, crds);
    results.push(...decoding);
    if (hasErrors(decoding)) rejected.add(item);
  }
  const docs = new Map<string, InputItem>();
  for (const item of classes) docs.set(clusterKey(item.ref!.namespace ?? ns, item.ref!.name), item);
  const cache = new Map<string, BlueprintEntry>();
  const classTemplates = new Set<string>();
  const get = (key: string): BlueprintEntry | undefined => {
    const cached = cache.get(key);
    if (cached) return cached;
    const item = docs.get(key);
    if (!item) return undefined;
    const ref: ObjectRef = { ...item.ref!, namespace: item.ref!.namespace ?? ns };
    let entry: BlueprintEntry = { ok: false };
    try {
      if (checkInput) results.push(...checkInput(item.value, ref));
      const normalized = rejected.has(item) ? { results: [] } : normalizeClusterClass(item.value, ref);
      results.push(...normalized.results);
      const cc: ClusterClass | undefined = normalized.value;
      if (cc) {
        for (const t of templateRefsOf(cc)) {
          classTemplates.add(templateKey(t.apiVersion, t.kind, cc.namespace, t.name));
          const written = checkInput && templates.get(t.apiVersion, t.kind, cc.namespace, t.name);
          if (written) results.push(...checkInput(written, { apiVersion: t.apiVersion, kind: t.kind, namespace: cc.namespace, name: t.name }));
        }
        const built = buildBlueprint(cc, ref, templates, { capi: capiProfileOf(config), skipExternalPatches: config.skipExternalPatches, contractOf, ...(extensions ? { extensions } : {}) });
        results.push(...built.results);
        if (built.blueprint) entry = { blueprint: built.blueprint, document: item.value, ok: true };
      }
    } catch (e) {
      results.push(internalError(ref, e));
    }
    cache.set(key, entry);
    return entry;
  };
  return { get, classTemplates };
}

/**
 * The template index as the API server stores templates (CAPI core/reconcilers/topology/cluster/cluster_controller.go `reconcile`: CRD structural defaults and the
 * emulated defaulting webhooks, `storedTemplate`), and, for provenance, the defaults applied to
 * each (the defaulting run again, observed).
 */
function defaultedTemplates(templates: TemplateIndex, crds: CrdIndex): { index: TemplateIndex; defaults: TemplateDefaults } {
  const cache = new Map<string, JsonObject | undefined>();
  const written = new Map<JsonObject, JsonObject>();
  const index: TemplateIndex = {
    get(apiVersion, kind, namespace, name) {
      const key = templateKey(apiVersion, kind, namespace, name);
      if (!cache.has(key)) {
        const t = templates.get(apiVersion, kind, namespace, name);
        const defaulted = t && storedTemplate(crds, t);
        if (t && defaulted) written.set(defaulted, t);
        cache.set(key, defaulted);
      }
      return cache.get(key);
    },
  };
  const defaults: TemplateDefaults = (defaulted) => {
    const t = written.get(defaulted);
    const out: { path: (string | number)[]; detail: string }[] = [];
    if (t) storedTemplate(crds, t, (path, detail) => out.push({ path, detail }));
    return out;
  };
  return { index, defaults };
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

const classMissing = (ref: ObjectRef, cluster: Cluster, classKey: string): Result => ({
  severity: 'error',
  message: `ClusterClass "${classKey}" not found: add it (and its templates) to the input, or fix the class reference`,
  resourceRef: ref,
  field: { path: cluster.sourceApiVersion.endsWith('/v1beta1') ? 'spec.topology.class' : 'spec.topology.classRef.name' },
  tags: { rule: 'class-missing', clusterClass: classKey },
});

const classInvalid = (ref: ObjectRef, classKey: string): Result => ({
  severity: 'error',
  message: `ClusterClass "${classKey}" is invalid (see its results); Cluster not rendered`,
  resourceRef: ref,
  field: { path: 'spec.topology' },
  tags: { rule: 'class-invalid' },
});

/** Control planes and MachineDeployments whose rendered templates or versions changed since the earlier render. */
function rolloutResults(previous: readonly JsonObject[] | undefined, objects: JsonObject[], ref: ObjectRef, key: string): Result[] {
  if (!previous || previous.length === 0) return [];
  return rolloutReport(previous, objects).map((r) => ({
    severity: 'info',
    message: `${r.kind} ${r.name} will roll out: ${r.reasons.map((x) => `${x.template}${x.fields.length > 0 ? ` (${x.fields.join(', ')})` : ''}`).join('; ')}`,
    resourceRef: ref,
    tags: { rule: 'rollout', cluster: key },
  }));
}

const isCapiTopologyKind = (ref: ObjectRef) => (ref.kind === 'Cluster' || ref.kind === 'ClusterClass') && ref.apiVersion.startsWith('cluster.x-k8s.io/');

/** A Cluster without `spec.topology` is CAPI's classic form: nothing to render. */
const passedThrough = (ref: ObjectRef): Result => ({
  severity: 'info',
  message: `Cluster ${ref.namespace}/${ref.name} has no spec.topology: passed through unrendered (only Clusters with a managed topology are rendered)`,
  resourceRef: ref,
  field: { path: 'spec.topology' },
  tags: { rule: 'no-topology' },
});

const located = (i: InputItem) => (i.file ? `${i.file.path}${i.file.index ? `#${i.file.index}` : ''}` : 'an input without a file annotation');

/** Items that could not be read as objects (no identity; each has its error result), as the user finds them: file, else place in the list. */
const unreadableItems = (items: readonly InputItem[]): string[] => items.flatMap((i, index) => (i.ref ? [] : [i.file ? located(i) : `items[${index}]`]));

/** kustomize refuses a second object of the same identity; so do we, naming where each copy is. */
function duplicateResults(groups: readonly InputItem[][], ns: string): Result[] {
  return groups.map((group) => {
    const ref: ObjectRef = { ...group[0]!.ref!, namespace: group[0]!.ref!.namespace ?? ns };
    const what = ref.kind === 'Cluster' ? 'none of them is rendered' : ref.kind === 'ClusterClass' ? 'its Clusters are not rendered' : 'which one a ClusterClass uses is undefined';
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
const strictly = (results: Result[]): Result[] => results.map((r) => (r.severity === 'warning' ? { ...r, severity: 'error', tags: { ...r.tags, strict: 'true' } } : r));

/** The run with every Cluster's objects collected (sorted by Cluster). */
export function runPipeline(items: readonly InputItem[], config: RenderConfig, readResults: readonly Result[] = [], extras: PipelineExtras = {}): PipelineOutput & KeepDecision {
  const generated: ClusterOutput[] = [];
  const summary = renderPipeline(items, config, readResults, extras, (g) => generated.push(g));
  return { ...summary, generated: generated.sort(compareClusterOutputs) };
}

/** The run, handing each rendered Cluster's objects to `sink` as soon as they are rendered (input order). */
export function renderPipeline(items: readonly InputItem[], config: RenderConfig, readResults: readonly Result[], extras: PipelineExtras, sink: ClusterSink): PipelineSummary & KeepDecision {
  const results: Result[] = [...readResults];
  const ns = config.defaultNamespace;
  const { classes, clusters, generated, templates, crdObjects, previous, observed, classicClusters, duplicates, present } = classify(items, ns, extras.earlier);
  const observedObjects = [...observed, ...(extras.observed ?? [])];
  // The previous inputs give the webhooks' update rules and, rendered, the current state of
  // Clusters whose earlier outputs are not in the package.
  const previousInputs = [...previous.map((i) => ({ ...i, value: withoutPreviousMark(i.value) })), ...(extras.previousInputs ?? [])];
  let previousRender: Map<string, JsonObject[]> | undefined;
  if (previousInputs.length > 0) {
    results.push(...updateResults(previousInputs, items.filter((i) => !previous.includes(i)), config));
    const earlier = runPipeline(previousInputs, { ...config, mode: 'preview', strict: false, provenance: false }, [], { ...(extras.crds ? { crds: extras.crds } : {}), ...(extras.extensions ? { extensions: extras.extensions } : {}) });
    previousRender = new Map(earlier.generated.map((g) => [g.cluster, g.objects]));
  }
  const loaded = loadCrds([...crdObjects, ...(extras.crds ?? [])]);
  results.push(...loaded.results);
  const haveCrds = crdObjects.length + (extras.crds?.length ?? 0) > 0;
  const contractOf = contractLookup(config.contractVersions, contractVersionsFromCrds(loaded.crds));
  // With CRDs, the inputs a render uses are validated as the API server would validate them on
  // create; for Clusters and ClusterClasses, unknown fields are strict-decoding errors instead.
  const crdCheck = haveCrds ? inputCrdValidator(loaded.crds) : undefined;
  const checkInput: InputCheck | undefined = crdCheck && ((obj, ref) => crdCheck(obj, ref).filter((r) => !(r.tags?.rule === 'crd-pruned' && isCapiTopologyKind(ref))));
  const { client: extensions, results: extensionResults } = extensionClientFor(items.map((i) => i.value), extras.extensions);
  results.push(...extensionResults);
  const defaulted = haveCrds ? defaultedTemplates(templates, loaded.crds) : undefined;
  const blueprints = blueprintCache(classes, defaulted?.index ?? templates, config, contractOf, results, loaded.crds, extensions, checkInput);
  const newRecorder = () => new OriginRecorder(defaulted?.defaults);
  // Renders that read a current state (observed objects, extension answers) are never reused.
  const reuse = config.reuse && extras.renderer !== undefined && observedObjects.length === 0 && !extensions && config.mode !== 'validate';
  const runInputs = reuse ? runInputsDigest(extras.renderer!, config, [...crdObjects, ...(extras.crds ?? [])]) : undefined;
  const classInputs = new Map<string, string>();
  /** The digest of what a class's Clusters' renders read besides the Cluster (once per class). */
  const classInputsOf = (key: string, entry: BlueprintEntry): string | undefined => {
    if (!runInputs) return undefined;
    if (!classInputs.has(key)) classInputs.set(key, classInputsDigest(runInputs, entry.blueprint!, entry.document!));
    return classInputs.get(key);
  };
  results.push(...duplicateResults(duplicates, ns));
  const duplicateClasses = new Set(duplicates.filter((g) => g[0]!.ref!.kind === 'ClusterClass').map((g) => clusterKey(g[0]!.ref!.namespace ?? ns, g[0]!.ref!.name)));
  for (const item of classicClusters) {
    const ref: ObjectRef = { ...item.ref!, namespace: item.ref!.namespace ?? ns };
    const key = clusterKey(ref.namespace!, ref.name);
    // Rendered before, so it has a topology where it is applied: its earlier output is kept (keep.ts).
    const hadTopology = generated.has(key) || previousRender?.has(key) === true || extras.earlierClusters?.has(key) === true;
    results.push(...apiServerDecodingErrors(item.value, ref, loaded.crds), hadTopology ? topologyRemoved(ref) : passedThrough(ref));
  }

  const edits = new Map<InputItem, ItemEdit>();
  const rendered = new Set<string>();
  for (const [done, item] of clusters.entries()) {
    extras.progress?.(done, clusters.length);
    const ref: ObjectRef = { ...item.ref!, namespace: item.ref!.namespace ?? ns };
    const key = clusterKey(ref.namespace!, ref.name);
    if (config.shard && shardOf(ref.namespace!, ref.name, config.shard.count) !== config.shard.index) continue;
    let output: ClusterOutput | undefined;
    try {
      const decoding = apiServerDecodingErrors(item.value, ref, loaded.crds);
      results.push(...decoding);
      if (checkInput) results.push(...checkInput(item.value, ref));
      if (hasErrors(decoding)) continue;
      const naming = clusterNameResults(ref);
      results.push(...naming);
      if (naming.length > 0) continue;
      const normalized = normalizeCluster(item.value, ref);
      results.push(...normalized.results);
      const cluster = normalized.value;
      if (!cluster) continue;
      const classKey = clusterKey(cluster.topology.classRef.namespace ?? cluster.namespace, cluster.topology.classRef.name);
      const bp = blueprints.get(classKey);
      if (!bp || !bp.blueprint) {
        results.push(bp || duplicateClasses.has(classKey) ? classInvalid(ref, classKey) : classMissing(ref, cluster, classKey));
        continue;
      }
      const coreVersion = coreVersionFor(cluster, config);
      /** One render of this Cluster against a current state (the earlier objects, observed objects). */
      const attempt = (earlier: readonly JsonObject[] | undefined): Attempt => {
        const out: Result[] = [];
        const current = earlier || observedObjects.length > 0 ? { previous: earlier, observed: observedObjects } : undefined;
        const options = { coreVersion, upgrade: config.upgrade, ...(current ? { current } : {}), ...(extensions ? { extensions } : {}) };
        // With provenance, the render records where every value came from (a plain render records nothing). So it does
        // when CRDs may reject a value and extensions are called: the origins of such an error come from this render.
        const recorder = config.provenance || (haveCrds && extensions) ? newRecorder() : undefined;
        const outcome = renderCluster(bp.blueprint!, cluster, ref, recorder ? { ...options, recorder } : options);
        out.push(...outcome.results.map((r) => withStoredTemplateHint(r, loaded.crds)));
        if (!outcome.ok) return { results: out };
        const entries = renderedObjects(outcome.rendered);
        const objects = entries.map((e) => e.object);
        const inputs = { cluster: item.value, clusterClass: bp.document! };
        if (haveCrds) {
          // As on create: CRD defaults, the provider's defaulting webhook, CRD defaults, then the schema (admission.ts).
          const rejected = objects.flatMap((o) => {
            const objRef = refOf(o);
            return objRef ? validateOnCreate(loaded.crds, o, objRef) : [];
          });
          // Where a rejected value came from: recorded by this render, or else by the same render once more with a recorder.
          const origins = () => {
            if (recorder) return explainObjects(entries, recorder, inputs);
            const again = newRecorder();
            const r = renderCluster(bp.blueprint!, cluster, ref, { ...options, recorder: again });
            return r.ok ? explainObjects(renderedObjects(r.rendered), again, inputs) : [];
          };
          out.push(...withValueOrigins(rejected, fieldOrigins(origins, bp.blueprint!.classRef.name)).map((r) => ({ ...r, tags: { ...r.tags, cluster: key } })));
        }
        out.push(...rolloutResults(earlier, objects, ref, key));
        if (config.mode === 'validate') return { results: out, objects };
        const classic = config.mode === 'expand' ? classicCluster(item.value, outcome.rendered.desired, coreVersion, recorder) : undefined;
        let edit: ItemEdit | undefined;
        if (classic) {
          if (annotationsOf(item.value)['kustomize.config.k8s.io/id'] !== undefined) {
            edit = { replaceWith: classic };
          } else {
            edit = { addAnnotations: { [LOCAL_CONFIG_ANNOTATION]: 'true' } };
            objects.unshift(stripToolAnnotations(classic));
          }
        }
        // Read before the tool's own annotations are added: they are bookkeeping, not rendered values.
        const provenance = recorder && {
          cluster: ref,
          clusterClass: bp.blueprint!.classRef,
          objects: explainObjects(classic ? [{ role: 'Cluster', object: classic }, ...entries] : entries, recorder, inputs),
        };
        annotateGenerated(objects, key, `${config.outputDir}/${ref.namespace}/${ref.name}.yaml`, config.mode === 'preview');
        if (provenance) {
          const report = provenanceReport(provenance);
          // `_` is in no Cluster name (a lowercase RFC 1123 subdomain): no Cluster's objects can land on this report.
          annotateGenerated([report], key, `${config.outputDir}/${ref.namespace}/${ref.name}_provenance.yaml`, true);
          objects.push(report);
        }
        return { results: out, objects, ...(edit ? { edit } : {}), ...(provenance ? { provenance } : {}) };
      };
      const earlierOutputs = generated.get(key);
      const classDigest = classInputsOf(classKey, bp);
      const inputs = classDigest && annotationsOf(item.value)['kustomize.config.k8s.io/id'] === undefined ? clusterInputsDigest(classDigest, item.value) : undefined;
      const reused = inputs && reusableEntries(earlierOutputs, inputs);
      if (reused) {
        rendered.add(key);
        if (config.mode === 'expand') edits.set(item, { addAnnotations: { [LOCAL_CONFIG_ANNOTATION]: 'true' } });
        output = { cluster: key, objects: [], reused };
        results.push(renderedResult(ref, key, reused.length));
      } else {
        let done: Attempt | undefined;
        let stateless = false;
        // An earlier output holding every object of the stateless render (same digests) is a fixed
        // point: as the current state it changes no version and shows no rollout. So it is not parsed.
        // (Not with observed objects or extensions: they take part in the render, and are called once.)
        if (earlierOutputs?.every((e) => e.digest !== undefined) && observedObjects.length === 0 && !extensions) {
          const attempted = attempt(undefined);
          if (attempted.objects && containsDigests(earlierOutputs, attempted.objects)) [done, stateless] = [attempted, true];
        }
        if (!done) {
          const state = earlierOutputs ? earlierOutputs.map((e) => e.value()).filter((v): v is JsonObject => v !== undefined) : previousRender?.get(key);
          [done, stateless] = [attempt(state), state === undefined];
        }
        results.push(...done.results);
        if (!done.objects) continue;
        rendered.add(key);
        if (config.mode === 'validate') continue;
        if (done.edit) edits.set(item, done.edit);
        if (inputs && stateless && done.results.length === 0) markReusable(done.objects, inputsMark(inputs, done.objects.length));
        output = done.provenance ? { cluster: key, objects: done.objects, provenance: done.provenance } : { cluster: key, objects: done.objects };
        results.push(renderedResult(ref, key, done.objects.length));
      }
    } catch (e) {
      results.push(internalError(ref, e));
    }
    // Outside the try: a failing sink (the writer) fails the run rather than passing for this Cluster's error.
    if (output) sink(output);
  }

  // Outputs of an earlier run are replaced for Clusters rendered now and pruned for Clusters that
  // are gone (keep.ts); a Cluster in the inputs that is not rendered keeps them as they came.
  const inThisShard = (owner: string) => !config.shard || shardOf(...splitKey(owner), config.shard.count) === config.shard.index;
  const kept = keptOutputs(present, rendered, [...unreadableItems(items), ...(extras.unreadable ?? [])], inThisShard);
  const replaced = new Set<EarlierOutput>();
  if (config.mode !== 'validate') {
    for (const [owner, list] of generated) if (kept.reason(owner) === undefined) list.forEach((e) => replaced.add(e));
    const notFound = [...generated.keys()].filter((owner) => kept.reason(owner) === 'unreadable-input');
    if (notFound.length > 0) results.push(unreadableKeptResult(`the earlier objects of Clusters not found this run (${named(notFound)})`, kept.unreadable));
  }
  const dropClassInputs = config.mode === 'expand' && !config.keepClassInputs;
  const isClassInput = (i: InputItem) =>
    classes.includes(i) || (!!i.ref && blueprints.classTemplates.has(templateKey(i.ref.apiVersion, i.ref.kind, i.ref.namespace ?? ns, i.ref.name)));
  const replacedItems = new Set([...replaced].flatMap((e) => (e.item ? [e.item] : [])));
  const keep = items.filter((i) => !replacedItems.has(i) && !(dropClassInputs && isClassInput(i)));
  const keepEntries = (extras.earlier ?? []).filter((e) => !replaced.has(e)).map((e) => e.entry!);
  return { keep, keepEntries, edits, results: withFiles(config.strict ? strictly(results) : results, items, ns), kept };
}

const splitKey = (key: string): [string, string] => {
  const i = key.indexOf('/');
  return [key.slice(0, i), key.slice(i + 1)];
};

/** A previous-state item as it was: the marker annotation removed, so it classifies as a current one would. */
function withoutPreviousMark(value: JsonObject): JsonObject {
  const copy = cloneJson(value);
  const annotations = asObject(asObject(copy.metadata)?.annotations);
  if (annotations) delete annotations[PREVIOUS_ANNOTATION];
  return copy;
}

function stripToolAnnotations(obj: JsonObject): JsonObject {
  const meta = asObject(obj.metadata);
  const annotations = asObject(meta?.annotations);
  if (meta && annotations) {
    for (const k of Object.keys(annotations)) if (isToolAnnotation(k)) delete annotations[k];
    // Only tool annotations (kpt's) or none: the same object either way.
    if (Object.keys(annotations).length === 0) delete meta.annotations;
  }
  return obj;
}

/** Fills `file` of results about input objects from their path annotations. */
function withFiles(results: Result[], items: readonly InputItem[], ns: string): Result[] {
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
