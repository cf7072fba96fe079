/**
 * cluster.x-k8s.io v1beta1 → v1beta2 for ClusterClass and Cluster, rule by rule as CAPI's
 * conversion functions do it (CAPI api/core/v1beta1/conversion.go). Citations name the function in
 * kubernetes-sigs/cluster-api; "conversion.go" is api/core/v1beta1/conversion.go, "generated" its
 * zz_generated.conversion.go, "webhook" core/webhooks/conversion/<kind>.go.
 */
import { isObject } from '../../core/json.js';
import { omitZeroAt, type ConversionContext, type Step } from './engine.js';
import { pathText, type Path, type Tree } from './tree.js';

const CC = 'conversion.go Convert_v1beta1_ControlPlaneClass_To_v1beta2_ControlPlaneClass';
const MDC = 'conversion.go Convert_v1beta1_MachineDeploymentClass_To_v1beta2_MachineDeploymentClass';
const MPC = 'conversion.go Convert_v1beta1_MachinePoolClass_To_v1beta2_MachinePoolClass';
const CPT = 'conversion.go Convert_v1beta1_ControlPlaneTopology_To_v1beta2_ControlPlaneTopology';
const MDT = 'conversion.go Convert_v1beta1_MachineDeploymentTopology_To_v1beta2_MachineDeploymentTopology';
const MPT = 'conversion.go Convert_v1beta1_MachinePoolTopology_To_v1beta2_MachinePoolTopology';
const TEMPLATE_REF = 'conversion.go convert_v1beta1_LocalObjectTemplate_To_v1beta2_ClusterClassTemplateReference';

/** nodeDrainTimeout, nodeVolumeDetachTimeout, nodeDeletionTimeout → deletion.*Seconds (ConvertToSeconds). */
export function deletionTimeouts(base: string, deletion: string, capi: string): Step[] {
  return ['nodeDrainTimeout', 'nodeVolumeDetachTimeout', 'nodeDeletionTimeout'].map((n) => ({
    kind: 'seconds',
    from: `${base}.${n}`,
    to: `${deletion}.${n}Seconds`,
    capi,
  }));
}

/** A v1beta1 `ref` (LocalObjectTemplate) → v1beta2 `templateRef`: apiVersion, kind, name. */
const templateRef = (holder: string): Step => ({
  kind: 'reference',
  from: `${holder}.ref`,
  to: `${holder}.templateRef`,
  sameNamespace: true,
  capi: TEMPLATE_REF,
});

/** `namingStrategy` → `naming` (the template string is dereferenced; "" is unset). */
function naming(from: string, to: string, capi: string): Step[] {
  return [
    { kind: 'rename', from, to, capi },
    { kind: 'omitZero', at: `${to}.template`, zero: '', capi },
    { kind: 'prune', at: to, capi },
  ];
}

/** `machineHealthCheck` (MachineHealthCheckClass/Topology) → `healthCheck` (CAPI api/core/v1beta1/conversion.go). */
function healthCheck(base: string, capi: string, topology: boolean): Step[] {
  const hc = `${base}.healthCheck`;
  return [
    { kind: 'rename', from: `${base}.machineHealthCheck`, to: hc, capi },
    ...(topology ? [{ kind: 'rename', from: `${hc}.enable`, to: `${hc}.enabled`, capi } as Step] : []),
    // UnhealthyCondition.Timeout is a non-pointer metav1.Duration: ConvertToSeconds(&c.Timeout) is always set.
    {
      kind: 'seconds',
      from: `${hc}.unhealthyConditions[].timeout`,
      to: `${hc}.unhealthyConditions[].timeoutSeconds`,
      zeroWhenAbsent: true,
      capi,
    },
    {
      kind: 'seconds',
      from: `${hc}.unhealthyMachineConditions[].timeout`,
      to: `${hc}.unhealthyMachineConditions[].timeoutSeconds`,
      zeroWhenAbsent: true,
      capi,
    },
    { kind: 'rename', from: `${hc}.unhealthyConditions`, to: `${hc}.checks.unhealthyNodeConditions`, capi },
    { kind: 'rename', from: `${hc}.unhealthyMachineConditions`, to: `${hc}.checks.unhealthyMachineConditions`, capi },
    { kind: 'seconds', from: `${hc}.nodeStartupTimeout`, to: `${hc}.checks.nodeStartupTimeoutSeconds`, capi },
    { kind: 'rename', from: `${hc}.maxUnhealthy`, to: `${hc}.remediation.triggerIf.unhealthyLessThanOrEqualTo`, capi },
    { kind: 'rename', from: `${hc}.unhealthyRange`, to: `${hc}.remediation.triggerIf.unhealthyInRange`, capi },
    { kind: 'omitZero', at: `${hc}.remediation.triggerIf.unhealthyInRange`, zero: '', capi },
    {
      kind: 'reference',
      from: `${hc}.remediationTemplate`,
      to: `${hc}.remediation.templateRef`,
      capi: 'conversion.go Convert_v1_ObjectReference_To_v1beta2_MachineHealthCheckRemediationTemplateReference',
    },
    { kind: 'prune', at: hc, capi },
  ];
}

/** MachineDeployment `strategy` → `rollout.strategy`, `deletion.order` and `healthCheck.remediation.maxInFlight`. */
function strategy(md: string, capi: string): Step[] {
  const s = `${md}.strategy`;
  return [
    { kind: 'rename', from: `${s}.type`, to: `${md}.rollout.strategy.type`, capi },
    {
      kind: 'rename',
      from: `${s}.rollingUpdate.maxUnavailable`,
      to: `${md}.rollout.strategy.rollingUpdate.maxUnavailable`,
      capi,
    },
    { kind: 'rename', from: `${s}.rollingUpdate.maxSurge`, to: `${md}.rollout.strategy.rollingUpdate.maxSurge`, capi },
    { kind: 'rename', from: `${s}.rollingUpdate.deletePolicy`, to: `${md}.deletion.order`, capi },
    { kind: 'rename', from: `${s}.remediation.maxInFlight`, to: `${md}.healthCheck.remediation.maxInFlight`, capi },
    { kind: 'prune', at: `${s}.rollingUpdate`, capi },
    { kind: 'prune', at: `${s}.remediation`, capi },
    { kind: 'prune', at: s, capi },
  ];
}

/** `template.{metadata,bootstrap,infrastructure}` of a worker class moved up, `ref` → `templateRef`. */
function workerClassTemplate(w: string, capi: string): Step[] {
  return [
    { kind: 'rename', from: `${w}.template.metadata`, to: `${w}.metadata`, capi },
    { kind: 'rename', from: `${w}.template.bootstrap`, to: `${w}.bootstrap`, capi },
    { kind: 'rename', from: `${w}.template.infrastructure`, to: `${w}.infrastructure`, capi },
    { kind: 'prune', at: `${w}.template`, capi },
    templateRef(`${w}.bootstrap`),
    templateRef(`${w}.infrastructure`),
  ];
}

const SCHEMA_BOOLS = [
  'uniqueItems',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-int-or-string',
];

/**
 * JSONSchemaProps bools → *bool with the false-intent restore of restoreBoolIntentJSONSchemaProps
 * (webhook clusterclass.go), recursively; `x-metadata` pointer → struct (empty is unset).
 */
function schemaBools(tree: Tree, ctx: ConversionContext, at: Path): void {
  const schema = tree.get(at);
  if (!isObject(schema)) return;
  for (const k of SCHEMA_BOOLS) omitZeroAt(tree, ctx, [...at, k], false, true);
  const xm = schema['x-metadata'];
  if (isObject(xm) && Object.keys(xm).length === 0) tree.remove([...at, 'x-metadata']);
  if (isObject(schema.properties))
    for (const p of Object.keys(schema.properties)) schemaBools(tree, ctx, [...at, 'properties', p]);
  for (const k of ['additionalProperties', 'items', 'not']) schemaBools(tree, ctx, [...at, k]);
  for (const k of ['allOf', 'oneOf', 'anyOf']) {
    const list = schema[k];
    if (Array.isArray(list)) list.forEach((_, i) => schemaBools(tree, ctx, [...at, k, i]));
  }
}

export const CLUSTER_CLASS_STEPS: readonly Step[] = [
  templateRef('spec.infrastructure'),
  ...naming(
    'spec.infrastructureNamingStrategy',
    'spec.infrastructure.naming',
    'conversion.go Convert_v1beta1_ClusterClassSpec_To_v1beta2_ClusterClassSpec',
  ),
  templateRef('spec.controlPlane'),
  templateRef('spec.controlPlane.machineInfrastructure'),
  ...naming('spec.controlPlane.namingStrategy', 'spec.controlPlane.naming', CC),
  ...deletionTimeouts('spec.controlPlane', 'spec.controlPlane.deletion', CC),
  ...healthCheck('spec.controlPlane', CC, false),
  ...workerClassTemplate('spec.workers.machineDeployments[]', MDC),
  ...naming('spec.workers.machineDeployments[].namingStrategy', 'spec.workers.machineDeployments[].naming', MDC),
  {
    kind: 'omitZero',
    at: 'spec.workers.machineDeployments[].failureDomain',
    zero: '',
    capi: 'generated autoConvert_v1beta1_MachineDeploymentClass_To_v1beta2_MachineDeploymentClass',
  },
  ...deletionTimeouts('spec.workers.machineDeployments[]', 'spec.workers.machineDeployments[].deletion', MDC),
  ...healthCheck('spec.workers.machineDeployments[]', MDC, false),
  ...strategy('spec.workers.machineDeployments[]', MDC),
  ...workerClassTemplate('spec.workers.machinePools[]', MPC),
  ...naming('spec.workers.machinePools[].namingStrategy', 'spec.workers.machinePools[].naming', MPC),
  ...deletionTimeouts('spec.workers.machinePools[]', 'spec.workers.machinePools[].deletion', MPC),
  {
    kind: 'rename',
    from: 'spec.variables[].metadata',
    to: 'spec.variables[].deprecatedV1Beta1Metadata',
    capi: 'conversion.go Convert_v1beta1_ClusterClassVariable_To_v1beta2_ClusterClassVariable',
  },
  {
    kind: 'custom',
    name: 'schema bools',
    capi: 'webhook clusterclass.go restoreBoolIntentJSONSchemaProps; conversion.go Convert_v1beta1_JSONSchemaProps_To_v1beta2_JSONSchemaProps',
    apply: (tree, ctx) => {
      const items = (path: (string | number)[]) => {
        const v = tree.get(path);
        return Array.isArray(v) ? v.map((_, i) => [...path, i]) : [];
      };
      for (const v of items(['spec', 'variables'])) schemaBools(tree, ctx, [...v, 'schema', 'openAPIV3Schema']);
      for (const v of items(['status', 'variables']))
        for (const d of items([...v, 'definitions'])) schemaBools(tree, ctx, [...d, 'schema', 'openAPIV3Schema']);
    },
  },
  // The status of a class exported from a management cluster (its variables define the Clusters').
  {
    kind: 'rename',
    from: 'status.variables[].definitions[].metadata',
    to: 'status.variables[].definitions[].deprecatedV1Beta1Metadata',
    capi: 'conversion.go Convert_v1beta1_ClusterClassStatusVariableDefinition_To_v1beta2_ClusterClassStatusVariableDefinition',
  },
  {
    kind: 'omitZero',
    at: 'status.variables[].definitionsConflict',
    zero: false,
    restore: true,
    capi: 'webhook clusterclass.go ConvertClusterClassV1Beta1ToHub',
  },
  {
    kind: 'rename',
    from: 'status.conditions',
    to: 'status.deprecated.v1beta1.conditions',
    capi: 'conversion.go Convert_v1beta1_ClusterClassStatus_To_v1beta2_ClusterClassStatus',
  },
  {
    kind: 'rename',
    from: 'status.v1beta2.conditions',
    to: 'status.conditions',
    capi: 'conversion.go Convert_v1beta1_ClusterClassStatus_To_v1beta2_ClusterClassStatus',
  },
  {
    kind: 'prune',
    at: 'status.v1beta2',
    capi: 'conversion.go Convert_v1beta1_ClusterClassStatus_To_v1beta2_ClusterClassStatus',
  },
  {
    kind: 'omitZero',
    at: 'spec.patches[].enabledIf',
    zero: '',
    capi: 'generated autoConvert_v1beta1_ClusterClassPatch_To_v1beta2_ClusterClassPatch',
  },
  {
    kind: 'omitZero',
    zero: false,
    restore: true,
    at: 'spec.patches[].definitions[].selector.matchResources.controlPlane',
    capi: 'webhook clusterclass.go ConvertClusterClassV1Beta1ToHub',
  },
  {
    kind: 'omitZero',
    zero: false,
    restore: true,
    at: 'spec.patches[].definitions[].selector.matchResources.infrastructureCluster',
    capi: 'webhook clusterclass.go ConvertClusterClassV1Beta1ToHub',
  },
  {
    kind: 'omitZero',
    at: 'spec.patches[].definitions[].jsonPatches[].valueFrom.variable',
    zero: '',
    capi: 'generated autoConvert_v1beta1_JSONPatchValue_To_v1beta2_JSONPatchValue',
  },
  {
    kind: 'omitZero',
    at: 'spec.patches[].definitions[].jsonPatches[].valueFrom.template',
    zero: '',
    capi: 'generated autoConvert_v1beta1_JSONPatchValue_To_v1beta2_JSONPatchValue',
  },
  ...[
    'generateExtension:generatePatchesExtension',
    'validateExtension:validateTopologyExtension',
    'discoverVariablesExtension:discoverVariablesExtension',
  ].flatMap((pair): Step[] => {
    const [from, to] = pair.split(':') as [string, string];
    const capi = 'conversion.go Convert_v1beta1_ExternalPatchDefinition_To_v1beta2_ExternalPatchDefinition';
    return [
      ...(from === to
        ? []
        : [
            {
              kind: 'rename',
              from: `spec.patches[].external.${from}`,
              to: `spec.patches[].external.${to}`,
              capi,
            } as const,
          ]),
      { kind: 'omitZero', at: `spec.patches[].external.${to}`, zero: '', capi },
    ];
  }),
];

const TOPOLOGY_ENTRIES = [
  'spec.topology.controlPlane',
  'spec.topology.workers.machineDeployments[]',
  'spec.topology.workers.machinePools[]',
];

/** The topology entries present: the control plane and every MachineDeployment and MachinePool. */
function topologyEntries(tree: Tree): Path[] {
  const items = (list: string) => {
    const path = ['spec', 'topology', 'workers', list];
    const v = tree.get(path);
    return Array.isArray(v) ? v.map((_, i) => [...path, i]) : [];
  };
  return [['spec', 'topology', 'controlPlane'], ...items('machineDeployments'), ...items('machinePools')];
}

/**
 * Not a CAPI rule: the ClusterClass proposal's example put `labels`/`annotations` directly on a
 * topology entry. Kept readable (folded into `metadata`, which wins), with a warning.
 */
const proposalEraMetadata: Step = {
  kind: 'custom',
  name: 'proposal-era topology metadata',
  capi: 'none (ClusterClass proposal shape, folded into metadata)',
  paths: TOPOLOGY_ENTRIES.flatMap((e) =>
    ['labels', 'annotations'].map((k) => ({ from: `${e}.${k}`, to: `${e}.metadata.${k}` })),
  ),
  apply(tree, ctx) {
    for (const base of topologyEntries(tree)) {
      const obj = tree.get(base);
      if (!isObject(obj) || (obj.labels === undefined && obj.annotations === undefined)) continue;
      ctx.report({
        severity: 'warning',
        path: pathText(base),
        message:
          'labels/annotations directly on a topology entry are the proposal-era shape; use metadata.labels/metadata.annotations',
      });
      for (const k of ['labels', 'annotations']) {
        const own = obj[k];
        if (!isObject(own)) continue;
        const meta = isObject(obj.metadata) && isObject(obj.metadata[k]) ? obj.metadata[k] : {};
        for (const key of Object.keys(own)) {
          if (Object.prototype.hasOwnProperty.call(meta, key)) tree.remove([...base, k, key]);
          else tree.move([...base, k, key], [...base, 'metadata', k, key]);
        }
        tree.remove([...base, k]);
      }
    }
  },
};

const definitionFrom = (at: string): Step => ({
  kind: 'drop',
  at,
  severity: 'warning',
  message: 'definitionFrom is deprecated and dropped in v1beta2',
  capi: 'conversion.go Convert_v1beta1_ClusterVariable_To_v1beta2_ClusterVariable',
});

export const CLUSTER_STEPS: readonly Step[] = [
  {
    kind: 'rename',
    from: 'spec.topology.class',
    to: 'spec.topology.classRef.name',
    capi: 'conversion.go Convert_v1beta1_Topology_To_v1beta2_Topology',
  },
  {
    kind: 'rename',
    from: 'spec.topology.classNamespace',
    to: 'spec.topology.classRef.namespace',
    capi: 'conversion.go Convert_v1beta1_Topology_To_v1beta2_Topology',
  },
  {
    kind: 'omitZero',
    at: 'spec.topology.classRef.namespace',
    zero: '',
    capi: 'conversion.go Convert_v1beta1_Topology_To_v1beta2_Topology',
  },
  {
    kind: 'drop',
    at: 'spec.topology.rolloutAfter',
    severity: 'warning',
    message: 'spec.topology.rolloutAfter was never implemented and is dropped in v1beta2',
    capi: 'generated autoConvert_v1beta1_Topology_To_v1beta2_Topology',
  },
  proposalEraMetadata,
  ...deletionTimeouts('spec.topology.controlPlane', 'spec.topology.controlPlane.deletion', CPT),
  ...healthCheck('spec.topology.controlPlane', CPT, true),
  { kind: 'prune', at: 'spec.topology.controlPlane.variables', capi: CPT },
  {
    kind: 'omitZero',
    at: 'spec.topology.workers.machineDeployments[].failureDomain',
    zero: '',
    capi: 'generated autoConvert_v1beta1_MachineDeploymentTopology_To_v1beta2_MachineDeploymentTopology',
  },
  ...deletionTimeouts(
    'spec.topology.workers.machineDeployments[]',
    'spec.topology.workers.machineDeployments[].deletion',
    MDT,
  ),
  ...healthCheck('spec.topology.workers.machineDeployments[]', MDT, true),
  ...strategy('spec.topology.workers.machineDeployments[]', MDT),
  { kind: 'prune', at: 'spec.topology.workers.machineDeployments[].variables', capi: MDT },
  ...deletionTimeouts('spec.topology.workers.machinePools[]', 'spec.topology.workers.machinePools[].deletion', MPT),
  { kind: 'prune', at: 'spec.topology.workers.machinePools[].variables', capi: MPT },
  { kind: 'prune', at: 'spec.topology.workers', capi: 'conversion.go Convert_v1beta1_Topology_To_v1beta2_Topology' },
  definitionFrom('spec.topology.variables[].definitionFrom'),
  definitionFrom('spec.topology.controlPlane.variables.overrides[].definitionFrom'),
  definitionFrom('spec.topology.workers.machineDeployments[].variables.overrides[].definitionFrom'),
  definitionFrom('spec.topology.workers.machinePools[].variables.overrides[].definitionFrom'),
  {
    kind: 'omitZero',
    zero: false,
    restore: true,
    at: 'spec.paused',
    capi: 'webhook cluster.go ConvertClusterV1Beta1ToHub',
  },
  {
    kind: 'reference',
    from: 'spec.infrastructureRef',
    to: 'spec.infrastructureRef',
    group: true,
    capi: 'webhook common.go convertToContractVersionedObjectReference',
  },
  {
    kind: 'reference',
    from: 'spec.controlPlaneRef',
    to: 'spec.controlPlaneRef',
    group: true,
    capi: 'webhook common.go convertToContractVersionedObjectReference',
  },
  {
    kind: 'omitZero',
    at: 'spec.clusterNetwork.apiServerPort',
    zero: 0,
    capi: 'generated autoConvert_v1beta1_ClusterNetwork_To_v1beta2_ClusterNetwork',
  },
];
