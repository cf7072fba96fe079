/**
 * `explain` (issue #6): for every leaf of every object rendered for one Cluster, where its value
 * came from — a ClusterClass template, the ClusterClass, the Cluster, a patch (with the
 * variables it read), or the topology controller itself.
 *
 * Differential attribution without instrumenting the renderer:
 *   1. render the Cluster as the pipeline does (the result is the truth every leaf is read from);
 *   2. recompute the desired state with the final names and attribute it field by field
 *      (./desired.ts mirrors src/topology/desired.ts);
 *   3. replay the patch engine one JSON patch operation at a time, following each operation in
 *      the provenance trees of the request items (./patches.ts), then the §7.6 write-back;
 *   4. check the replay reproduces the rendered objects, and that every template attribution
 *      points at the value it claims.
 */
import { extensionClientFor, type ExtensionInputs } from '../extensions/client.js';
import type { Cluster, ClusterClass, Json, JsonObject, ObjectRef } from '../api/model.js';
import type { Result } from '../krm/result.js';
import type { RenderConfig } from '../krm/config.js';
import type { InputItem } from '../krm/read.js';
import type { Blueprint } from '../blueprint/blueprint.js';
import { asObject, canonicalJson, cloneJson } from '../api/json.js';
import { normalizeCluster, normalizeClusterClass } from '../api/normalize.js';
import { buildBlueprint } from '../blueprint/blueprint.js';
import { contractLookup } from '../blueprint/contract.js';
import { classify, clusterKey as keyOf, isToolAnnotation } from '../pipeline/classify.js';
import { coreVersionFor } from '../pipeline/versions.js';
import { renderCluster, type RenderedCluster } from '../topology/render.js';
import { computeDesiredState, type CoreVersion, type DesiredState, type TopologyNames } from '../topology/desired.js';
import { classicCluster } from '../topology/cluster.js';
import { validateClusterTopology } from '../validation/cluster.js';
import type { ExplainResult, ExplainedObject, FieldOrigin, PatchEvaluation, Source } from './types.js';
import { formatPath, getAt, leaves, parsePath } from './paths.js';
import { sourceAt, type PNode } from './tree.js';
import {
  classicClusterTree,
  controlPlaneHealthCheckTree,
  controlPlaneMachineTemplateTree,
  controlPlaneTree,
  infrastructureClusterTree,
  machineDeploymentTrees,
  machinePoolTrees,
  type AttributionContext,
} from './desired.js';
import { buildSlots, replayPatches, writeBack, type DesiredTrees, type Slot } from './patches.js';

export type { ExplainResult, ExplainedObject, FieldOrigin, Source } from './types.js';

const nameOf = (o: JsonObject): string => String(asObject(o.metadata)?.name ?? '');

/** The names a rendered Cluster ended up with (so the recomputed desired state matches it). */
function namesOf(d: DesiredState): TopologyNames {
  const names: TopologyNames = { controlPlane: nameOf(d.controlPlane), machineDeployments: new Map(), machinePools: new Map() };
  if (d.infrastructureCluster) names.infrastructureCluster = nameOf(d.infrastructureCluster);
  if (d.controlPlaneMachineTemplate) names.controlPlaneMachineTemplate = nameOf(d.controlPlaneMachineTemplate);
  for (const md of d.machineDeployments) {
    names.machineDeployments.set(md.topology.name, {
      machineDeployment: nameOf(md.machineDeployment),
      bootstrapTemplate: nameOf(md.bootstrapTemplate),
      infrastructureTemplate: nameOf(md.infrastructureTemplate),
    });
  }
  for (const mp of d.machinePools) {
    names.machinePools.set(mp.topology.name, { machinePool: nameOf(mp.machinePool), bootstrapObject: nameOf(mp.bootstrapObject), infrastructureObject: nameOf(mp.infrastructureObject) });
  }
  return names;
}

interface Entry {
  role: string;
  /** The object as rendered (what is explained). */
  rendered: JsonObject;
  /** The object as the replay produced it, and its tree. */
  replayed: JsonObject;
  tree: PNode;
  patches?: PatchEvaluation[];
}

export interface ExplainRenderedInput {
  blueprint: Blueprint;
  /** The normalised input Cluster (variables as written). */
  cluster: Cluster;
  clusterRef: ObjectRef;
  rendered: RenderedCluster;
  coreVersion: CoreVersion;
  /** The Cluster document as read; with it, expand mode's classic Cluster is explained too. */
  clusterDocument?: JsonObject;
  /** Explain the classic Cluster written in expand mode (needs clusterDocument). */
  includeClassicCluster?: boolean;
}

/**
 * Explains an already rendered Cluster (what `runPipeline` has in hand after `renderCluster`),
 * in the pipeline's object order.
 */
export function explainRendered(input: ExplainRenderedInput): { objects: ExplainedObject[]; results: Result[] } {
  const { blueprint: bp, clusterRef, rendered, coreVersion } = input;
  const results: Result[] = [];
  const validated = validateClusterTopology(bp, input.cluster, clusterRef).cluster;
  if (!validated) return { objects: [], results: [{ severity: 'error', message: 'explain: the Cluster does not validate', resourceRef: clusterRef }] };
  const ctx: AttributionContext = {
    bp,
    cluster: validated,
    inputVersion: input.cluster.topology.version,
    coreVersion,
    clusterV1: input.cluster.sourceApiVersion.endsWith('/v1beta1'),
    classV1: bp.cc.sourceApiVersion.endsWith('/v1beta1'),
  };
  const desired = computeDesiredState(bp, validated, namesOf(rendered.desired), coreVersion, rendered.versions);

  const trees: DesiredTrees = {
    controlPlane: controlPlaneTree(ctx, desired.controlPlane),
    machineDeployments: [],
    machinePools: [],
  };
  if (desired.infrastructureCluster) trees.infrastructureCluster = infrastructureClusterTree(ctx, desired.infrastructureCluster);
  if (desired.controlPlaneMachineTemplate) trees.controlPlaneMachineTemplate = controlPlaneMachineTemplateTree(ctx, desired.controlPlaneMachineTemplate);
  const mdTrees = desired.machineDeployments.map((md) => machineDeploymentTrees(ctx, md, validated.topology.workers.machineDeployments.indexOf(md.topology)));
  const mpTrees = desired.machinePools.map((mp) => machinePoolTrees(ctx, mp, validated.topology.workers.machinePools.indexOf(mp.topology)));
  trees.machineDeployments = mdTrees;
  trees.machinePools = mpTrees;

  // Objects the patch engine does not touch keep their desired-state trees.
  const patched = new Map<JsonObject, { object: JsonObject; tree: PNode; patches: PatchEvaluation[] }>();
  if (bp.cc.patches.length > 0) {
    const { slots, globalVariables } = buildSlots(bp, validated, desired, rendered.variables, trees);
    const errors = replayPatches({ bp, cluster: input.cluster, variables: rendered.variables }, slots, globalVariables, clusterRef);
    if (errors.length > 0) return { objects: [], results: errors };
    for (const slot of slots as Slot[]) patched.set(slot.desired, { ...writeBack(slot), patches: slot.patches });
  }
  const r = rendered.desired;
  const entries: Entry[] = [];
  const push = (role: string, renderedObj: JsonObject | undefined, desiredObj: JsonObject | undefined, tree: PNode | undefined) => {
    if (!renderedObj || !desiredObj || !tree) return;
    const p = patched.get(desiredObj);
    const entry: Entry = { role, rendered: renderedObj, replayed: p?.object ?? desiredObj, tree: p?.tree ?? tree };
    if (p) entry.patches = p.patches;
    entries.push(entry);
  };
  push('InfrastructureCluster', r.infrastructureCluster, desired.infrastructureCluster, trees.infrastructureCluster);
  push('ControlPlaneMachineTemplate', r.controlPlaneMachineTemplate, desired.controlPlaneMachineTemplate, trees.controlPlaneMachineTemplate);
  push('ControlPlane', r.controlPlane, desired.controlPlane, trees.controlPlane);
  if (desired.controlPlaneHealthCheck) push('ControlPlaneHealthCheck', r.controlPlaneHealthCheck, desired.controlPlaneHealthCheck, controlPlaneHealthCheckTree(ctx, desired.controlPlaneHealthCheck));
  r.machineDeployments.forEach((md, i) => {
    const d = desired.machineDeployments[i]!;
    const t = mdTrees[i]!;
    const name = md.topology.name;
    push(`MachineDeploymentBootstrapTemplate ${name}`, md.bootstrapTemplate, d.bootstrapTemplate, t.bootstrapTemplate);
    push(`MachineDeploymentInfrastructureTemplate ${name}`, md.infrastructureTemplate, d.infrastructureTemplate, t.infrastructureTemplate);
    push(`MachineDeployment ${name}`, md.machineDeployment, d.machineDeployment, t.machineDeployment);
    push(`MachineDeploymentHealthCheck ${name}`, md.healthCheck, d.healthCheck, t.healthCheck);
  });
  r.machinePools.forEach((mp, i) => {
    const d = desired.machinePools[i]!;
    const t = mpTrees[i]!;
    const name = mp.topology.name;
    push(`MachinePoolBootstrap ${name}`, mp.bootstrapObject, d.bootstrapObject, t.bootstrapObject);
    push(`MachinePoolInfrastructure ${name}`, mp.infrastructureObject, d.infrastructureObject, t.infrastructureObject);
    push(`MachinePool ${name}`, mp.machinePool, d.machinePool, t.machinePool);
  });
  if (input.includeClassicCluster && input.clusterDocument) {
    const classic = classicCluster(input.clusterDocument, r, coreVersion);
    const annotations = asObject(asObject(classic.metadata)?.annotations);
    if (annotations) {
      for (const k of Object.keys(annotations)) if (isToolAnnotation(k)) delete annotations[k];
      if (Object.keys(annotations).length === 0) delete asObject(classic.metadata)!.annotations;
    }
    entries.unshift({ role: 'Cluster', rendered: classic, replayed: classic, tree: classicClusterTree(classic, input.clusterDocument) });
  }

  const templates = new Map<string, JsonObject>();
  for (const t of [bp.infrastructureCluster, bp.controlPlane, bp.controlPlaneMachineInfrastructure, ...[...bp.machineDeployments.values()].flatMap((m) => [m.bootstrap, m.infrastructure]), ...[...bp.machinePools.values()].flatMap((m) => [m.bootstrap, m.infrastructure])]) {
    if (t) templates.set(`${t.ref.apiVersion}\0${t.ref.kind}\0${t.ref.name}`, t.object);
  }
  const objects = entries.map((e) => {
    const ref = refOf(e.rendered);
    if (canonicalJson(e.replayed) !== canonicalJson(e.rendered)) {
      results.push({
        severity: 'warning',
        message: `explain: replaying the patches did not reproduce ${ref.kind} "${ref.name}" exactly; some attributions may be wrong (please report this)`,
        resourceRef: ref,
        tags: { rule: 'explain-replay' },
      });
    }
    const fields: FieldOrigin[] = leaves(e.rendered).map((l) => ({ path: formatPath(l.segs), value: l.value, source: checked(sourceAt(e.tree, l.segs), l.value, templates) }));
    const out: ExplainedObject = { ref, role: e.role, fields };
    if (e.patches) out.patches = e.patches;
    return out;
  });
  return { objects, results };
}

/** A template attribution must point at the value; otherwise it is reported as unknown. */
function checked(source: Source, value: Json, templates: Map<string, JsonObject>): Source {
  if (source.kind !== 'template') return source;
  const doc = templates.get(`${source.template.apiVersion}\0${source.template.kind}\0${source.template.name}`);
  const segs = parsePath(source.path);
  const actual = doc && segs ? getAt(doc, segs) : undefined;
  if (actual !== undefined && canonicalJson(actual) === canonicalJson(value)) return source;
  return { kind: 'unknown', detail: `expected from ${source.template.kind} ${source.template.name} ${source.path}, but the template holds ${actual === undefined ? 'nothing' : JSON.stringify(actual)} there` };
}

function refOf(o: JsonObject): ExplainedObject['ref'] {
  const meta = asObject(o.metadata) ?? {};
  return { apiVersion: String(o.apiVersion ?? ''), kind: String(o.kind ?? ''), name: String(meta.name ?? ''), namespace: String(meta.namespace ?? '') };
}

/**
 * Renders one Cluster of the input (`namespace/name`, or a name that is unique across
 * namespaces) and explains every field of every object rendered for it. Results carry the
 * reasons when the Cluster is missing or does not render (then `objects` is empty).
 */
/** `extensions`: the Runtime SDK setup (ExtensionConfigs, recordings) the render uses, as for `render`. */
export function explainCluster(items: InputItem[], config: RenderConfig, clusterKey: string, extensions?: ExtensionInputs): ExplainResult {
  const ns = config.defaultNamespace;
  const { classes, clusters, templates } = classify(items, ns);
  const refOfItem = (i: InputItem): ObjectRef => ({ ...i.ref!, namespace: i.ref!.namespace ?? ns });
  const matches = clusters.filter((i) => {
    const ref = refOfItem(i);
    return clusterKey.includes('/') ? keyOf(ref.namespace!, ref.name) === clusterKey : ref.name === clusterKey;
  });
  if (matches.length !== 1) {
    const known = clusters.map((i) => keyOf(refOfItem(i).namespace!, refOfItem(i).name)).sort();
    const message =
      matches.length === 0
        ? `Cluster "${clusterKey}" not found among the topology Clusters of the input${known.length > 0 ? ` (${known.join(', ')})` : ''}`
        : `Cluster name "${clusterKey}" is ambiguous: ${matches.map((i) => keyOf(refOfItem(i).namespace!, refOfItem(i).name)).join(', ')}; use namespace/name`;
    return { objects: [], results: [{ severity: 'error', message, tags: { rule: 'explain-cluster' } }] };
  }
  const item = matches[0]!;
  const ref = refOfItem(item);
  const results: Result[] = [];
  const fail = (): ExplainResult => ({ objects: [], results, cluster: ref });
  const normalized = normalizeCluster(item.value, ref);
  results.push(...normalized.results);
  const cluster = normalized.value;
  if (!cluster) return fail();
  const classNs = cluster.topology.classRef.namespace ?? cluster.namespace;
  const classItem = classes.find((c) => (c.ref!.namespace ?? ns) === classNs && c.ref!.name === cluster.topology.classRef.name);
  if (!classItem) {
    results.push({ severity: 'error', message: `ClusterClass "${classNs}/${cluster.topology.classRef.name}" not found: add it (and its templates) to the input`, resourceRef: ref, tags: { rule: 'class-missing' } });
    return fail();
  }
  const classRef: ObjectRef = refOfItem(classItem);
  const cc = normalizeClusterClass(classItem.value, classRef);
  results.push(...cc.results);
  const klass: ClusterClass | undefined = cc.value;
  if (!klass) return { ...fail(), clusterClass: classRef };
  const { client, results: extensionResults } = extensionClientFor(items.map((i) => i.value), extensions);
  results.push(...extensionResults);
  const built = buildBlueprint(klass, classRef, templates, { skipExternalPatches: config.skipExternalPatches, contractOf: contractLookup(config.contractVersions), ...(client ? { extensions: client } : {}) });
  results.push(...built.results);
  if (!built.blueprint) return { ...fail(), clusterClass: classRef };
  const coreVersion = coreVersionFor(cluster, config);
  const outcome = renderCluster(built.blueprint, cluster, ref, { coreVersion, ...(client ? { extensions: client } : {}) });
  results.push(...outcome.results);
  if (!outcome.ok) return { ...fail(), clusterClass: classRef };
  const explained = explainRendered({
    blueprint: built.blueprint,
    cluster,
    clusterRef: ref,
    rendered: outcome.rendered,
    coreVersion,
    clusterDocument: cloneJson(item.value),
    includeClassicCluster: config.mode === 'expand',
  });
  results.push(...explained.results);
  return { objects: explained.objects, results, cluster: ref, clusterClass: classRef };
}
