/**
 * Rendering one Cluster: validate → variables → names → desired state → patches, with the
 * two-pass naming of topology-semantics §3.3 so rotating template clones are named from their
 * patched content. Pure: the same blueprint and Cluster always give the same objects.
 */
import type { Cluster, Json, JsonObject, ObjectRef } from '../api/model.js';
import type { Result } from '../krm/result.js';
import type { Blueprint } from '../blueprint/blueprint.js';
import { asObject, cloneJson } from '../api/json.js';
import { defaultAndValidateClusterVariables, type DefaultedVariables } from '../variables/index.js';
import { applyPatches, updateDesiredObject, validatePatchedTopology, type ApplyContext, type ExternalHooks, type PatchRequestItem, type PatchTargetRole } from '../patches/index.js';
import { validateClusterDeep, validateClusterTopology } from '../validation/cluster.js';
import { computeDesiredState, controlPlaneContractPaths, type CoreVersion, type DesiredState, type TopologyNames } from './desired.js';
import { clusterBuiltin, controlPlaneBuiltin, machineDeploymentBuiltin, machinePoolBuiltin } from './builtins.js';
import { currentStateOf, sequenceUpgrade, targetVersions, type TopologyVersions, type UpgradePolicy } from './upgrade.js';
import { groupOf } from './labels.js';
import { PLACEHOLDER_SUFFIX, contentSuffix, generateStableName, prefixName, stablePrefixName } from './names.js';

export interface RenderedCluster {
  desired: DesiredState;
  /** Cluster-level variables after defaulting (what the mutating webhook writes back). */
  variables: DefaultedVariables;
  /** The Kubernetes version of each object (§2.8). */
  versions: TopologyVersions;
}

export type ClusterOutcome = { ok: true; rendered: RenderedCluster; results: Result[] } | { ok: false; results: Result[] };

/** Rotating clone prefixes (§3.1): `<cluster>-` and `<cluster>-<md>-`. */
function rotatingNames(cluster: Cluster, bp: Blueprint, suffixes?: Map<string, string>): Pick<TopologyNames, 'controlPlaneMachineTemplate'> & {
  md: Map<string, { bootstrapTemplate: string; infrastructureTemplate: string }>;
} {
  const pick = (key: string) => suffixes?.get(key) ?? PLACEHOLDER_SUFFIX;
  const md = new Map<string, { bootstrapTemplate: string; infrastructureTemplate: string }>();
  for (const t of cluster.topology.workers.machineDeployments) {
    const prefix = `${cluster.name}-${t.name}-`;
    md.set(t.name, {
      bootstrapTemplate: prefixName(prefix, pick(`md/${t.name}/bootstrap`)),
      infrastructureTemplate: prefixName(prefix, pick(`md/${t.name}/infrastructure`)),
    });
  }
  const out: ReturnType<typeof rotatingNames> = { md };
  if (bp.controlPlaneMachineInfrastructure) out.controlPlaneMachineTemplate = prefixName(`${cluster.name}-`, pick('cp/machine'));
  return out;
}

/** Names of the objects that never rotate, or the naming-template errors. */
function stableNames(bp: Blueprint, cluster: Cluster, clusterRef: ObjectRef): { names?: Omit<TopologyNames, 'controlPlaneMachineTemplate'>; results: Result[] } {
  const results: Result[] = [];
  const base = { namespace: cluster.namespace, clusterName: cluster.name };
  const fail = (what: string, path: string, error: string) =>
    results.push({
      severity: 'error',
      message: `failed to generate name for ${what}: ${error}`,
      resourceRef: bp.classRef,
      field: { path },
      tags: { cluster: `${cluster.namespace}/${cluster.name}`, rule: 'naming-template' },
    });
  const gen = (what: string, path: string, input: Parameters<typeof generateStableName>[0]): string => {
    const out = generateStableName(input);
    if (!out.ok) {
      fail(what, path, out.error);
      return '';
    }
    return out.name;
  };
  const tmpl = (t: string | undefined) => (t !== undefined ? { template: t } : {});
  const names: Omit<TopologyNames, 'controlPlaneMachineTemplate'> = {
    controlPlane: gen('ControlPlane', 'spec.controlPlane.naming.template', { ...base, role: 'control-plane', ...tmpl(bp.cc.controlPlane.naming?.template) }),
    machineDeployments: new Map(),
    machinePools: new Map(),
  };
  if (bp.infrastructureCluster) {
    names.infrastructureCluster = gen('InfrastructureCluster', 'spec.infrastructure.naming.template', { ...base, role: 'infrastructure-cluster', ...tmpl(bp.cc.infrastructure?.naming?.template) });
  }
  for (const t of cluster.topology.workers.machineDeployments) {
    const cls = bp.machineDeployments.get(t.class)!.cls;
    names.machineDeployments.set(t.name, {
      machineDeployment: gen('MachineDeployment', `${cls.fieldPath}.naming.template`, {
        ...base,
        role: 'machine-deployment',
        topologyName: t.name,
        topologyKey: 'machineDeployment',
        ...tmpl(cls.naming?.template),
      }),
      bootstrapTemplate: '',
      infrastructureTemplate: '',
    });
  }
  for (const t of cluster.topology.workers.machinePools) {
    const cls = bp.machinePools.get(t.class)!.cls;
    names.machinePools.set(t.name, {
      machinePool: gen('MachinePool', `${cls.fieldPath}.naming.template`, { ...base, role: 'machine-pool', topologyName: t.name, topologyKey: 'machinePool', ...tmpl(cls.naming?.template) }),
      bootstrapObject: stablePrefixName('mp-bootstrap', cluster.namespace, cluster.name, t.name),
      infrastructureObject: stablePrefixName('mp-infrastructure', cluster.namespace, cluster.name, t.name),
    });
  }
  void clusterRef;
  return results.length > 0 ? { results } : { names, results };
}

function withRotating(stable: Omit<TopologyNames, 'controlPlaneMachineTemplate'>, rotating: ReturnType<typeof rotatingNames>): TopologyNames {
  const names: TopologyNames = { ...stable, machineDeployments: new Map() };
  for (const [k, v] of stable.machineDeployments) names.machineDeployments.set(k, { ...v, ...rotating.md.get(k)! });
  if (rotating.controlPlaneMachineTemplate) names.controlPlaneMachineTemplate = rotating.controlPlaneMachineTemplate;
  return names;
}

const valuesOf = (vars: { name: string; value: Json }[]): Record<string, Json> => {
  const out: Record<string, Json> = Object.create(null);
  for (const v of vars) out[v.name] = v.value;
  return out;
};

/** §7.1: a copy of the class template with the desired object's metadata synced in. */
function requestTemplate(template: JsonObject, desired: JsonObject, inner: boolean): JsonObject {
  const copy = cloneJson(template);
  const meta = asObject(desired.metadata) ?? {};
  const target = inner ? asObject(asObject(asObject(copy.spec)?.template)?.metadata) ?? ensureInnerMetadata(copy) : (asObject(copy.metadata) ?? {});
  for (const key of ['labels', 'annotations'] as const) {
    if (meta[key] !== undefined) target[key] = cloneJson(meta[key] as Json);
    else delete target[key];
  }
  return copy;
}

function ensureInnerMetadata(copy: JsonObject): JsonObject {
  const spec = asObject(copy.spec) ?? (copy.spec = {});
  const template = asObject(spec.template) ?? (spec.template = {});
  return asObject(template.metadata) ?? ((template.metadata = {}) as JsonObject);
}

const BOOTSTRAP_REF_PATH = 'spec.template.spec.bootstrap.configRef';
const INFRASTRUCTURE_REF_PATH = 'spec.template.spec.infrastructureRef';

/** §7.1: the CP machine template's holder is the desired ControlPlane, at its contract's ref path. */
export function controlPlaneMachineTemplateHolder(bp: Blueprint, desired: DesiredState): PatchRequestItem['holder'] {
  return {
    apiVersion: String(desired.controlPlane.apiVersion),
    kind: String(desired.controlPlane.kind),
    name: String(asObject(desired.controlPlane.metadata)!.name),
    fieldPath: controlPlaneContractPaths(bp.controlPlaneContract).infrastructureRef.join('.'),
  };
}

interface Slot {
  role: PatchTargetRole;
  get(): JsonObject;
  set(o: JsonObject): void;
}

/**
 * Runs the patch engine over the desired state (in place) and returns its results. `final`: the
 * pass whose objects are emitted, the one ValidateTopology extensions see (CAPI calls them once,
 * after the last patch).
 */
function patchDesiredState(bp: Blueprint, cluster: Cluster, clusterRef: ObjectRef, desired: DesiredState, variables: DefaultedVariables, extensions: ExternalHooks | undefined, final: boolean): Result[] {
  const clusterKind = { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', name: cluster.name };
  const items: PatchRequestItem[] = [];
  const slots: Slot[] = [];
  const builtinCluster = clusterBuiltin(cluster, desired, bp.cc.namespace);
  const cpVars = { ...valuesOf(variables.controlPlaneOverrides), builtin: { controlPlane: controlPlaneBuiltin(cluster, desired) } };
  const add = (item: PatchRequestItem, slot: Slot) => {
    items.push(item);
    slots.push(slot);
  };
  if (desired.infrastructureCluster && bp.infrastructureCluster) {
    add(
      { role: 'InfrastructureCluster', template: requestTemplate(bp.infrastructureCluster.object, desired.infrastructureCluster, true), holder: { ...clusterKind, fieldPath: 'spec.infrastructureRef' }, variables: {} },
      { role: 'InfrastructureCluster', get: () => desired.infrastructureCluster!, set: (o) => (desired.infrastructureCluster = o) },
    );
  }
  add(
    { role: 'ControlPlane', template: requestTemplate(bp.controlPlane.object, desired.controlPlane, true), holder: { ...clusterKind, fieldPath: 'spec.controlPlaneRef' }, variables: cpVars },
    { role: 'ControlPlane', get: () => desired.controlPlane, set: (o) => (desired.controlPlane = o) },
  );
  if (desired.controlPlaneMachineTemplate && bp.controlPlaneMachineInfrastructure) {
    add(
      {
        role: 'ControlPlaneMachineTemplate',
        template: requestTemplate(bp.controlPlaneMachineInfrastructure.object, desired.controlPlaneMachineTemplate, false),
        holder: controlPlaneMachineTemplateHolder(bp, desired),
        variables: cpVars,
      },
      { role: 'ControlPlaneMachineTemplate', get: () => desired.controlPlaneMachineTemplate!, set: (o) => (desired.controlPlaneMachineTemplate = o) },
    );
  }
  /** A worker's bootstrap and infrastructure items; MachinePool ones are objects (synced like the InfraCluster). */
  const addWorker = (
    owner: JsonObject,
    topology: { name: string; class: string },
    vars: Record<string, Json>,
    inner: boolean,
    parts: [PatchTargetRole, JsonObject, string, Pick<Slot, 'get' | 'set'>][],
  ) => {
    const holder = { apiVersion: String(owner.apiVersion), kind: String(owner.kind), name: String(asObject(owner.metadata)!.name) };
    for (const [role, classTemplate, fieldPath, slot] of parts) {
      add(
        { role, template: requestTemplate(classTemplate, slot.get(), inner), holder: { ...holder, fieldPath }, className: topology.class, topologyName: topology.name, variables: vars },
        { role, ...slot },
      );
    }
  };
  for (const md of desired.machineDeployments) {
    const vars = { ...valuesOf(variables.machineDeploymentOverrides.get(md.topology.name) ?? []), builtin: { machineDeployment: machineDeploymentBuiltin(cluster, md) } };
    addWorker(md.machineDeployment, md.topology, vars, false, [
      ['MachineDeploymentBootstrapTemplate', md.blueprint.bootstrap.object, BOOTSTRAP_REF_PATH, { get: () => md.bootstrapTemplate, set: (o) => (md.bootstrapTemplate = o) }],
      ['MachineDeploymentInfrastructureTemplate', md.blueprint.infrastructure.object, INFRASTRUCTURE_REF_PATH, { get: () => md.infrastructureTemplate, set: (o) => (md.infrastructureTemplate = o) }],
    ]);
  }
  for (const mp of desired.machinePools) {
    const vars = { ...valuesOf(variables.machinePoolOverrides.get(mp.topology.name) ?? []), builtin: { machinePool: machinePoolBuiltin(cluster, mp) } };
    addWorker(mp.machinePool, mp.topology, vars, true, [
      ['MachinePoolBootstrapTemplate', mp.blueprint.bootstrap.object, BOOTSTRAP_REF_PATH, { get: () => mp.bootstrapObject, set: (o) => (mp.bootstrapObject = o) }],
      ['MachinePoolInfrastructureTemplate', mp.blueprint.infrastructure.object, INFRASTRUCTURE_REF_PATH, { get: () => mp.infrastructureObject, set: (o) => (mp.infrastructureObject = o) }],
    ]);
  }
  const globalVariables: Record<string, Json> = { ...valuesOf(variables.cluster), builtin: { cluster: builtinCluster } };
  const ctx: ApplyContext = { inlineVariableNames: bp.inlineVariables, clusterRef, classRef: bp.classRef, externalVariableNames: bp.externalVariables };
  if (extensions) ctx.extensions = extensions;
  const out = applyPatches(bp.patches, { globalVariables, items }, ctx);
  if (out.results.some((r) => r.severity === 'error')) return out.results;
  if (final) {
    out.results.push(...validatePatchedTopology(bp.patches, { globalVariables, items }, out.templates, ctx));
    if (out.results.some((r) => r.severity === 'error')) return out.results;
  }
  out.templates.forEach((patched, i) => {
    const slot = slots[i]!;
    slot.set(updateDesiredObject(slot.role, slot.get(), patched, bp.controlPlaneContract));
  });
  return out.results;
}

/** Content suffixes of the rotating clones of a (patched) desired state. */
function rotatingSuffixes(desired: DesiredState): Map<string, string> {
  const out = new Map<string, string>();
  if (desired.controlPlaneMachineTemplate) out.set('cp/machine', contentSuffix(desired.controlPlaneMachineTemplate));
  for (const md of desired.machineDeployments) {
    out.set(`md/${md.topology.name}/bootstrap`, contentSuffix(md.bootstrapTemplate));
    out.set(`md/${md.topology.name}/infrastructure`, contentSuffix(md.infrastructureTemplate));
  }
  return out;
}

export interface RenderClusterOptions {
  coreVersion: CoreVersion;
  /** How a version change reaches the objects; default `control-plane-first` (it needs a current state to differ). */
  upgrade?: UpgradePolicy;
  /** What is known of the Cluster's current objects: an earlier render and/or observed (live) objects. */
  current?: { previous?: readonly JsonObject[]; observed?: readonly JsonObject[] };
  /** The Runtime SDK client for external patches and ValidateTopology. */
  extensions?: ExternalHooks;
}

/** The group and kind of the control plane object the class creates (its template's kind without `Template`). */
function controlPlaneKind(bp: Blueprint): { group: string; kind: string } {
  return { group: groupOf(bp.controlPlane.ref.apiVersion), kind: bp.controlPlane.ref.kind.replace(/Template$/, '') };
}

export function renderCluster(bp: Blueprint, input: Cluster, clusterRef: ObjectRef, options: RenderClusterOptions): ClusterOutcome {
  const validation = validateClusterTopology(bp, input, clusterRef);
  const results: Result[] = [...validation.results, ...validateClusterDeep(input, clusterRef, bp.cc)];
  if (!validation.cluster) return { ok: false, results };
  const cluster = validation.cluster;
  const vars = defaultAndValidateClusterVariables(bp.variables, cluster, clusterRef);
  results.push(...vars.results);
  const stable = stableNames(bp, cluster, clusterRef);
  results.push(...stable.results);
  if (results.some((r) => r.severity === 'error') || !stable.names) return { ok: false, results };
  const current = options.current ? currentStateOf(cluster, controlPlaneKind(bp), options.current) : undefined;
  const sequenced = current ? sequenceUpgrade(cluster, bp.cc, current, options.upgrade ?? 'control-plane-first', clusterRef) : undefined;
  results.push(...(sequenced?.results ?? []));
  if (results.some((r) => r.severity === 'error')) return { ok: false, results };
  const versions = sequenced?.versions ?? targetVersions(cluster);

  const hasPatches = bp.cc.patches.length > 0;
  // Pass A: placeholder names for rotating clones; their patched content decides the final names.
  const passA = computeDesiredState(bp, cluster, withRotating(stable.names, rotatingNames(cluster, bp)), options.coreVersion, versions);
  if (hasPatches) {
    const patchResults = patchDesiredState(bp, cluster, clusterRef, passA, vars.variables, options.extensions, false);
    results.push(...patchResults);
    if (patchResults.some((r) => r.severity === 'error')) return { ok: false, results };
  }
  // Pass B: final names, so builtins and references carry them.
  const finalNames = withRotating(stable.names, rotatingNames(cluster, bp, rotatingSuffixes(passA)));
  const passB = computeDesiredState(bp, cluster, finalNames, options.coreVersion, versions);
  if (hasPatches) {
    const passBResults = patchDesiredState(bp, cluster, clusterRef, passB, vars.variables, options.extensions, true);
    const errors = passBResults.filter((r) => r.severity === 'error');
    if (errors.length > 0) return { ok: false, results: [...results, ...errors] };
    // Pass A's warnings are already in; ValidateTopology only runs in pass B.
    results.push(...passBResults.filter((r) => r.tags?.hook === 'ValidateTopology'));
  }
  return { ok: true, rendered: { desired: passB, variables: vars.variables, versions }, results };
}
