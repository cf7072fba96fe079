/**
 * The internal model: ClusterClass and Cluster in the cluster.x-k8s.io/v1beta2 hub shape
 * (CAPI api/core/v1beta1/conversion.go), whatever version the input used. Every later stage reads only these
 * types. Plain JSON values (`Json`) are what YAML input becomes after normalisation: no Dates,
 * objects with null prototypes are not required (keys are checked at the input boundary).
 * Numbers are what the API server stores (apimachinery util/json `convertNumber`): an int64 or a
 * float64. A JS number holds a float64 and every integer within ±(2^53 - 1); an int64 beyond
 * that is a bigint (`jsonInteger`), so each integer has one form and int64 values stay exact.
 */
export type Json = null | boolean | number | bigint | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** Identifies an input or output object; also the KRM result resourceRef. */
export interface ObjectRef {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
}

/** Where an input object came from, for result `file` entries. */
export interface SourceLocation {
  path: string;
  index?: number;
}

/** A reference from a ClusterClass to a template (v1beta2 `templateRef`). */
export interface TemplateRef {
  apiVersion: string;
  kind: string;
  name: string;
  /** Dotted field path of this reference in the *input* document (v1beta1 or v1beta2 spelling). */
  fieldPath: string;
}

export interface Metadata {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** v1beta2 deletion timeouts, in seconds. */
export interface DeletionTimeouts {
  nodeDrainTimeoutSeconds?: number;
  nodeVolumeDetachTimeoutSeconds?: number;
  nodeDeletionTimeoutSeconds?: number;
}

interface HealthCheckChecks {
  nodeStartupTimeoutSeconds?: number;
  unhealthyNodeConditions?: JsonObject[];
  unhealthyMachineConditions?: JsonObject[];
}

interface HealthCheckRemediation {
  maxInFlight?: number | string;
  triggerIf?: { unhealthyLessThanOrEqualTo?: number | string; unhealthyInRange?: string };
  templateRef?: { apiVersion: string; kind: string; name: string };
}

/** v1beta2 `healthCheck` (class and topology share the shape; `enabled` is topology-only). */
export interface HealthCheck {
  enabled?: boolean;
  checks?: HealthCheckChecks;
  remediation?: HealthCheckRemediation;
}

export interface ReadinessGate {
  conditionType: string;
  polarity?: string;
}

export interface Taint {
  key: string;
  value?: string;
  effect: string;
  propagation?: string;
}

// ---------------------------------------------------------------- ClusterClass

interface JSONSchemaProps {
  [keyword: string]: Json | undefined;
}

export interface ClusterClassVariable {
  name: string;
  required: boolean;
  deprecatedV1Beta1Metadata?: Metadata;
  schema: { openAPIV3Schema: JSONSchemaProps };
  /** Path of this variable in the input, e.g. `spec.variables[3]`. */
  fieldPath: string;
}

export interface PatchSelector {
  apiVersion: string;
  kind: string;
  matchResources: {
    infrastructureCluster?: boolean;
    controlPlane?: boolean;
    machineDeploymentClass?: { names: string[] };
    machinePoolClass?: { names: string[] };
  };
}

export interface JsonPatchOperation {
  op: string;
  path: string;
  value?: Json;
  valueFrom?: { variable?: string; template?: string };
}

export interface PatchDefinition {
  selector: PatchSelector;
  jsonPatches: JsonPatchOperation[];
}

export interface ClusterClassPatch {
  name: string;
  description?: string;
  enabledIf?: string;
  definitions?: PatchDefinition[];
  external?: {
    generatePatchesExtension?: string;
    validateTopologyExtension?: string;
    discoverVariablesExtension?: string;
    settings?: Record<string, string>;
  };
}

export interface MachineDeploymentClass {
  class: string;
  metadata?: Metadata;
  bootstrap: { templateRef: TemplateRef };
  infrastructure: { templateRef: TemplateRef };
  healthCheck?: HealthCheck;
  failureDomain?: string;
  naming?: { template?: string };
  deletion?: DeletionTimeouts & { order?: string };
  minReadySeconds?: number;
  readinessGates?: ReadinessGate[];
  taints?: Taint[];
  rollout?: { strategy?: JsonObject };
  fieldPath: string;
}

export interface MachinePoolClass {
  class: string;
  metadata?: Metadata;
  bootstrap: { templateRef: TemplateRef };
  infrastructure: { templateRef: TemplateRef };
  failureDomains?: string[];
  naming?: { template?: string };
  deletion?: DeletionTimeouts;
  minReadySeconds?: number;
  taints?: Taint[];
  fieldPath: string;
}

export interface ClusterClass {
  name: string;
  namespace: string;
  /** API version the input was written in. */
  sourceApiVersion: string;
  metadata: Metadata;
  infrastructure?: { templateRef: TemplateRef; naming?: { template?: string } };
  controlPlane: {
    templateRef: TemplateRef;
    metadata?: Metadata;
    machineInfrastructure?: { templateRef: TemplateRef };
    healthCheck?: HealthCheck;
    naming?: { template?: string };
    deletion?: DeletionTimeouts;
    readinessGates?: ReadinessGate[];
    taints?: Taint[];
  };
  workers: {
    machineDeployments: MachineDeploymentClass[];
    machinePools: MachinePoolClass[];
  };
  variables: ClusterClassVariable[];
  patches: ClusterClassPatch[];
  kubernetesVersions?: string[];
  upgrade?: JsonObject;
  /**
   * `status.variables` of a class exported from a management cluster: the definitions CAPI's
   * Cluster webhook uses, including those discovered by Runtime Extensions.
   */
  statusVariables?: StatusVariable[];
}

/** One `status.variables` entry (v1beta1 `definitions[].metadata` read as `deprecatedV1Beta1Metadata`). */
export interface StatusVariable {
  name: string;
  definitionsConflict: boolean;
  definitions: {
    from: string;
    required: boolean;
    deprecatedV1Beta1Metadata?: Metadata;
    schema: { openAPIV3Schema: JSONSchemaProps };
  }[];
}

// ---------------------------------------------------------------- Cluster

export interface ClusterVariable {
  name: string;
  value: Json;
}

export interface MachineDeploymentTopology {
  class: string;
  name: string;
  metadata?: Metadata;
  replicas?: number;
  failureDomain?: string;
  healthCheck?: HealthCheck;
  deletion?: DeletionTimeouts & { order?: string };
  minReadySeconds?: number;
  readinessGates?: ReadinessGate[];
  taints?: Taint[];
  rollout?: { after?: string; strategy?: JsonObject };
  variables?: { overrides: ClusterVariable[] };
}

export interface MachinePoolTopology {
  class: string;
  name: string;
  metadata?: Metadata;
  replicas?: number;
  failureDomains?: string[];
  deletion?: DeletionTimeouts;
  minReadySeconds?: number;
  taints?: Taint[];
  variables?: { overrides: ClusterVariable[] };
}

export interface ControlPlaneTopology {
  metadata?: Metadata;
  replicas?: number;
  healthCheck?: HealthCheck;
  deletion?: DeletionTimeouts;
  readinessGates?: ReadinessGate[];
  taints?: Taint[];
  rollout?: { after?: string };
  variables?: { overrides: ClusterVariable[] };
}

export interface ClusterTopology {
  classRef: { name: string; namespace?: string };
  version: string;
  controlPlane: ControlPlaneTopology;
  workers: {
    machineDeployments: MachineDeploymentTopology[];
    machinePools: MachinePoolTopology[];
  };
  variables: ClusterVariable[];
}

interface ClusterNetwork {
  serviceDomain?: string;
  services?: { cidrBlocks?: string[] };
  pods?: { cidrBlocks?: string[] };
}

export interface Cluster {
  name: string;
  namespace: string;
  uid?: string;
  sourceApiVersion: string;
  metadata: Metadata;
  clusterNetwork?: ClusterNetwork;
  topology: ClusterTopology;
}
