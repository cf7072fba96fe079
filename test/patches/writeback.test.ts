import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/model.js';
import type { PatchTargetRole } from '../../src/patches/types.js';
import { updateDesiredObject, writeBackPatchedTemplate } from '../../src/patches/writeback.js';

const fixedLabels = {
  'cluster.x-k8s.io/cluster-name': 'c1',
  'topology.cluster.x-k8s.io/owned': '',
};
const fixedAnnotations = {
  'cluster.x-k8s.io/cloned-from-name': 'quick-start-cluster',
  'cluster.x-k8s.io/cloned-from-groupkind': 'DevClusterTemplate.infrastructure.cluster.x-k8s.io',
};

/** A desired object created from a template (§2.2). */
const desiredObject = (kind: string, spec: JsonObject): JsonObject => ({
  apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
  kind,
  metadata: {
    name: 'c1-abcde',
    namespace: 'default',
    labels: { ...fixedLabels, user: 'u' },
    annotations: { ...fixedAnnotations },
  },
  spec,
});

/** A patched template whose patch tried to overwrite the fixed labels/annotations too. */
const patchedObjectTemplate = (spec: JsonObject): JsonObject => ({
  apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
  kind: 'DevClusterTemplate',
  metadata: { name: 'quick-start-cluster', labels: { template: 'own' } },
  spec: {
    template: {
      metadata: {
        labels: { 'cluster.x-k8s.io/cluster-name': 'hacked', patched: 'yes' },
        annotations: { 'cluster.x-k8s.io/cloned-from-name': 'hacked', note: 'n' },
      },
      spec,
    },
    outside: 'lost',
  },
});

describe.each<PatchTargetRole>([
  'InfrastructureCluster',
  'MachinePoolBootstrapTemplate',
  'MachinePoolInfrastructureTemplate',
])('object roles: %s', (role) => {
  it('copies spec.template.spec and template metadata, restoring the fixed labels/annotations', () => {
    const desired = desiredObject('DevCluster', { old: true });
    const out = updateDesiredObject(role, desired, patchedObjectTemplate({ new: true }), 'v1beta2');
    expect(out).toEqual({
      ...desired,
      metadata: {
        name: 'c1-abcde',
        namespace: 'default',
        labels: { ...fixedLabels, patched: 'yes' },
        annotations: { ...fixedAnnotations, note: 'n' },
      },
      spec: { new: true },
    });
  });

  it('skips fields absent from the patched template', () => {
    const desired = desiredObject('DevCluster', { old: true });
    const patched: JsonObject = { apiVersion: 'x/v1', kind: 'DevClusterTemplate', metadata: { name: 't' }, spec: {} };
    expect(updateDesiredObject(role, desired, patched, 'v1beta2')).toEqual(desired);
  });
});

describe('ControlPlane', () => {
  const desiredCp = (): JsonObject => ({
    apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
    kind: 'KubeadmControlPlane',
    metadata: { name: 'c1-cp', namespace: 'default', labels: { ...fixedLabels }, annotations: { ...fixedAnnotations } },
    spec: {
      version: 'v1.31.0',
      replicas: 3,
      rollout: { after: '2025-01-01T00:00:00Z', strategy: { type: 'RollingUpdate' } },
      kubeadmConfigSpec: { old: true },
      machineTemplate: {
        metadata: { labels: { a: 'b' } },
        spec: {
          infrastructureRef: {
            apiGroup: 'infrastructure.cluster.x-k8s.io',
            kind: 'DevMachineTemplate',
            name: 'c1-cp-xyz',
          },
          readinessGates: [{ conditionType: 'Ready' }],
          taints: [{ key: 'k', effect: 'NoSchedule' }],
          deletion: { nodeDrainTimeoutSeconds: 10, nodeVolumeDetachTimeoutSeconds: 20, nodeDeletionTimeoutSeconds: 30 },
        },
      },
    },
  });

  it('preserves the fields the topology controller owns (v1beta2 contract paths)', () => {
    const patched = patchedObjectTemplate({
      version: 'v9.9.9',
      replicas: 1,
      rollout: { after: 'never', strategy: { type: 'Patched' } },
      kubeadmConfigSpec: { new: true },
      machineTemplate: {
        metadata: { labels: { x: 'y' } },
        spec: {
          infrastructureRef: { name: 'hacked' },
          readinessGates: [],
          taints: [],
          deletion: { nodeDrainTimeoutSeconds: 1 },
          extra: 'kept',
        },
      },
    });
    const out = updateDesiredObject('ControlPlane', desiredCp(), patched, 'v1beta2');
    const d = desiredCp()['spec'] as any;
    expect(out['spec']).toEqual({
      version: d.version,
      replicas: d.replicas,
      rollout: { after: d.rollout.after, strategy: { type: 'Patched' } },
      kubeadmConfigSpec: { new: true },
      machineTemplate: {
        metadata: d.machineTemplate.metadata,
        spec: { ...d.machineTemplate.spec, extra: 'kept' },
      },
    });
  });

  it('preserves the v1beta1 contract paths too, whatever the contract', () => {
    const desired: JsonObject = {
      apiVersion: 'controlplane.cluster.x-k8s.io/v1beta1',
      kind: 'KubeadmControlPlane',
      metadata: { name: 'c1-cp', labels: { ...fixedLabels } },
      spec: {
        version: 'v1.31.0',
        machineTemplate: {
          infrastructureRef: {
            apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
            kind: 'DevMachineTemplate',
            name: 'c1-cp-xyz',
            namespace: 'default',
          },
          readinessGates: [{ conditionType: 'Ready' }],
          taints: [{ key: 'k', effect: 'NoSchedule' }],
          nodeDrainTimeout: '1m30s',
          nodeVolumeDetachTimeout: '0s',
          nodeDeletionTimeout: '10m0s',
        },
      },
    };
    const patched = patchedObjectTemplate({
      machineTemplate: {
        infrastructureRef: { name: 'x' },
        readinessGates: [],
        taints: [],
        nodeDrainTimeout: '1s',
        nodeVolumeDetachTimeout: '1s',
        nodeDeletionTimeout: '1s',
      },
    });
    for (const contract of ['v1beta1', 'v1beta2'] as const) {
      const out = updateDesiredObject('ControlPlane', desired, patched, contract);
      expect(out['spec']).toEqual(desired['spec']);
    }
  });

  it('lets patches set owned fields the desired object did not have', () => {
    const desired = desiredCp();
    delete (desired['spec'] as any).replicas;
    const out = updateDesiredObject('ControlPlane', desired, patchedObjectTemplate({ replicas: 5 }), 'v1beta2');
    expect((out['spec'] as any).replicas).toBe(5);
    expect((out['spec'] as any).version).toBe('v1.31.0'); // restored even though the patched spec lacks it
  });
});

describe.each<PatchTargetRole>([
  'ControlPlaneMachineTemplate',
  'MachineDeploymentBootstrapTemplate',
  'MachineDeploymentInfrastructureTemplate',
])('template roles: %s', (role) => {
  const desiredTemplate = (): JsonObject => ({
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
    kind: 'DevMachineTemplate',
    metadata: {
      name: 'c1-md-0-abcde',
      namespace: 'default',
      labels: { ...fixedLabels, 'topology.cluster.x-k8s.io/deployment-name': 'md-0' },
      annotations: { ...fixedAnnotations },
      ownerReferences: [{ kind: 'Cluster', name: 'c1' }],
    },
    spec: { template: { metadata: { labels: { t: '1' } }, spec: { old: true } }, other: 'kept' },
  });

  it('copies metadata and spec.template.{spec,metadata}, restoring fixed labels', () => {
    const patched: JsonObject = {
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
      kind: 'DevMachineTemplate',
      metadata: {
        name: 'tpl',
        labels: { 'topology.cluster.x-k8s.io/deployment-name': 'hacked', p: 'x' },
        annotations: { a: 'b' },
      },
      spec: {
        template: { metadata: { labels: { t: '2' }, annotations: { n: 'm' }, name: 'lost' }, spec: { new: true } },
        other: 'lost',
      },
    };
    const out = updateDesiredObject(role, desiredTemplate(), patched, 'v1beta2');
    expect(out).toEqual({
      ...desiredTemplate(),
      metadata: {
        ...(desiredTemplate()['metadata'] as JsonObject),
        labels: { ...fixedLabels, 'topology.cluster.x-k8s.io/deployment-name': 'md-0', p: 'x' },
        annotations: { a: 'b', ...fixedAnnotations },
      },
      spec: {
        template: { metadata: { labels: { t: '2' }, annotations: { n: 'm' } }, spec: { new: true } },
        other: 'kept',
      },
    });
  });
});

describe('write-back robustness', () => {
  it('never aliases its inputs', () => {
    const desired = desiredObject('DevCluster', { old: { deep: 1 } });
    const patched = patchedObjectTemplate({ new: { deep: 1 } });
    const out = updateDesiredObject('InfrastructureCluster', desired, patched, 'v1beta2');
    (out['spec'] as any).new.deep = 2;
    (out['metadata'] as any).labels.x = 'y';
    expect((patched['spec'] as any).template.spec.new.deep).toBe(1);
    expect((desired['metadata'] as any).labels.x).toBeUndefined();
  });

  it('reports a field that cannot be set and leaves the object unchanged', () => {
    const desired: JsonObject = {
      apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
      kind: 'KubeadmControlPlane',
      metadata: { name: 'c1-cp' },
      spec: { machineTemplate: { metadata: { labels: { a: 'b' } } } },
    };
    const r = writeBackPatchedTemplate(
      'ControlPlane',
      desired,
      patchedObjectTemplate({ machineTemplate: 'oops' }),
      'v1beta2',
    );
    expect(r.errors).toEqual([
      'failed to apply patch to KubeadmControlPlane: failed to set field "spec.machineTemplate.metadata": value cannot be set because .spec.machineTemplate is not a map[string]interface{}',
    ]);
    expect(r.object).toEqual(desired);
  });
});
