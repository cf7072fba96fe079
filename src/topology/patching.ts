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
import {
  applyPatches,
  updateDesiredObject,
  validatePatchedTopology,
  type ApplyContext,
  type PatchRequestItem,
  type PatchTargetRole,
} from '../patches/index.js';
import type { ExternalHooks } from '../extensions/hooks.js';
import type { DesiredState } from './desired.js';
import { controlPlaneContractPaths } from './controlplane.js';
import { clusterBuiltin, controlPlaneBuiltin, machineDeploymentBuiltin, machinePoolBuiltin } from './builtins.js';

const valuesOf = (vars: { name: string; value: Json }[]): Record<string, Json> => {
  const out = Object.create(null) as Record<string, Json>;
  for (const v of vars) out[v.name] = v.value;
  return out;
};

const originsOf = (vars: DefaultedVariable[]): Map<string, VariableOrigin> =>
  new Map(vars.flatMap((v) => (v.origin ? [[v.name, v.origin] as const] : [])));

const INNER_METADATA = ['spec', 'template', 'metadata'] as const;
const METADATA = ['metadata'] as const;

/** CAPI core/reconcilers/topology/cluster/patches/engine.go `createRequest`: a copy of the class template with the desired object's metadata synced in. */
function requestTemplate(template: JsonObject, desired: JsonObject, inner: boolean, rec?: Recorder): JsonObject {
  const copy = cloneJson(template);
  rec?.fromTemplate(template, [], copy, []);
  const meta = asObject(desired.metadata) ?? {};
  const target = inner
    ? (asObject(asObject(asObject(copy.spec)?.template)?.metadata) ?? ensureInnerMetadata(copy))
    : (asObject(copy.metadata) ?? {});
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
  return asObject(template.metadata) ?? (template.metadata = {});
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

/** A patch request item and the slot of the desired object its patched template replaces. */
interface SlottedItem {
  item: PatchRequestItem;
  slot: Slot;
}

/** The items of the Cluster's own objects, in CAPI's order: the InfrastructureCluster, the ControlPlane, its machine template. */
function clusterObjectItems(
  bp: Blueprint,
  cluster: Cluster,
  desired: DesiredState,
  variables: DefaultedVariables,
  rec?: Recorder,
): SlottedItem[] {
  const clusterKind = { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', name: cluster.name };
  const cpVars = {
    ...valuesOf(variables.controlPlaneOverrides),
    builtin: { controlPlane: controlPlaneBuiltin(cluster, desired) },
  };
  const cpOrigins = rec && originsOf(variables.controlPlaneOverrides);
  const slotted: SlottedItem[] = [];
  const infrastructureCluster = desired.infrastructureCluster;
  if (infrastructureCluster && bp.infrastructureCluster) {
    slotted.push({
      item: {
        role: 'InfrastructureCluster',
        template: requestTemplate(bp.infrastructureCluster.object, infrastructureCluster, true, rec),
        holder: { ...clusterKind, fieldPath: 'spec.infrastructureRef' },
        variables: {},
      },
      slot: {
        role: 'InfrastructureCluster',
        get: () => infrastructureCluster,
        set: (o) => (desired.infrastructureCluster = o),
      },
    });
  }
  slotted.push({
    item: {
      role: 'ControlPlane',
      template: requestTemplate(bp.controlPlane.object, desired.controlPlane, true, rec),
      holder: { ...clusterKind, fieldPath: 'spec.controlPlaneRef' },
      variables: cpVars,
      ...(cpOrigins ? { variableOrigins: cpOrigins } : {}),
    },
    slot: { role: 'ControlPlane', get: () => desired.controlPlane, set: (o) => (desired.controlPlane = o) },
  });
  const machineTemplate = desired.controlPlaneMachineTemplate;
  if (machineTemplate && bp.controlPlaneMachineInfrastructure) {
    slotted.push({
      item: {
        role: 'ControlPlaneMachineTemplate',
        template: requestTemplate(bp.controlPlaneMachineInfrastructure.object, machineTemplate, false, rec),
        holder: controlPlaneMachineTemplateHolder(bp, desired),
        variables: cpVars,
        ...(cpOrigins ? { variableOrigins: cpOrigins } : {}),
      },
      slot: {
        role: 'ControlPlaneMachineTemplate',
        get: () => machineTemplate,
        set: (o) => (desired.controlPlaneMachineTemplate = o),
      },
    });
  }
  return slotted;
}

/** One worker: its object (holder), topology entry, variable overrides and builtin, and its bootstrap and infrastructure parts. */
interface WorkerRequest {
  owner: JsonObject;
  topology: { name: string; class: string };
  overrides: DefaultedVariable[];
  builtin: Json;
  /** MachinePool parts are objects, their metadata synced like the InfrastructureCluster's; MachineDeployment ones templates. */
  inner: boolean;
  parts: [PatchTargetRole, JsonObject, string, Pick<Slot, 'get' | 'set'>][];
}

/** A worker's bootstrap and infrastructure items. */
function workerItems(
  { owner, topology, overrides, builtin, inner, parts }: WorkerRequest,
  rec?: Recorder,
): SlottedItem[] {
  const holder = {
    apiVersion: jsonText(owner.apiVersion),
    kind: jsonText(owner.kind),
    name: jsonText(asObject(owner.metadata)?.name),
  };
  const variables = { ...valuesOf(overrides), builtin };
  const origins = rec && originsOf(overrides);
  return parts.map(([role, classTemplate, fieldPath, slot]) => ({
    item: {
      role,
      template: requestTemplate(classTemplate, slot.get(), inner, rec),
      holder: { ...holder, fieldPath },
      className: topology.class,
      topologyName: topology.name,
      variables,
      ...(origins ? { variableOrigins: origins } : {}),
    },
    slot: { role, ...slot },
  }));
}

/** The workers of the desired state, MachineDeployments then MachinePools, as patch requests. */
function workerRequests(cluster: Cluster, desired: DesiredState, variables: DefaultedVariables): WorkerRequest[] {
  const machineDeployments = desired.machineDeployments.map((md): WorkerRequest => ({
    owner: md.machineDeployment,
    topology: md.topology,
    overrides: variables.machineDeploymentOverrides.get(md.topology.name) ?? [],
    builtin: { machineDeployment: machineDeploymentBuiltin(cluster, md) },
    inner: false,
    parts: [
      [
        'MachineDeploymentBootstrapTemplate',
        md.blueprint.bootstrap.object,
        BOOTSTRAP_REF_PATH,
        { get: () => md.bootstrapTemplate, set: (o) => (md.bootstrapTemplate = o) },
      ],
      [
        'MachineDeploymentInfrastructureTemplate',
        md.blueprint.infrastructure.object,
        INFRASTRUCTURE_REF_PATH,
        { get: () => md.infrastructureTemplate, set: (o) => (md.infrastructureTemplate = o) },
      ],
    ],
  }));
  const machinePools = desired.machinePools.map((mp): WorkerRequest => ({
    owner: mp.machinePool,
    topology: mp.topology,
    overrides: variables.machinePoolOverrides.get(mp.topology.name) ?? [],
    builtin: { machinePool: machinePoolBuiltin(cluster, mp) },
    inner: true,
    parts: [
      [
        'MachinePoolBootstrapTemplate',
        mp.blueprint.bootstrap.object,
        BOOTSTRAP_REF_PATH,
        { get: () => mp.bootstrapObject, set: (o) => (mp.bootstrapObject = o) },
      ],
      [
        'MachinePoolInfrastructureTemplate',
        mp.blueprint.infrastructure.object,
        INFRASTRUCTURE_REF_PATH,
        { get: () => mp.infrastructureObject, set: (o) => (mp.infrastructureObject = o) },
      ],
    ],
  }));
  return [...machineDeployments, ...machinePools];
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
  const builtinCluster = clusterBuiltin(cluster, desired, bp.cc.namespace);
  const slotted = [
    ...clusterObjectItems(bp, cluster, desired, variables, rec),
    ...workerRequests(cluster, desired, variables).flatMap((w) => workerItems(w, rec)),
  ];
  const items = slotted.map((s) => s.item);
  const slots = slotted.map((s) => s.slot);
  const globalVariables: Record<string, Json> = {
    ...valuesOf(variables.cluster),
    builtin: { cluster: builtinCluster },
  };
  const request = rec
    ? { globalVariables, globalVariableOrigins: originsOf(variables.cluster), items }
    : { globalVariables, items };
  const ctx: ApplyContext = {
    inlineVariableNames: bp.inlineVariables,
    clusterRef,
    classRef: bp.classRef,
    externalVariableNames: bp.externalVariables,
  };
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
