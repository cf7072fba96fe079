/**
 * Provenance of the desired state *before* patches (topology-semantics §2): one function per
 * generated object, mirroring `src/topology/desired.ts` field by field, that builds a provenance
 * tree over the object that `computeDesiredState` produced. Paths into the Cluster and the
 * ClusterClass use the spelling of the input documents (v1beta1 or v1beta2).
 */
import type { Cluster, HealthCheck, JsonObject } from '../api/model.js';
import type { Blueprint, MachineDeploymentBlueprint, MachinePoolBlueprint, ResolvedTemplate } from '../blueprint/blueprint.js';
import type { DesiredMachineDeployment, DesiredMachinePool, CoreVersion } from '../topology/desired.js';
import { TIMEOUT_NAMES, controlPlaneContractPaths } from '../topology/desired.js';
import { asObject, asStringMap } from '../api/json.js';
import {
  CLONED_FROM_GROUPKIND,
  CLONED_FROM_NAME,
  CLUSTER_NAME_LABEL,
  CONTROL_PLANE_LABEL,
  DEPLOYMENT_NAME_LABEL,
  POOL_NAME_LABEL,
  TOPOLOGY_OWNED_LABEL,
} from '../topology/labels.js';
import type { TemplateId } from './types.js';
import { getAt, joinPath, type Seg } from './paths.js';
import { UNATTRIBUTED, at, fixedNode, node, setAt, type PNode } from './tree.js';

export interface AttributionContext {
  bp: Blueprint;
  /** The Cluster after the defaulting webhook (version with `v`). */
  cluster: Cluster;
  /** `spec.topology.version` as written. */
  inputVersion: string;
  coreVersion: CoreVersion;
  /** The Cluster / ClusterClass were written in v1beta1. */
  clusterV1: boolean;
  classV1: boolean;
}

type Timeout = (typeof TIMEOUT_NAMES)[number];

// ------------------------------------------------------------------ source helpers

export const templateId = (t: ResolvedTemplate): TemplateId => ({ apiVersion: t.ref.apiVersion, kind: t.ref.kind, name: t.ref.name });
const fromTemplate = (t: ResolvedTemplate, path: string): PNode => at({ kind: 'template', template: templateId(t), path });
const fromTopology = (path: string, note?: string): PNode => at(note ? { kind: 'topology', path, note } : { kind: 'topology', path });
const fromClass = (path: string, note?: string): PNode => at(note ? { kind: 'clusterClass', path, note } : { kind: 'clusterClass', path });
const fixed = (detail: string): PNode => fixedNode({ kind: 'fixed', detail });
const builtin = (detail: string): PNode => fixedNode({ kind: 'builtin', detail });

const TOPOLOGY_CP = 'spec.topology.controlPlane';
const mdTopologyPath = (i: number) => `spec.topology.workers.machineDeployments[${i}]`;
const mpTopologyPath = (i: number) => `spec.topology.workers.machinePools[${i}]`;

/** A version below the topology's is the current one, kept back by upgrade sequencing (§2.8). */
function versionNode(ctx: AttributionContext, obj: JsonObject, path: Seg[]): PNode {
  const rendered = getAt(obj, path);
  if (rendered !== ctx.cluster.topology.version) {
    return fixed(`Kubernetes version ${String(rendered)} chosen by upgrade sequencing (control-plane-first) on the way to spec.topology.version ${ctx.cluster.topology.version}; see the upgrade-sequence results`);
  }
  return fromTopology('spec.topology.version', ctx.inputVersion !== ctx.cluster.topology.version ? 'with the "v" prefix the Cluster defaulting webhook adds' : undefined);
}

/** Input path of a node timeout (v1beta1 duration or v1beta2 seconds) below `base`. */
function timeoutPath(base: string, n: Timeout, v1: boolean): string {
  return v1 ? `${base}.${n}` : `${base}.deletion.${n}Seconds`;
}

function timeoutNote(inputV1: boolean, outputDuration: boolean): string | undefined {
  if (inputV1 && !outputDuration) return 'duration converted to seconds';
  if (!inputV1 && outputDuration) return 'seconds converted to a duration';
  if (inputV1 && outputDuration) return 'duration in Go format';
  return undefined;
}

const FIXED_LABEL_DETAIL: Record<string, string> = {
  [CLUSTER_NAME_LABEL]: 'label with the Cluster name, set on every generated object',
  [TOPOLOGY_OWNED_LABEL]: 'label marking objects owned by the topology controller',
  [DEPLOYMENT_NAME_LABEL]: 'label with the MachineDeployment topology name',
  [POOL_NAME_LABEL]: 'label with the MachinePool topology name',
  [CONTROL_PLANE_LABEL]: 'control plane selector label',
};
const fixedLabel = (key: string): PNode => fixed(FIXED_LABEL_DETAIL[key] ?? 'label set by the topology controller');

const clonedFrom = (t: ResolvedTemplate): Record<string, PNode> => ({
  [CLONED_FROM_NAME]: fixed(`name of the ClusterClass template it was cloned from (${t.ref.kind} ${t.ref.name})`),
  [CLONED_FROM_GROUPKIND]: fixed(`group/kind of the ClusterClass template it was cloned from (${t.ref.kind})`),
});

interface Layer {
  keys: Record<string, string> | undefined;
  origin: (key: string) => PNode;
}

/** Per-key origins of a label/annotation map: later layers win; only keys present in the object. */
function mapOrigins(root: PNode, doc: JsonObject, base: Seg[], layers: Layer[]): void {
  const present = asObject(getAt(doc, base));
  if (!present) return;
  for (const layer of layers) {
    for (const k of Object.keys(layer.keys ?? {})) {
      if (Object.prototype.hasOwnProperty.call(present, k)) setAt(root, doc, [...base, k], layer.origin(k));
    }
  }
}

const fixedLayer = (keys: string[]): Layer => ({ keys: Object.fromEntries(keys.map((k) => [k, ''])), origin: fixedLabel });
const nodesLayer = (nodes: Record<string, PNode>): Layer => ({ keys: Object.fromEntries(Object.keys(nodes).map((k) => [k, ''])), origin: (k) => nodes[k]! });

const labelsLayer = (labels: Record<string, string> | undefined, path: (k: string) => PNode): Layer => ({ keys: labels, origin: path });

function ownerRefs(root: PNode, doc: JsonObject): void {
  if (asObject(doc.metadata)?.ownerReferences !== undefined) setAt(root, doc, ['metadata', 'ownerReferences'], fixed('owner reference to the Cluster (emitted only when the Cluster has metadata.uid)'));
}

function namingDetail(what: string, template: string | undefined, path: string, fallback: string): string {
  return template !== undefined
    ? `name of the ${what}, from the naming template ${JSON.stringify(template)} (ClusterClass ${path}; {{ .random }} is a stable hash)`
    : `name of the ${what}, from the default naming template ${JSON.stringify(fallback)} ({{ .random }} is a stable hash)`;
}

// ------------------------------------------------------------------ generic shapes

interface ObjectOptions {
  nameDetail: string;
  /** Label layers between the template's `spec.template.metadata.labels` and the fixed labels. */
  labels?: Layer[];
  annotations?: Layer[];
  fixedLabels: string[];
}

/** §2.2 templateToObject. */
function templateObjectTree(t: ResolvedTemplate, obj: JsonObject, opts: ObjectOptions): PNode {
  const root = node(UNATTRIBUTED);
  const inner = asObject(asObject(t.object.spec)?.template) ?? {};
  for (const key of Object.keys(inner)) {
    if (key === 'metadata' || key === 'apiVersion' || key === 'kind' || key === 'status') continue;
    if (obj[key] !== undefined) setAt(root, obj, [key], fromTemplate(t, joinPath('spec.template', [key])));
  }
  setAt(root, obj, ['apiVersion'], fromTemplate(t, typeof inner.apiVersion === 'string' ? 'spec.template.apiVersion' : 'apiVersion'));
  setAt(root, obj, ['kind'], fixed(`kind of the ClusterClass template (${t.ref.kind}) without "Template"`));
  setAt(root, obj, ['metadata', 'name'], builtin(opts.nameDetail));
  setAt(root, obj, ['metadata', 'namespace'], fixed('namespace of the Cluster'));
  const innerMeta = asObject(inner.metadata);
  mapOrigins(root, obj, ['metadata', 'labels'], [
    labelsLayer(asStringMap(innerMeta?.labels), (k) => fromTemplate(t, joinPath('spec.template.metadata.labels', [k]))),
    ...(opts.labels ?? []),
    fixedLayer(opts.fixedLabels),
  ]);
  mapOrigins(root, obj, ['metadata', 'annotations'], [
    labelsLayer(asStringMap(innerMeta?.annotations), (k) => fromTemplate(t, joinPath('spec.template.metadata.annotations', [k]))),
    ...(opts.annotations ?? []),
    nodesLayer(clonedFrom(t)),
  ]);
  ownerRefs(root, obj);
  return root;
}

/** §2.3 templateToTemplate. */
function templateCloneTree(t: ResolvedTemplate, obj: JsonObject, nameDetail: string, fixedLabels: string[]): PNode {
  const root = node(UNATTRIBUTED);
  for (const key of Object.keys(t.object)) {
    if (key === 'metadata' || key === 'status') continue;
    if (obj[key] !== undefined) setAt(root, obj, [key], fromTemplate(t, joinPath('', [key])));
  }
  setAt(root, obj, ['metadata', 'name'], builtin(nameDetail));
  setAt(root, obj, ['metadata', 'namespace'], fixed('namespace of the Cluster'));
  const meta = asObject(t.object.metadata);
  mapOrigins(root, obj, ['metadata', 'labels'], [
    labelsLayer(asStringMap(meta?.labels), (k) => fromTemplate(t, joinPath('metadata.labels', [k]))),
    fixedLayer(fixedLabels),
  ]);
  mapOrigins(root, obj, ['metadata', 'annotations'], [
    labelsLayer(asStringMap(meta?.annotations), (k) => fromTemplate(t, joinPath('metadata.annotations', [k]))),
    nodesLayer(clonedFrom(t)),
  ]);
  ownerRefs(root, obj);
  return root;
}

const cloneNameDetail = (what: string, prefix: string) =>
  `name of the ${what}: "${prefix}" + a hash of its patched content (changes, i.e. rotates, when the template content changes)`;

// ------------------------------------------------------------------ InfrastructureCluster, CP machine template

export function infrastructureClusterTree(ctx: AttributionContext, obj: JsonObject): PNode {
  const bp = ctx.bp;
  const path = ctx.classV1 ? 'spec.infrastructureNamingStrategy.template' : 'spec.infrastructure.naming.template';
  return templateObjectTree(bp.infrastructureCluster!, obj, {
    nameDetail: namingDetail('InfrastructureCluster', bp.cc.infrastructure?.naming?.template, path, '{{ .cluster.name }}-{{ .random }}'),
    fixedLabels: [TOPOLOGY_OWNED_LABEL, CLUSTER_NAME_LABEL],
  });
}

export function controlPlaneMachineTemplateTree(ctx: AttributionContext, obj: JsonObject): PNode {
  return templateCloneTree(ctx.bp.controlPlaneMachineInfrastructure!, obj, cloneNameDetail('control plane machine template clone', `${ctx.cluster.name}-`), [
    CLUSTER_NAME_LABEL,
    TOPOLOGY_OWNED_LABEL,
  ]);
}

// ------------------------------------------------------------------ ControlPlane

export function controlPlaneTree(ctx: AttributionContext, obj: JsonObject): PNode {
  const { bp, cluster } = ctx;
  const topo = cluster.topology.controlPlane;
  const cls = bp.cc.controlPlane;
  const classLabels = (k: string) => fromClass(joinPath('spec.controlPlane.metadata.labels', [k]));
  const topoLabels = (k: string) => fromTopology(joinPath(`${TOPOLOGY_CP}.metadata.labels`, [k]));
  const classAnn = (k: string) => fromClass(joinPath('spec.controlPlane.metadata.annotations', [k]));
  const topoAnn = (k: string) => fromTopology(joinPath(`${TOPOLOGY_CP}.metadata.annotations`, [k]));
  const labelLayers = [labelsLayer(cls.metadata?.labels, classLabels), labelsLayer(topo.metadata?.labels, topoLabels)];
  const annotationLayers = [labelsLayer(cls.metadata?.annotations, classAnn), labelsLayer(topo.metadata?.annotations, topoAnn)];
  const namingPath = ctx.classV1 ? 'spec.controlPlane.namingStrategy.template' : 'spec.controlPlane.naming.template';
  const root = templateObjectTree(bp.controlPlane, obj, {
    nameDetail: namingDetail('ControlPlane', cls.naming?.template, namingPath, '{{ .cluster.name }}-{{ .random }}'),
    labels: labelLayers,
    annotations: annotationLayers,
    fixedLabels: [CLUSTER_NAME_LABEL, TOPOLOGY_OWNED_LABEL],
  });
  const paths = controlPlaneContractPaths(bp.controlPlaneContract);
  const mi = bp.controlPlaneMachineInfrastructure;
  if (mi && getAt(obj, paths.infrastructureRef) !== undefined) {
    const name = String(getAt(obj, [...paths.infrastructureRef, 'name']) ?? '');
    setAt(root, obj, [...paths.infrastructureRef], builtin(`reference to the control plane machine template clone "${name}" (${mi.ref.kind} from ClusterClass ${mi.ref.fieldPath})`));
    const tmplMeta = 'spec.template.spec.machineTemplate.metadata';
    const mtTemplate = asObject(getAt(bp.controlPlane.object, ['spec', 'template', 'spec', 'machineTemplate', 'metadata']));
    mapOrigins(root, obj, ['spec', 'machineTemplate', 'metadata', 'labels'], [
      labelsLayer(asStringMap(mtTemplate?.labels), (k) => fromTemplate(bp.controlPlane, joinPath(`${tmplMeta}.labels`, [k]))),
      ...labelLayers,
      fixedLayer([CLUSTER_NAME_LABEL, TOPOLOGY_OWNED_LABEL]),
    ]);
    mapOrigins(root, obj, ['spec', 'machineTemplate', 'metadata', 'annotations'], [
      labelsLayer(asStringMap(mtTemplate?.annotations), (k) => fromTemplate(bp.controlPlane, joinPath(`${tmplMeta}.annotations`, [k]))),
      ...annotationLayers,
    ]);
  }
  if (topo.replicas !== undefined) setAt(root, obj, ['spec', 'replicas'], fromTopology(`${TOPOLOGY_CP}.replicas`));
  if (topo.rollout?.after) setAt(root, obj, ['spec', 'rollout', 'after'], fromTopology(`${TOPOLOGY_CP}.rollout.after`));
  if (topo.readinessGates) setAt(root, obj, [...paths.readinessGates], fromTopology(`${TOPOLOGY_CP}.readinessGates`));
  else if (cls.readinessGates) setAt(root, obj, [...paths.readinessGates], fromClass('spec.controlPlane.readinessGates'));
  if (topo.taints) setAt(root, obj, [...paths.taints], fromTopology(`${TOPOLOGY_CP}.taints`));
  else if (cls.taints) setAt(root, obj, [...paths.taints], fromClass('spec.controlPlane.taints'));
  const duration = bp.controlPlaneContract === 'v1beta1';
  for (const n of TIMEOUT_NAMES) {
    const target = [...paths.timeout(n)];
    if (topo.deletion?.[`${n}Seconds`] !== undefined) {
      setAt(root, obj, target, fromTopology(timeoutPath(TOPOLOGY_CP, n, ctx.clusterV1), timeoutNote(ctx.clusterV1, duration)));
    } else if (cls.deletion?.[`${n}Seconds`] !== undefined) {
      setAt(root, obj, target, fromClass(timeoutPath('spec.controlPlane', n, ctx.classV1), timeoutNote(ctx.classV1, duration)));
    }
  }
  setAt(root, obj, ['spec', 'version'], versionNode(ctx, obj, ['spec', 'version']));
  return root;
}

// ------------------------------------------------------------------ MachineHealthChecks

interface HealthCheckSide {
  hc: HealthCheck;
  /** `spec.topology.controlPlane` / `spec.controlPlane` / a worker entry path. */
  base: string;
  v1: boolean;
  make: (path: string, note?: string) => PNode;
}

/** Input path of a v1beta2-model health check field below the holder. */
function hcPath(side: HealthCheckSide, model: Seg[]): { path: string; note?: string } {
  if (!side.v1) return { path: joinPath(`${side.base}.healthCheck`, model) };
  const base = `${side.base}.machineHealthCheck`;
  const [a, b, ...rest] = model;
  if (a === 'checks') {
    if (b === 'nodeStartupTimeoutSeconds') return { path: `${base}.nodeStartupTimeout`, note: 'duration converted to seconds' };
    const list = b === 'unhealthyNodeConditions' ? 'unhealthyConditions' : String(b);
    const [i, field] = rest;
    if (field === 'timeoutSeconds') return { path: joinPath(base, [list, i as number, 'timeout']), note: 'duration converted to seconds' };
    return { path: joinPath(base, [list, ...rest]) };
  }
  if (a === 'remediation' && b === 'triggerIf') {
    return { path: `${base}.${rest[0] === 'unhealthyInRange' ? 'unhealthyRange' : 'maxUnhealthy'}` };
  }
  if (a === 'remediation' && b === 'templateRef') return { path: joinPath(`${base}.remediationTemplate`, rest) };
  if (a === 'remediation' && b === 'maxInFlight') return { path: `${side.base}.strategy.remediation.maxInFlight` };
  return { path: joinPath(base, model) };
}

function hcNode(side: HealthCheckSide, model: Seg[], outputDuration = false): PNode {
  const p = hcPath(side, model);
  let note = p.note;
  if (outputDuration) note = side.v1 ? 'duration in Go format' : 'seconds converted to a duration';
  return side.make(p.path, note);
}

export function healthCheckTree(ctx: AttributionContext, obj: JsonObject, target: string, side: HealthCheckSide): PNode {
  const root = node(UNATTRIBUTED);
  setAt(root, obj, ['apiVersion'], fixed(`CAPI core API version (${ctx.coreVersion})`));
  setAt(root, obj, ['kind'], fixed('MachineHealthCheck'));
  setAt(root, obj, ['metadata', 'name'], builtin(`same name as the ${target} it checks`));
  setAt(root, obj, ['metadata', 'namespace'], fixed('namespace of the Cluster'));
  mapOrigins(root, obj, ['metadata', 'labels'], [fixedLayer([CLUSTER_NAME_LABEL, TOPOLOGY_OWNED_LABEL])]);
  ownerRefs(root, obj);
  setAt(root, obj, ['spec', 'clusterName'], fixed('name of the Cluster'));
  setAt(root, obj, ['spec', 'selector'], fixed(`selector of the ${target}'s Machines (topology-owned + role labels)`));
  const checks = side.hc.checks ?? {};
  const rem = side.hc.remediation ?? {};
  const spec = asObject(obj.spec) ?? {};
  const conditions = (outKey: string, modelKey: 'unhealthyNodeConditions' | 'unhealthyMachineConditions', specPath: Seg[]) => {
    const list = getAt(obj, [...specPath, outKey]);
    if (!Array.isArray(list)) return;
    list.forEach((c, i) => {
      for (const field of Object.keys(asObject(c) ?? {})) {
        const modelField = field === 'timeout' ? 'timeoutSeconds' : field;
        setAt(root, obj, [...specPath, outKey, i, field], hcNode(side, ['checks', modelKey, i, modelField], field === 'timeout'));
      }
    });
  };
  if (ctx.coreVersion === 'v1beta2') {
    const startup: Seg[] = ['spec', 'checks', 'nodeStartupTimeoutSeconds'];
    if (checks.nodeStartupTimeoutSeconds !== undefined) setAt(root, obj, startup, hcNode(side, ['checks', 'nodeStartupTimeoutSeconds']));
    else setAt(root, obj, startup, fixedNode({ kind: 'default', detail: 'MachineHealthCheck default nodeStartupTimeoutSeconds (600)' }));
    conditions('unhealthyNodeConditions', 'unhealthyNodeConditions', ['spec', 'checks']);
    conditions('unhealthyMachineConditions', 'unhealthyMachineConditions', ['spec', 'checks']);
    for (const k of Object.keys(asObject(getAt(obj, ['spec', 'remediation', 'triggerIf'])) ?? {})) {
      setAt(root, obj, ['spec', 'remediation', 'triggerIf', k], hcNode(side, ['remediation', 'triggerIf', k]));
    }
    if (rem.templateRef) setAt(root, obj, ['spec', 'remediation', 'templateRef'], hcNode(side, ['remediation', 'templateRef']));
  } else {
    if (checks.nodeStartupTimeoutSeconds !== undefined) setAt(root, obj, ['spec', 'nodeStartupTimeout'], hcNode(side, ['checks', 'nodeStartupTimeoutSeconds'], true));
    else setAt(root, obj, ['spec', 'nodeStartupTimeout'], fixedNode({ kind: 'default', detail: 'MachineHealthCheck default nodeStartupTimeout (10m0s)' }));
    conditions('unhealthyConditions', 'unhealthyNodeConditions', ['spec']);
    conditions('unhealthyMachineConditions', 'unhealthyMachineConditions', ['spec']);
    if (spec.maxUnhealthy !== undefined) setAt(root, obj, ['spec', 'maxUnhealthy'], hcNode(side, ['remediation', 'triggerIf', 'unhealthyLessThanOrEqualTo']));
    if (spec.unhealthyRange !== undefined) setAt(root, obj, ['spec', 'unhealthyRange'], hcNode(side, ['remediation', 'triggerIf', 'unhealthyInRange']));
    if (rem.templateRef) {
      for (const k of ['apiVersion', 'kind', 'name']) setAt(root, obj, ['spec', 'remediationTemplate', k], hcNode(side, ['remediation', 'templateRef', k]));
      setAt(root, obj, ['spec', 'remediationTemplate', 'namespace'], fixed('namespace of the Cluster'));
    }
  }
  return root;
}

const defined = (hc: HealthCheck | undefined): boolean =>
  !!hc &&
  (Object.values(hc.checks ?? {}).some((v) => v !== undefined && v !== null && (typeof v !== 'object' || Object.keys(v).length > 0)) ||
    Object.values(hc.remediation ?? {}).some((v) => v !== undefined && v !== null && (typeof v !== 'object' || Object.keys(v).length > 0)));

export function controlPlaneHealthCheckTree(ctx: AttributionContext, obj: JsonObject): PNode {
  const topo = ctx.cluster.topology.controlPlane.healthCheck;
  const side: HealthCheckSide = defined(topo)
    ? { hc: topo!, base: TOPOLOGY_CP, v1: ctx.clusterV1, make: fromTopology }
    : { hc: ctx.bp.cc.controlPlane.healthCheck!, base: 'spec.controlPlane', v1: ctx.classV1, make: fromClass };
  return healthCheckTree(ctx, obj, 'control plane', side);
}

// ------------------------------------------------------------------ workers

type WorkerBlueprint = MachineDeploymentBlueprint | MachinePoolBlueprint;

interface WorkerPaths {
  topo: string;
  cls: string;
  /** Where the class's metadata sits (v1beta1: under `template`). */
  clsMeta: string;
}

function workerPaths(ctx: AttributionContext, wb: WorkerBlueprint, topoPath: string): WorkerPaths {
  return { topo: topoPath, cls: wb.cls.fieldPath, clsMeta: ctx.classV1 ? `${wb.cls.fieldPath}.template.metadata` : `${wb.cls.fieldPath}.metadata` };
}

/** metadata.labels/annotations of a MachineDeployment/MachinePool (and its spec.template.metadata). */
function workerMetadata(root: PNode, obj: JsonObject, base: Seg[], p: WorkerPaths, topo: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> } }, cls: WorkerBlueprint['cls'], fixedLabels: string[]): void {
  mapOrigins(root, obj, [...base, 'labels'], [
    labelsLayer(cls.metadata?.labels, (k) => fromClass(joinPath(`${p.clsMeta}.labels`, [k]))),
    labelsLayer(topo.metadata?.labels, (k) => fromTopology(joinPath(`${p.topo}.metadata.labels`, [k]))),
    fixedLayer(fixedLabels),
  ]);
  mapOrigins(root, obj, [...base, 'annotations'], [
    labelsLayer(cls.metadata?.annotations, (k) => fromClass(joinPath(`${p.clsMeta}.annotations`, [k]))),
    labelsLayer(topo.metadata?.annotations, (k) => fromTopology(joinPath(`${p.topo}.metadata.annotations`, [k]))),
  ]);
}

function refNode(what: string, obj: JsonObject, path: Seg[]): PNode {
  const name = String(getAt(obj, [...path, 'name']) ?? '');
  return builtin(`reference to the generated ${what} "${name}"`);
}

/** Worker fields shared by MachineDeployments and MachinePools (spec.template.spec and timeouts). */
function workerTemplateSpec(ctx: AttributionContext, root: PNode, obj: JsonObject, p: WorkerPaths, topo: WorkerTopologyLike, cls: WorkerBlueprint['cls'], bootstrapWhat: string, infraWhat: string): void {
  const ts: Seg[] = ['spec', 'template', 'spec'];
  setAt(root, obj, [...ts, 'clusterName'], fixed('name of the Cluster'));
  setAt(root, obj, [...ts, 'version'], versionNode(ctx, obj, [...ts, 'version']));
  setAt(root, obj, [...ts, 'bootstrap', 'configRef'], refNode(bootstrapWhat, obj, [...ts, 'bootstrap', 'configRef']));
  setAt(root, obj, [...ts, 'infrastructureRef'], refNode(infraWhat, obj, [...ts, 'infrastructureRef']));
  if (getAt(obj, [...ts, 'taints']) !== undefined) {
    setAt(root, obj, [...ts, 'taints'], topo.taints ? fromTopology(`${p.topo}.taints`) : fromClass(`${p.cls}.taints`));
  }
  const v2 = ctx.coreVersion === 'v1beta2';
  for (const n of TIMEOUT_NAMES) {
    const target: Seg[] = v2 ? [...ts, 'deletion', `${n}Seconds`] : [...ts, n];
    if (getAt(obj, target) === undefined) continue;
    setAt(root, obj, target, topo.deletion?.[`${n}Seconds`] !== undefined
      ? fromTopology(timeoutPath(p.topo, n, ctx.clusterV1), timeoutNote(ctx.clusterV1, !v2))
      : fromClass(timeoutPath(p.cls, n, ctx.classV1), timeoutNote(ctx.classV1, !v2)));
  }
  const minReady: Seg[] = v2 ? [...ts, 'minReadySeconds'] : ['spec', 'minReadySeconds'];
  if (getAt(obj, minReady) !== undefined) {
    setAt(root, obj, minReady, topo.minReadySeconds !== undefined ? fromTopology(`${p.topo}.minReadySeconds`) : fromClass(`${p.cls}.minReadySeconds`));
  }
}

interface WorkerTopologyLike {
  taints?: unknown;
  deletion?: { nodeDrainTimeoutSeconds?: number; nodeVolumeDetachTimeoutSeconds?: number; nodeDeletionTimeoutSeconds?: number };
  minReadySeconds?: number;
}

function workerObjectHeader(ctx: AttributionContext, root: PNode, obj: JsonObject, kind: string, nameDetail: string): void {
  setAt(root, obj, ['apiVersion'], fixed(`CAPI core API version (${ctx.coreVersion})`));
  setAt(root, obj, ['kind'], fixed(kind));
  setAt(root, obj, ['metadata', 'name'], builtin(nameDetail));
  setAt(root, obj, ['metadata', 'namespace'], fixed('namespace of the Cluster'));
  setAt(root, obj, ['spec', 'clusterName'], fixed('name of the Cluster'));
}

export interface MachineDeploymentTrees {
  bootstrapTemplate: PNode;
  infrastructureTemplate: PNode;
  machineDeployment: PNode;
  healthCheck?: PNode;
}

export function machineDeploymentTrees(ctx: AttributionContext, md: DesiredMachineDeployment, index: number): MachineDeploymentTrees {
  const topo = md.topology;
  const cls = md.blueprint.cls;
  const p = workerPaths(ctx, md.blueprint, mdTopologyPath(index));
  const fixedLabels = [CLUSTER_NAME_LABEL, TOPOLOGY_OWNED_LABEL, DEPLOYMENT_NAME_LABEL];
  const prefix = `${ctx.cluster.name}-${topo.name}-`;
  const bootstrapTemplate = templateCloneTree(md.blueprint.bootstrap, md.bootstrapTemplate, cloneNameDetail('bootstrap template clone', prefix), fixedLabels);
  const infrastructureTemplate = templateCloneTree(md.blueprint.infrastructure, md.infrastructureTemplate, cloneNameDetail('infrastructure machine template clone', prefix), fixedLabels);

  const obj = md.machineDeployment;
  const root = node(UNATTRIBUTED);
  const namingPath = `${cls.fieldPath}.${ctx.classV1 ? 'namingStrategy' : 'naming'}.template`;
  workerObjectHeader(ctx, root, obj, 'MachineDeployment', namingDetail('MachineDeployment', cls.naming?.template, namingPath, '{{ .cluster.name }}-{{ .machineDeployment.topologyName }}-{{ .random }}'));
  workerMetadata(root, obj, ['metadata'], p, topo, cls, fixedLabels);
  workerMetadata(root, obj, ['spec', 'template', 'metadata'], p, topo, cls, fixedLabels);
  setAt(root, obj, ['spec', 'selector'], fixed('selector of the MachineDeployment: the three fixed labels'));
  if (topo.replicas !== undefined) setAt(root, obj, ['spec', 'replicas'], fromTopology(`${p.topo}.replicas`));
  workerTemplateSpec(ctx, root, obj, p, topo, cls, `bootstrap template clone (${md.blueprint.bootstrap.ref.kind})`, `infrastructure machine template clone (${md.blueprint.infrastructure.ref.kind})`);
  const ts: Seg[] = ['spec', 'template', 'spec'];
  if (getAt(obj, [...ts, 'failureDomain']) !== undefined) {
    setAt(root, obj, [...ts, 'failureDomain'], topo.failureDomain ? fromTopology(`${p.topo}.failureDomain`) : fromClass(`${p.cls}.failureDomain`));
  }
  if (getAt(obj, [...ts, 'readinessGates']) !== undefined) {
    setAt(root, obj, [...ts, 'readinessGates'], topo.readinessGates ? fromTopology(`${p.topo}.readinessGates`) : fromClass(`${p.cls}.readinessGates`));
  }
  // rollout: the topology's {after, strategy} as a whole when it sets either, else the class strategy.
  const topoRollout = !!(topo.rollout && (topo.rollout.after || topo.rollout.strategy));
  const strategyFrom = (side: 'topo' | 'cls'): PNode => {
    const v1 = side === 'topo' ? ctx.clusterV1 : ctx.classV1;
    const base = side === 'topo' ? p.topo : p.cls;
    return (side === 'topo' ? fromTopology : fromClass)(v1 ? `${base}.strategy` : `${base}.rollout.strategy`);
  };
  const maxInFlight = (): PNode => {
    const side = topo.healthCheck?.remediation?.maxInFlight !== undefined ? 'topo' : 'cls';
    const v1 = side === 'topo' ? ctx.clusterV1 : ctx.classV1;
    const base = side === 'topo' ? p.topo : p.cls;
    return (side === 'topo' ? fromTopology : fromClass)(v1 ? `${base}.strategy.remediation.maxInFlight` : `${base}.healthCheck.remediation.maxInFlight`);
  };
  const order = (): PNode => {
    const side = topo.deletion?.order ? 'topo' : 'cls';
    const v1 = side === 'topo' ? ctx.clusterV1 : ctx.classV1;
    const base = side === 'topo' ? p.topo : p.cls;
    return (side === 'topo' ? fromTopology : fromClass)(v1 ? `${base}.strategy.rollingUpdate.deletePolicy` : `${base}.deletion.order`);
  };
  if (ctx.coreVersion === 'v1beta2') {
    if (getAt(obj, ['spec', 'rollout', 'after']) !== undefined) setAt(root, obj, ['spec', 'rollout', 'after'], fromTopology(`${p.topo}.rollout.after`));
    if (getAt(obj, ['spec', 'rollout', 'strategy']) !== undefined) setAt(root, obj, ['spec', 'rollout', 'strategy'], strategyFrom(topoRollout ? 'topo' : 'cls'));
    if (getAt(obj, ['spec', 'remediation', 'maxInFlight']) !== undefined) setAt(root, obj, ['spec', 'remediation', 'maxInFlight'], maxInFlight());
    if (getAt(obj, ['spec', 'deletion', 'order']) !== undefined) setAt(root, obj, ['spec', 'deletion', 'order'], order());
  } else {
    if (getAt(obj, ['spec', 'rolloutAfter']) !== undefined) setAt(root, obj, ['spec', 'rolloutAfter'], fromTopology(`${p.topo}.rollout.after`));
    if (getAt(obj, ['spec', 'strategy']) !== undefined) {
      setAt(root, obj, ['spec', 'strategy'], topoRollout || asObject(cls.rollout?.strategy) ? strategyFrom(topoRollout ? 'topo' : 'cls') : fixed('strategy holding deletion order / remediation'));
      if (getAt(obj, ['spec', 'strategy', 'rollingUpdate', 'deletePolicy']) !== undefined) setAt(root, obj, ['spec', 'strategy', 'rollingUpdate', 'deletePolicy'], order());
      if (getAt(obj, ['spec', 'strategy', 'remediation', 'maxInFlight']) !== undefined) setAt(root, obj, ['spec', 'strategy', 'remediation', 'maxInFlight'], maxInFlight());
    }
  }
  const out: MachineDeploymentTrees = { bootstrapTemplate, infrastructureTemplate, machineDeployment: root };
  if (md.healthCheck) {
    const side: HealthCheckSide = defined(topo.healthCheck)
      ? { hc: topo.healthCheck!, base: p.topo, v1: ctx.clusterV1, make: fromTopology }
      : { hc: cls.healthCheck!, base: p.cls, v1: ctx.classV1, make: fromClass };
    out.healthCheck = healthCheckTree(ctx, md.healthCheck, `MachineDeployment ${topo.name}`, side);
  }
  return out;
}

export interface MachinePoolTrees {
  bootstrapObject: PNode;
  infrastructureObject: PNode;
  machinePool: PNode;
}

export function machinePoolTrees(ctx: AttributionContext, mp: DesiredMachinePool, index: number): MachinePoolTrees {
  const topo = mp.topology;
  const cls = mp.blueprint.cls;
  const p = workerPaths(ctx, mp.blueprint, mpTopologyPath(index));
  const stableName = (what: string) => `name of the ${what}: "${ctx.cluster.name}-${topo.name}-" + a stable hash`;
  const objectOpts = (what: string): ObjectOptions => ({ nameDetail: stableName(what), labels: [fixedLayer([POOL_NAME_LABEL])], fixedLabels: [TOPOLOGY_OWNED_LABEL, CLUSTER_NAME_LABEL] });
  const bootstrapObject = templateObjectTree(mp.blueprint.bootstrap, mp.bootstrapObject, objectOpts('MachinePool bootstrap config'));
  const infrastructureObject = templateObjectTree(mp.blueprint.infrastructure, mp.infrastructureObject, objectOpts('infrastructure machine pool'));
  const obj = mp.machinePool;
  const root = node(UNATTRIBUTED);
  const namingPath = `${cls.fieldPath}.${ctx.classV1 ? 'namingStrategy' : 'naming'}.template`;
  workerObjectHeader(ctx, root, obj, 'MachinePool', namingDetail('MachinePool', cls.naming?.template, namingPath, '{{ .cluster.name }}-{{ .machinePool.topologyName }}-{{ .random }}'));
  const fixedLabels = [CLUSTER_NAME_LABEL, TOPOLOGY_OWNED_LABEL, POOL_NAME_LABEL];
  workerMetadata(root, obj, ['metadata'], p, topo, cls, fixedLabels);
  workerMetadata(root, obj, ['spec', 'template', 'metadata'], p, topo, cls, fixedLabels);
  if (topo.replicas !== undefined) setAt(root, obj, ['spec', 'replicas'], fromTopology(`${p.topo}.replicas`));
  if (getAt(obj, ['spec', 'failureDomains']) !== undefined) {
    setAt(root, obj, ['spec', 'failureDomains'], topo.failureDomains ? fromTopology(`${p.topo}.failureDomains`) : fromClass(`${p.cls}.failureDomains`));
  }
  workerTemplateSpec(ctx, root, obj, p, topo, cls, `bootstrap config (${String(mp.bootstrapObject.kind)})`, `infrastructure machine pool (${String(mp.infrastructureObject.kind)})`);
  return { bootstrapObject, infrastructureObject, machinePool: root };
}

// ------------------------------------------------------------------ classic Cluster (expand mode)

/** The Cluster written in expand mode: the input Cluster without topology, plus refs and labels. */
export function classicClusterTree(obj: JsonObject, input: JsonObject): PNode {
  const root = node(UNATTRIBUTED);
  for (const key of Object.keys(obj)) {
    if (input[key] !== undefined) setAt(root, obj, [key], fromTopology(joinPath('', [key])));
  }
  setAt(root, obj, ['apiVersion'], fixed('CAPI core API version of the output'));
  const labels = asObject(asObject(obj.metadata)?.labels);
  for (const k of Object.keys(labels ?? {})) {
    if (k === CLUSTER_NAME_LABEL || k === TOPOLOGY_OWNED_LABEL) setAt(root, obj, ['metadata', 'labels', k], fixedLabel(k));
  }
  const spec = asObject(obj.spec);
  if (spec?.infrastructureRef !== undefined) setAt(root, obj, ['spec', 'infrastructureRef'], refNode('InfrastructureCluster', obj, ['spec', 'infrastructureRef']));
  if (spec?.controlPlaneRef !== undefined) setAt(root, obj, ['spec', 'controlPlaneRef'], refNode('ControlPlane', obj, ['spec', 'controlPlaneRef']));
  return root;
}

