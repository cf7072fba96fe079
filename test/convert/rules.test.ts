/**
 * One row per CAPI conversion rule the converter uses (src/api/conversion/core.ts, kubeadm.ts).
 * Expected values are read off the cited CAPI functions (kubernetes-sigs/cluster-api at the
 * fixtures' commit, /work/.mirror/kubernetes-sigs+cluster-api), not from running our code. Every
 * row runs through both Tree implementations: plain JSON (normalisation, the proof) and YAML text
 * (files), which must agree.
 */
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import type { JsonObject } from '../../src/core/model.js';
import { conversionFor, convertObject, convertTree } from '../../src/api/conversion/index.js';
import { YamlTree, PARSE_OPTIONS } from '../../src/convert/yamltree.js';

const CORE1 = 'cluster.x-k8s.io/v1beta1';
const CORE2 = 'cluster.x-k8s.io/v1beta2';
const meta = { name: 'x', namespace: 'ns' };
const obj = (apiVersion: string, kind: string, spec: JsonObject, metadata: JsonObject = meta): JsonObject => ({
  apiVersion,
  kind,
  metadata,
  spec,
});
const cc1 = (spec: JsonObject) => obj(CORE1, 'ClusterClass', spec);
const cc2 = (spec: JsonObject) => obj(CORE2, 'ClusterClass', spec);
const cl1 = (spec: JsonObject) => obj(CORE1, 'Cluster', spec);
const cl2 = (spec: JsonObject) => obj(CORE2, 'Cluster', spec);
const withStatus = (o: JsonObject, status: JsonObject): JsonObject => ({ ...o, status });
const kct1 = (spec: JsonObject) =>
  obj('bootstrap.cluster.x-k8s.io/v1beta1', 'KubeadmConfigTemplate', { template: { spec } });
const kct2 = (spec: JsonObject) =>
  obj('bootstrap.cluster.x-k8s.io/v1beta2', 'KubeadmConfigTemplate', { template: { spec } });
const kcpt1 = (spec: JsonObject) =>
  obj('controlplane.cluster.x-k8s.io/v1beta1', 'KubeadmControlPlaneTemplate', { template: { spec } });
const kcpt2 = (spec: JsonObject) =>
  obj('controlplane.cluster.x-k8s.io/v1beta2', 'KubeadmControlPlaneTemplate', { template: { spec } });
const kcp1 = (spec: JsonObject) => obj('controlplane.cluster.x-k8s.io/v1beta1', 'KubeadmControlPlane', spec);
const kcp2 = (spec: JsonObject) => obj('controlplane.cluster.x-k8s.io/v1beta2', 'KubeadmControlPlane', spec);
const ref = (kind: string, extra: JsonObject = {}) => ({ apiVersion: 'infra/v1', kind, name: 'n', ...extra });

interface Row {
  capi: string;
  rule: string;
  input: JsonObject;
  expected: JsonObject;
  results?: { severity: string; path: string; message: string }[];
}

const ROWS: Row[] = [
  // ---------------------------------------------------------------- ClusterClass
  {
    capi: 'api/core/v1beta1/conversion.go convert_v1beta1_LocalObjectTemplate_To_v1beta2_ClusterClassTemplateReference',
    rule: 'ref → templateRef keeps apiVersion, kind, name only',
    input: cc1({
      infrastructure: { ref: ref('T', { namespace: 'ns', uid: 'u' }) },
      controlPlane: { ref: ref('CT'), machineInfrastructure: { ref: ref('MT') } },
    }),
    expected: cc2({
      infrastructure: { templateRef: ref('T') },
      controlPlane: { templateRef: ref('CT'), machineInfrastructure: { templateRef: ref('MT') } },
    }),
  },
  {
    capi: 'api/core/v1beta1/conversion.go convert_v1beta1_LocalObjectTemplate_To_v1beta2_ClusterClassTemplateReference (the namespace is not kept)',
    rule: 'a template reference to another namespace loses it, with a warning',
    input: cc1({ controlPlane: { ref: ref('CT', { namespace: 'other' }) } }),
    expected: cc2({ controlPlane: { templateRef: ref('CT') } }),
    results: [
      {
        severity: 'warning',
        path: 'spec.controlPlane.ref.namespace',
        message:
          'namespace "other" is ignored: Cluster API v1.14 drops it when converting this v1beta1 reference and looks the template up in the ClusterClass namespace "ns"; move the template there and remove the namespace',
      },
    ],
  },
  {
    capi: 'api/core/v1beta1/conversion.go Convert_v1beta1_ClusterClassStatus_To_v1beta2_ClusterClassStatus, Convert_v1beta1_ClusterClassStatusVariableDefinition_To_v1beta2_ClusterClassStatusVariableDefinition; core/webhooks/conversion/clusterclass.go ConvertClusterClassV1Beta1ToHub',
    rule: 'status of an exported class: conditions to deprecated.v1beta1, v1beta2 conditions up, definition metadata renamed, definitionsConflict false unset',
    input: withStatus(cc1({}), {
      observedGeneration: 2,
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }],
      v1beta2: {
        conditions: [
          {
            type: 'VariablesReady',
            status: 'True',
            reason: 'VariablesReady',
            lastTransitionTime: '2026-01-01T00:00:00Z',
          },
        ],
      },
      variables: [
        {
          name: 'v',
          definitionsConflict: false,
          definitions: [
            {
              from: 'inline',
              required: false,
              metadata: { labels: { a: 'b' } },
              schema: { openAPIV3Schema: { type: 'string', 'x-kubernetes-preserve-unknown-fields': false } },
            },
          ],
        },
      ],
    }),
    expected: withStatus(cc2({}), {
      observedGeneration: 2,
      deprecated: {
        v1beta1: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
      },
      conditions: [
        {
          type: 'VariablesReady',
          status: 'True',
          reason: 'VariablesReady',
          lastTransitionTime: '2026-01-01T00:00:00Z',
        },
      ],
      variables: [
        {
          name: 'v',
          definitions: [
            {
              from: 'inline',
              required: false,
              deprecatedV1Beta1Metadata: { labels: { a: 'b' } },
              schema: { openAPIV3Schema: { type: 'string' } },
            },
          ],
        },
      ],
    }),
  },
  {
    capi: 'api/core/v1beta1/conversion.go Convert_v1beta1_ClusterClassSpec_To_v1beta2_ClusterClassSpec',
    rule: 'infrastructureNamingStrategy → infrastructure.naming',
    input: cc1({
      infrastructure: { ref: ref('T') },
      infrastructureNamingStrategy: { template: '{{ .cluster.name }}' },
    }),
    expected: cc2({ infrastructure: { templateRef: ref('T'), naming: { template: '{{ .cluster.name }}' } } }),
  },
  {
    capi: 'api/core/v1beta1/conversion.go Convert_v1beta1_ControlPlaneClass_To_v1beta2_ControlPlaneClass',
    rule: 'control plane namingStrategy, node timeouts (ConvertToSeconds: truncated), machineHealthCheck',
    input: cc1({
      controlPlane: {
        namingStrategy: { template: '{{ .cluster.name }}-cp' },
        nodeDrainTimeout: '1m30.9s',
        nodeVolumeDetachTimeout: '5m',
        nodeDeletionTimeout: '0s',
        machineHealthCheck: {
          maxUnhealthy: '40%',
          unhealthyRange: '[1-3]',
          nodeStartupTimeout: '15m',
          unhealthyConditions: [
            { type: 'Ready', status: 'False', timeout: '5m' },
            { type: 'Ready', status: 'Unknown' },
          ],
          unhealthyMachineConditions: [{ type: 'M', status: 'True', timeout: '1h' }],
          remediationTemplate: { apiVersion: 'r/v1', kind: 'R', name: 'r', namespace: 'ns' },
        },
      },
    }),
    expected: cc2({
      controlPlane: {
        naming: { template: '{{ .cluster.name }}-cp' },
        deletion: { nodeDrainTimeoutSeconds: 90, nodeVolumeDetachTimeoutSeconds: 300, nodeDeletionTimeoutSeconds: 0 },
        healthCheck: {
          remediation: {
            triggerIf: { unhealthyLessThanOrEqualTo: '40%', unhealthyInRange: '[1-3]' },
            templateRef: { apiVersion: 'r/v1', kind: 'R', name: 'r' },
          },
          checks: {
            nodeStartupTimeoutSeconds: 900,
            // UnhealthyCondition.Timeout is not a pointer: ConvertToSeconds(&c.Timeout) gives 0 when unset.
            unhealthyNodeConditions: [
              { type: 'Ready', status: 'False', timeoutSeconds: 300 },
              { type: 'Ready', status: 'Unknown', timeoutSeconds: 0 },
            ],
            unhealthyMachineConditions: [{ type: 'M', status: 'True', timeoutSeconds: 3600 }],
          },
        },
      },
    }),
  },
  {
    capi: 'api/core/v1beta2/conversion.go ConvertToSeconds',
    rule: 'durations above int32 are capped',
    input: cc1({ controlPlane: { nodeDrainTimeout: '1000000h' } }),
    expected: cc2({ controlPlane: { deletion: { nodeDrainTimeoutSeconds: 2147483647 } } }),
  },
  {
    capi: 'api/core/v1beta1/conversion.go Convert_v1beta1_MachineDeploymentClass_To_v1beta2_MachineDeploymentClass',
    rule: 'MachineDeployment class: template.* moved up, strategy split into rollout, deletion.order and healthCheck.remediation.maxInFlight',
    input: cc1({
      workers: {
        machineDeployments: [
          {
            class: 'md',
            template: {
              metadata: { labels: { a: 'b' } },
              bootstrap: { ref: ref('B') },
              infrastructure: { ref: ref('I') },
            },
            namingStrategy: { template: 'x' },
            failureDomain: '',
            nodeDrainTimeout: '10s',
            strategy: {
              type: 'RollingUpdate',
              rollingUpdate: { maxSurge: 1, maxUnavailable: 0, deletePolicy: 'Oldest' },
              remediation: { maxInFlight: '50%' },
            },
            machineHealthCheck: { maxUnhealthy: 2 },
            minReadySeconds: 5,
          },
        ],
      },
    }),
    expected: cc2({
      workers: {
        machineDeployments: [
          {
            class: 'md',
            metadata: { labels: { a: 'b' } },
            bootstrap: { templateRef: ref('B') },
            infrastructure: { templateRef: ref('I') },
            naming: { template: 'x' },
            deletion: { nodeDrainTimeoutSeconds: 10, order: 'Oldest' },
            rollout: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } },
            healthCheck: { remediation: { triggerIf: { unhealthyLessThanOrEqualTo: 2 }, maxInFlight: '50%' } },
            minReadySeconds: 5,
          },
        ],
      },
    }),
  },
  {
    capi: 'api/core/v1beta1/conversion.go Convert_v1beta1_MachinePoolClass_To_v1beta2_MachinePoolClass',
    rule: 'MachinePool class: template.* moved up, naming, timeouts',
    input: cc1({
      workers: {
        machinePools: [
          {
            class: 'mp',
            template: { bootstrap: { ref: ref('B') }, infrastructure: { ref: ref('I') } },
            namingStrategy: { template: '' },
            nodeDeletionTimeout: '2s',
          },
        ],
      },
    }),
    expected: cc2({
      workers: {
        machinePools: [
          {
            class: 'mp',
            bootstrap: { templateRef: ref('B') },
            infrastructure: { templateRef: ref('I') },
            deletion: { nodeDeletionTimeoutSeconds: 2 },
          },
        ],
      },
    }),
  },
  {
    capi: 'api/core/v1beta1/conversion.go Convert_v1beta1_ClusterClassVariable_To_v1beta2_ClusterClassVariable; core/webhooks/conversion/clusterclass.go restoreBoolIntentJSONSchemaProps',
    rule: 'variable metadata → deprecatedV1Beta1Metadata; schema bools false → unset (recursively); required kept',
    input: cc1({
      variables: [
        {
          name: 'v',
          required: false,
          metadata: { labels: { l: 'v' } },
          schema: {
            openAPIV3Schema: {
              type: 'object',
              'x-kubernetes-preserve-unknown-fields': false,
              'x-metadata': {},
              properties: {
                a: {
                  type: 'array',
                  uniqueItems: false,
                  items: { type: 'integer', exclusiveMaximum: false, 'x-kubernetes-int-or-string': true },
                },
              },
            },
          },
        },
      ],
    }),
    expected: cc2({
      variables: [
        {
          name: 'v',
          required: false,
          deprecatedV1Beta1Metadata: { labels: { l: 'v' } },
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: { a: { type: 'array', items: { type: 'integer', 'x-kubernetes-int-or-string': true } } },
            },
          },
        },
      ],
    }),
  },
  {
    capi: 'core/webhooks/conversion/clusterclass.go ConvertClusterClassV1Beta1ToHub (Convert_bool_To_Pointer_bool with the conversion-data annotation)',
    rule: 'matchResources false → unset, unless the annotation kept false; the annotation is removed',
    input: obj(
      CORE1,
      'ClusterClass',
      {
        patches: [
          {
            name: 'p',
            enabledIf: '',
            definitions: [
              {
                selector: {
                  apiVersion: 'a/v1',
                  kind: 'K',
                  matchResources: { controlPlane: false, infrastructureCluster: false },
                },
                jsonPatches: [{ op: 'add', path: '/spec/x', valueFrom: { variable: 'v', template: '' } }],
              },
            ],
          },
        ],
      },
      {
        ...meta,
        annotations: {
          'cluster.x-k8s.io/conversion-data': JSON.stringify({
            spec: {
              patches: [{ name: 'p', definitions: [{ selector: { matchResources: { controlPlane: false } } }] }],
            },
          }),
        },
      },
    ),
    expected: cc2({
      patches: [
        {
          name: 'p',
          definitions: [
            {
              selector: { apiVersion: 'a/v1', kind: 'K', matchResources: { controlPlane: false } },
              jsonPatches: [{ op: 'add', path: '/spec/x', valueFrom: { variable: 'v' } }],
            },
          ],
        },
      ],
    }),
  },
  {
    capi: 'api/core/v1beta1/conversion.go Convert_v1beta1_ExternalPatchDefinition_To_v1beta2_ExternalPatchDefinition',
    rule: 'external generateExtension/validateExtension renamed; empty strings unset',
    input: cc1({
      patches: [
        {
          name: 'e',
          external: {
            generateExtension: 'gen',
            validateExtension: '',
            discoverVariablesExtension: 'd',
            settings: { a: 'b' },
          },
        },
      ],
    }),
    expected: cc2({
      patches: [
        {
          name: 'e',
          external: { generatePatchesExtension: 'gen', discoverVariablesExtension: 'd', settings: { a: 'b' } },
        },
      ],
    }),
  },
  // ---------------------------------------------------------------- Cluster
  {
    capi: 'api/core/v1beta1/conversion.go Convert_v1beta1_Topology_To_v1beta2_Topology',
    rule: 'class/classNamespace → classRef; rolloutAfter dropped; workers pointer → struct',
    input: cl1({
      topology: {
        class: 'c',
        classNamespace: 'other',
        version: 'v1.33.0',
        rolloutAfter: '2026-01-01T00:00:00Z',
        workers: {},
      },
    }),
    expected: cl2({ topology: { classRef: { name: 'c', namespace: 'other' }, version: 'v1.33.0' } }),
    results: [
      {
        severity: 'warning',
        path: 'spec.topology.rolloutAfter',
        message: 'spec.topology.rolloutAfter was never implemented and is dropped in v1beta2',
      },
    ],
  },
  {
    capi: 'api/core/v1beta1/conversion.go Convert_v1beta1_ControlPlaneTopology_To_v1beta2_ControlPlaneTopology',
    rule: 'control plane topology: timeouts, machineHealthCheck with enable → healthCheck.enabled, empty variables unset',
    input: cl1({
      topology: {
        class: 'c',
        controlPlane: { nodeDrainTimeout: '5m', machineHealthCheck: { enable: false }, variables: {} },
      },
    }),
    expected: cl2({
      topology: {
        classRef: { name: 'c' },
        controlPlane: { deletion: { nodeDrainTimeoutSeconds: 300 }, healthCheck: { enabled: false } },
      },
    }),
  },
  {
    capi: 'api/core/v1beta1/conversion.go Convert_v1beta1_MachineDeploymentTopology_To_v1beta2_MachineDeploymentTopology',
    rule: 'MachineDeployment topology: failureDomain "" unset, timeouts, strategy, health check',
    input: cl1({
      topology: {
        class: 'c',
        workers: {
          machineDeployments: [
            {
              class: 'md',
              name: 'a',
              failureDomain: '',
              nodeVolumeDetachTimeout: '2m30s',
              strategy: { rollingUpdate: { deletePolicy: 'Newest' } },
              machineHealthCheck: { enable: true, nodeStartupTimeout: '10m' },
              variables: { overrides: [{ name: 'x', value: 1, definitionFrom: 'old' }] },
            },
          ],
          machinePools: [{ class: 'mp', name: 'b', nodeDeletionTimeout: '30s' }],
        },
      },
    }),
    expected: cl2({
      topology: {
        classRef: { name: 'c' },
        workers: {
          machineDeployments: [
            {
              class: 'md',
              name: 'a',
              deletion: { nodeVolumeDetachTimeoutSeconds: 150, order: 'Newest' },
              healthCheck: { enabled: true, checks: { nodeStartupTimeoutSeconds: 600 } },
              variables: { overrides: [{ name: 'x', value: 1 }] },
            },
          ],
          machinePools: [{ class: 'mp', name: 'b', deletion: { nodeDeletionTimeoutSeconds: 30 } }],
        },
      },
    }),
    results: [
      {
        severity: 'warning',
        path: 'spec.topology.workers.machineDeployments[0].variables.overrides[0].definitionFrom',
        message: 'definitionFrom is deprecated and dropped in v1beta2',
      },
    ],
  },
  {
    capi: 'core/webhooks/conversion/cluster.go ConvertClusterV1Beta1ToHub; core/webhooks/conversion/common.go convertToContractVersionedObjectReference',
    rule: 'infrastructureRef/controlPlaneRef → {apiGroup, kind, name}; paused false unset; apiServerPort 0 unset',
    input: cl1({
      paused: false,
      clusterNetwork: { apiServerPort: 0 },
      infrastructureRef: {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
        kind: 'DockerCluster',
        name: 'd',
        namespace: 'ns',
      },
      controlPlaneRef: { apiVersion: 'v1', kind: 'X', name: 'cp' },
    }),
    expected: cl2({
      clusterNetwork: {},
      infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'DockerCluster', name: 'd' },
      controlPlaneRef: { apiGroup: '', kind: 'X', name: 'cp' },
    }),
  },
  // ---------------------------------------------------------------- kubeadm bootstrap
  {
    capi: 'api/bootstrap/kubeadm/v1beta1/conversion.go Convert_v1beta1_APIServer_To_v1beta2_APIServer / …NodeRegistrationOptions… / …LocalEtcd…; api/bootstrap/kubeadm/v1beta2/conversion.go ConvertToArgs',
    rule: 'extraArgs maps → [{name, value}] sorted by name; an empty map is unset',
    input: kct1({
      clusterConfiguration: {
        apiServer: { extraArgs: { 'z-last': '1', 'a-first': '2' } },
        controllerManager: { extraArgs: {} },
        etcd: { local: { extraArgs: { quota: '8' } } },
      },
      joinConfiguration: { nodeRegistration: { kubeletExtraArgs: { 'cloud-provider': 'external' } } },
    }),
    expected: kct2({
      // ControllerManager is an omitzero struct (MinProperties=1): emptied, it is not stored.
      clusterConfiguration: {
        apiServer: {
          extraArgs: [
            { name: 'a-first', value: '2' },
            { name: 'z-last', value: '1' },
          ],
        },
        etcd: { local: { extraArgs: [{ name: 'quota', value: '8' }] } },
      },
      joinConfiguration: { nodeRegistration: { kubeletExtraArgs: [{ name: 'cloud-provider', value: 'external' }] } },
    }),
  },
  {
    capi: 'bootstrap/kubeadm/webhooks/conversion/kubeadmconfig.go ConvertKubeadmConfigSpecV1Beta1ToHub',
    rule: 'apiServer.timeoutForControlPlane → init and join controlPlaneComponentHealthCheckSeconds; discovery.timeout → join tlsBootstrapSeconds',
    input: kct1({
      clusterConfiguration: { apiServer: { timeoutForControlPlane: '20m' } },
      joinConfiguration: { discovery: { timeout: '5m' } },
    }),
    expected: kct2({
      initConfiguration: { timeouts: { controlPlaneComponentHealthCheckSeconds: 1200 } },
      joinConfiguration: { timeouts: { controlPlaneComponentHealthCheckSeconds: 1200, tlsBootstrapSeconds: 300 } },
    }),
  },
  {
    capi: 'api/bootstrap/kubeadm/v1beta1/conversion.go Convert_v1beta1_BootstrapToken_To_v1beta2_BootstrapToken',
    rule: 'bootstrap token ttl → ttlSeconds',
    input: kct1({ initConfiguration: { bootstrapTokens: [{ token: 'abcdef.0123456789abcdef', ttl: '24h' }] } }),
    expected: kct2({
      initConfiguration: { bootstrapTokens: [{ token: 'abcdef.0123456789abcdef', ttlSeconds: 86400 }] },
    }),
  },
  {
    capi: 'api/bootstrap/kubeadm/v1beta1/zz_generated.conversion.go autoConvert_v1beta1_ClusterConfiguration_To_v1beta2_ClusterConfiguration (networking, kubernetesVersion, clusterName "do not exist in peer-type"); Convert_v1beta1_KubeadmConfigSpec_To_v1beta2_KubeadmConfigSpec (useExperimentalRetryJoin)',
    rule: 'fields v1beta2 no longer has are dropped, with a note',
    input: kct1({
      useExperimentalRetryJoin: true,
      clusterConfiguration: {
        networking: { podSubnet: '10.0.0.0/8' },
        kubernetesVersion: 'v1.30.0',
        clusterName: 'c',
        apiVersion: 'kubeadm.k8s.io/v1beta3',
        kind: 'ClusterConfiguration',
      },
    }),
    expected: kct2({}),
    results: [
      {
        severity: 'info',
        path: 'spec.template.spec.clusterConfiguration.networking',
        message: 'networking does not exist in v1beta2 (CAPI drops it on conversion; it had no effect)',
      },
      {
        severity: 'info',
        path: 'spec.template.spec.clusterConfiguration.kubernetesVersion',
        message: 'kubernetesVersion does not exist in v1beta2 (CAPI drops it on conversion; it had no effect)',
      },
      {
        severity: 'info',
        path: 'spec.template.spec.clusterConfiguration.clusterName',
        message: 'clusterName does not exist in v1beta2 (CAPI drops it on conversion; it had no effect)',
      },
      {
        severity: 'info',
        path: 'spec.template.spec.clusterConfiguration.apiVersion',
        message: 'apiVersion does not exist in v1beta2 (CAPI drops it on conversion; it had no effect)',
      },
      {
        severity: 'info',
        path: 'spec.template.spec.clusterConfiguration.kind',
        message: 'kind does not exist in v1beta2 (CAPI drops it on conversion; it had no effect)',
      },
      {
        severity: 'info',
        path: 'spec.template.spec.useExperimentalRetryJoin',
        message: 'useExperimentalRetryJoin does not exist in v1beta2 (CAPI drops it on conversion; it had no effect)',
      },
    ],
  },
  {
    capi: 'bootstrap/kubeadm/webhooks/conversion/kubeadmconfig.go RestoreBoolIntentKubeadmConfigSpec; api/bootstrap/kubeadm/v1beta1/zz_generated.conversion.go (Convert_Pointer_string_To_string, Convert_bool_To_Pointer_bool of partition layout)',
    rule: 'files append / extraVolumes readOnly false → unset; "" strings unset; partition layout false kept (no restore function)',
    input: kct1({
      files: [
        { path: '/a', content: 'x', append: false },
        { path: '/b', content: 'y', append: true },
      ],
      clusterConfiguration: {
        apiServer: { extraVolumes: [{ name: 'v', hostPath: '/h', mountPath: '/m', readOnly: false }] },
      },
      users: [{ name: 'u', gecos: '', shell: '/bin/sh' }],
      diskSetup: { partitions: [{ device: '/dev/sda', layout: false, tableType: '' }] },
    }),
    expected: kct2({
      files: [
        { path: '/a', content: 'x' },
        { path: '/b', content: 'y', append: true },
      ],
      clusterConfiguration: { apiServer: { extraVolumes: [{ name: 'v', hostPath: '/h', mountPath: '/m' }] } },
      users: [{ name: 'u', shell: '/bin/sh' }],
      diskSetup: { partitions: [{ device: '/dev/sda', layout: false }] },
    }),
  },
  {
    capi: 'bootstrap/kubeadm/webhooks/conversion/kubeadmconfigtemplate.go ConvertKubeadmConfigTemplateV1Beta1ToHub (UnmarshalData; RestoreBoolIntentKubeadmConfigSpec; RestoreKubeadmConfigSpec)',
    rule: 'the conversion-data annotation restores append: false and v1beta2-only timeouts, then is removed',
    input: obj(
      'bootstrap.cluster.x-k8s.io/v1beta1',
      'KubeadmConfigTemplate',
      {
        template: {
          spec: {
            files: [{ path: '/a', content: 'x', append: false }],
            joinConfiguration: { discovery: { timeout: '1m' } },
          },
        },
      },
      {
        ...meta,
        annotations: {
          keep: 'me',
          'cluster.x-k8s.io/conversion-data': JSON.stringify({
            spec: {
              template: {
                spec: {
                  files: [{ path: '/a', append: false }],
                  joinConfiguration: { timeouts: { kubeletHealthCheckSeconds: 40, tlsBootstrapSeconds: 1 } },
                },
              },
            },
          }),
        },
      },
    ),
    expected: obj(
      'bootstrap.cluster.x-k8s.io/v1beta2',
      'KubeadmConfigTemplate',
      {
        template: {
          spec: {
            files: [{ path: '/a', content: 'x', append: false }],
            joinConfiguration: { timeouts: { kubeletHealthCheckSeconds: 40, tlsBootstrapSeconds: 60 } },
          },
        },
      },
      { ...meta, annotations: { keep: 'me' } },
    ),
  },
  // ---------------------------------------------------------------- kubeadm control plane
  {
    capi: 'api/controlplane/kubeadm/v1beta1/conversion.go Convert_v1beta1_KubeadmControlPlaneTemplateResourceSpec_To_v1beta2_KubeadmControlPlaneTemplateResourceSpec; …TemplateMachineTemplate…; Convert_v1beta1_RemediationStrategy_To_v1beta2_KubeadmControlPlaneRemediationSpec',
    rule: 'KCP template: rolloutStrategy (type defaults to RollingUpdate), rolloutBefore/After, remediationStrategy, machineNamingStrategy, machineTemplate timeouts and taints',
    input: kcpt1({
      rolloutStrategy: { rollingUpdate: { maxSurge: 1 } },
      rolloutBefore: { certificatesExpiryDays: 21 },
      rolloutAfter: '2030-01-01T00:00:00Z',
      remediationStrategy: { maxRetry: 3, minHealthyPeriod: '2h', retryPeriod: '0s' },
      machineNamingStrategy: { template: '{{ .kubeadmControlPlane.name }}-{{ .random }}' },
      machineTemplate: {
        metadata: { labels: { a: 'b' } },
        nodeDrainTimeout: '1m',
        taints: [{ key: 'k', effect: 'NoSchedule' }],
      },
      kubeadmConfigSpec: { clusterConfiguration: { scheduler: { extraArgs: { v: '2' } } } },
    }),
    expected: kcpt2({
      rollout: {
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } },
        before: { certificatesExpiryDays: 21 },
        after: '2030-01-01T00:00:00Z',
      },
      // Convert_Duration_To_Pointer_int32: a zero retryPeriod is unset unless the annotation had 0.
      remediation: { maxRetry: 3, minHealthyPeriodSeconds: 7200 },
      machineNaming: { template: '{{ .kubeadmControlPlane.name }}-{{ .random }}' },
      machineTemplate: {
        metadata: { labels: { a: 'b' } },
        spec: { deletion: { nodeDrainTimeoutSeconds: 60 }, taints: [{ key: 'k', effect: 'NoSchedule' }] },
      },
      kubeadmConfigSpec: { clusterConfiguration: { scheduler: { extraArgs: [{ name: 'v', value: '2' }] } } },
    }),
  },
  {
    capi: 'controlplane/kubeadm/webhooks/conversion/kubeadmcontrolplane.go ConvertKubeadmControlPlaneV1Beta1ToHub; api/controlplane/kubeadm/v1beta1/conversion.go Convert_v1beta1_KubeadmControlPlaneMachineTemplate_To_v1beta2_KubeadmControlPlaneMachineTemplate, Convert_v1beta1_KubeadmControlPlaneSpec_To_v1beta2_KubeadmControlPlaneSpec',
    rule: 'KCP (rendered objects): machineTemplate.infrastructureRef → spec.infrastructureRef {apiGroup}, readinessGates, timeouts; no rollout type default',
    input: kcp1({
      version: 'v1.33.0',
      replicas: 3,
      rolloutStrategy: { rollingUpdate: { maxSurge: 0 } },
      machineTemplate: {
        infrastructureRef: {
          apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
          kind: 'DockerMachineTemplate',
          name: 'm',
          namespace: 'ns',
        },
        readinessGates: [{ conditionType: 'X' }],
        nodeDeletionTimeout: '10s',
      },
    }),
    expected: kcp2({
      version: 'v1.33.0',
      replicas: 3,
      rollout: { strategy: { rollingUpdate: { maxSurge: 0 } } },
      machineTemplate: {
        spec: {
          infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'DockerMachineTemplate', name: 'm' },
          readinessGates: [{ conditionType: 'X' }],
          deletion: { nodeDeletionTimeoutSeconds: 10 },
        },
      },
    }),
  },
  // ---------------------------------------------------------------- invalid input
  {
    capi: 'api/core/v1beta2/conversion.go ConvertToSeconds (metav1.Duration must parse)',
    rule: 'an invalid duration is an error at its v1beta1 path and stays',
    input: cl1({ topology: { class: 'c', controlPlane: { nodeDrainTimeout: 'soon' } } }),
    expected: cl2({ topology: { classRef: { name: 'c' }, controlPlane: { nodeDrainTimeout: 'soon' } } }),
    results: [
      {
        severity: 'error',
        path: 'spec.topology.controlPlane.nodeDrainTimeout',
        message: 'Invalid value: "soon": must be a duration such as 2m30s',
      },
    ],
  },
];

/** The same conversion on the YAML text of the object (the file path), read back as data. */
function viaYaml(input: JsonObject): { value: JsonObject; results: unknown[] } {
  const conversion = conversionFor(input.apiVersion as string, input.kind as string)!;
  const tree = new YamlTree(YAML.stringify(input, { version: '1.1' }));
  const results: unknown[] = [];
  convertTree(tree, input, conversion, (r) => results.push(r));
  return { value: YAML.parse(tree.toString(), PARSE_OPTIONS) as JsonObject, results };
}

describe('CAPI v1beta1 → v1beta2 conversion rules', () => {
  it.each(ROWS.map((r) => [`${r.rule} — ${r.capi}`, r] as const))('%s', (_name, row) => {
    const converted = convertObject(row.input)!;
    expect(converted.value).toEqual(row.expected);
    expect(converted.results).toEqual(row.results ?? []);
    const yaml = viaYaml(row.input);
    expect(yaml.value).toEqual(row.expected);
    expect(yaml.results).toEqual(row.results ?? []);
  });

  it('maps converted paths back to where the user wrote them', () => {
    const c = convertObject(cc1({}))!;
    expect(c.inputPath('spec.workers.machineDeployments[2].bootstrap.templateRef.name')).toBe(
      'spec.workers.machineDeployments[2].template.bootstrap.ref.name',
    );
    expect(c.inputPath('spec.controlPlane.healthCheck.checks.unhealthyNodeConditions[1].timeoutSeconds')).toBe(
      'spec.controlPlane.machineHealthCheck.unhealthyConditions[1].timeout',
    );
    expect(c.inputPath('spec.workers.machineDeployments[0].deletion.order')).toBe(
      'spec.workers.machineDeployments[0].strategy.rollingUpdate.deletePolicy',
    );
    expect(c.inputPath('spec.variables[3].schema')).toBe('spec.variables[3].schema');
    const k = convertObject(cl1({}))!;
    expect(k.inputPath('spec.topology.classRef.name')).toBe('spec.topology.class');
  });

  it('leaves objects it does not convert alone', () => {
    expect(convertObject(obj(CORE2, 'ClusterClass', {}))).toBeUndefined();
    expect(convertObject(obj('infrastructure.cluster.x-k8s.io/v1beta1', 'DockerClusterTemplate', {}))).toBeUndefined();
  });
});
