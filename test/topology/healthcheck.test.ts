/**
 * MachineHealthChecks (src/topology/healthcheck.ts) as CAPI computes them:
 * api/core/v1beta2 cluster_types.go / clusterclass_types.go `IsDefined` (which health check is
 * used), exp/topology/desiredstate/desired_state.go `computeMachineHealthCheck` with the
 * MachineHealthCheck webhook's `Default` (core/webhooks/admission/machinehealthcheck.go), and for
 * v1beta1 output api/core/v1beta1/conversion.go `Convert_v1beta2_MachineHealthCheckSpec_To_v1beta1`.
 * The origins are those explain reports (README, explain), read from an OriginRecorder.
 */
import { describe, expect, it } from 'vitest';
import type { Cluster, HealthCheck } from '../../src/core/model.js';
import { OriginRecorder } from '../../src/provenance/recorder.js';
import { computeHealthCheck, healthCheckDefined, healthCheckSource } from '../../src/topology/healthcheck.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
const cluster = (uid?: string) => ({ name: 'c1', namespace: 'ns', ...(uid ? { uid } : {}) }) as unknown as Cluster;
const SELECTOR = { 'topology.cluster.x-k8s.io/owned': '', 'topology.cluster.x-k8s.io/deployment-name': 'md-0' };
const fromClass = (hc: HealthCheck) =>
  healthCheckSource(undefined, 'spec.topology.workers.machineDeployments[0]', hc, 'spec.workers.machineDeployments[0]');
const mhc = (version: 'v1beta1' | 'v1beta2', hc: HealthCheck, rec?: OriginRecorder, uid?: string): any =>
  computeHealthCheck(version, cluster(uid), 'c1-md-0-abc', SELECTOR, fromClass(hc), 'MachineDeployment md-0', rec);

describe('IsDefined: a health check is defined when its checks or its remediation are not the zero value', () => {
  it('nothing, `enabled` alone, empty checks and remediation, null fields and an empty struct are the zero value', () => {
    for (const hc of [
      undefined,
      {},
      { enabled: true },
      { checks: {}, remediation: {} },
      { checks: { nodeStartupTimeoutSeconds: null, unhealthyNodeConditions: undefined } },
      { remediation: { triggerIf: {} } },
    ]) {
      expect(healthCheckDefined(hc as HealthCheck), JSON.stringify(hc)).toBe(false);
    }
  });

  it('any one field set defines it, 0 included (a non-nil *int32), whatever the other fields are', () => {
    const defined: HealthCheck[] = [
      { checks: { nodeStartupTimeoutSeconds: 0 } },
      {
        checks: {
          nodeStartupTimeoutSeconds: undefined,
          unhealthyNodeConditions: [{ type: 'Ready', status: 'False', timeoutSeconds: 300 }],
        },
      },
      { checks: {}, remediation: { triggerIf: { unhealthyInRange: '[1-3]' } } },
      {
        remediation: {
          triggerIf: {},
          templateRef: {
            apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
            kind: 'DevRemediationTemplate',
            name: 'rem',
          },
        },
      },
      { remediation: { maxInFlight: 1, triggerIf: undefined } },
    ];
    for (const hc of defined) expect(healthCheckDefined(hc), JSON.stringify(hc)).toBe(true);
  });

  it('the topology health check replaces the class one only when it is defined', () => {
    const cls: HealthCheck = { checks: { nodeStartupTimeoutSeconds: 60 } };
    expect(healthCheckSource({ enabled: true }, 'top', cls, 'class')).toEqual({
      hc: cls,
      holder: 'class',
      fromTopology: false,
    });
    const top: HealthCheck = { remediation: { triggerIf: { unhealthyLessThanOrEqualTo: 1 } } };
    expect(healthCheckSource(top, 'top', cls, 'class')).toEqual({ hc: top, holder: 'top', fromTopology: true });
  });
});

describe('computeMachineHealthCheck', () => {
  it('named as its target, owned by the Cluster when it has a uid (ownerrefs.OwnerReferenceTo), labelled topology-owned and with the cluster name (webhook Default)', () => {
    const out = mhc('v1beta2', { checks: { nodeStartupTimeoutSeconds: 0 } }, undefined, 'u-1');
    expect(out.metadata).toEqual({
      name: 'c1-md-0-abc',
      namespace: 'ns',
      labels: { 'cluster.x-k8s.io/cluster-name': 'c1', 'topology.cluster.x-k8s.io/owned': '' },
      ownerReferences: [{ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', name: 'c1', uid: 'u-1' }],
    });
    // Default sets NodeStartupTimeoutSeconds only when nil: 0 is kept; no remediation when none is given (omitzero).
    expect(out.spec).toEqual({
      clusterName: 'c1',
      selector: { matchLabels: SELECTOR },
      checks: { nodeStartupTimeoutSeconds: 0 },
    });
  });

  it('v1beta1: only the fields the health check sets, the node startup timeout as a duration, a condition without timeoutSeconds as 0s (deref to metav1.Duration{})', () => {
    const out = mhc('v1beta1', {
      checks: { nodeStartupTimeoutSeconds: 90, unhealthyMachineConditions: [{ type: 'Healthy', status: 'False' }] },
    });
    expect(out.apiVersion).toBe('cluster.x-k8s.io/v1beta1');
    expect(out.spec).toEqual({
      clusterName: 'c1',
      selector: { matchLabels: SELECTOR },
      unhealthyMachineConditions: [{ type: 'Healthy', status: 'False', timeout: '0s' }],
      nodeStartupTimeout: '1m30s',
    });
    const remediationOnly = mhc('v1beta1', {
      remediation: {
        templateRef: {
          apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
          kind: 'DevRemediationTemplate',
          name: 'rem',
        },
      },
    });
    expect(remediationOnly.spec).toEqual({
      clusterName: 'c1',
      selector: { matchLabels: SELECTOR },
      nodeStartupTimeout: '10m0s',
      remediationTemplate: {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
        kind: 'DevRemediationTemplate',
        name: 'rem',
        namespace: 'ns',
      },
    });
  });
});

describe('explain: the origins of a MachineHealthCheck', () => {
  const CLASS = 'spec.workers.machineDeployments[0].healthCheck';
  const cls = (path: string, note?: string) => ({
    kind: 'clusterClass',
    path: `${CLASS}.${path}`,
    ...(note ? { note } : {}),
  });
  const fixed = (detail: string) => ({ kind: 'fixed', detail });
  const templateRef = {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind: 'DevRemediationTemplate',
    name: 'rem',
  };

  it('v1beta2: the header and labels fixed, the owner reference when there is one, each check from the class health check', () => {
    const rec = new OriginRecorder();
    const hc: HealthCheck = {
      checks: {
        nodeStartupTimeoutSeconds: 60,
        unhealthyMachineConditions: [{ type: 'Healthy', status: 'False', timeoutSeconds: 90 }],
      },
      remediation: { triggerIf: { unhealthyInRange: '[1-3]' } },
    };
    const out = mhc('v1beta2', hc, rec, 'u-1');
    expect(rec.sourceOf(out, ['kind'])).toEqual(fixed('MachineHealthCheck'));
    expect(rec.sourceOf(out, ['metadata', 'labels', 'cluster.x-k8s.io/cluster-name'])).toEqual(
      fixed('label with the Cluster name, set on every generated object'),
    );
    expect(rec.sourceOf(out, ['metadata', 'labels', 'topology.cluster.x-k8s.io/owned'])).toEqual(
      fixed('label marking objects owned by the topology controller'),
    );
    expect(rec.sourceOf(out, ['metadata', 'ownerReferences', 0])).toEqual(
      fixed('owner reference to the Cluster (emitted only when the Cluster has metadata.uid)'),
    );
    expect(rec.sourceOf(out, ['spec', 'checks', 'nodeStartupTimeoutSeconds'])).toEqual(
      cls('checks.nodeStartupTimeoutSeconds'),
    );
    expect(rec.sourceOf(out, ['spec', 'checks', 'unhealthyMachineConditions', 0, 'timeoutSeconds'])).toEqual(
      cls('checks.unhealthyMachineConditions[0].timeoutSeconds'),
    );
    expect(rec.sourceOf(out, ['spec', 'remediation', 'triggerIf', 'unhealthyInRange'])).toEqual(
      cls('remediation.triggerIf.unhealthyInRange'),
    );
    // Nothing is recorded for what the object does not have.
    expect(rec.sourceOf(out, ['spec', 'remediation', 'templateRef'])).toBeUndefined();
    const noUid = new OriginRecorder();
    expect(noUid.sourceOf(mhc('v1beta2', hc, noUid), ['metadata', 'ownerReferences'])).toBeUndefined();
  });

  it('v1beta1: converted fields from the v1beta2 fields they were converted from; nothing for the fields the health check does not set', () => {
    const rec = new OriginRecorder();
    const out = mhc(
      'v1beta1',
      {
        checks: { nodeStartupTimeoutSeconds: 60 },
        remediation: { triggerIf: { unhealthyLessThanOrEqualTo: 2 }, templateRef },
      },
      rec,
    );
    expect(rec.sourceOf(out, ['spec', 'nodeStartupTimeout'])).toEqual(
      cls('checks.nodeStartupTimeoutSeconds', 'seconds converted to a duration'),
    );
    expect(rec.sourceOf(out, ['spec', 'maxUnhealthy'])).toEqual(
      cls('remediation.triggerIf.unhealthyLessThanOrEqualTo'),
    );
    for (const k of ['apiVersion', 'kind', 'name'])
      expect(rec.sourceOf(out, ['spec', 'remediationTemplate', k])).toEqual(cls(`remediation.templateRef.${k}`));
    expect(rec.sourceOf(out, ['spec', 'unhealthyRange'])).toBeUndefined();
    const bare = new OriginRecorder();
    const plain = mhc('v1beta1', { checks: { nodeStartupTimeoutSeconds: 60 } }, bare);
    for (const path of [
      ['maxUnhealthy'],
      ['unhealthyRange'],
      ['remediationTemplate', 'namespace'],
      ['remediationTemplate', 'kind'],
    ])
      expect(bare.sourceOf(plain, ['spec', ...path]), path.join('.')).toBeUndefined();
  });
});
