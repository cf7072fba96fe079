import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/api/model.js';
import type { Result } from '../../src/krm/result.js';
import { validateClusterClassDeep } from '../../src/validation/clusterclass.js';
import { validateClusterDeep } from '../../src/validation/cluster.js';
import { CLASS_REF, clusterRef, makeClass, makeCluster, mdClasses, topology, workers } from './helpers.js';

const starts = (prefix: string) => expect.stringMatching(new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
const brief = (rs: Result[]) => rs.map((r) => ({ severity: r.severity, path: r.field?.path, message: r.message, kind: r.resourceRef?.kind }));

describe('validateClusterClassDeep', () => {
  it('accepts the base class', () => {
    expect(validateClusterClassDeep(makeClass(), CLASS_REF)).toEqual([]);
  });

  it('checks rollout strategies: int or percent, not both 0', () => {
    const cc = makeClass((spec) => {
      mdClasses(spec)[0]!.rollout = { strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10', maxSurge: 'x%' } } };
      mdClasses(spec).push({ ...mdClasses(spec)[0]!, class: 'zero', rollout: { strategy: { rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } } } });
    });
    expect(brief(validateClusterClassDeep(cc, CLASS_REF))).toEqual([
      {
        severity: 'error',
        kind: 'ClusterClass',
        path: 'spec.workers.machineDeployments[default-worker].rollout.strategy.rollingUpdate.maxUnavailable',
        message: 'Invalid value: "10": must be either an int or a percentage: invalid value for IntOrString: invalid type: string is not a percentage; use an integer such as 1 or a percentage such as "25%"',
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
        message: 'Invalid value: "0": maxUnavailable and maxSurge cannot both be 0; set maxSurge or maxUnavailable above 0',
      },
    ]);
  });

  it('checks unhealthyLessThanOrEqualTo and maxInFlight', () => {
    const cc = makeClass((spec) => {
      (spec.controlPlane as JsonObject).healthCheck = { remediation: { triggerIf: { unhealthyLessThanOrEqualTo: '40' } } };
      mdClasses(spec)[0]!.healthCheck = { remediation: { maxInFlight: '1.5%', triggerIf: { unhealthyLessThanOrEqualTo: '40%' } } };
    });
    expect(brief(validateClusterClassDeep(cc, CLASS_REF)).map((r) => [r.path, r.message])).toEqual([
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

  it('checks taints: reserved keys, key syntax, and warns about the feature gate', () => {
    const cc = makeClass((spec) => {
      (spec.controlPlane as JsonObject).taints = [
        { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/out-of-service', effect: 'NoExecute' },
      ];
      (workers(spec).machinePools as JsonObject[])[0]!.taints = [
        { key: 'node.cluster.x-k8s.io/uninitialized', effect: 'NoSchedule' },
        { key: 'node-role.kubernetes.io/master', effect: 'NoSchedule' },
        { key: 'node.cloudprovider.kubernetes.io/x', effect: 'NoSchedule' },
        { key: 'bad key', effect: 'NoSchedule' },
      ];
    });
    const rs = brief(validateClusterClassDeep(cc, CLASS_REF));
    expect(rs.filter((r) => r.severity === 'warning').map((r) => [r.path, r.message])).toEqual([
      ['spec.controlPlane.taints', 'Forbidden: taints are not allowed to be set when the feature gate MachineTaintPropagation is disabled; enable MachineTaintPropagation on the management cluster, or remove the taints'],
      ['spec.workers.machinePools[default-pool].taints', expect.stringContaining('MachineTaintPropagation')],
    ]);
    expect(rs.filter((r) => r.severity === 'error').map((r) => [r.path, r.message])).toEqual([
      [
        'spec.controlPlane.taints[0].key',
        'Invalid value: "node.kubernetes.io/not-ready": taint key must not have the prefix node.kubernetes.io/, except for node.kubernetes.io/out-of-service; remove the taint or use a key under your own prefix (e.g. example.com/dedicated)',
      ],
      ['spec.workers.machinePools[default-pool].taints[0].key', 'Invalid value: "node.cluster.x-k8s.io/uninitialized": taint key is not allowed; remove the taint: Cluster API manages this key'],
      ['spec.workers.machinePools[default-pool].taints[1].key', 'Invalid value: "node-role.kubernetes.io/master": taint is deprecated since 1.24 and should not be used anymore; use node-role.kubernetes.io/control-plane instead'],
      [
        'spec.workers.machinePools[default-pool].taints[2].key',
        'Invalid value: "node.cloudprovider.kubernetes.io/x": taint key must not have the prefix node.cloudprovider.kubernetes.io/; remove the taint or use a key under your own prefix (e.g. example.com/dedicated)',
      ],
      ['spec.workers.machinePools[default-pool].taints[3].key', expect.stringMatching(/^Invalid value: "bad key": name part must consist of alphanumeric characters/)],
    ]);
  });

  it('checks class metadata labels and annotations', () => {
    const cc = makeClass((spec) => {
      (spec.controlPlane as JsonObject).metadata = { labels: { ok: 'fine', 'bad/key/x': 'v' } };
      mdClasses(spec)[0]!.metadata = { labels: { app: 'not valid!' }, annotations: { '-nope': 'x' } };
    });
    expect(brief(validateClusterClassDeep(cc, CLASS_REF)).map((r) => [r.path, r.message])).toEqual([
      ['spec.controlPlane.metadata.labels', starts('Invalid value: "bad/key/x": a qualified name must consist of alp')],
      ['spec.workers.machineDeployments[default-worker].template.metadata.labels[app]', starts('Invalid value: "not valid!": a valid label must be an empty stri')],
      ['spec.workers.machineDeployments[default-worker].template.metadata.annotations', starts('Invalid value: "-nope": name part must consist of alphanumeric ')],
    ]);
  });

  it('checks kubernetesVersions: semver, increasing, no minor skipped (path spec.kubernetesVersion[i], sic)', () => {
    const cc = makeClass((spec) => {
      spec.kubernetesVersions = ['v1.30.0', 'v1.31.2', 'v1.31.2', 'not-a-version', 'v1.33.0', 'v1.33.0+build.2', 'v1.32.9'];
    });
    expect(brief(validateClusterClassDeep(cc, CLASS_REF)).map((r) => [r.path, r.message])).toEqual([
      ['spec.kubernetesVersion[2]', 'Invalid value: "v1.31.2": version must be greater than v1.31.2; list each version once, in increasing order'],
      ['spec.kubernetesVersion[3]', 'Invalid value: "not-a-version": version must be a valid semantic version; write versions as v<major>.<minor>.<patch>, e.g. v1.32.0'],
      ['spec.kubernetesVersion[4]', 'Invalid value: "v1.33.0": expecting a version with minor 31 or 32, found version 1.33.0; add a version for every minor in between'],
      ['spec.kubernetesVersion[6]', 'Invalid value: "v1.32.9": version must be greater than v1.33.0+build.2; list each version once, in increasing order'],
      ['spec.kubernetesVersion[6]', 'Invalid value: "v1.32.9": expecting a version with minor 33 or 34, found version 1.32.9; add a version for every minor in between'],
    ]);
  });
});

describe('validateClusterDeep', () => {
  it('accepts the base Cluster', () => {
    expect(validateClusterDeep(makeCluster('c1'), clusterRef('c1'), makeClass())).toEqual([]);
  });

  it('checks clusterNetwork CIDRs', () => {
    const c = makeCluster('c1', (spec) => {
      spec.clusterNetwork = { pods: { cidrBlocks: ['192.168.0.0/16', '10.0.0.0/33'] }, services: { cidrBlocks: ['fd00::/108', '10.96.0.1'] } };
    });
    expect(brief(validateClusterDeep(c, clusterRef('c1')))).toEqual([
      { severity: 'error', kind: 'Cluster', path: 'spec.clusterNetwork.pods.cidrBlocks[1]', message: 'Invalid value: "10.0.0.0/33": invalid CIDR address: 10.0.0.0/33; use CIDR notation such as 10.0.0.0/16 or fd00::/108' },
      { severity: 'error', kind: 'Cluster', path: 'spec.clusterNetwork.services.cidrBlocks[1]', message: 'Invalid value: "10.96.0.1": invalid CIDR address: 10.96.0.1; use CIDR notation such as 10.0.0.0/16 or fd00::/108' },
    ]);
  });

  it('checks topology metadata, rollout strategies, taints and health checks', () => {
    const c = makeCluster('c1', (spec) => {
      topology(spec).controlPlane = { metadata: { annotations: { 'a/b/c': 'x' } }, healthCheck: { checks: { nodeStartupTimeoutSeconds: 10 } } };
      (workers(topology(spec)).machineDeployments as JsonObject[])[0] = {
        class: 'default-worker',
        name: 'md-0',
        metadata: { labels: { 'x.io/y': 'z z' } },
        rollout: { strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } } },
        taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }],
        healthCheck: { remediation: { maxInFlight: 'all' } },
      };
    });
    expect(brief(validateClusterDeep(c, clusterRef('c1'))).map((r) => [r.severity, r.path, r.message])).toEqual([
      ['error', 'spec.topology.controlPlane.metadata.annotations', starts('Invalid value: "a/b/c": a qualified name must consist of alphanumeric c')],
      ['error', 'spec.topology.workers.machineDeployments[md-0].metadata.labels[x.io/y]', starts('Invalid value: "z z": a valid label must be an empty string or consist o')],
      ['error', 'spec.topology.workers.machineDeployments[md-0].rollout.strategy.rollingUpdate', starts('Invalid value: "0": maxUnavailable and maxSurge cannot both be 0')],
      ['warning', 'spec.topology.workers.machineDeployments[md-0].taints', starts('Forbidden: taints are not allowed to be set when the feature gate Machin')],
      ['error', 'spec.topology.workers.machineDeployments[md-0].taints[0].key', starts('Invalid value: "node.kubernetes.io/unreachable": taint key must not ha')],
      ['error', 'spec.topology.controlPlane.healthCheck.checks.nodeStartupTimeoutSeconds', starts('Invalid value: 10: must be at least 30s')],
      ['error', 'spec.topology.workers.machineDeployments[md-0].healthCheck.remediation.maxInFlight', starts('Invalid value: "all": must be either an int or a percentage: invalid v')],
    ]);
  });

  it('checks the upgrade-concurrency annotation', () => {
    const path = 'metadata.annotations[topology.cluster.x-k8s.io/upgrade-concurrency]';
    const withValue = (v: string) => brief(validateClusterDeep(makeCluster('c1', (_s, meta) => (meta.annotations = { 'topology.cluster.x-k8s.io/upgrade-concurrency': v })), clusterRef('c1')));
    expect(withValue('2')).toEqual([]);
    expect(withValue('abc')).toEqual([
      {
        severity: 'error',
        kind: 'Cluster',
        path,
        message: 'Invalid value: "abc": could not parse the value of the annotation: strconv.Atoi: parsing "abc": invalid syntax; set the annotation to a whole number of at least 1, e.g. "1"',
      },
    ]);
    expect(withValue('0')).toEqual([
      { severity: 'error', kind: 'Cluster', path, message: 'Invalid value: "0": value cannot be less than 1; set the annotation to a whole number of at least 1, e.g. "1"' },
    ]);
  });

  it('checks autoscaler annotations against replicas (topology and class)', () => {
    const cc = makeClass((spec) => {
      mdClasses(spec)[0]!.metadata = { annotations: { 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size': '5' } };
    });
    const c = makeCluster('c1', (spec) => {
      (workers(topology(spec)).machineDeployments as JsonObject[])[0] = {
        class: 'default-worker',
        name: 'md-0',
        replicas: 3,
        metadata: { annotations: { 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size': '1' } },
      };
    });
    expect(brief(validateClusterDeep(c, clusterRef('c1'), cc))).toEqual([
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
    expect(validateClusterDeep(c, clusterRef('c1'))).toHaveLength(1);
  });
});
