import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/model.js';
import type { Result } from '../../src/core/result.js';
import { validateClusterClassDeep } from '../../src/webhooks/clusterclass.js';
import { validateClusterDeep } from '../../src/webhooks/cluster.js';
import { capiProfile, type CapiProfile } from '../../src/core/capi-release.js';
import { CLASS_REF, clusterRef, makeClass, makeCluster, mdClasses, topology, workers } from './helpers.js';

/** The default release with its default gates (MachineTaintPropagation off). */
const V1_14 = capiProfile('1.14');
const starts = (prefix: string) =>
  expect.stringMatching(new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
const brief = (rs: Result[]) =>
  rs.map((r) => ({ severity: r.severity, path: r.field?.path, message: r.message, kind: r.resourceRef?.kind }));

describe('validateClusterClassDeep', () => {
  it('accepts the base class', () => {
    expect(validateClusterClassDeep(makeClass(), CLASS_REF, V1_14)).toEqual([]);
  });

  it('checks rollout strategies: int or percent, not both 0', () => {
    const cc = makeClass((spec) => {
      mdClasses(spec)[0]!.rollout = {
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10', maxSurge: 'x%' } },
      };
      mdClasses(spec).push({
        ...mdClasses(spec)[0]!,
        class: 'zero',
        rollout: { strategy: { rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } } },
      });
    });
    expect(brief(validateClusterClassDeep(cc, CLASS_REF, V1_14))).toEqual([
      {
        severity: 'error',
        kind: 'ClusterClass',
        path: 'spec.workers.machineDeployments[default-worker].rollout.strategy.rollingUpdate.maxUnavailable',
        message:
          'Invalid value: "10": must be either an int or a percentage: invalid value for IntOrString: invalid type: string is not a percentage; use an integer such as 1 or a percentage such as "25%"',
      },
      {
        severity: 'error',
        kind: 'ClusterClass',
        path: 'spec.workers.machineDeployments[default-worker].rollout.strategy.rollingUpdate.maxSurge',
        message:
          'Invalid value: "x%": must be either an int or a percentage: invalid value for IntOrString: invalid value "x%": strconv.Atoi: parsing "x": invalid syntax; use an integer such as 1 or a percentage such as "25%"',
      },
      {
        severity: 'error',
        kind: 'ClusterClass',
        path: 'spec.workers.machineDeployments[zero].rollout.strategy.rollingUpdate',
        message:
          'Invalid value: "0": maxUnavailable and maxSurge cannot both be 0; set maxSurge or maxUnavailable above 0',
      },
    ]);
  });

  it('checks unhealthyLessThanOrEqualTo and maxInFlight', () => {
    const cc = makeClass((spec) => {
      (spec.controlPlane as JsonObject).healthCheck = {
        remediation: { triggerIf: { unhealthyLessThanOrEqualTo: '40' } },
      };
      mdClasses(spec)[0]!.healthCheck = {
        remediation: { maxInFlight: '1.5%', triggerIf: { unhealthyLessThanOrEqualTo: '40%' } },
      };
    });
    expect(brief(validateClusterClassDeep(cc, CLASS_REF, V1_14)).map((r) => [r.path, r.message])).toEqual([
      [
        'spec.controlPlane.healthCheck.remediation.triggerIf.unhealthyLessThanOrEqualTo',
        'Invalid value: "40": must be either an int or a percentage: invalid value for IntOrString: invalid type: string is not a percentage; use an integer such as 1 or a percentage such as "25%"',
      ],
      [
        'spec.workers.machineDeployments[default-worker].healthCheck.remediation.maxInFlight',
        'Invalid value: "1.5%": must be either an int or a percentage: invalid value for IntOrString: invalid value "1.5%": strconv.Atoi: parsing "1.5": invalid syntax; use an integer such as 1 or a percentage such as "25%"',
      ],
    ]);
  });

  it('checks taints: reserved keys, key syntax, and refuses them while MachineTaintPropagation is off', () => {
    const cc = makeClass((spec) => {
      (spec.controlPlane as JsonObject).taints = [
        { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule', propagation: 'Always' },
        { key: 'node.kubernetes.io/out-of-service', effect: 'NoExecute', propagation: 'Always' },
      ];
      (workers(spec).machinePools as JsonObject[])[0]!.taints = [
        { key: 'node.cluster.x-k8s.io/uninitialized', effect: 'NoSchedule', propagation: 'Always' },
        { key: 'node-role.kubernetes.io/master', effect: 'NoSchedule', propagation: 'Always' },
        { key: 'node.cloudprovider.kubernetes.io/x', effect: 'NoSchedule', propagation: 'Always' },
        { key: 'bad key', effect: 'NoSchedule', propagation: 'Always' },
      ];
    });
    const rs = brief(validateClusterClassDeep(cc, CLASS_REF, V1_14));
    expect(rs.filter((r) => r.message.startsWith('Forbidden')).map((r) => [r.severity, r.path, r.message])).toEqual([
      [
        'error',
        'spec.controlPlane.taints',
        'Forbidden: taints are not allowed to be set when the feature gate MachineTaintPropagation is disabled; enable MachineTaintPropagation on the management cluster (and render with --feature-gates MachineTaintPropagation=true), or remove the taints',
      ],
      ['error', 'spec.workers.machinePools[default-pool].taints', expect.stringContaining('MachineTaintPropagation')],
    ]);
    expect(rs.filter((r) => !r.message.startsWith('Forbidden')).map((r) => [r.path, r.message])).toEqual([
      [
        'spec.controlPlane.taints[0].key',
        'Invalid value: "node.kubernetes.io/not-ready": taint key must not have the prefix node.kubernetes.io/, except for node.kubernetes.io/out-of-service; remove the taint or use a key under your own prefix (e.g. example.com/dedicated)',
      ],
      [
        'spec.workers.machinePools[default-pool].taints[0].key',
        'Invalid value: "node.cluster.x-k8s.io/uninitialized": taint key is not allowed; remove the taint: Cluster API manages this key',
      ],
      [
        'spec.workers.machinePools[default-pool].taints[1].key',
        'Invalid value: "node-role.kubernetes.io/master": taint is deprecated since 1.24 and should not be used anymore; use node-role.kubernetes.io/control-plane instead',
      ],
      [
        'spec.workers.machinePools[default-pool].taints[2].key',
        'Invalid value: "node.cloudprovider.kubernetes.io/x": taint key must not have the prefix node.cloudprovider.kubernetes.io/; remove the taint or use a key under your own prefix (e.g. example.com/dedicated)',
      ],
      [
        'spec.workers.machinePools[default-pool].taints[3].key',
        expect.stringMatching(/^Invalid value: "bad key": name part must consist of alphanumeric characters/),
      ],
    ]);
  });

  it('checks class metadata labels and annotations', () => {
    const cc = makeClass((spec) => {
      (spec.controlPlane as JsonObject).metadata = { labels: { ok: 'fine', 'bad/key/x': 'v' } };
      mdClasses(spec)[0]!.metadata = { labels: { app: 'not valid!' }, annotations: { '-nope': 'x' } };
    });
    expect(brief(validateClusterClassDeep(cc, CLASS_REF, V1_14)).map((r) => [r.path, r.message])).toEqual([
      [
        'spec.controlPlane.metadata.labels',
        starts('Invalid value: "bad/key/x": a valid label key must consist of alp'),
      ],
      [
        'spec.workers.machineDeployments[default-worker].template.metadata.labels[app]',
        starts('Invalid value: "not valid!": a valid label must be an empty stri'),
      ],
      [
        'spec.workers.machineDeployments[default-worker].template.metadata.annotations',
        starts('Invalid value: "-nope": name part must consist of alphanumeric '),
      ],
    ]);
  });

  it('checks kubernetesVersions: semver, increasing, no minor skipped (path spec.kubernetesVersion[i], sic)', () => {
    const cc = makeClass((spec) => {
      spec.kubernetesVersions = [
        'v1.30.0',
        'v1.31.2',
        'v1.31.2',
        'not-a-version',
        'v1.33.0',
        'v1.33.0+build.2',
        'v1.32.9',
      ];
    });
    expect(brief(validateClusterClassDeep(cc, CLASS_REF, V1_14)).map((r) => [r.path, r.message])).toEqual([
      [
        'spec.kubernetesVersion[2]',
        'Invalid value: "v1.31.2": version must be greater than v1.31.2; list each version once, in increasing order',
      ],
      [
        'spec.kubernetesVersion[3]',
        'Invalid value: "not-a-version": version must be a valid semantic version; write versions as v<major>.<minor>.<patch>, e.g. v1.32.0',
      ],
      [
        'spec.kubernetesVersion[4]',
        'Invalid value: "v1.33.0": expecting a version with minor 31 or 32, found version 1.33.0; add a version for every minor in between',
      ],
      [
        'spec.kubernetesVersion[6]',
        'Invalid value: "v1.32.9": version must be greater than v1.33.0+build.2; list each version once, in increasing order',
      ],
      [
        'spec.kubernetesVersion[6]',
        'Invalid value: "v1.32.9": expecting a version with minor 33 or 34, found version 1.32.9; add a version for every minor in between',
      ],
    ]);
  });
});

describe('validateClusterClassDeep: patches (§7.5, §8.1 rule 9)', () => {
  const sel = (apiVersion: string, kind: string, matchResources: JsonObject) => ({ apiVersion, kind, matchResources });
  const DCT = ['infrastructure.cluster.x-k8s.io/v1beta2', 'DevClusterTemplate'] as const;
  const KCPT = ['controlplane.cluster.x-k8s.io/v1beta2', 'KubeadmControlPlaneTemplate'] as const;
  const DMT = ['infrastructure.cluster.x-k8s.io/v1beta2', 'DevMachineTemplate'] as const;
  const KCT = ['bootstrap.cluster.x-k8s.io/v1beta2', 'KubeadmConfigTemplate'] as const;
  const DMPT = ['infrastructure.cluster.x-k8s.io/v1beta2', 'DevMachinePoolTemplate'] as const;
  const add = (path: string, source: JsonObject): JsonObject => ({ op: 'add', path, ...source });
  const patchedWith = (capi: CapiProfile, ...patches: JsonObject[]) =>
    validateClusterClassDeep(
      makeClass((spec) => (spec.patches = patches)),
      CLASS_REF,
      capi,
    );
  const patched = (...patches: JsonObject[]) => patchedWith(V1_14, ...patches);
  // A management cluster that runs Runtime Extensions.
  const RUNTIME_SDK = capiProfile('1.14', { RuntimeSDK: true });

  it('accepts valid inline and external patches of every kind (RuntimeSDK on)', () => {
    const rs = patchedWith(
      RUNTIME_SDK,
      {
        name: 'inline-all',
        enabledIf: '{{ if .imageRepository }}true{{ end }}',
        definitions: [
          {
            selector: sel(...DCT, { infrastructureCluster: true }),
            jsonPatches: [add('/spec/template/spec/a', { value: { any: ['json'] } })],
          },
          {
            selector: sel(...KCPT, { controlPlane: true }),
            jsonPatches: [add('/spec/template/spec/list/0', { valueFrom: { variable: 'imageRepository' } })],
          },
          {
            selector: sel(...DMT, { controlPlane: true, machineDeploymentClass: { names: ['*'] } }),
            jsonPatches: [
              add('/spec/template/spec/l/-', { valueFrom: { variable: 'builtin.machineDeployment.version' } }),
            ],
          },
          {
            selector: sel(...KCT, {
              machineDeploymentClass: { names: ['default-*', '*-worker'] },
              machinePoolClass: { names: ['*pool'] },
            }),
            jsonPatches: [
              {
                op: 'replace',
                path: '/spec/template/spec/x',
                valueFrom: { template: '{{ .builtin.cluster.name | upper }}' },
              },
            ],
          },
          {
            selector: sel(...DMPT, { machinePoolClass: { names: ['default-pool'] } }),
            jsonPatches: [{ op: 'remove', path: '/spec/template/spec/y' }],
          },
        ],
      },
      { name: 'generate', external: { generatePatchesExtension: 'gen' } },
      { name: 'validate-only', external: { validateTopologyExtension: 'val' } },
      // Accepted by the webhook (definitions is set), fails at render time ("failed to create patch generator").
      { name: 'empty', definitions: [] },
    );
    expect(rs).toEqual([]);
  });

  it('reports in CAPI order, tagged with the patch name', () => {
    const rs = patched({
      name: 'inline',
      enabledIf: '{{',
      definitions: [
        {
          selector: sel(...DMT, { infrastructureCluster: true }),
          jsonPatches: [{ op: 'replace', path: 'spec/0', value: 'x' }],
        },
      ],
      external: {},
    });
    expect(rs.map((r) => [r.field?.path, r.message.split('; ')[0], r.tags])).toEqual([
      [
        'spec.patches[0].name',
        'Required value: "inline" can not be used as the name of a patch',
        { patch: 'inline', rule: 'patch-name' },
      ],
      [
        'spec.patches[0].enabledIf',
        'Invalid value: "{{": template can not be parsed: template: enabledIf:1: unclosed action',
        { patch: 'inline', rule: 'patch-definitions' },
      ],
      [
        'spec.patches[0]',
        'Invalid value: {"name":"inline","enabledIf":"{{","definitions":[{"selector":{"apiVersion":"infrastructure.cluster.x-k8s.io/v1beta2","kind":"DevMachineTemplate","matchResources":{"infrastructureCluster":true}},"jsonPatches":[{"op":"replace","path":"spec/0","value":"x"}]}],"external":{}}: only one of definitions or external can be defined',
        { patch: 'inline', rule: 'patch-definitions' },
      ],
      [
        'spec.patches[0].definitions[0].jsonPatches[0].path',
        'Invalid value: "{\\n  \\"op\\": \\"replace\\",\\n  \\"path\\": \\"spec/0\\",\\n  \\"value\\": \\"x\\"\\n}": jsonPatch path must start with "/spec"',
        { patch: 'inline', rule: 'patch-definitions' },
      ],
      [
        'spec.patches[0].definitions[0].jsonPatches[0].path',
        'Invalid value: "spec/0": elements in arrays can not be accessed in a replace operation',
        { patch: 'inline', rule: 'patch-definitions' },
      ],
      [
        'spec.patches[0].definitions[0].selector.matchResources.infrastructureCluster',
        'Invalid value: true: selector is enabled but does not match the infrastructure ref',
        { patch: 'inline', rule: 'patch-definitions' },
      ],
      [
        'spec.patches[0].external',
        'Forbidden: patch.external can be used only if the RuntimeSDK feature flag is enabled',
        { patch: 'inline', rule: 'patch-definitions' },
      ],
      [
        'spec.patches[0].external',
        'Invalid value: {}: one of validateTopologyExtension and generatePatchesExtension must be defined',
        { patch: 'inline', rule: 'patch-definitions' },
      ],
    ]);
    expect(rs.every((r) => r.severity === 'error' && r.resourceRef === CLASS_REF)).toBe(true);
  });

  // core/webhooks/admission/patch_validation.go `validatePatches` (v1.14.2; internal/webhooks in
  // v1.12.10 and v1.13.6): the same rule in each, and RuntimeSDK is off by default in each
  // (feature/feature.go).
  it.each(['1.12', '1.13', '1.14'] as const)('refuses external patches while RuntimeSDK is off (%s default)', (v) => {
    const external: JsonObject[] = [
      { name: 'generate', external: { generatePatchesExtension: 'gen' } },
      { name: 'validate-only', external: { validateTopologyExtension: 'val' } },
    ];
    expect(brief(patchedWith(capiProfile(v), ...external)).map((r) => [r.path, r.message])).toEqual(
      [0, 1].map((i) => [
        `spec.patches[${i}].external`,
        'Forbidden: patch.external can be used only if the RuntimeSDK feature flag is enabled; if the management cluster runs RuntimeSDK=true, say so: --extensions or --replay-extensions (call the extension), skipExternalPatches (render without it) or --feature-gates RuntimeSDK=true',
      ]),
    );
    expect(patchedWith(capiProfile(v, { RuntimeSDK: true }), ...external)).toEqual([]);
  });

  it('escapes values as Go does: HTML characters in JSON, %q around the pretty-printed patch', () => {
    const rs = patched({
      name: 'p',
      definitions: [
        {
          selector: sel(...DCT, { infrastructureCluster: true }),
          jsonPatches: [{ op: 'copy', path: '/spec/a', value: { b: '<&>', a: [1.5, {}] } }],
        },
      ],
    });
    expect(rs.map((r) => r.message)).toEqual([
      'Unsupported value: "{\\n  \\"op\\": \\"copy\\",\\n  \\"path\\": \\"/spec/a\\",\\n  \\"value\\": {\\n    \\"a\\": [\\n      1.5,\\n      {}\\n    ],\\n    \\"b\\": \\"\\\\u003c\\\\u0026\\\\u003e\\"\\n  }\\n}": supported values: "add", "remove", "replace"; use add, replace or remove',
    ]);
  });

  it('selectors: a class without infrastructure, MachinePool classes, a machine template without machineInfrastructure', () => {
    const cc = makeClass((spec) => {
      delete spec.infrastructure;
      delete (spec.controlPlane as JsonObject).machineInfrastructure;
      spec.patches = [
        {
          name: 'p',
          definitions: [
            { selector: sel(...DCT, { infrastructureCluster: true }), jsonPatches: [add('/spec/a', { value: 1 })] },
            {
              selector: sel(...DMT, { controlPlane: true, machinePoolClass: { names: ['default-pool'] } }),
              jsonPatches: [add('/spec/a', { value: 1 })],
            },
          ],
        },
      ];
    });
    expect(brief(validateClusterClassDeep(cc, CLASS_REF, V1_14)).map((r) => [r.path, r.message])).toEqual([
      [
        'spec.patches[0].definitions[0].selector.matchResources.infrastructureCluster',
        'Invalid value: true: selector is enabled but does not match the infrastructure ref; the ClusterClass has no spec.infrastructure.templateRef: disable this match',
      ],
      [
        'spec.patches[0].definitions[1].selector.matchResources.controlPlane',
        'Invalid value: true: selector is enabled but matches neither the controlPlane ref nor the controlPlane machineInfrastructure ref; set the selector apiVersion and kind to those of spec.controlPlane.templateRef or spec.controlPlane.machineInfrastructure.templateRef (controlplane.cluster.x-k8s.io/v1beta2 KubeadmControlPlaneTemplate), or disable this match',
      ],
      [
        'spec.patches[0].definitions[1].selector.matchResources.machinePoolClass.names[0]',
        'Invalid value: "default-pool": selector is enabled but matches neither the bootstrap ref nor the infrastructure ref of a MachinePool class; no MachinePool class has a bootstrap or infrastructure template with the selector\'s apiVersion and kind: fix the selector apiVersion and kind',
      ],
    ]);
  });

  it('variables: builtin allow-list with suggestions, index suffixes, and the path the webhook panics on', () => {
    const rs = patched({
      name: 'p',
      definitions: [
        {
          selector: sel(...DCT, { infrastructureCluster: true }),
          jsonPatches: [
            add('/spec/a', { valueFrom: { variable: 'builtin.cluster.labels' } }),
            add('/spec/b', { valueFrom: { variable: 'replicasHint[0].x' } }),
            add('/spec/c', { valueFrom: { variable: '.[' } }),
            add('/spec/d', { valueFrom: { variable: 'builtin.controlPlane.metadata.labels.app' } }),
          ],
        },
      ],
    });
    expect(rs.map((r) => [r.field?.path, r.message])).toEqual([
      [
        'spec.patches[0].definitions[0].jsonPatches[0].valueFrom.variable',
        'Invalid value: "builtin.cluster.labels": not a defined builtin variable; use one of builtin.cluster.name, builtin.cluster.namespace, builtin.cluster.uid, builtin.cluster.topology, builtin.cluster.network (valueFrom.template can read any other builtin field)',
      ],
      [
        'spec.patches[0].definitions[0].jsonPatches[2].valueFrom.variable',
        'Internal error: panic: runtime error: index out of range [0] with length 0 [recovered]; name a variable: the path must not consist only of "." and "["',
      ],
      [
        'spec.patches[0].definitions[0].jsonPatches[3].valueFrom.variable',
        'Invalid value: "builtin.controlPlane.metadata.labels.app": not a defined builtin variable; use one of builtin.controlPlane.metadata.labels, builtin.controlPlane.metadata.annotations (valueFrom.template can read any other builtin field)',
      ],
    ]);
  });
});

describe('validateClusterDeep', () => {
  it('accepts the base Cluster', () => {
    expect(validateClusterDeep(makeCluster('c1'), clusterRef('c1'), V1_14, makeClass())).toEqual([]);
  });

  it('checks clusterNetwork CIDRs', () => {
    const c = makeCluster('c1', (spec) => {
      spec.clusterNetwork = {
        pods: { cidrBlocks: ['192.168.0.0/16', '10.0.0.0/33'] },
        services: { cidrBlocks: ['fd00::/108', '10.96.0.1'] },
      };
    });
    expect(brief(validateClusterDeep(c, clusterRef('c1'), V1_14))).toEqual([
      {
        severity: 'error',
        kind: 'Cluster',
        path: 'spec.clusterNetwork.pods.cidrBlocks[1]',
        message:
          'Invalid value: "10.0.0.0/33": invalid CIDR address: 10.0.0.0/33; use CIDR notation such as 10.0.0.0/16 or fd00::/108',
      },
      {
        severity: 'error',
        kind: 'Cluster',
        path: 'spec.clusterNetwork.services.cidrBlocks[1]',
        message:
          'Invalid value: "10.96.0.1": invalid CIDR address: 10.96.0.1; use CIDR notation such as 10.0.0.0/16 or fd00::/108',
      },
    ]);
  });

  it('checks topology metadata, rollout strategies, taints and health checks', () => {
    const c = makeCluster('c1', (spec) => {
      topology(spec).controlPlane = {
        metadata: { annotations: { 'a/b/c': 'x' } },
        healthCheck: { checks: { nodeStartupTimeoutSeconds: 10 } },
      };
      (workers(topology(spec)).machineDeployments as JsonObject[])[0] = {
        class: 'default-worker',
        name: 'md-0',
        metadata: { labels: { 'x.io/y': 'z z' } },
        rollout: { strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } } },
        taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', propagation: 'Always' }],
        healthCheck: { remediation: { maxInFlight: 'all' } },
      };
    });
    expect(brief(validateClusterDeep(c, clusterRef('c1'), V1_14)).map((r) => [r.severity, r.path, r.message])).toEqual([
      [
        'error',
        'spec.topology.controlPlane.metadata.annotations',
        starts('Invalid value: "a/b/c": a valid label key must consist of alphanumeric c'),
      ],
      [
        'error',
        'spec.topology.workers.machineDeployments[md-0].metadata.labels[x.io/y]',
        starts('Invalid value: "z z": a valid label must be an empty string or consist o'),
      ],
      [
        'error',
        'spec.topology.workers.machineDeployments[md-0].rollout.strategy.rollingUpdate',
        starts('Invalid value: "0": maxUnavailable and maxSurge cannot both be 0'),
      ],
      [
        'error',
        'spec.topology.workers.machineDeployments[md-0].taints',
        starts('Forbidden: taints are not allowed to be set when the feature gate Machin'),
      ],
      [
        'error',
        'spec.topology.workers.machineDeployments[md-0].taints[0].key',
        starts('Invalid value: "node.kubernetes.io/unreachable": taint key must not ha'),
      ],
      [
        'error',
        'spec.topology.controlPlane.healthCheck.checks.nodeStartupTimeoutSeconds',
        starts('Invalid value: 10: must be at least 30s'),
      ],
      [
        'error',
        'spec.topology.workers.machineDeployments[md-0].healthCheck.remediation.maxInFlight',
        starts('Invalid value: "all": must be either an int or a percentage: invalid v'),
      ],
    ]);
  });

  it('checks the upgrade-concurrency annotation', () => {
    const path = 'metadata.annotations[topology.cluster.x-k8s.io/upgrade-concurrency]';
    const withValue = (v: string) =>
      brief(
        validateClusterDeep(
          makeCluster('c1', (_s, meta) => (meta.annotations = { 'topology.cluster.x-k8s.io/upgrade-concurrency': v })),
          clusterRef('c1'),
          V1_14,
        ),
      );
    expect(withValue('2')).toEqual([]);
    expect(withValue('abc')).toEqual([
      {
        severity: 'error',
        kind: 'Cluster',
        path,
        message:
          'Invalid value: "abc": could not parse the value of the annotation: strconv.Atoi: parsing "abc": invalid syntax; set the annotation to a whole number of at least 1, e.g. "1"',
      },
    ]);
    expect(withValue('0')).toEqual([
      {
        severity: 'error',
        kind: 'Cluster',
        path,
        message:
          'Invalid value: "0": value cannot be less than 1; set the annotation to a whole number of at least 1, e.g. "1"',
      },
    ]);
  });

  it('checks autoscaler annotations against replicas (topology and class)', () => {
    const cc = makeClass((spec) => {
      mdClasses(spec)[0]!.metadata = {
        annotations: { 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size': '5' },
      };
    });
    const c = makeCluster('c1', (spec) => {
      (workers(topology(spec)).machineDeployments as JsonObject[])[0] = {
        class: 'default-worker',
        name: 'md-0',
        replicas: 3,
        metadata: { annotations: { 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size': '1' } },
      };
    });
    expect(brief(validateClusterDeep(c, clusterRef('c1'), V1_14, cc))).toEqual([
      {
        severity: 'error',
        kind: 'Cluster',
        path: 'spec.topology.workers.machineDeployments[md-0].replicas',
        message:
          'Invalid value: 3: cannot be set for cluster "c1" in namespace "default" if the same MachineDeploymentTopology has autoscaler annotations; remove replicas (the autoscaler sets them) or remove the autoscaler annotations',
      },
      {
        severity: 'error',
        kind: 'Cluster',
        path: 'spec.topology.workers.machineDeployments[md-0].replicas',
        message:
          'Invalid value: 3: cannot be set for cluster "c1" in namespace "default" if the source class "default-worker" of this MachineDeploymentTopology has autoscaler annotations; remove replicas (the autoscaler sets them) or remove the autoscaler annotations from class "default-worker"',
      },
    ]);
    // Without the class only the topology's own annotations are checked.
    expect(validateClusterDeep(c, clusterRef('c1'), V1_14)).toHaveLength(1);
  });
});
