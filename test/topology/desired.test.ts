/**
 * The desired state as a whole (src/topology/desired.ts, CAPI exp/topology/desiredstate
 * desired_state.go `computeDesiredState`): which objects exist, and the origins explain reports
 * for the values the controller computes itself. Expected values follow CAPI's source (cited per
 * test) and the provenance wording of the README's explain section.
 */
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import type { JsonObject } from '../../src/api/model.js';
import { explainCluster } from '../../src/explain/provenance.js';
import { runPipeline } from '../../src/pipeline/run.js';
import { config, itemsOf, objectOf, sourceOf } from '../explain/helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
const CLASS = `
apiVersion: cluster.x-k8s.io/v1beta2
kind: ClusterClass
metadata: {name: cc, namespace: ns}
spec:
  infrastructure:
    templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DevClusterTemplate, name: infra}
  controlPlane:
    templateRef: {apiVersion: controlplane.cluster.x-k8s.io/v1beta2, kind: KubeadmControlPlaneTemplate, name: cp}
    machineInfrastructure:
      templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DevMachineTemplate, name: machine}
  workers:
    machinePools:
    - class: pool
      bootstrap: {templateRef: {apiVersion: bootstrap.cluster.x-k8s.io/v1beta2, kind: KubeadmConfigTemplate, name: boot}}
      infrastructure: {templateRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta2, kind: DevMachinePoolTemplate, name: pool}}
---
apiVersion: bootstrap.cluster.x-k8s.io/v1beta2
kind: KubeadmConfigTemplate
metadata: {name: boot, namespace: ns}
spec: {template: {spec: {}}}
---
apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: DevMachinePoolTemplate
metadata: {name: pool, namespace: ns}
spec: {template: {spec: {}}}
---
apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: DevClusterTemplate
metadata: {name: infra, namespace: ns}
spec: {template: {spec: {backend: {docker: {}}}}}
---
apiVersion: controlplane.cluster.x-k8s.io/v1beta2
kind: KubeadmControlPlaneTemplate
metadata: {name: cp, namespace: ns}
spec: {template: {spec: {kubeadmConfigSpec: {clusterConfiguration: {}}}}}
---
apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: DevMachineTemplate
metadata: {name: machine, namespace: ns}
spec: {template: {spec: {backend: {docker: {}}}}}
`;

const CHECKS = { checks: { nodeStartupTimeoutSeconds: 300 } };

/** A live object of Cluster c1 given with the inputs (a package's render-clusterclass.dev/observed items). */
const markObserved = (o: JsonObject): JsonObject => {
  const meta = o.metadata as JsonObject;
  return { ...o, metadata: { ...meta, annotations: { 'render-clusterclass.dev/observed': 'true', 'config.kubernetes.io/local-config': 'true' } } };
};
const owned = (extra: Record<string, string> = {}) => ({ 'cluster.x-k8s.io/cluster-name': 'c1', 'topology.cluster.x-k8s.io/owned': '', ...extra });
const liveControlPlane = (spec: string, status?: string): JsonObject => ({
  apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
  kind: 'KubeadmControlPlane',
  metadata: { name: 'c1-abcde', namespace: 'ns', labels: owned() },
  spec: { version: spec },
  ...(status ? { status: { version: status } } : {}),
});
const liveMachinePool = (name: string, version: string): JsonObject => ({
  apiVersion: 'cluster.x-k8s.io/v1beta2',
  kind: 'MachinePool',
  metadata: { name: `c1-${name}-xyz12`, namespace: 'ns', generation: 1, labels: owned({ 'topology.cluster.x-k8s.io/pool-name': name }) },
  spec: { replicas: 1, template: { spec: { version } } },
  status: { observedGeneration: 1, replicas: 1, upToDateReplicas: 1 },
});

/** The inputs: the class (its control plane health check and naming as given) and Cluster c1. */
function inputs(opts: { classHealthCheck?: object; topologyHealthCheck?: object; infraNaming?: string; pools?: string[]; observed?: JsonObject[] } = {}) {
  const docs = YAML.parseAllDocuments(CLASS).map((d) => d.toJS()) as any[];
  const cc = docs[0];
  if (opts.classHealthCheck) cc.spec.controlPlane.healthCheck = opts.classHealthCheck;
  if (opts.infraNaming) cc.spec.infrastructure.naming = { template: opts.infraNaming };
  const cluster = {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Cluster',
    metadata: { name: 'c1', namespace: 'ns' },
    spec: {
      topology: {
        classRef: { name: 'cc' },
        version: 'v1.31.0',
        controlPlane: opts.topologyHealthCheck ? { healthCheck: opts.topologyHealthCheck } : {},
        workers: { machinePools: (opts.pools ?? []).map((name) => ({ class: 'pool', name })) },
      },
    },
  };
  return itemsOf([...docs, cluster, ...(opts.observed ?? []).map(markObserved)].map((d) => YAML.stringify(d)).join('---\n'));
}

const healthChecks = (items: ReturnType<typeof inputs>): JsonObject[] => {
  const out = runPipeline(items, config());
  expect(out.results.filter((r) => r.severity === 'error')).toEqual([]);
  return out.generated.flatMap((g) => g.objects).filter((o) => o.kind === 'MachineHealthCheck');
};

describe('the control plane MachineHealthCheck (CAPI ClusterBlueprint.IsControlPlaneMachineHealthCheckEnabled)', () => {
  it('none without a health check in the class or the topology', () => {
    expect(healthChecks(inputs())).toEqual([]);
  });

  it('one when either defines it and `enabled` is not set, or is true', () => {
    expect(healthChecks(inputs({ classHealthCheck: CHECKS }))).toHaveLength(1);
    expect(healthChecks(inputs({ topologyHealthCheck: CHECKS }))).toHaveLength(1);
    expect(healthChecks(inputs({ classHealthCheck: CHECKS, topologyHealthCheck: { enabled: true } }))).toHaveLength(1);
  });

  it('none when the topology sets enabled: false, whoever defines it', () => {
    expect(healthChecks(inputs({ classHealthCheck: CHECKS, topologyHealthCheck: { enabled: false } }))).toEqual([]);
    expect(healthChecks(inputs({ topologyHealthCheck: { enabled: false, ...CHECKS } }))).toEqual([]);
  });
});

describe('explain: the origins of what computeDesiredState computes itself', () => {
  const explained = (items: ReturnType<typeof inputs>) => {
    const r = explainCluster(items, config(), 'c1');
    expect(r.results.filter((x) => x.severity === 'error')).toEqual([]);
    return r.objects;
  };

  it('the InfrastructureCluster name: the default template of computeInfrastructureCluster, or the class naming template', () => {
    // desired_state.go computeInfrastructureCluster: nameTemplate := "{{ .cluster.name }}-{{ .random }}", overridden by spec.infrastructure.naming.template.
    expect(sourceOf(objectOf(explained(inputs()), 'InfrastructureCluster'), 'metadata.name')).toEqual({
      kind: 'builtin',
      detail: 'name of the InfrastructureCluster, from the default naming template "{{ .cluster.name }}-{{ .random }}" ({{ .random }} is a stable hash)',
    });
    expect(sourceOf(objectOf(explained(inputs({ infraNaming: 'infra-{{ .cluster.name }}' })), 'InfrastructureCluster'), 'metadata.name')).toEqual({
      kind: 'builtin',
      detail: 'name of the InfrastructureCluster, from the naming template "infra-{{ .cluster.name }}" (ClusterClass spec.infrastructure.naming.template; {{ .random }} is a stable hash)',
    });
  });

  it('the control plane machine template clone: names.ControlPlaneInfrastructureMachineTemplateNamePrefix ("<cluster>-") plus a content hash', () => {
    expect(sourceOf(objectOf(explained(inputs()), 'ControlPlaneMachineTemplate'), 'metadata.name')).toEqual({
      kind: 'builtin',
      detail: 'name of the control plane machine template clone: "c1-" + a hash of its patched content (changes, i.e. rotates, when the template content changes)',
    });
  });

  it('the control plane MachineHealthCheck: named as the control plane (computeMachineHealthCheck), selecting its Machines', () => {
    const mhc = objectOf(explained(inputs({ classHealthCheck: CHECKS })), 'ControlPlaneHealthCheck');
    expect(sourceOf(mhc, 'metadata.name')).toEqual({ kind: 'builtin', detail: 'same name as the control plane it checks' });
    expect(sourceOf(mhc, "spec.selector.matchLabels['cluster.x-k8s.io/control-plane']")).toEqual({
      kind: 'fixed',
      detail: "selector of the control plane's Machines (topology-owned + role labels)",
    });
  });

  // desired_state.go computeControlPlaneVersion / computeMachinePoolVersion: a version held back
  // by upgrade sequencing; explain gives the reason the sequencing reported for that object.
  it('a version held back by upgrade sequencing: the control plane still provisioning, a pool waiting for the control plane', () => {
    const provisioning = explained(inputs({ observed: [liveControlPlane('v1.30.0')] }));
    expect(sourceOf(objectOf(provisioning, 'ControlPlane'), 'spec.version')).toEqual({
      kind: 'builtin',
      detail:
        'Kubernetes version v1.30.0 chosen by upgrade sequencing on the way to spec.topology.version v1.31.0: control plane stays at v1.30.0: it is still being provisioned (no status.version observed); it moves to v1.31.0 once provisioned',
    });
    const upgrading = explained(inputs({ pools: ['mp-0'], observed: [liveControlPlane('v1.31.0', 'v1.30.0'), liveMachinePool('mp-0', 'v1.30.0')] }));
    const pool = sourceOf(objectOf(upgrading, 'MachinePool mp-0'), 'spec.template.spec.version') as { kind: string; detail: string };
    expect(pool.kind).toBe('builtin');
    expect(pool.detail).toMatch(/^Kubernetes version v1\.30\.0 chosen by upgrade sequencing on the way to spec\.topology\.version v1\.31\.0: MachinePool c1-mp-0-xyz12 \(topology mp-0\) stays at v1\.30\.0 \(target v1\.31\.0\): /);
  });
});
