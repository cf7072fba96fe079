/**
 * Label/annotation keys and the small helpers of src/core/labels.ts, against CAPI's
 * constants (api/core/v1beta2/common_types.go, machine_types.go), `util.MergeMap` (util/util.go),
 * `GroupKind.String()` as used for the cloned-from-groupkind annotation
 * (controllers/external/util.go) and `strings.TrimSuffix(kind, TemplateSuffix)`.
 */
import { describe, expect, it } from 'vitest';
import {
  CLONED_FROM_GROUPKIND,
  CLONED_FROM_NAME,
  CLUSTER_NAME_LABEL,
  CONTROL_PLANE_LABEL,
  CONVERSION_DATA,
  DEFER_UPGRADE,
  DEPLOYMENT_NAME_LABEL,
  HOLD_UPGRADE_SEQUENCE,
  LAST_APPLIED,
  POOL_NAME_LABEL,
  TOPOLOGY_OWNED_LABEL,
  groupKind,
  groupOf,
  mergeMaps,
  objectKindOf,
} from '../../src/core/labels.js';

describe('keys', () => {
  it('are the CAPI and Kubernetes constants', () => {
    expect({
      CLUSTER_NAME_LABEL,
      TOPOLOGY_OWNED_LABEL,
      DEPLOYMENT_NAME_LABEL,
      POOL_NAME_LABEL,
      CONTROL_PLANE_LABEL,
      CLONED_FROM_NAME,
      CLONED_FROM_GROUPKIND,
      DEFER_UPGRADE,
      HOLD_UPGRADE_SEQUENCE,
      LAST_APPLIED,
      CONVERSION_DATA,
    }).toEqual({
      CLUSTER_NAME_LABEL: 'cluster.x-k8s.io/cluster-name', // ClusterNameLabel
      TOPOLOGY_OWNED_LABEL: 'topology.cluster.x-k8s.io/owned', // ClusterTopologyOwnedLabel
      DEPLOYMENT_NAME_LABEL: 'topology.cluster.x-k8s.io/deployment-name', // ClusterTopologyMachineDeploymentNameLabel
      POOL_NAME_LABEL: 'topology.cluster.x-k8s.io/pool-name', // ClusterTopologyMachinePoolNameLabel
      CONTROL_PLANE_LABEL: 'cluster.x-k8s.io/control-plane', // MachineControlPlaneLabel
      CLONED_FROM_NAME: 'cluster.x-k8s.io/cloned-from-name', // TemplateClonedFromNameAnnotation
      CLONED_FROM_GROUPKIND: 'cluster.x-k8s.io/cloned-from-groupkind', // TemplateClonedFromGroupKindAnnotation
      DEFER_UPGRADE: 'topology.cluster.x-k8s.io/defer-upgrade', // ClusterTopologyDeferUpgradeAnnotation
      HOLD_UPGRADE_SEQUENCE: 'topology.cluster.x-k8s.io/hold-upgrade-sequence', // ClusterTopologyHoldUpgradeSequenceAnnotation
      LAST_APPLIED: 'kubectl.kubernetes.io/last-applied-configuration', // corev1.LastAppliedConfigAnnotation
      CONVERSION_DATA: 'cluster.x-k8s.io/conversion-data', // util/conversion DataAnnotation
    });
  });
});

describe('mergeMaps (util.MergeMap)', () => {
  it('keeps the value of the first map that has a key', () => {
    // desired_state.go: util.MergeMap(topology metadata, class metadata) — the Cluster wins.
    expect(mergeMaps({ a: 'topology', b: 'topology' }, { a: 'class', c: 'class' })).toEqual({
      a: 'topology',
      b: 'topology',
      c: 'class',
    });
    expect(mergeMaps(undefined, { a: '1' }, { a: '2', b: '2' }, { b: '3', c: '3' })).toEqual({
      a: '1',
      b: '2',
      c: '3',
    });
  });

  it('is nil when the result is empty ("avoiding triggering infinite reconcile")', () => {
    expect(mergeMaps()).toBeUndefined();
    expect(mergeMaps(undefined, {}, undefined)).toBeUndefined();
    expect(mergeMaps({ '': '' })).toEqual({ '': '' });
  });

  it('never changes its inputs', () => {
    const first = { a: '1' };
    const second = { a: '2', b: '2' };
    const out = mergeMaps(first, second);
    expect(out).not.toBe(first);
    expect(out).not.toBe(second);
    expect(first).toEqual({ a: '1' });
    expect(second).toEqual({ a: '2', b: '2' });
  });
});

describe('group and kind', () => {
  it('groupOf: the group of an apiVersion, "" for the core group', () => {
    expect(groupOf('cluster.x-k8s.io/v1beta2')).toBe('cluster.x-k8s.io');
    expect(groupOf('v1')).toBe('');
  });

  it('groupKind: GroupKind.String(), "<Kind>.<group>" or the Kind alone for the core group', () => {
    expect(groupKind('infrastructure.cluster.x-k8s.io/v1beta2', 'DevClusterTemplate')).toBe(
      'DevClusterTemplate.infrastructure.cluster.x-k8s.io',
    );
    expect(groupKind('v1', 'ConfigMap')).toBe('ConfigMap');
  });

  it('objectKindOf: strings.TrimSuffix(kind, "Template"), once and only at the end', () => {
    expect(objectKindOf('DevClusterTemplate')).toBe('DevCluster');
    expect(objectKindOf('FooTemplateTemplate')).toBe('FooTemplate');
    expect(objectKindOf('TemplateFoo')).toBe('TemplateFoo');
    expect(objectKindOf('DevCluster')).toBe('DevCluster');
  });
});
