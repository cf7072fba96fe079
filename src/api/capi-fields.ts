/**
 * The fields of `spec` that the Cluster and ClusterClass CRDs of CAPI v1.14 declare, per API
 * version: what strict field validation accepts when no CRD is given (src/apiserver/strict.ts).
 * A test compares these trees with the real CRDs (../shared/fixtures/crds/capi), so they cannot
 * drift from them.
 *
 * A tree maps a field name to its sub-tree; `1` is a leaf (a scalar, a list of scalars or a map
 * of scalars), `'*'` a field that keeps unknown fields (`x-kubernetes-preserve-unknown-fields`),
 * `{ '{}': tree }` a map whose values are `tree`. A list of objects is described by its items.
 */
export type Fields = { readonly [name: string]: Fields | 1 | '*' };

const META = { annotations: 1, labels: 1 } as const;
const GATES = { conditionType: 1, polarity: 1 } as const;
const TAINTS = { effect: 1, key: 1, propagation: 1, value: 1 } as const;
/** core/v1 `ObjectReference` (v1beta1 references). */
const OBJECT_REF = { apiVersion: 1, fieldPath: 1, kind: 1, name: 1, namespace: 1, resourceVersion: 1, uid: 1 } as const;
const TEMPLATE_REF = { apiVersion: 1, kind: 1, name: 1 } as const;
const NAMING = { template: 1 } as const;
const CLUSTER_NETWORK = {
  apiServerPort: 1,
  pods: { cidrBlocks: 1 },
  serviceDomain: 1,
  services: { cidrBlocks: 1 },
} as const;
const SPEC_COMMON = {
  availabilityGates: GATES,
  clusterNetwork: CLUSTER_NETWORK,
  controlPlaneEndpoint: { host: 1, port: 1 },
  paused: 1,
} as const;

// ------------------------------------------------------------------ v1beta1

const V1_TIMEOUTS = { nodeDeletionTimeout: 1, nodeDrainTimeout: 1, nodeVolumeDetachTimeout: 1 } as const;
const V1_CONDITION = { status: 1, timeout: 1, type: 1 } as const;
const V1_HEALTH_CHECK = {
  maxUnhealthy: 1,
  nodeStartupTimeout: 1,
  remediationTemplate: OBJECT_REF,
  unhealthyConditions: V1_CONDITION,
  unhealthyMachineConditions: V1_CONDITION,
  unhealthyRange: 1,
} as const;
const V1_STRATEGY = {
  remediation: { maxInFlight: 1 },
  rollingUpdate: { deletePolicy: 1, maxSurge: 1, maxUnavailable: 1 },
  type: 1,
} as const;
const V1_VARIABLE = { definitionFrom: 1, name: 1, value: '*' } as const;
const V1_OVERRIDES = { overrides: V1_VARIABLE } as const;
const V1_TEMPLATE = { ref: OBJECT_REF } as const;
const V1_WORKER_TEMPLATE = { bootstrap: V1_TEMPLATE, infrastructure: V1_TEMPLATE, metadata: META } as const;

const V1_TOPOLOGY_WORKER = {
  class: 1,
  metadata: META,
  minReadySeconds: 1,
  name: 1,
  ...V1_TIMEOUTS,
  replicas: 1,
  taints: TAINTS,
  variables: V1_OVERRIDES,
} as const;

const CLUSTER_V1BETA1: Fields = {
  ...SPEC_COMMON,
  controlPlaneRef: OBJECT_REF,
  infrastructureRef: OBJECT_REF,
  topology: {
    class: 1,
    classNamespace: 1,
    controlPlane: {
      machineHealthCheck: { enable: 1, ...V1_HEALTH_CHECK },
      metadata: META,
      ...V1_TIMEOUTS,
      readinessGates: GATES,
      replicas: 1,
      rollout: { after: 1 },
      taints: TAINTS,
      variables: V1_OVERRIDES,
    },
    rolloutAfter: 1,
    variables: V1_VARIABLE,
    version: 1,
    workers: {
      machineDeployments: {
        ...V1_TOPOLOGY_WORKER,
        failureDomain: 1,
        machineHealthCheck: { enable: 1, ...V1_HEALTH_CHECK },
        readinessGates: GATES,
        rollout: { after: 1 },
        strategy: V1_STRATEGY,
      },
      machinePools: { ...V1_TOPOLOGY_WORKER, failureDomains: 1 },
    },
  },
};

const V1_CLASS_WORKER = {
  class: 1,
  minReadySeconds: 1,
  namingStrategy: NAMING,
  ...V1_TIMEOUTS,
  taints: TAINTS,
  template: V1_WORKER_TEMPLATE,
} as const;

// ------------------------------------------------------------------ v1beta2

const DELETION = {
  nodeDeletionTimeoutSeconds: 1,
  nodeDrainTimeoutSeconds: 1,
  nodeVolumeDetachTimeoutSeconds: 1,
} as const;
const CONDITION = { status: 1, timeoutSeconds: 1, type: 1 } as const;
const CHECKS = {
  nodeStartupTimeoutSeconds: 1,
  unhealthyMachineConditions: CONDITION,
  unhealthyNodeConditions: CONDITION,
} as const;
const REMEDIATION = {
  templateRef: TEMPLATE_REF,
  triggerIf: { unhealthyInRange: 1, unhealthyLessThanOrEqualTo: 1 },
} as const;
const HEALTH_CHECK = { checks: CHECKS, remediation: REMEDIATION } as const;
const MD_HEALTH_CHECK = { checks: CHECKS, remediation: { ...REMEDIATION, maxInFlight: 1 } } as const;
const ROLLOUT_STRATEGY = { rollingUpdate: { maxSurge: 1, maxUnavailable: 1 }, type: 1 } as const;
const VARIABLE = { name: 1, value: '*' } as const;
const OVERRIDES = { overrides: VARIABLE } as const;
const TEMPLATE = { templateRef: TEMPLATE_REF } as const;

const TOPOLOGY_WORKER = {
  class: 1,
  metadata: META,
  minReadySeconds: 1,
  name: 1,
  replicas: 1,
  taints: TAINTS,
  variables: OVERRIDES,
} as const;

const CLUSTER_V1BETA2: Fields = {
  ...SPEC_COMMON,
  controlPlaneRef: { apiGroup: 1, kind: 1, name: 1 },
  infrastructureRef: { apiGroup: 1, kind: 1, name: 1 },
  topology: {
    classRef: { name: 1, namespace: 1 },
    controlPlane: {
      deletion: DELETION,
      healthCheck: { ...HEALTH_CHECK, enabled: 1 },
      metadata: META,
      readinessGates: GATES,
      replicas: 1,
      rollout: { after: 1 },
      taints: TAINTS,
      variables: OVERRIDES,
    },
    variables: VARIABLE,
    version: 1,
    workers: {
      machineDeployments: {
        ...TOPOLOGY_WORKER,
        deletion: { ...DELETION, order: 1 },
        failureDomain: 1,
        healthCheck: { ...MD_HEALTH_CHECK, enabled: 1 },
        readinessGates: GATES,
        rollout: { after: 1, strategy: ROLLOUT_STRATEGY },
      },
      machinePools: { ...TOPOLOGY_WORKER, deletion: DELETION, failureDomains: 1 },
    },
  },
};

const CLASS_WORKER = {
  bootstrap: TEMPLATE,
  class: 1,
  infrastructure: TEMPLATE,
  metadata: META,
  minReadySeconds: 1,
  naming: NAMING,
  taints: TAINTS,
} as const;

// ------------------------------------------------------------------ ClusterClass, both versions

const PATCH_DEFINITIONS = {
  jsonPatches: { op: 1, path: 1, value: '*', valueFrom: { template: 1, variable: 1 } },
  selector: {
    apiVersion: 1,
    kind: 1,
    matchResources: {
      controlPlane: 1,
      infrastructureCluster: 1,
      machineDeploymentClass: { names: 1 },
      machinePoolClass: { names: 1 },
    },
  },
} as const;
const patches = (generate: string, validate: string): Fields => ({
  definitions: PATCH_DEFINITIONS,
  description: 1,
  enabledIf: 1,
  external: { discoverVariablesExtension: 1, [generate]: 1, settings: 1, [validate]: 1 },
  name: 1,
});

/** `openAPIV3Schema` declares its own keywords; nested schemas keep whatever they hold. */
const VARIABLE_SCHEMA = {
  openAPIV3Schema: {
    ...Object.fromEntries(
      [
        'additionalProperties',
        'allOf',
        'anyOf',
        'default',
        'enum',
        'example',
        'items',
        'not',
        'oneOf',
        'properties',
      ].map((k) => [k, '*' as const]),
    ),
    ...Object.fromEntries(
      [
        'description',
        'exclusiveMaximum',
        'exclusiveMinimum',
        'format',
        'maxItems',
        'maxLength',
        'maxProperties',
        'maximum',
        'minItems',
        'minLength',
        'minProperties',
        'minimum',
        'pattern',
        'required',
        'type',
        'uniqueItems',
        'x-kubernetes-int-or-string',
        'x-kubernetes-preserve-unknown-fields',
      ].map((k) => [k, 1 as const]),
    ),
    'x-kubernetes-validations': { fieldPath: 1, message: 1, messageExpression: 1, reason: 1, rule: 1 },
    'x-metadata': META,
  },
} as const;
const CLASS_COMMON = {
  availabilityGates: GATES,
  kubernetesVersions: 1,
  upgrade: { external: { generateUpgradePlanExtension: 1 } },
} as const;

const CLUSTERCLASS_V1BETA1: Fields = {
  ...CLASS_COMMON,
  controlPlane: {
    machineHealthCheck: V1_HEALTH_CHECK,
    machineInfrastructure: V1_TEMPLATE,
    metadata: META,
    namingStrategy: NAMING,
    ...V1_TIMEOUTS,
    readinessGates: GATES,
    ref: OBJECT_REF,
    taints: TAINTS,
  },
  infrastructure: V1_TEMPLATE,
  infrastructureNamingStrategy: NAMING,
  patches: patches('generateExtension', 'validateExtension'),
  variables: { metadata: META, name: 1, required: 1, schema: VARIABLE_SCHEMA },
  workers: {
    machineDeployments: {
      ...V1_CLASS_WORKER,
      failureDomain: 1,
      machineHealthCheck: V1_HEALTH_CHECK,
      readinessGates: GATES,
      strategy: V1_STRATEGY,
    },
    machinePools: { ...V1_CLASS_WORKER, failureDomains: 1 },
  },
};

const CLUSTERCLASS_V1BETA2: Fields = {
  ...CLASS_COMMON,
  controlPlane: {
    deletion: DELETION,
    healthCheck: HEALTH_CHECK,
    machineInfrastructure: TEMPLATE,
    metadata: META,
    naming: NAMING,
    readinessGates: GATES,
    taints: TAINTS,
    templateRef: TEMPLATE_REF,
  },
  infrastructure: { naming: NAMING, templateRef: TEMPLATE_REF },
  patches: patches('generatePatchesExtension', 'validateTopologyExtension'),
  variables: { deprecatedV1Beta1Metadata: META, name: 1, required: 1, schema: VARIABLE_SCHEMA },
  workers: {
    machineDeployments: {
      ...CLASS_WORKER,
      deletion: { ...DELETION, order: 1 },
      failureDomain: 1,
      healthCheck: MD_HEALTH_CHECK,
      readinessGates: GATES,
      rollout: { strategy: ROLLOUT_STRATEGY },
    },
    machinePools: { ...CLASS_WORKER, deletion: DELETION, failureDomains: 1 },
  },
};

/** `spec` fields by `Kind/version`. */
export const CAPI_SPEC_FIELDS: ReadonlyMap<string, Fields> = new Map([
  ['Cluster/v1beta1', CLUSTER_V1BETA1],
  ['Cluster/v1beta2', CLUSTER_V1BETA2],
  ['ClusterClass/v1beta1', CLUSTERCLASS_V1BETA1],
  ['ClusterClass/v1beta2', CLUSTERCLASS_V1BETA2],
]);
