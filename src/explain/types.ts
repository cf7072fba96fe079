/** Public shapes of `explain` (issue #6): where each field of a rendered object came from. */
import type { Json, ObjectRef } from '../api/model.js';

/** A variable a patch value (or enabledIf) read, with where its value came from. */
export interface VariableUse {
  /** Variable name, or the full path for builtins (`builtin.controlPlane.version`). */
  name: string;
  value: Json;
  /** True when the value is (or contains) a ClusterClass default rather than what the Cluster set. */
  defaulted: boolean;
  /** Where the Cluster sets it, e.g. `spec.topology.variables[2].value` (absent when defaulted from nothing). */
  from?: string;
  /** The ClusterClass schema the default came from, e.g. `spec.variables[3].schema.openAPIV3Schema.default`. */
  defaultFrom?: string;
}

export interface TemplateId {
  apiVersion: string;
  kind: string;
  name: string;
}

export interface PatchSource {
  kind: 'patch';
  /** `spec.patches[patchIndex].name` */
  patch: string;
  patchIndex: number;
  definitionIndex: number;
  jsonPatchIndex: number;
  op: string;
  /** The JSON pointer as written in the ClusterClass (relative to the template). */
  opPath: string;
  enabledIf?: string;
  /** Rendered enabledIf (always true for a field the patch set; present when enabledIf is set). */
  enabledIfResult?: boolean;
  valueFrom?: { variable?: string; template?: string };
  /** Variables the value read (valueFrom.variable, or the references found in valueFrom.template). */
  variables?: VariableUse[];
  /** Variables the enabledIf template read. */
  enabledIfVariables?: VariableUse[];
}

export type Source =
  /** A ClusterClass template; `path` is inside the template document. */
  | { kind: 'template'; template: TemplateId; path: string; note?: string }
  /** The ClusterClass itself; `path` is in the ClusterClass as written (v1beta1 or v1beta2 spelling). */
  | { kind: 'clusterClass'; path: string; note?: string }
  /** The Cluster; `path` is in the Cluster as written. */
  | { kind: 'topology'; path: string; note?: string }
  | PatchSource
  /** Values the topology controller computes (names, references to generated objects). */
  | { kind: 'builtin'; detail: string }
  /** Values the topology controller always sets (fixed labels, cloned-from annotations, kinds, namespaces). */
  | { kind: 'fixed'; detail: string }
  /** API defaults the controller applies (e.g. MachineHealthCheck nodeStartupTimeoutSeconds 600). */
  | { kind: 'default'; detail: string }
  /** Not attributed (a bug in explain: please report). */
  | { kind: 'unknown'; detail: string };

export interface FieldOrigin {
  /** Dotted path, `[i]` for list items, `['key']` for keys containing `.`, `[`, `]` or `'`. */
  path: string;
  value: Json;
  source: Source;
}

/** What a ClusterClass patch did for the template behind one rendered object. */
export interface PatchEvaluation {
  patch: string;
  patchIndex: number;
  /** Definitions whose selector matched the template. */
  definitions: number[];
  enabledIf?: string;
  /** enabledIf result (true when the patch has no enabledIf). */
  enabled: boolean;
  enabledIfVariables?: VariableUse[];
}

export interface ExplainedObject {
  ref: { apiVersion: string; kind: string; name: string; namespace: string };
  /** Every scalar leaf and every empty object/list, in document order. */
  fields: FieldOrigin[];
  /** Role of the object in the topology, e.g. `ControlPlane`, `MachineDeployment md-0`. */
  role?: string;
  /** The ClusterClass patches whose selectors matched this object's template (not for MachineDeployments/MHCs). */
  patches?: PatchEvaluation[];
}

export interface ExplainResult {
  objects: ExplainedObject[];
  results: import('../krm/result.js').Result[];
  cluster?: ObjectRef;
  clusterClass?: ObjectRef;
}
