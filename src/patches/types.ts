/** Public request/response shapes of the patch engine (CAPI core/reconcilers/topology/cluster/patches/engine.go `createRequest`). */
import type { Json, JsonObject } from '../core/model.js';
import type { VariableOrigin } from '../provenance/sources.js';
import type { ObjectRef } from '../core/model.js';
import type { ExternalHooks } from '../extensions/hooks.js';
import type { Recorder } from '../provenance/recorder.js';

export type PatchTargetRole =
  | 'InfrastructureCluster'
  | 'ControlPlane'
  | 'ControlPlaneMachineTemplate'
  | 'MachineDeploymentBootstrapTemplate'
  | 'MachineDeploymentInfrastructureTemplate'
  | 'MachinePoolBootstrapTemplate'
  | 'MachinePoolInfrastructureTemplate';

interface PatchHolder {
  apiVersion: string;
  kind: string;
  name: string;
  /** e.g. `spec.infrastructureRef`, `spec.machineTemplate.spec.infrastructureRef`, `spec.template.spec.bootstrap.configRef`. */
  fieldPath: string;
}

export interface PatchRequestItem {
  role: PatchTargetRole;
  /**
   * The ClusterClass template (a copy with the desired object's metadata already synced in, CAPI core/reconcilers/topology/cluster/patches/engine.go `createRequest`).
   * Never mutated: `applyPatches` returns new objects (sharing unmodified subtrees with this one).
   */
  template: JsonObject;
  /** Holder reference per CAPI core/reconcilers/topology/cluster/patches/engine.go `createRequest` (used for selector matching, as CAPI does, and in messages). */
  holder: PatchHolder;
  /** MD or MP class name, for machineDeploymentClass / machinePoolClass selectors. When absent,
   * `builtin.machineDeployment.class` / `builtin.machinePool.class` of `variables` is used, as CAPI does. */
  className?: string;
  /** MD/MP topology name, for messages. */
  topologyName?: string;
  /**
   * Item-specific variables: override values (name → value) plus `builtin` holding ONLY the item
   * part (`controlPlane` / `machineDeployment` / `machinePool`). The key `builtin` is always taken
   * to be the builtin object (CAPI never passes a user value of that name).
   */
  variables: Record<string, Json>;
  /** When recording provenance: where the override values of `variables` came from. */
  variableOrigins?: ReadonlyMap<string, VariableOrigin>;
}

export interface PatchRequest {
  /** Cluster-level variable values (name → value) plus `builtin: {cluster: ...}`. */
  globalVariables: Record<string, Json>;
  /** When recording provenance: where the values of `globalVariables` came from. */
  globalVariableOrigins?: ReadonlyMap<string, VariableOrigin>;
  items: PatchRequestItem[];
}

export interface ApplyContext {
  /** Names of variables whose definitions are `from: inline` (status.variables, CAPI core/reconcilers/topology/cluster/patches/variables/variables.go). */
  inlineVariableNames: ReadonlySet<string>;
  clusterRef: ObjectRef;
  classRef: ObjectRef;
  /** The Runtime SDK calls (src/extensions); without them an external patch fails the Cluster. */
  extensions?: ExternalHooks;
  /** Per external patch, the variables its DiscoverVariables defined (status.variables `from: <patch>`). */
  externalVariableNames?: ReadonlyMap<string, ReadonlySet<string>>;
  /** Records which patches each template was considered for and what every operation changed. */
  recorder?: Recorder;
}
