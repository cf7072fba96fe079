/**
 * Normalisation: ClusterClass and Cluster documents in cluster.x-k8s.io/v1beta1 or v1beta2 become
 * the v1beta2-shaped internal model (CAPI api/core/v1beta1/conversion.go). v1beta1 input is first converted as
 * CAPI converts it (api/conversion/, shared with `render-clusterclass convert`), then read like
 * v1beta2. Shape errors are results at the input's own field paths (v1beta1 spelling for v1beta1
 * input).
 */
import type { Result, ResourceRef } from '../core/result.js';
import type {
  Cluster,
  ClusterClass,
  ClusterClassPatch,
  ClusterClassVariable,
  ClusterTopology,
  ClusterVariable,
  ControlPlaneTopology,
  DeletionTimeouts,
  HealthCheck,
  Json,
  JsonObject,
  MachineDeploymentClass,
  MachineDeploymentTopology,
  MachinePoolClass,
  MachinePoolTopology,
  PatchDefinition,
  StatusVariable,
  ReadinessGate,
  Taint,
  TemplateRef,
} from '../core/model.js';
import { FieldReader, metadataOf } from './fields.js';
import { asObject, asString, cloneJson, isObject } from '../core/json.js';
import { convertObject } from './conversion/index.js';

export const CAPI_GROUP = 'cluster.x-k8s.io';
const SUPPORTED_VERSIONS = ['v1beta1', 'v1beta2'] as const;
export type CapiVersion = (typeof SUPPORTED_VERSIONS)[number];

export function capiVersionOf(apiVersion: string): CapiVersion | undefined {
  const [group, version] = apiVersion.split('/');
  if (group !== CAPI_GROUP) return undefined;
  return (SUPPORTED_VERSIONS as readonly string[]).includes(version ?? '') ? (version as CapiVersion) : undefined;
}

export interface Normalized<T> {
  value?: T;
  results: Result[];
}

/** Shared context of one normalisation: the reader (which reports at the input's own paths). */
interface Ctx {
  r: FieldReader;
}

// ------------------------------------------------------------------ shared pieces

function templateRef(c: Ctx, holder: JsonObject | undefined, holderPath: string): TemplateRef | undefined {
  const path = `${holderPath}.templateRef`;
  const ref = c.r.object(holder, 'templateRef', path, true);
  if (!ref) return undefined;
  const apiVersion = c.r.string(ref, 'apiVersion', `${path}.apiVersion`, true);
  const kind = c.r.string(ref, 'kind', `${path}.kind`, true);
  const name = c.r.string(ref, 'name', `${path}.name`, true);
  if (!apiVersion || !kind || !name) return undefined;
  return { apiVersion, kind, name, fieldPath: c.r.inputPath(path) };
}

/** The three node timeouts, in seconds. */
function deletionTimeouts(c: Ctx, obj: JsonObject | undefined, path: string): DeletionTimeouts | undefined {
  const out: DeletionTimeouts = {};
  const del = c.r.object(obj, 'deletion', `${path}.deletion`);
  for (const n of ['nodeDrainTimeout', 'nodeVolumeDetachTimeout', 'nodeDeletionTimeout'] as const) {
    const v = c.r.number(del, `${n}Seconds`, `${path}.deletion.${n}Seconds`);
    if (v !== undefined) out[`${n}Seconds`] = v;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function objectList<T>(c: Ctx, obj: JsonObject | undefined, key: string, path: string): T[] | undefined {
  if (!obj || obj[key] === undefined || obj[key] === null) return undefined;
  return c.r.objects(obj, key, path).map(({ item }) => cloneJson(item) as unknown as T);
}

function readinessGates(c: Ctx, obj: JsonObject | undefined, path: string): ReadinessGate[] | undefined {
  return objectList<ReadinessGate>(c, obj, 'readinessGates', `${path}.readinessGates`);
}

function taints(c: Ctx, obj: JsonObject | undefined, path: string): Taint[] | undefined {
  return objectList<Taint>(c, obj, 'taints', `${path}.taints`);
}

/** A Go zero value once decoded: absent, null, "", or an object/list holding only zero values. */
const isZero = (v: unknown): boolean =>
  v === undefined || v === null || v === '' || (typeof v === 'object' && Object.values(v).every(isZero));

/**
 * The parts of a health check CAPI sees: `checks` and `remediation` only when non-zero, so that
 * `IsDefined()` (api/core/v1beta2 `ControlPlaneClassHealthCheck.IsDefined` and siblings) is
 * "has checks or remediation". An empty v1beta1 `machineHealthCheck: {}` converts to an empty
 * v1beta2 health check (api/core/v1beta1/conversion.go), which is not defined: a class then
 * has none.
 */
function definedHealthCheck(hc: HealthCheck, topology: boolean): HealthCheck | undefined {
  const out: HealthCheck = {};
  if (topology && hc.enabled !== undefined) out.enabled = hc.enabled;
  if (hc.checks && !isZero(hc.checks)) out.checks = hc.checks;
  if (hc.remediation && !isZero(hc.remediation)) out.remediation = hc.remediation;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** `healthCheck` (`enabled` is topology-only). */
function healthCheck(c: Ctx, holder: JsonObject | undefined, path: string, topology: boolean): HealthCheck | undefined {
  const hc = c.r.object(holder, 'healthCheck', `${path}.healthCheck`);
  return hc && definedHealthCheck(cloneJson(hc), topology);
}

function variablesList(c: Ctx, obj: JsonObject | undefined, key: string, path: string): ClusterVariable[] {
  return c.r.objects(obj, key, path).flatMap(({ item, path: ip }) => {
    const name = c.r.string(item, 'name', `${ip}.name`, true);
    if (!Object.prototype.hasOwnProperty.call(item, 'value')) {
      c.r.error(`${ip}.value`, 'Required value');
      return [];
    }
    return name === undefined ? [] : [{ name, value: cloneJson(item.value as Json) }];
  });
}

function overrides(c: Ctx, holder: JsonObject | undefined, path: string): { overrides: ClusterVariable[] } | undefined {
  const vars = c.r.object(holder, 'variables', `${path}.variables`);
  if (!vars) return undefined;
  return { overrides: variablesList(c, vars, 'overrides', `${path}.variables.overrides`) };
}

function namingTemplate(c: Ctx, obj: JsonObject | undefined, path: string): { template?: string } | undefined {
  const n = c.r.object(obj, 'naming', `${path}.naming`);
  if (!n) return undefined;
  const template = c.r.string(n, 'template', `${path}.naming.template`);
  return template === undefined ? undefined : { template };
}

// ------------------------------------------------------------------ ClusterClass

/** Node deletion timeouts, minReadySeconds and taints: the same fields on worker classes and topologies. */
function readMachineFields(
  c: Ctx,
  item: JsonObject,
  path: string,
  out: Pick<MachinePoolClass, 'deletion' | 'minReadySeconds' | 'taints'>,
): void {
  const deletion = deletionTimeouts(c, item, path);
  if (deletion) out.deletion = deletion;
  const minReady = c.r.number(item, 'minReadySeconds', `${path}.minReadySeconds`);
  if (minReady !== undefined) out.minReadySeconds = minReady;
  const t = taints(c, item, path);
  if (t) out.taints = t;
}

/** MachineDeployments' `deletion.order` (MachinePools have none), beside the node timeouts read before. */
function readDeletionOrder(c: Ctx, item: JsonObject, path: string, md: { deletion?: { order?: string } }): void {
  const order = c.r.string(c.r.object(item, 'deletion', `${path}.deletion`), 'order', `${path}.deletion.order`);
  if (order) md.deletion = { ...md.deletion, order };
}

/** A MachinePool class's or topology's `failureDomains`. */
function withFailureDomains<T extends { failureDomains?: string[] }>(
  c: Ctx,
  item: JsonObject,
  path: string,
  mp: T | undefined,
): T | undefined {
  const fds = c.r.stringList(item, 'failureDomains', `${path}.failureDomains`);
  if (mp && fds) mp.failureDomains = fds;
  return mp;
}

/** What MachineDeployment and MachinePool classes share: class name, template refs, metadata, naming, timeouts. */
function workerClass(c: Ctx, item: JsonObject, path: string) {
  const cls = c.r.string(item, 'class', `${path}.class`, true);
  const bootstrap = templateRef(c, c.r.object(item, 'bootstrap', `${path}.bootstrap`, true), `${path}.bootstrap`);
  const infra = templateRef(
    c,
    c.r.object(item, 'infrastructure', `${path}.infrastructure`, true),
    `${path}.infrastructure`,
  );
  if (cls === undefined || !bootstrap || !infra) return undefined;
  const out: MachinePoolClass = {
    class: cls,
    bootstrap: { templateRef: bootstrap },
    infrastructure: { templateRef: infra },
    fieldPath: path,
  };
  const metadata = c.r.metadata(item, 'metadata', `${path}.metadata`);
  if (metadata) out.metadata = metadata;
  const naming = namingTemplate(c, item, path);
  if (naming) out.naming = naming;
  readMachineFields(c, item, path, out);
  return out;
}

function machineDeploymentClass(c: Ctx, item: JsonObject, path: string): MachineDeploymentClass | undefined {
  const base = workerClass(c, item, path);
  if (!base) return undefined;
  const md: MachineDeploymentClass = base;
  const hc = healthCheck(c, item, path, false);
  if (hc) md.healthCheck = hc;
  const failureDomain = c.r.string(item, 'failureDomain', `${path}.failureDomain`);
  if (failureDomain) md.failureDomain = failureDomain;
  const gates = readinessGates(c, item, path);
  if (gates) md.readinessGates = gates;
  const rollout = c.r.object(item, 'rollout', `${path}.rollout`);
  const strategy = c.r.object(rollout, 'strategy', `${path}.rollout.strategy`);
  if (strategy) md.rollout = { strategy: cloneJson(strategy) };
  readDeletionOrder(c, item, path, md);
  return md;
}

function machinePoolClass(c: Ctx, item: JsonObject, path: string): MachinePoolClass | undefined {
  return withFailureDomains(c, item, path, workerClass(c, item, path));
}

function classVariable(c: Ctx, item: JsonObject, path: string): ClusterClassVariable | undefined {
  const name = c.r.string(item, 'name', `${path}.name`);
  const required = c.r.boolean(item, 'required', `${path}.required`) ?? false;
  const schema = c.r.object(item, 'schema', `${path}.schema`, true);
  const openAPIV3Schema = c.r.object(schema, 'openAPIV3Schema', `${path}.schema.openAPIV3Schema`, true);
  if (!openAPIV3Schema) return undefined;
  const v: ClusterClassVariable = {
    name: name ?? '',
    required,
    schema: { openAPIV3Schema: cloneJson(openAPIV3Schema) },
    fieldPath: path,
  };
  const md = c.r.metadata(item, 'deprecatedV1Beta1Metadata', `${path}.deprecatedV1Beta1Metadata`);
  if (md) v.deprecatedV1Beta1Metadata = md;
  return v;
}

function classPatch(c: Ctx, item: JsonObject, path: string): ClusterClassPatch {
  const patch: ClusterClassPatch = { name: c.r.string(item, 'name', `${path}.name`) ?? '' };
  const description = c.r.string(item, 'description', `${path}.description`);
  if (description !== undefined) patch.description = description;
  const enabledIf = c.r.string(item, 'enabledIf', `${path}.enabledIf`);
  if (enabledIf !== undefined) patch.enabledIf = enabledIf;
  if (item.definitions != null) {
    patch.definitions = c.r
      .objects(item, 'definitions', `${path}.definitions`)
      .map(({ item: d, path: dp }) => definition(c, d, dp));
  }
  const ext = c.r.object(item, 'external', `${path}.external`);
  if (ext) {
    const e: NonNullable<ClusterClassPatch['external']> = {};
    const gen = asString(ext.generatePatchesExtension);
    const val = asString(ext.validateTopologyExtension);
    const disc = asString(ext.discoverVariablesExtension);
    if (gen) e.generatePatchesExtension = gen;
    if (val) e.validateTopologyExtension = val;
    if (disc) e.discoverVariablesExtension = disc;
    const settings = c.r.stringMap(ext, 'settings', `${path}.external.settings`);
    if (settings) e.settings = settings;
    patch.external = e;
  }
  return patch;
}

function definition(c: Ctx, d: JsonObject, path: string): PatchDefinition {
  const sel = c.r.object(d, 'selector', `${path}.selector`, true);
  const mr = c.r.object(sel, 'matchResources', `${path}.selector.matchResources`) ?? {};
  const matchResources: PatchDefinition['selector']['matchResources'] = {};
  const ic = c.r.boolean(mr, 'infrastructureCluster', `${path}.selector.matchResources.infrastructureCluster`);
  if (ic !== undefined) matchResources.infrastructureCluster = ic;
  const cp = c.r.boolean(mr, 'controlPlane', `${path}.selector.matchResources.controlPlane`);
  if (cp !== undefined) matchResources.controlPlane = cp;
  for (const key of ['machineDeploymentClass', 'machinePoolClass'] as const) {
    const m = c.r.object(mr, key, `${path}.selector.matchResources.${key}`);
    if (m)
      matchResources[key] = { names: c.r.stringList(m, 'names', `${path}.selector.matchResources.${key}.names`) ?? [] };
  }
  const jsonPatches = c.r.objects(d, 'jsonPatches', `${path}.jsonPatches`).map(({ item: op, path: op_path }) => {
    const out: PatchDefinition['jsonPatches'][number] = {
      op: c.r.string(op, 'op', `${op_path}.op`) ?? '',
      path: c.r.string(op, 'path', `${op_path}.path`) ?? '',
    };
    if (Object.prototype.hasOwnProperty.call(op, 'value')) out.value = cloneJson(op.value as Json);
    const vf = c.r.object(op, 'valueFrom', `${op_path}.valueFrom`);
    if (vf) {
      out.valueFrom = {};
      const variable = c.r.string(vf, 'variable', `${op_path}.valueFrom.variable`);
      const template = c.r.string(vf, 'template', `${op_path}.valueFrom.template`);
      if (variable !== undefined) out.valueFrom.variable = variable;
      if (template !== undefined) out.valueFrom.template = template;
    }
    return out;
  });
  return {
    selector: {
      apiVersion: c.r.string(sel, 'apiVersion', `${path}.selector.apiVersion`, true) ?? '',
      kind: c.r.string(sel, 'kind', `${path}.selector.kind`, true) ?? '',
      matchResources,
    },
    jsonPatches,
  };
}

/**
 * `status.variables` as the ClusterClass controller writes it (core/reconcilers/clusterclass
 * `reconcileVariables`); undefined when the class has none, as a class from git has none.
 */
function readStatusVariables(c: Ctx, status: JsonObject | undefined): StatusVariable[] | undefined {
  if (!status || status.variables === undefined || status.variables === null) return undefined;
  return c.r.objects(status, 'variables', 'status.variables').map(({ item, path }) => ({
    name: c.r.string(item, 'name', `${path}.name`) ?? '',
    definitionsConflict: c.r.boolean(item, 'definitionsConflict', `${path}.definitionsConflict`) ?? false,
    definitions: c.r.objects(item, 'definitions', `${path}.definitions`).map(({ item: d, path: dp }) => {
      const metadata = c.r.metadata(d, 'deprecatedV1Beta1Metadata', `${dp}.deprecatedV1Beta1Metadata`);
      const schema =
        c.r.object(c.r.object(d, 'schema', `${dp}.schema`), 'openAPIV3Schema', `${dp}.schema.openAPIV3Schema`) ?? {};
      return {
        from: c.r.string(d, 'from', `${dp}.from`) ?? '',
        required: c.r.boolean(d, 'required', `${dp}.required`) ?? false,
        ...(metadata ? { deprecatedV1Beta1Metadata: metadata } : {}),
        schema: { openAPIV3Schema: cloneJson(schema) },
      };
    }),
  }));
}

/**
 * The document in v1beta2 shape with a reader that reports at the input's own paths, or the
 * unsupported-version error. v1beta1 is converted first; the conversion's findings (invalid
 * durations, dropped fields) are the first results.
 */
function contextFor(input: JsonObject, ref: ResourceRef): { c: Ctx; doc: JsonObject } | { results: Result[] } {
  const version = capiVersionOf(ref.apiVersion);
  if (version === 'v1beta2') return { c: { r: new FieldReader(ref) }, doc: input };
  const converted =
    version === 'v1beta1' ? convertObject({ ...input, apiVersion: ref.apiVersion, kind: ref.kind }) : undefined;
  if (!converted) {
    const r = new FieldReader(ref);
    r.error(
      'apiVersion',
      `Unsupported value: "${ref.apiVersion}": supported values: "cluster.x-k8s.io/v1beta1", "cluster.x-k8s.io/v1beta2"`,
    );
    return { results: r.results };
  }
  const r = new FieldReader(ref, converted.inputPath);
  for (const x of converted.results)
    r.results.push({ severity: x.severity, message: x.message, resourceRef: ref, field: { path: x.path } });
  return { c: { r }, doc: converted.value };
}

export function normalizeClusterClass(input: JsonObject, ref: ResourceRef): Normalized<ClusterClass> {
  const ctx = contextFor(input, ref);
  if (!('c' in ctx)) return ctx;
  const { c, doc } = ctx;
  const r = c.r;
  const namespace = ref.namespace ?? 'default';
  const spec = r.object(doc, 'spec', 'spec', true) ?? {};
  const meta = asObject(doc.metadata);

  const cpIn = r.object(spec, 'controlPlane', 'spec.controlPlane', true);
  const cpRef = templateRef(c, cpIn, 'spec.controlPlane');
  const infraIn = r.object(spec, 'infrastructure', 'spec.infrastructure');
  const infraRef = infraIn ? templateRef(c, infraIn, 'spec.infrastructure') : undefined;

  const cc: ClusterClass = {
    name: ref.name,
    namespace,
    sourceApiVersion: ref.apiVersion,
    metadata:
      metadataOf(
        r.stringMap(meta, 'labels', 'metadata.labels'),
        r.stringMap(meta, 'annotations', 'metadata.annotations'),
      ) ?? {},
    controlPlane: { templateRef: cpRef ?? { apiVersion: '', kind: '', name: '', fieldPath: 'spec.controlPlane' } },
    workers: { machineDeployments: [], machinePools: [] },
    variables: [],
    patches: [],
  };
  if (infraRef) {
    cc.infrastructure = { templateRef: infraRef };
    const naming = namingTemplate(c, infraIn, 'spec.infrastructure');
    if (naming) cc.infrastructure.naming = naming;
  }
  const cpMetadata = r.metadata(cpIn, 'metadata', 'spec.controlPlane.metadata');
  if (cpMetadata) cc.controlPlane.metadata = cpMetadata;
  const mi = r.object(cpIn, 'machineInfrastructure', 'spec.controlPlane.machineInfrastructure');
  if (mi) {
    const miRef = templateRef(c, mi, 'spec.controlPlane.machineInfrastructure');
    if (miRef) cc.controlPlane.machineInfrastructure = { templateRef: miRef };
  }
  const cpHc = healthCheck(c, cpIn, 'spec.controlPlane', false);
  if (cpHc) cc.controlPlane.healthCheck = cpHc;
  const cpNaming = namingTemplate(c, cpIn, 'spec.controlPlane');
  if (cpNaming) cc.controlPlane.naming = cpNaming;
  const cpDeletion = deletionTimeouts(c, cpIn, 'spec.controlPlane');
  if (cpDeletion) cc.controlPlane.deletion = cpDeletion;
  const cpGates = readinessGates(c, cpIn, 'spec.controlPlane');
  if (cpGates) cc.controlPlane.readinessGates = cpGates;
  const cpTaints = taints(c, cpIn, 'spec.controlPlane');
  if (cpTaints) cc.controlPlane.taints = cpTaints;

  const workers = r.object(spec, 'workers', 'spec.workers');
  for (const { item, path } of r.objects(workers, 'machineDeployments', 'spec.workers.machineDeployments')) {
    const md = machineDeploymentClass(c, item, path);
    if (md) cc.workers.machineDeployments.push(md);
  }
  for (const { item, path } of r.objects(workers, 'machinePools', 'spec.workers.machinePools')) {
    const mp = machinePoolClass(c, item, path);
    if (mp) cc.workers.machinePools.push(mp);
  }
  for (const { item, path } of r.objects(spec, 'variables', 'spec.variables')) {
    const v = classVariable(c, item, path);
    if (v) cc.variables.push(v);
  }
  cc.patches = r.objects(spec, 'patches', 'spec.patches').map(({ item, path }) => classPatch(c, item, path));
  const versions = r.stringList(spec, 'kubernetesVersions', 'spec.kubernetesVersions');
  if (versions) cc.kubernetesVersions = versions;
  const upgrade = r.object(spec, 'upgrade', 'spec.upgrade');
  if (upgrade) cc.upgrade = cloneJson(upgrade);
  const statusVariables = readStatusVariables(c, asObject(doc.status));
  if (statusVariables) cc.statusVariables = statusVariables;
  // A class with errors is not compiled: a dropped reference (say, an infrastructure templateRef
  // without a name) would otherwise render its Clusters without that object.
  if (!cpRef || r.results.some((x) => x.severity === 'error')) return { results: r.results };
  return { value: cc, results: r.results };
}

// ------------------------------------------------------------------ Cluster

function controlPlaneTopology(c: Ctx, cp: JsonObject | undefined): ControlPlaneTopology {
  const path = 'spec.topology.controlPlane';
  const out: ControlPlaneTopology = {};
  const md = c.r.metadata(cp, 'metadata', `${path}.metadata`);
  if (md) out.metadata = md;
  const replicas = c.r.number(cp, 'replicas', `${path}.replicas`);
  if (replicas !== undefined) out.replicas = replicas;
  const hc = healthCheck(c, cp, path, true);
  if (hc) out.healthCheck = hc;
  const deletion = deletionTimeouts(c, cp, path);
  if (deletion) out.deletion = deletion;
  const gates = readinessGates(c, cp, path);
  if (gates) out.readinessGates = gates;
  const t = taints(c, cp, path);
  if (t) out.taints = t;
  const after = c.r.string(c.r.object(cp, 'rollout', `${path}.rollout`), 'after', `${path}.rollout.after`);
  if (after) out.rollout = { after };
  const vars = overrides(c, cp, path);
  if (vars) out.variables = vars;
  return out;
}

/** What MachineDeployment and MachinePool topologies share. */
function workerTopology(c: Ctx, item: JsonObject, path: string): MachinePoolTopology | undefined {
  const cls = c.r.string(item, 'class', `${path}.class`, true);
  const name = c.r.string(item, 'name', `${path}.name`, true);
  if (cls === undefined || name === undefined) return undefined;
  const out: MachinePoolTopology = { class: cls, name };
  const metadata = c.r.metadata(item, 'metadata', `${path}.metadata`);
  if (metadata) out.metadata = metadata;
  const replicas = c.r.number(item, 'replicas', `${path}.replicas`);
  if (replicas !== undefined) out.replicas = replicas;
  readMachineFields(c, item, path, out);
  const vars = overrides(c, item, path);
  if (vars) out.variables = vars;
  return out;
}

function machineDeploymentTopology(c: Ctx, item: JsonObject, path: string): MachineDeploymentTopology | undefined {
  const md: MachineDeploymentTopology | undefined = workerTopology(c, item, path);
  if (!md) return undefined;
  const fd = c.r.string(item, 'failureDomain', `${path}.failureDomain`);
  if (fd) md.failureDomain = fd;
  const hc = healthCheck(c, item, path, true);
  if (hc) md.healthCheck = hc;
  const gates = readinessGates(c, item, path);
  if (gates) md.readinessGates = gates;
  const rollout = c.r.object(item, 'rollout', `${path}.rollout`);
  if (rollout) {
    const r: NonNullable<MachineDeploymentTopology['rollout']> = {};
    const after = c.r.string(rollout, 'after', `${path}.rollout.after`);
    if (after) r.after = after;
    const strategy = c.r.object(rollout, 'strategy', `${path}.rollout.strategy`);
    if (strategy) r.strategy = cloneJson(strategy);
    if (Object.keys(r).length > 0) md.rollout = r;
  }
  readDeletionOrder(c, item, path, md);
  return md;
}

function machinePoolTopology(c: Ctx, item: JsonObject, path: string): MachinePoolTopology | undefined {
  return withFailureDomains(c, item, path, workerTopology(c, item, path));
}

/** True when a Cluster document has `spec.topology` (only those are rendered). */
export function hasTopology(doc: JsonObject): boolean {
  return isObject(asObject(doc.spec)?.topology);
}

const DNS1123_LABEL = /^(?=.{1,63}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export function normalizeCluster(input: JsonObject, ref: ResourceRef): Normalized<Cluster> {
  const ctx = contextFor(input, ref);
  if (!('c' in ctx)) return ctx;
  const { c, doc } = ctx;
  const r = c.r;
  const meta = asObject(doc.metadata);
  const spec = r.object(doc, 'spec', 'spec', true);
  const topo = r.object(spec, 'topology', 'spec.topology', true);
  if (!topo) return { results: r.results };

  let classRef: ClusterTopology['classRef'] | undefined;
  const cr = r.object(topo, 'classRef', 'spec.topology.classRef', true);
  const name = r.string(cr, 'name', 'spec.topology.classRef.name', true);
  const ns = r.string(cr, 'namespace', 'spec.topology.classRef.namespace');
  if (name) classRef = ns ? { name, namespace: ns } : { name };
  const version_ = r.string(topo, 'version', 'spec.topology.version', true);
  const cp = r.object(topo, 'controlPlane', 'spec.topology.controlPlane');
  const workers = r.object(topo, 'workers', 'spec.topology.workers');
  const topology: ClusterTopology = {
    classRef: classRef ?? { name: '' },
    version: version_ ?? '',
    controlPlane: controlPlaneTopology(c, cp),
    workers: { machineDeployments: [], machinePools: [] },
    variables: variablesList(c, topo, 'variables', 'spec.topology.variables'),
  };
  for (const { item, path } of r.objects(workers, 'machineDeployments', 'spec.topology.workers.machineDeployments')) {
    const md = machineDeploymentTopology(c, item, path);
    if (md) topology.workers.machineDeployments.push(md);
  }
  for (const { item, path } of r.objects(workers, 'machinePools', 'spec.topology.workers.machinePools')) {
    const mp = machinePoolTopology(c, item, path);
    if (mp) topology.workers.machinePools.push(mp);
  }
  const cluster: Cluster = {
    name: ref.name,
    namespace: ref.namespace ?? 'default',
    sourceApiVersion: ref.apiVersion,
    metadata:
      metadataOf(
        r.stringMap(meta, 'labels', 'metadata.labels'),
        r.stringMap(meta, 'annotations', 'metadata.annotations'),
      ) ?? {},
    topology,
  };
  const uid = asString(meta?.uid);
  if (uid) cluster.uid = uid;
  // The namespace names the output file (<outputDir>/<namespace>/<name>.yaml): `../..` must not
  // reach a path outside the package (the API server would reject it as well).
  if (!DNS1123_LABEL.test(cluster.namespace)) {
    r.error(
      'metadata.namespace',
      `Invalid value: ${JSON.stringify(cluster.namespace)}: a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    );
  }
  const net = r.object(spec, 'clusterNetwork', 'spec.clusterNetwork');
  if (net) cluster.clusterNetwork = cloneJson(net);
  if (r.results.some((x) => x.severity === 'error')) return { results: r.results };
  return { value: cluster, results: r.results };
}

/**
 * The ClusterClassVariables of a DiscoverVariables answer (v1beta2 shape, as the hook's Go type
 * is), read like `spec.variables`; shape problems are results at `<path>[i]`.
 */
export function normalizeDiscoveredVariables(
  list: readonly JsonObject[],
  ref: ResourceRef,
  path: string,
): Normalized<ClusterClassVariable[]> {
  const c: Ctx = { r: new FieldReader(ref) };
  const value = list.flatMap((item, i) => classVariable(c, item, `${path}[${i}]`) ?? []);
  return { value, results: c.r.results };
}
