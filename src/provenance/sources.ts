/**
 * Where a value of a rendered object came from, as the stages that set it report it (see
 * ./recorder.ts). `explain` and the provenance report only read these.
 */
import type { Json } from '../core/model.js';

export interface TemplateId {
  apiVersion: string;
  kind: string;
  name: string;
}

/** The note of a Cluster or ClusterClass field given in seconds and rendered as a Go duration. */
export const SECONDS_AS_DURATION = 'seconds converted to a duration';

/** Where a (defaulted) Cluster variable value came from, as the variables stage decided it. */
export interface VariableOrigin {
  /** True when the value is (or contains) a ClusterClass default rather than what the Cluster set. */
  defaulted: boolean;
  /** Where the Cluster sets it, e.g. `spec.topology.variables[2].value` (absent when defaulted from nothing). */
  from?: string;
  /** The ClusterClass schema the default came from, e.g. `spec.variables[3].schema.openAPIV3Schema.default`. */
  defaultFrom?: string;
}

/** A variable a patch value (or enabledIf) read, with where its value came from. */
export interface VariableUse extends VariableOrigin {
  /** Variable name, or the full path for builtins (`builtin.controlPlane.version`). */
  name: string;
  value: Json;
}

/** One operation of an inline ClusterClass patch. */
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

/** A change made by an external patch (a Runtime SDK `GeneratePatches` extension). */
export interface ExternalPatchSource {
  kind: 'externalPatch';
  /** `spec.patches[patchIndex].name` */
  patch: string;
  patchIndex: number;
  /** `spec.patches[patchIndex].external.generatePatchesExtension` */
  extension: string;
  /** For a JSON patch response: the operation, its index and path as the extension returned them. */
  op?: string;
  operationIndex?: number;
  opPath?: string;
}

export type Source =
  /** A ClusterClass template; `path` is inside the template document. */
  | { kind: 'template'; template: TemplateId; path: string; note?: string }
  /** The ClusterClass itself; `path` is in the ClusterClass as written (v1beta1 or v1beta2 spelling). */
  | { kind: 'clusterClass'; path: string; note?: string }
  /** The Cluster; `path` is in the Cluster as written. */
  | { kind: 'topology'; path: string; note?: string }
  | PatchSource
  | ExternalPatchSource
  /** Values the topology controller computes (names, references to generated objects, held versions). */
  | { kind: 'builtin'; detail: string }
  /** Values the topology controller always sets (fixed labels, cloned-from annotations, kinds, namespaces). */
  | { kind: 'fixed'; detail: string }
  /** API defaults: the controller's (e.g. MachineHealthCheck nodeStartupTimeoutSeconds 600) and CRD schema defaults. */
  | { kind: 'default'; detail: string }
  /** Not attributed: no stage reported where the value came from (a bug: please report). */
  | { kind: 'unknown'; detail: string };

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
