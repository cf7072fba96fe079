/**
 * bootstrap.cluster.x-k8s.io and controlplane.cluster.x-k8s.io v1beta1 → v1beta2 for the kubeadm
 * types, rule by rule as CAPI's conversion functions do it. Citations name the function in
 * kubernetes-sigs/cluster-api: "bootstrap" is api/bootstrap/kubeadm/v1beta1/conversion.go,
 * "controlplane" api/controlplane/kubeadm/v1beta1/conversion.go, "bootstrap webhook"
 * bootstrap/kubeadm/webhooks/conversion/kubeadmconfig.go, "controlplane webhook"
 * controlplane/kubeadm/webhooks/conversion/kubeadmcontrolplane(template).go.
 */
import type { Json } from '../../core/model.js';
import { durationToSeconds } from '../../core/go/duration.js';
import { parsePath, restoredValue, scalar, type Step } from './engine.js';
import { pathText, type Tree } from './tree.js';
import { deletionTimeouts } from './core.js';
import { jsonString } from '../../core/json.js';

const ARGS = 'api/bootstrap/kubeadm/v1beta2/conversion.go ConvertToArgs';
const RESTORE_BOOLS = 'bootstrap webhook RestoreBoolIntentKubeadmConfigSpec';
const TO_HUB = 'bootstrap webhook ConvertKubeadmConfigSpecV1Beta1ToHub';

/** A duration the rules must read (a template expression cannot be converted to seconds). */
function duration(tree: Tree, path: string[]): { secs?: number; text?: Json } {
  const v = scalar(tree, path);
  if (v === undefined || v === null) return {};
  return { secs: typeof v === 'string' ? durationToSeconds(v) : undefined, text: v };
}

/**
 * ConvertKubeadmConfigSpecV1Beta1ToHub: `apiServer.timeoutForControlPlane` becomes the init and
 * the join `controlPlaneComponentHealthCheckSeconds`; `discovery.timeout` the join
 * `tlsBootstrapSeconds`.
 */
function kubeadmTimeouts(p: string): Step {
  const at = (s: string) => parsePath(`${p}.${s}`) as string[];
  const forControlPlane = at('clusterConfiguration.apiServer.timeoutForControlPlane');
  const discovery = at('joinConfiguration.discovery.timeout');
  const initCheck = at('initConfiguration.timeouts.controlPlaneComponentHealthCheckSeconds');
  const joinCheck = at('joinConfiguration.timeouts.controlPlaneComponentHealthCheckSeconds');
  const tls = at('joinConfiguration.timeouts.tlsBootstrapSeconds');
  return {
    kind: 'custom',
    name: 'kubeadm timeouts',
    capi: TO_HUB,
    paths: [
      { from: pathText(forControlPlane), to: pathText(initCheck) },
      { from: pathText(forControlPlane), to: pathText(joinCheck) },
      { from: pathText(discovery), to: pathText(tls) },
    ],
    apply(tree, ctx) {
      const init = duration(tree, forControlPlane);
      const join = duration(tree, discovery);
      for (const [d, path] of [
        [init, forControlPlane],
        [join, discovery],
      ] as const) {
        if (d.text !== undefined && d.secs === undefined) {
          ctx.report({
            severity: 'error',
            path: pathText(path),
            message: `Invalid value: ${JSON.stringify(d.text)}: must be a duration such as 2m30s`,
          });
          return;
        }
      }
      if (init.secs !== undefined) {
        tree.move(forControlPlane, initCheck);
        tree.set(initCheck, init.secs);
      }
      if (join.secs !== undefined || init.secs !== undefined) {
        if (init.secs !== undefined) tree.set(joinCheck, init.secs, discovery);
        else tree.remove(joinCheck);
      }
      if (join.secs !== undefined) {
        tree.move(discovery, tls);
        tree.set(tls, join.secs);
      }
    },
  };
}

/** RestoreKubeadmConfigSpec: timeouts only v1beta2 has come back from the conversion-data annotation. */
function restoreTimeouts(p: string): Step {
  return {
    kind: 'custom',
    name: 'restore kubeadm timeouts',
    capi: 'bootstrap webhook RestoreKubeadmConfigSpec',
    apply(tree, ctx) {
      for (const config of ['initConfiguration', 'joinConfiguration']) {
        const path = parsePath(`${p}.${config}.timeouts`);
        const restored = restoredValue(tree, ctx.restored, path);
        if (restored !== undefined && restored !== null && jsonString(restored) !== '{}') tree.set(path, restored);
      }
    },
  };
}

const drop = (at: string, capi: string): Step => ({
  kind: 'drop',
  at,
  severity: 'info',
  message: `${at.split('.').pop()} does not exist in v1beta2 (CAPI drops it on conversion; it had no effect)`,
  capi,
});

/** KubeadmConfigSpec at `p` (KubeadmConfig `spec`, KubeadmConfigTemplate `spec.template.spec`, KCP `…kubeadmConfigSpec`). */
function kubeadmConfigSpecSteps(p: string): Step[] {
  const cc = `${p}.clusterConfiguration`;
  const init = `${p}.initConfiguration`;
  const join = `${p}.joinConfiguration`;
  return [
    {
      kind: 'args',
      at: `${cc}.apiServer.extraArgs`,
      capi: `bootstrap Convert_v1beta1_APIServer_To_v1beta2_APIServer; ${ARGS}`,
    },
    {
      kind: 'args',
      at: `${cc}.controllerManager.extraArgs`,
      capi: `bootstrap Convert_v1beta1_ControlPlaneComponent_To_v1beta2_ControllerManager; ${ARGS}`,
    },
    {
      kind: 'args',
      at: `${cc}.scheduler.extraArgs`,
      capi: `bootstrap Convert_v1beta1_ControlPlaneComponent_To_v1beta2_Scheduler; ${ARGS}`,
    },
    {
      kind: 'args',
      at: `${cc}.etcd.local.extraArgs`,
      capi: `bootstrap Convert_v1beta1_LocalEtcd_To_v1beta2_LocalEtcd; ${ARGS}`,
    },
    {
      kind: 'args',
      at: `${init}.nodeRegistration.kubeletExtraArgs`,
      capi: `bootstrap Convert_v1beta1_NodeRegistrationOptions_To_v1beta2_NodeRegistrationOptions; ${ARGS}`,
    },
    {
      kind: 'args',
      at: `${join}.nodeRegistration.kubeletExtraArgs`,
      capi: `bootstrap Convert_v1beta1_NodeRegistrationOptions_To_v1beta2_NodeRegistrationOptions; ${ARGS}`,
    },
    ...['networking', 'kubernetesVersion', 'clusterName', 'apiVersion', 'kind'].map((f) =>
      drop(
        `${cc}.${f}`,
        'bootstrap generated autoConvert_v1beta1_ClusterConfiguration_To_v1beta2_ClusterConfiguration',
      ),
    ),
    ...['apiVersion', 'kind'].map((f) =>
      drop(`${init}.${f}`, 'bootstrap generated autoConvert_v1beta1_InitConfiguration_To_v1beta2_InitConfiguration'),
    ),
    ...['apiVersion', 'kind'].map((f) =>
      drop(`${join}.${f}`, 'bootstrap generated autoConvert_v1beta1_JoinConfiguration_To_v1beta2_JoinConfiguration'),
    ),
    drop(`${p}.useExperimentalRetryJoin`, 'bootstrap Convert_v1beta1_KubeadmConfigSpec_To_v1beta2_KubeadmConfigSpec'),
    restoreTimeouts(p),
    kubeadmTimeouts(p),
    {
      kind: 'seconds',
      from: `${init}.bootstrapTokens[].ttl`,
      to: `${init}.bootstrapTokens[].ttlSeconds`,
      capi: 'bootstrap Convert_v1beta1_BootstrapToken_To_v1beta2_BootstrapToken',
    },
    ...[
      `${join}.discovery.bootstrapToken.unsafeSkipCAVerification`,
      `${join}.discovery.file.kubeConfig.cluster.insecureSkipTLSVerify`,
      `${join}.discovery.file.kubeConfig.user.exec.provideClusterInfo`,
      `${cc}.apiServer.extraVolumes[].readOnly`,
      `${cc}.controllerManager.extraVolumes[].readOnly`,
      `${cc}.scheduler.extraVolumes[].readOnly`,
      `${p}.files[].append`,
      `${p}.ignition.containerLinuxConfig.strict`,
    ].map((at): Step => ({ kind: 'omitZero', at, zero: false, restore: true, capi: RESTORE_BOOLS })),
    ...[
      ...['gecos', 'groups', 'homeDir', 'shell', 'passwd', 'primaryGroup', 'sudo'].map((f) => `${p}.users[].${f}`),
      `${p}.diskSetup.partitions[].tableType`,
      `${p}.diskSetup.filesystems[].partition`,
      `${p}.diskSetup.filesystems[].replaceFS`,
    ].map((at): Step => ({
      kind: 'omitZero',
      at,
      zero: '',
      capi: 'bootstrap generated (Convert_Pointer_string_To_string)',
    })),
    // Pointers to these structs became values that are omitted when empty (omitzero; an empty one
    // would also fail their MinProperties=1): what the steps above emptied goes.
    ...[
      `${cc}.apiServer`,
      `${cc}.controllerManager`,
      `${cc}.scheduler`,
      `${cc}.etcd.local`,
      `${cc}.etcd`,
      cc,
      `${init}.nodeRegistration`,
      init,
      `${join}.nodeRegistration`,
      `${join}.discovery`,
      join,
    ].map((at): Step => ({
      kind: 'prune',
      at,
      capi: 'api/bootstrap/kubeadm/v1beta2/kubeadm_types.go (omitzero structs, MinProperties=1)',
    })),
  ];
}

const CP_TEMPLATE =
  'controlplane Convert_v1beta1_KubeadmControlPlaneTemplateResourceSpec_To_v1beta2_KubeadmControlPlaneTemplateResourceSpec';
const CP_SPEC = 'controlplane Convert_v1beta1_KubeadmControlPlaneSpec_To_v1beta2_KubeadmControlPlaneSpec';

/** remediationStrategy, rolloutBefore/After/Strategy and machineNamingStrategy of a KCP or KCP template spec at `q`. */
function controlPlaneSpec(q: string, capi: string, template: boolean): Step[] {
  const strategy = `${q}.rolloutStrategy`;
  return [
    { kind: 'rename', from: `${q}.remediationStrategy`, to: `${q}.remediation`, capi },
    {
      kind: 'seconds',
      from: `${q}.remediation.minHealthyPeriod`,
      to: `${q}.remediation.minHealthyPeriodSeconds`,
      capi: `controlplane Convert_v1beta1_RemediationStrategy_To_v1beta2_KubeadmControlPlaneRemediationSpec`,
    },
    {
      kind: 'seconds',
      from: `${q}.remediation.retryPeriod`,
      to: `${q}.remediation.retryPeriodSeconds`,
      capi: `controlplane Convert_v1beta1_RemediationStrategy_To_v1beta2_KubeadmControlPlaneRemediationSpec`,
    },
    {
      kind: 'omitZero',
      at: `${q}.remediation.retryPeriodSeconds`,
      zero: 0,
      restore: true,
      capi: 'controlplane webhook (Convert_Duration_To_Pointer_int32 of RetryPeriod)',
    },
    {
      kind: 'rename',
      from: `${q}.rolloutBefore.certificatesExpiryDays`,
      to: `${q}.rollout.before.certificatesExpiryDays`,
      capi,
    },
    { kind: 'prune', at: `${q}.rolloutBefore`, capi },
    { kind: 'rename', from: `${q}.rolloutAfter`, to: `${q}.rollout.after`, capi },
    ...(template
      ? [
          {
            kind: 'custom',
            name: 'rollout strategy type default',
            capi,
            apply(tree) {
              // "If Type is empty in v1beta1, set it to RollingUpdateStrategyType."
              const at = parsePath(strategy);
              const s = tree.get(at);
              if (s !== undefined && s !== null && (tree.get([...at, 'type']) ?? '') === '')
                tree.set([...at, 'type'], 'RollingUpdate');
            },
          } as Step,
        ]
      : []),
    { kind: 'rename', from: `${strategy}.type`, to: `${q}.rollout.strategy.type`, capi },
    {
      kind: 'rename',
      from: `${strategy}.rollingUpdate.maxSurge`,
      to: `${q}.rollout.strategy.rollingUpdate.maxSurge`,
      capi,
    },
    { kind: 'prune', at: `${strategy}.rollingUpdate`, capi },
    { kind: 'prune', at: strategy, capi },
    { kind: 'rename', from: `${q}.machineNamingStrategy`, to: `${q}.machineNaming`, capi },
    { kind: 'omitZero', at: `${q}.machineNaming.template`, zero: '', capi },
    { kind: 'prune', at: `${q}.machineNaming`, capi },
  ];
}

export const KUBEADM_CONFIG_STEPS: readonly Step[] = kubeadmConfigSpecSteps('spec');
export const KUBEADM_CONFIG_TEMPLATE_STEPS: readonly Step[] = kubeadmConfigSpecSteps('spec.template.spec');

const CP_TEMPLATE_MACHINE =
  'controlplane Convert_v1beta1_KubeadmControlPlaneTemplateMachineTemplate_To_v1beta2_KubeadmControlPlaneTemplateMachineTemplate';
export const KUBEADM_CONTROL_PLANE_TEMPLATE_STEPS: readonly Step[] = [
  ...kubeadmConfigSpecSteps('spec.template.spec.kubeadmConfigSpec'),
  ...deletionTimeouts(
    'spec.template.spec.machineTemplate',
    'spec.template.spec.machineTemplate.spec.deletion',
    CP_TEMPLATE_MACHINE,
  ),
  {
    kind: 'rename',
    from: 'spec.template.spec.machineTemplate.taints',
    to: 'spec.template.spec.machineTemplate.spec.taints',
    capi: CP_TEMPLATE_MACHINE,
  },
  ...controlPlaneSpec('spec.template.spec', CP_TEMPLATE, true),
];

const CP_MACHINE =
  'controlplane Convert_v1beta1_KubeadmControlPlaneMachineTemplate_To_v1beta2_KubeadmControlPlaneMachineTemplate';
export const KUBEADM_CONTROL_PLANE_STEPS: readonly Step[] = [
  ...kubeadmConfigSpecSteps('spec.kubeadmConfigSpec'),
  {
    kind: 'reference',
    from: 'spec.machineTemplate.infrastructureRef',
    to: 'spec.machineTemplate.spec.infrastructureRef',
    group: true,
    capi: 'controlplane webhook ConvertKubeadmControlPlaneV1Beta1ToHub (convertToContractVersionedObjectReference)',
  },
  {
    kind: 'rename',
    from: 'spec.machineTemplate.readinessGates',
    to: 'spec.machineTemplate.spec.readinessGates',
    capi: CP_MACHINE,
  },
  ...deletionTimeouts('spec.machineTemplate', 'spec.machineTemplate.spec.deletion', CP_MACHINE),
  { kind: 'rename', from: 'spec.machineTemplate.taints', to: 'spec.machineTemplate.spec.taints', capi: CP_MACHINE },
  ...controlPlaneSpec('spec', CP_SPEC, false),
];
