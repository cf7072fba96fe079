/**
 * Patching a desired state (CAPI core/reconcilers/topology/cluster/patches/engine.go `Apply`): the patch request CAPI's engine builds
 * (`core/reconcilers/topology/cluster/patches/engine.go` `createRequest`: a copy of each class
 * template with the desired object's metadata synced in, its holder and variables), the engine
 * (src/patches), and the write-back into the desired objects (`updateDesiredState`).
 */
import type { Cluster, Json, JsonObject, ObjectRef } from '../core/model.js';
import type { Result } from '../core/result.js';
import type { Blueprint } from '../blueprint/blueprint.js';
import { asObject, cloneJson, jsonText } from '../core/json.js';
import type { DefaultedVariable, DefaultedVariables } from '../variables/index.js';
import type { Recorder } from '../provenance/recorder.js';
import type { VariableOrigin } from '../provenance/sources.js';
import { applyPatches, updateDesiredObject, validatePatchedTopology, type ApplyContext, type PatchRequestItem, type PatchTargetRole } from '../patches/index.js';
import type { ExternalHooks } from '../extensions/hooks.js';
import type { DesiredState } from './desired.js';
import { controlPlaneContractPaths } from './controlplane.js';
import { clusterBuiltin, controlPlaneBuiltin, machineDeploymentBuiltin, machinePoolBuiltin } from './builtins.js';

const valuesOf = (vars: { name: string; value: Json }[]): Record<string, Json> => {
  const out = Object.create(null) as Record<string, Json>;
  for (const v of vars) out[v.name] = v.value;
  return out;
};

const originsOf = (vars: DefaultedVariable[]): Map<string, VariableOrigin> => new Map(vars.flatMap((v) => (v.origin ? [[v.name, v.origin] as const] : [])));

const INNER_METADATA = ['spec', 'template', 'metadata'] as const;
const METADATA = ['metadata'] as const;

/** CAPI core/reconcilers/topology/cluster/patches/engine.go `createRequest`: a copy of the class template with the desired object's metadata synced in. */
function requestTemplate(template: JsonObject, desired: JsonObject, inner: boolean, rec?: Recorder): JsonObject {
  const copy = cloneJson(template);
  rec?.fromTemplate(template, [], copy, []);
  const meta = asObject(desired.metadata) ?? {};
  const target = inner ? asObject(asObject(asObject(copy.spec)?.template)?.metadata) ?? ensureInnerMetadata(copy) : (asObject(copy.metadata) ?? {});
  const base = inner ? INNER_METADATA : METADATA;
  for (const key of ['labels', 'annotations'] as const) {
    if (meta[key] !== undefined) {
      target[key] = cloneJson(meta[key]);
      rec?.copy(desired, ['metadata', key], copy, [...base, key]);
    } else {
      delete target[key];
      rec?.remove(copy, [...base, key]);
    }
  }
  return copy;
}

function ensureInnerMetadata(copy: JsonObject): JsonObject {
  const spec = asObject(copy.spec) ?? (copy.spec = {});
  const template = asObject(spec.template) ?? (spec.template = {});
  return asObject(template.metadata) ?? ((template.metadata = {}));
}

const BOOTSTRAP_REF_PATH = 'spec.template.spec.bootstrap.configRef';
const INFRASTRUCTURE_REF_PATH = 'spec.template.spec.infrastructureRef';

/** CAPI core/reconcilers/topology/cluster/patches/engine.go `createRequest`: the CP machine template's holder is the desired ControlPlane, at its contract's ref path. */
function controlPlaneMachineTemplateHolder(bp: Blueprint, desired: DesiredState): PatchRequestItem['holder'] {
  return {
    apiVersion: jsonText(desired.controlPlane.apiVersion),
    kind: jsonText(desired.controlPlane.kind),
    name: jsonText(asObject(desired.controlPlane.metadata)?.name),
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
 * after the last patch). A recorder follows every value through the request templates, the
 * patches and the write-back.
 */
export function patchDesiredState(
  bp: Blueprint,
  cluster: Cluster,
  clusterRef: ObjectRef,
  desired: DesiredState,
  variables: DefaultedVariables,
  extensions: ExternalHooks | undefined,
  final: boolean,
  rec?: Recorder,
): Result[] {
  const clusterKind = { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', name: cluster.name };
  const items: PatchRequestItem[] = [];
  const slots: Slot[] = [];
  const builtinCluster = clusterBuiltin(cluster, desired, bp.cc.namespace);
  const cpVars = { ...valuesOf(variables.controlPlaneOverrides), builtin: { controlPlane: controlPlaneBuiltin(cluster, desired) } };
  const cpOrigins = rec && originsOf(variables.controlPlaneOverrides);
  const add = (item: PatchRequestItem, slot: Slot) => {
    items.push(item);
    slots.push(slot);
  };
  const infrastructureCluster = desired.infrastructureCluster;
  if (infrastructureCluster && bp.infrastructureCluster) {
    add(
      { role: 'InfrastructureCluster', template: requestTemplate(bp.infrastructureCluster.object, infrastructureCluster, true, rec), holder: { ...clusterKind, fieldPath: 'spec.infrastructureRef' }, variables: {} },
      { role: 'InfrastructureCluster', get: () => infrastructureCluster, set: (o) => (desired.infrastructureCluster = o) },
    );
  }
  add(
    {
      role: 'ControlPlane',
      template: requestTemplate(bp.controlPlane.object, desired.controlPlane, true, rec),
      holder: { ...clusterKind, fieldPath: 'spec.controlPlaneRef' },
      variables: cpVars,
      ...(cpOrigins ? { variableOrigins: cpOrigins } : {}),
    },
    { role: 'ControlPlane', get: () => desired.controlPlane, set: (o) => (desired.controlPlane = o) },
  );
  const machineTemplate = desired.controlPlaneMachineTemplate;
  if (machineTemplate && bp.controlPlaneMachineInfrastructure) {
    add(
      {
        role: 'ControlPlaneMachineTemplate',
        template: requestTemplate(bp.controlPlaneMachineInfrastructure.object, machineTemplate, false, rec),
        holder: controlPlaneMachineTemplateHolder(bp, desired),
        variables: cpVars,
        ...(cpOrigins ? { variableOrigins: cpOrigins } : {}),
      },
      { role: 'ControlPlaneMachineTemplate', get: () => machineTemplate, set: (o) => (desired.controlPlaneMachineTemplate = o) },
    );
  }
  /** A worker's bootstrap and infrastructure items; MachinePool ones are objects (synced like the InfraCluster). */
  const addWorker = (
    owner: JsonObject,
    topology: { name: string; class: string },
    overrides: DefaultedVariable[],
    builtin: Json,
    inner: boolean,
    parts: [PatchTargetRole, JsonObject, string, Pick<Slot, 'get' | 'set'>][],
  ) => {
    const holder = { apiVersion: jsonText(owner.apiVersion), kind: jsonText(owner.kind), name: jsonText(asObject(owner.metadata)?.name) };
    const variables = { ...valuesOf(overrides), builtin };
    const origins = rec && originsOf(overrides);
    for (const [role, classTemplate, fieldPath, slot] of parts) {
      add(
        {
          role,
          template: requestTemplate(classTemplate, slot.get(), inner, rec),
          holder: { ...holder, fieldPath },
          className: topology.class,
          topologyName: topology.name,
          variables,
          ...(origins ? { variableOrigins: origins } : {}),
        },
        { role, ...slot },
      );
    }
  };
  for (const md of desired.machineDeployments) {
    const overrides = variables.machineDeploymentOverrides.get(md.topology.name) ?? [];
    addWorker(md.machineDeployment, md.topology, overrides, { machineDeployment: machineDeploymentBuiltin(cluster, md) }, false, [
      ['MachineDeploymentBootstrapTemplate', md.blueprint.bootstrap.object, BOOTSTRAP_REF_PATH, { get: () => md.bootstrapTemplate, set: (o) => (md.bootstrapTemplate = o) }],
      ['MachineDeploymentInfrastructureTemplate', md.blueprint.infrastructure.object, INFRASTRUCTURE_REF_PATH, { get: () => md.infrastructureTemplate, set: (o) => (md.infrastructureTemplate = o) }],
    ]);
  }
  for (const mp of desired.machinePools) {
    const overrides = variables.machinePoolOverrides.get(mp.topology.name) ?? [];
    addWorker(mp.machinePool, mp.topology, overrides, { machinePool: machinePoolBuiltin(cluster, mp) }, true, [
      ['MachinePoolBootstrapTemplate', mp.blueprint.bootstrap.object, BOOTSTRAP_REF_PATH, { get: () => mp.bootstrapObject, set: (o) => (mp.bootstrapObject = o) }],
      ['MachinePoolInfrastructureTemplate', mp.blueprint.infrastructure.object, INFRASTRUCTURE_REF_PATH, { get: () => mp.infrastructureObject, set: (o) => (mp.infrastructureObject = o) }],
    ]);
  }
  const globalVariables: Record<string, Json> = { ...valuesOf(variables.cluster), builtin: { cluster: builtinCluster } };
  const request = rec ? { globalVariables, globalVariableOrigins: originsOf(variables.cluster), items } : { globalVariables, items };
  const ctx: ApplyContext = { inlineVariableNames: bp.inlineVariables, clusterRef, classRef: bp.classRef, externalVariableNames: bp.externalVariables };
  if (extensions) ctx.extensions = extensions;
  if (rec) ctx.recorder = rec;
  const out = applyPatches(bp.patches, request, ctx);
  if (out.results.some((r) => r.severity === 'error')) return out.results;
  if (final) {
    out.results.push(...validatePatchedTopology(bp.patches, request, out.templates, ctx));
    if (out.results.some((r) => r.severity === 'error')) return out.results;
  }
  // applyPatches answers one template per request item, in order: one per slot.
  slots.forEach((slot, i) => {
    // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- one patched template per slot (above)
    const patched = out.templates[i]!;
    slot.set(updateDesiredObject(slot.role, slot.get(), patched, bp.controlPlaneContract, rec));
  });
  return out.results;
}
