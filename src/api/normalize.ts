/**
 * Normalisation: ClusterClass and Cluster documents in cluster.x-k8s.io/v1beta1 or v1beta2 become
 * the v1beta2-shaped internal model (topology-semantics §9). Shape errors are results at the
 * input's own field paths (v1beta1 spelling for v1beta1 input).
 */
import type { Result, ResourceRef } from '../krm/result.js';
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
  Metadata,
  PatchDefinition,
  StatusVariable,
  ReadinessGate,
  Taint,
  TemplateRef,
} from './model.js';
import { FieldReader, metadataOf } from './fields.js';
import { asObject, asString, cloneJson, isObject } from './json.js';
import { durationToSeconds } from './duration.js';

export const CAPI_GROUP = 'cluster.x-k8s.io';
export const SUPPORTED_VERSIONS = ['v1beta1', 'v1beta2'] as const;
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

/** Shared context of one normalisation: the reader and whether the input is v1beta1. */
interface Ctx {
  r: FieldReader;
  v1: boolean;
}

// ------------------------------------------------------------------ shared pieces

function templateRef(c: Ctx, holder: JsonObject | undefined, holderPath: string, namespace: string): TemplateRef | undefined {
  const key = c.v1 ? 'ref' : 'templateRef';
  const path = `${holderPath}.${key}`;
  const ref = c.r.object(holder, key, path, true);
  if (!ref) return undefined;
  const apiVersion = c.r.string(ref, 'apiVersion', `${path}.apiVersion`, true);
  const kind = c.r.string(ref, 'kind', `${path}.kind`, true);
  const name = c.r.string(ref, 'name', `${path}.name`, true);
  // v1.14 converts v1beta1 references without their namespace (api/core/v1beta1/conversion.go
  // `convert_v1beta1_LocalObjectTemplate_To_v1beta2_ClusterClassTemplateReference`): the
  // template is looked up in the ClusterClass namespace, whatever the reference says.
  const ns = c.v1 ? c.r.string(ref, 'namespace', `${path}.namespace`) : undefined;
  if (ns && ns !== namespace) {
    c.r.warning(`${path}.namespace`, `namespace "${ns}" is ignored: Cluster API v1.14 drops it when converting this v1beta1 reference and looks the template up in the ClusterClass namespace "${namespace}"; move the template there and remove the namespace`);
  }
  if (!apiVersion || !kind || !name) return undefined;
  return { apiVersion, kind, name, fieldPath: path };
}

/** v1beta1 duration string or v1beta2 seconds for one of the three node timeouts. */
function deletionTimeouts(c: Ctx, obj: JsonObject | undefined, path: string): DeletionTimeouts | undefined {
  const out: DeletionTimeouts = {};
  const names = ['nodeDrainTimeout', 'nodeVolumeDetachTimeout', 'nodeDeletionTimeout'] as const;
  if (c.v1) {
    for (const n of names) {
      const s = c.r.string(obj, n, `${path}.${n}`);
      if (s === undefined) continue;
      const secs = durationToSeconds(s);
      if (secs === undefined) c.r.error(`${path}.${n}`, `Invalid value: "${s}": must be a duration such as 2m30s`);
      else out[`${n}Seconds`] = secs;
    }
  } else {
    const del = c.r.object(obj, 'deletion', `${path}.deletion`);
    for (const n of names) {
      const v = c.r.number(del, `${n}Seconds`, `${path}.deletion.${n}Seconds`);
      if (v !== undefined) out[`${n}Seconds`] = v;
    }
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

function intOrString(v: Json | undefined): number | string | undefined {
  return typeof v === 'number' || typeof v === 'string' ? v : undefined;
}

/** A Go zero value once decoded: absent, null, "", or an object/list holding only zero values. */
const isZero = (v: unknown): boolean => v === undefined || v === null || v === '' || (typeof v === 'object' && Object.values(v as object).every(isZero));

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
  if (!isZero(hc.checks)) out.checks = hc.checks!;
  if (!isZero(hc.remediation)) out.remediation = hc.remediation!;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** v1beta1 `machineHealthCheck` (§9.3) or v1beta2 `healthCheck`, normalised to v1beta2. */
function healthCheck(c: Ctx, holder: JsonObject | undefined, path: string, topology: boolean): HealthCheck | undefined {
  if (!c.v1) {
    const hc = c.r.object(holder, 'healthCheck', `${path}.healthCheck`);
    return hc && definedHealthCheck(cloneJson(hc) as unknown as HealthCheck, topology);
  }
  const p = `${path}.machineHealthCheck`;
  const mhc = c.r.object(holder, 'machineHealthCheck', p);
  if (!mhc) return undefined;
  const out: HealthCheck = {};
  if (topology) {
    const enable = c.r.boolean(mhc, 'enable', `${p}.enable`);
    if (enable !== undefined) out.enabled = enable;
  }
  const conditions = (key: string) =>
    c.r.objects(mhc, key, `${p}.${key}`).map(({ item, path: ip }) => {
      const cond: JsonObject = {};
      if (item.type !== undefined) cond.type = item.type;
      if (item.status !== undefined) cond.status = item.status;
      const timeout = c.r.string(item, 'timeout', `${ip}.timeout`);
      if (timeout !== undefined) {
        const secs = durationToSeconds(timeout);
        if (secs === undefined) c.r.error(`${ip}.timeout`, `Invalid value: "${timeout}": must be a duration`);
        else cond.timeoutSeconds = secs;
      }
      return cond;
    });
  const checks: HealthCheck['checks'] = {};
  const nodeStartup = c.r.string(mhc, 'nodeStartupTimeout', `${p}.nodeStartupTimeout`);
  if (nodeStartup !== undefined) {
    const secs = durationToSeconds(nodeStartup);
    if (secs === undefined) c.r.error(`${p}.nodeStartupTimeout`, `Invalid value: "${nodeStartup}": must be a duration`);
    else checks.nodeStartupTimeoutSeconds = secs;
  }
  if (mhc.unhealthyConditions != null) checks.unhealthyNodeConditions = conditions('unhealthyConditions');
  if (mhc.unhealthyMachineConditions != null) checks.unhealthyMachineConditions = conditions('unhealthyMachineConditions');
  if (Object.keys(checks).length > 0) out.checks = checks;
  const remediation: NonNullable<HealthCheck['remediation']> = {};
  const maxUnhealthy = intOrString(mhc.maxUnhealthy);
  const range = asString(mhc.unhealthyRange);
  if (maxUnhealthy !== undefined || range !== undefined) {
    remediation.triggerIf = {};
    if (maxUnhealthy !== undefined) remediation.triggerIf.unhealthyLessThanOrEqualTo = maxUnhealthy;
    if (range !== undefined) remediation.triggerIf.unhealthyInRange = range;
  }
  const rt = c.r.object(mhc, 'remediationTemplate', `${p}.remediationTemplate`);
  if (rt) {
    remediation.templateRef = {
      apiVersion: asString(rt.apiVersion) ?? '',
      kind: asString(rt.kind) ?? '',
      name: asString(rt.name) ?? '',
    };
  }
  if (Object.keys(remediation).length > 0) out.remediation = remediation;
  return definedHealthCheck(out, topology);
}

/** Proposal-era topology shape (`labels`/`annotations` next to `metadata`), folded into metadata. */
function topologyMetadata(c: Ctx, obj: JsonObject | undefined, path: string): Metadata | undefined {
  const md = c.r.metadata(obj, 'metadata', `${path}.metadata`);
  if (!c.v1 || !obj || (obj.labels === undefined && obj.annotations === undefined)) return md;
  const labels = c.r.stringMap(obj, 'labels', `${path}.labels`);
  const annotations = c.r.stringMap(obj, 'annotations', `${path}.annotations`);
  c.r.warning(path, 'labels/annotations directly on a topology entry are the proposal-era shape; use metadata.labels/metadata.annotations');
  return metadataOf(
    labels || md?.labels ? { ...labels, ...md?.labels } : undefined,
    annotations || md?.annotations ? { ...annotations, ...md?.annotations } : undefined,
  );
}

function variablesList(c: Ctx, obj: JsonObject | undefined, key: string, path: string): ClusterVariable[] {
  return c.r.objects(obj, key, path).flatMap(({ item, path: ip }) => {
    const name = c.r.string(item, 'name', `${ip}.name`, true);
    if (c.v1 && typeof item.definitionFrom === 'string' && item.definitionFrom !== '') {
      c.r.warning(`${ip}.definitionFrom`, `variable "${name}" has DefinitionFrom set: it is deprecated and dropped in v1beta2`);
    }
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

function namingTemplate(c: Ctx, obj: JsonObject | undefined, path: string, v1Key: string): { template?: string } | undefined {
  const key = c.v1 ? v1Key : 'naming';
  const n = c.r.object(obj, key, `${path}.${key}`);
  if (!n) return undefined;
  const template = c.r.string(n, 'template', `${path}.${key}.template`);
  return template === undefined ? undefined : { template };
}

// ------------------------------------------------------------------ ClusterClass

/** Node deletion timeouts, minReadySeconds and taints: the same fields on worker classes and topologies. */
function readMachineFields(c: Ctx, item: JsonObject, path: string, out: Pick<MachinePoolClass, 'deletion' | 'minReadySeconds' | 'taints'>): void {
  const deletion = deletionTimeouts(c, item, path);
  if (deletion) out.deletion = deletion;
  const minReady = c.r.number(item, 'minReadySeconds', `${path}.minReadySeconds`);
  if (minReady !== undefined) out.minReadySeconds = minReady;
  const t = taints(c, item, path);
  if (t) out.taints = t;
}

/** What MachineDeployment and MachinePool classes share: class name, template refs, metadata, naming, timeouts. */
function workerClass(c: Ctx, item: JsonObject, path: string, namespace: string) {
  const cls = c.r.string(item, 'class', `${path}.class`, true);
  const holder = c.v1 ? c.r.object(item, 'template', `${path}.template`, true) : item;
  const holderPath = c.v1 ? `${path}.template` : path;
  const bootstrap = templateRef(c, c.r.object(holder, 'bootstrap', `${holderPath}.bootstrap`, true), `${holderPath}.bootstrap`, namespace);
  const infra = templateRef(c, c.r.object(holder, 'infrastructure', `${holderPath}.infrastructure`, true), `${holderPath}.infrastructure`, namespace);
  if (cls === undefined || !bootstrap || !infra) return undefined;
  const out: MachinePoolClass = { class: cls, bootstrap: { templateRef: bootstrap }, infrastructure: { templateRef: infra }, fieldPath: path };
  const metadata = c.r.metadata(holder, 'metadata', `${holderPath}.metadata`);
  if (metadata) out.metadata = metadata;
  const naming = namingTemplate(c, item, path, 'namingStrategy');
  if (naming) out.naming = naming;
  readMachineFields(c, item, path, out);
  return out;
}

function machineDeploymentClass(c: Ctx, item: JsonObject, path: string, namespace: string): MachineDeploymentClass | undefined {
  const base = workerClass(c, item, path, namespace);
  if (!base) return undefined;
  const md: MachineDeploymentClass = base;
  const hc = healthCheck(c, item, path, false);
  const failureDomain = c.r.string(item, 'failureDomain', `${path}.failureDomain`);
  if (failureDomain) md.failureDomain = failureDomain;
  const deletion: MachineDeploymentClass['deletion'] = { ...md.deletion };
  const gates = readinessGates(c, item, path);
  if (gates) md.readinessGates = gates;
  if (c.v1) {
    foldV1beta1Strategy(c, item, path, md, hc, deletion);
  } else {
    if (hc) md.healthCheck = hc;
    const rollout = c.r.object(item, 'rollout', `${path}.rollout`);
    const strategy = c.r.object(rollout, 'strategy', `${path}.rollout.strategy`);
    if (strategy) md.rollout = { strategy: cloneJson(strategy) };
    const order = c.r.string(c.r.object(item, 'deletion', `${path}.deletion`), 'order', `${path}.deletion.order`);
    if (order) deletion.order = order;
  }
  if (Object.keys(deletion).length > 0) md.deletion = deletion;
  return md;
}

/** v1beta1 MD `strategy` → v1beta2 `rollout.strategy`, `deletion.order`, remediation maxInFlight. */
function v1beta1Strategy(c: Ctx, strategy: JsonObject | undefined, path: string) {
  if (!strategy) return {};
  const out: JsonObject = {};
  const type = c.r.string(strategy, 'type', `${path}.type`);
  if (type !== undefined) out.type = type;
  const ru = c.r.object(strategy, 'rollingUpdate', `${path}.rollingUpdate`);
  let order: string | undefined;
  if (ru) {
    const rolling: JsonObject = {};
    for (const k of ['maxUnavailable', 'maxSurge']) {
      const v = intOrString(ru[k]);
      if (v !== undefined) rolling[k] = v;
    }
    if (Object.keys(rolling).length > 0) out.rollingUpdate = rolling;
    order = c.r.string(ru, 'deletePolicy', `${path}.rollingUpdate.deletePolicy`);
  }
  const maxInFlight = intOrString(asObject(strategy.remediation)?.maxInFlight);
  return { strategy: Object.keys(out).length > 0 ? out : undefined, order, maxInFlight };
}

/** v1beta1 MD `strategy` folded into the v1beta2 places: rollout, deletion order, remediation maxInFlight. */
function foldV1beta1Strategy(
  c: Ctx,
  item: JsonObject,
  path: string,
  md: { rollout?: { strategy?: JsonObject }; healthCheck?: HealthCheck },
  hc: HealthCheck | undefined,
  deletion: { order?: string },
): void {
  const { strategy, order, maxInFlight } = v1beta1Strategy(c, c.r.object(item, 'strategy', `${path}.strategy`), `${path}.strategy`);
  if (strategy) md.rollout = { strategy };
  if (order) deletion.order = order;
  if (maxInFlight !== undefined) md.healthCheck = { ...hc, remediation: { ...hc?.remediation, maxInFlight } };
  else if (hc) md.healthCheck = hc;
}

function machinePoolClass(c: Ctx, item: JsonObject, path: string, namespace: string): MachinePoolClass | undefined {
  const mp = workerClass(c, item, path, namespace);
  const fds = c.r.stringList(item, 'failureDomains', `${path}.failureDomains`);
  if (mp && fds) mp.failureDomains = fds;
  return mp;
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
  const md = c.r.metadata(item, c.v1 ? 'metadata' : 'deprecatedV1Beta1Metadata', `${path}.${c.v1 ? 'metadata' : 'deprecatedV1Beta1Metadata'}`);
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
    patch.definitions = c.r.objects(item, 'definitions', `${path}.definitions`).map(({ item: d, path: dp }) => definition(c, d, dp));
  }
  const ext = c.r.object(item, 'external', `${path}.external`);
  if (ext) {
    const e: NonNullable<ClusterClassPatch['external']> = {};
    const gen = asString(c.v1 ? ext.generateExtension : ext.generatePatchesExtension);
    const val = asString(c.v1 ? ext.validateExtension : ext.validateTopologyExtension);
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
    if (m) matchResources[key] = { names: c.r.stringList(m, 'names', `${path}.selector.matchResources.${key}.names`) ?? [] };
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
      const metadataKey = c.v1 ? 'metadata' : 'deprecatedV1Beta1Metadata';
      const metadata = c.r.metadata(d, metadataKey, `${dp}.${metadataKey}`);
      const schema = c.r.object(c.r.object(d, 'schema', `${dp}.schema`), 'openAPIV3Schema', `${dp}.schema.openAPIV3Schema`) ?? {};
      return {
        from: c.r.string(d, 'from', `${dp}.from`) ?? '',
        required: c.r.boolean(d, 'required', `${dp}.required`) ?? false,
        ...(metadata ? { deprecatedV1Beta1Metadata: metadata } : {}),
        schema: { openAPIV3Schema: cloneJson(schema) },
      };
    }),
  }));
}

/** The reading context for a document, or the unsupported-version error. */
function contextFor(ref: ResourceRef): { c: Ctx } | { results: Result[] } {
  const version = capiVersionOf(ref.apiVersion);
  const r = new FieldReader(ref);
  if (version) return { c: { r, v1: version === 'v1beta1' } };
  r.error('apiVersion', `Unsupported value: "${ref.apiVersion}": supported values: "cluster.x-k8s.io/v1beta1", "cluster.x-k8s.io/v1beta2"`);
  return { results: r.results };
}

export function normalizeClusterClass(doc: JsonObject, ref: ResourceRef): Normalized<ClusterClass> {
  const ctx = contextFor(ref);
  if (!('c' in ctx)) return ctx;
  const { c } = ctx;
  const r = c.r;
  const namespace = ref.namespace ?? 'default';
  const spec = r.object(doc, 'spec', 'spec', true) ?? {};
  const meta = asObject(doc.metadata);

  const cpIn = r.object(spec, 'controlPlane', 'spec.controlPlane', true);
  // v1beta1 embeds the control plane reference as `ref`, like every other v1beta1 reference.
  const cpRef = templateRef(c, cpIn, 'spec.controlPlane', namespace);
  const infraIn = r.object(spec, 'infrastructure', 'spec.infrastructure');
  const infraRef = infraIn ? templateRef(c, infraIn, 'spec.infrastructure', namespace) : undefined;

  const cc: ClusterClass = {
    name: ref.name,
    namespace,
    sourceApiVersion: ref.apiVersion,
    metadata: metadataOf(r.stringMap(meta, 'labels', 'metadata.labels'), r.stringMap(meta, 'annotations', 'metadata.annotations')) ?? {},
    controlPlane: { templateRef: cpRef ?? { apiVersion: '', kind: '', name: '', fieldPath: 'spec.controlPlane' } },
    workers: { machineDeployments: [], machinePools: [] },
    variables: [],
    patches: [],
  };
  if (infraRef) {
    cc.infrastructure = { templateRef: infraRef };
    const naming = c.v1
      ? namingTemplate(c, spec, 'spec', 'infrastructureNamingStrategy')
      : namingTemplate(c, infraIn, 'spec.infrastructure', 'naming');
    if (naming) cc.infrastructure.naming = naming;
  }
  const cpMetadata = r.metadata(cpIn, 'metadata', 'spec.controlPlane.metadata');
  if (cpMetadata) cc.controlPlane.metadata = cpMetadata;
  const mi = r.object(cpIn, 'machineInfrastructure', 'spec.controlPlane.machineInfrastructure');
  if (mi) {
    const miRef = templateRef(c, mi, 'spec.controlPlane.machineInfrastructure', namespace);
    if (miRef) cc.controlPlane.machineInfrastructure = { templateRef: miRef };
  }
  const cpHc = healthCheck(c, cpIn, 'spec.controlPlane', false);
  if (cpHc) cc.controlPlane.healthCheck = cpHc;
  const cpNaming = namingTemplate(c, cpIn, 'spec.controlPlane', 'namingStrategy');
  if (cpNaming) cc.controlPlane.naming = cpNaming;
  const cpDeletion = deletionTimeouts(c, cpIn, 'spec.controlPlane');
  if (cpDeletion) cc.controlPlane.deletion = cpDeletion;
  const cpGates = readinessGates(c, cpIn, 'spec.controlPlane');
  if (cpGates) cc.controlPlane.readinessGates = cpGates;
  const cpTaints = taints(c, cpIn, 'spec.controlPlane');
  if (cpTaints) cc.controlPlane.taints = cpTaints;

  const workers = r.object(spec, 'workers', 'spec.workers');
  for (const { item, path } of r.objects(workers, 'machineDeployments', 'spec.workers.machineDeployments')) {
    const md = machineDeploymentClass(c, item, path, namespace);
    if (md) cc.workers.machineDeployments.push(md);
  }
  for (const { item, path } of r.objects(workers, 'machinePools', 'spec.workers.machinePools')) {
    const mp = machinePoolClass(c, item, path, namespace);
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
  const md = topologyMetadata(c, cp, path);
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
  if (!c.v1) {
    const after = c.r.string(c.r.object(cp, 'rollout', `${path}.rollout`), 'after', `${path}.rollout.after`);
    if (after) out.rollout = { after };
  }
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
  const metadata = topologyMetadata(c, item, path);
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
  const deletion: MachineDeploymentTopology['deletion'] = { ...md.deletion };
  const gates = readinessGates(c, item, path);
  if (gates) md.readinessGates = gates;
  if (c.v1) {
    foldV1beta1Strategy(c, item, path, md, hc, deletion);
  } else {
    if (hc) md.healthCheck = hc;
    const rollout = c.r.object(item, 'rollout', `${path}.rollout`);
    if (rollout) {
      const r: NonNullable<MachineDeploymentTopology['rollout']> = {};
      const after = c.r.string(rollout, 'after', `${path}.rollout.after`);
      if (after) r.after = after;
      const strategy = c.r.object(rollout, 'strategy', `${path}.rollout.strategy`);
      if (strategy) r.strategy = cloneJson(strategy);
      if (Object.keys(r).length > 0) md.rollout = r;
    }
    const order = c.r.string(c.r.object(item, 'deletion', `${path}.deletion`), 'order', `${path}.deletion.order`);
    if (order) deletion.order = order;
  }
  if (Object.keys(deletion).length > 0) md.deletion = deletion;
  return md;
}

function machinePoolTopology(c: Ctx, item: JsonObject, path: string): MachinePoolTopology | undefined {
  const mp = workerTopology(c, item, path);
  const fds = c.r.stringList(item, 'failureDomains', `${path}.failureDomains`);
  if (mp && fds) mp.failureDomains = fds;
  return mp;
}

/** True when a Cluster document has `spec.topology` (only those are rendered). */
export function hasTopology(doc: JsonObject): boolean {
  return isObject(asObject(doc.spec)?.topology);
}

const DNS1123_LABEL = /^(?=.{1,63}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export function normalizeCluster(doc: JsonObject, ref: ResourceRef): Normalized<Cluster> {
  const ctx = contextFor(ref);
  if (!('c' in ctx)) return ctx;
  const { c } = ctx;
  const r = c.r;
  const meta = asObject(doc.metadata);
  const spec = r.object(doc, 'spec', 'spec', true);
  const topo = r.object(spec, 'topology', 'spec.topology', true);
  if (!topo) return { results: r.results };

  let classRef: ClusterTopology['classRef'] | undefined;
  if (c.v1) {
    const name = r.string(topo, 'class', 'spec.topology.class', true);
    const ns = r.string(topo, 'classNamespace', 'spec.topology.classNamespace');
    if (name) classRef = ns ? { name, namespace: ns } : { name };
  } else {
    const cr = r.object(topo, 'classRef', 'spec.topology.classRef', true);
    const name = r.string(cr, 'name', 'spec.topology.classRef.name', true);
    const ns = r.string(cr, 'namespace', 'spec.topology.classRef.namespace');
    if (name) classRef = ns ? { name, namespace: ns } : { name };
  }
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
    metadata: metadataOf(r.stringMap(meta, 'labels', 'metadata.labels'), r.stringMap(meta, 'annotations', 'metadata.annotations')) ?? {},
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
  if (net) cluster.clusterNetwork = cloneJson(net) as Cluster['clusterNetwork'] & JsonObject;
  if (r.results.some((x) => x.severity === 'error')) return { results: r.results };
  return { value: cluster, results: r.results };
}
