/**
 * The desired state as a whole (src/topology/desired.ts, CAPI exp/topology/desiredstate
 * desired_state.go `computeDesiredState`): which objects exist, and the origins explain reports
 * for the values the controller computes itself. Expected values follow CAPI's source (cited per
 * test) and the provenance wording of the README's explain section.
 */
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import type { JsonObject } from '../../src/core/model.js';
import { explainCluster } from '../../src/cli/explain-cluster.js';
import { runPipeline } from '../../src/pipeline/run.js';
import { config, itemsOf, objectOf, sourceOf } from '../explain/helpers.js';
import { TEMPLATES } from './templates.js';

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
${TEMPLATES}`;

const CHECKS = { checks: { nodeStartupTimeoutSeconds: 300 } };

/** A live object of Cluster c1 given with the inputs (a package's render-clusterclass.dev/observed items). */
const markObserved = (o: JsonObject): JsonObject => {
  const meta = o.metadata as JsonObject;
  return {
    ...o,
    metadata: {
      ...meta,
      annotations: { 'render-clusterclass.dev/observed': 'true', 'config.kubernetes.io/local-config': 'true' },
    },
  };
};
const owned = (extra: Record<string, string> = {}) => ({
  'cluster.x-k8s.io/cluster-name': 'c1',
  'topology.cluster.x-k8s.io/owned': '',
  ...extra,
});
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
  metadata: {
    name: `c1-${name}-xyz12`,
    namespace: 'ns',
    generation: 1,
    labels: owned({ 'topology.cluster.x-k8s.io/pool-name': name }),
  },
  spec: { replicas: 1, template: { spec: { version } } },
  status: { observedGeneration: 1, replicas: 1, upToDateReplicas: 1 },
});

/** The inputs: the class (its control plane health check and naming as given) and Cluster c1. */
interface Options {
  classHealthCheck?: object;
  topologyHealthCheck?: object;
  infraNaming?: string;
  pools?: string[];
  observed?: JsonObject[];
  /** Fields of the class's and the topology's spec.controlPlane. */
  classControlPlane?: object;
  topologyControlPlane?: object;
  /** The control plane template's API version (its contract: v1beta1 or v1beta2). */
  controlPlaneVersion?: 'v1beta1' | 'v1beta2';
  /** spec.template.spec.machineTemplate.metadata of the control plane template. */
  machineTemplateMetadata?: object;
}

function inputs(opts: Options = {}) {
  const text = CLASS.replaceAll(
    'controlplane.cluster.x-k8s.io/v1beta2',
    `controlplane.cluster.x-k8s.io/${opts.controlPlaneVersion ?? 'v1beta2'}`,
  );
  const docs = YAML.parseAllDocuments(text).map((d) => d.toJS()) as any[];
  const cc = docs[0];
  Object.assign(cc.spec.controlPlane, opts.classControlPlane);
  const cpTemplate = docs.find((d) => d.kind === 'KubeadmControlPlaneTemplate');
  if (opts.machineTemplateMetadata)
    cpTemplate.spec.template.spec.machineTemplate = { metadata: opts.machineTemplateMetadata };
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
        controlPlane: {
          ...opts.topologyControlPlane,
          ...(opts.topologyHealthCheck ? { healthCheck: opts.topologyHealthCheck } : {}),
        },
        workers: { machinePools: (opts.pools ?? []).map((name) => ({ class: 'pool', name })) },
      },
    },
  };
  return itemsOf(
    [...docs, cluster, ...(opts.observed ?? []).map(markObserved)].map((d) => YAML.stringify(d)).join('---\n'),
  );
}

const healthChecks = (
  items: ReturnType<typeof inputs>,
  outputApiVersion: 'auto' | 'v1beta1' = 'auto',
): JsonObject[] => {
  const out = runPipeline(items, config({ outputApiVersion }));
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

describe('the control plane (CAPI computeControlPlane): topology over class, at the paths of its contract', () => {
  const classControlPlane = {
    readinessGates: [{ conditionType: 'ClassGate' }],
    taints: [{ key: 'class-taint', effect: 'NoSchedule', propagation: 'Always' }],
    deletion: { nodeDrainTimeoutSeconds: 10, nodeVolumeDetachTimeoutSeconds: 20 },
  };
  const topologyControlPlane = {
    replicas: 3,
    rollout: { after: '2030-01-01T00:00:00Z' },
    readinessGates: [{ conditionType: 'TopologyGate' }],
    deletion: { nodeDrainTimeoutSeconds: 5 },
  };
  const controlPlane = (opts: Options): any => {
    const out = runPipeline(inputs(opts), config());
    expect(out.results.filter((r) => r.severity === 'error')).toEqual([]);
    return out.generated.flatMap((g) => g.objects).find((o) => o.kind === 'KubeadmControlPlane');
  };

  it('v1beta2 contract: spec.machineTemplate.spec.{readinessGates,taints,deletion.<name>Seconds}, replicas and rollout.after from the topology', () => {
    const cp = controlPlane({ classControlPlane, topologyControlPlane });
    expect(cp.spec.replicas).toBe(3);
    expect(cp.spec.rollout).toEqual({ after: '2030-01-01T00:00:00Z' });
    expect(cp.spec.machineTemplate.spec).toEqual({
      infrastructureRef: {
        apiGroup: 'infrastructure.cluster.x-k8s.io',
        kind: 'DevMachineTemplate',
        name: cp.spec.machineTemplate.spec.infrastructureRef.name,
      },
      readinessGates: [{ conditionType: 'TopologyGate' }],
      taints: [{ key: 'class-taint', effect: 'NoSchedule', propagation: 'Always' }],
      deletion: { nodeDrainTimeoutSeconds: 5, nodeVolumeDetachTimeoutSeconds: 20 },
    });
  });

  it('v1beta1 contract: spec.machineTemplate.{readinessGates,taints,<name>} with the timeouts as metav1.Duration', () => {
    const cp = controlPlane({
      classControlPlane,
      topologyControlPlane: {
        ...topologyControlPlane,
        taints: [{ key: 'topology-taint', effect: 'NoExecute', propagation: 'Always' }],
      },
      controlPlaneVersion: 'v1beta1',
    });
    const { metadata, ...machineTemplate } = cp.spec.machineTemplate;
    expect(metadata.labels).toMatchObject({
      'cluster.x-k8s.io/cluster-name': 'c1',
      'topology.cluster.x-k8s.io/owned': '',
    });
    expect(machineTemplate).toEqual({
      infrastructureRef: {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
        kind: 'DevMachineTemplate',
        name: machineTemplate.infrastructureRef.name,
        namespace: 'ns',
      },
      readinessGates: [{ conditionType: 'TopologyGate' }],
      taints: [{ key: 'topology-taint', effect: 'NoExecute', propagation: 'Always' }],
      nodeDrainTimeout: '5s',
      nodeVolumeDetachTimeout: '20s',
    });
  });

  it('without topology values the class values are used, and nothing is set that neither gives', () => {
    const cp = controlPlane({
      classControlPlane: {
        readinessGates: classControlPlane.readinessGates,
        deletion: { nodeDeletionTimeoutSeconds: 30 },
      },
    });
    expect(cp.spec.replicas).toBeUndefined();
    expect(cp.spec.rollout).toBeUndefined();
    expect(cp.spec.machineTemplate.spec.readinessGates).toEqual([{ conditionType: 'ClassGate' }]);
    expect(cp.spec.machineTemplate.spec.taints).toBeUndefined();
    expect(cp.spec.machineTemplate.spec.deletion).toEqual({ nodeDeletionTimeoutSeconds: 30 });
  });
});

describe('the MachineHealthCheck as computeMachineHealthCheck builds it, defaulted by the MachineHealthCheck webhook', () => {
  const healthCheck = {
    checks: {
      unhealthyNodeConditions: [{ type: 'Ready', status: 'False', timeoutSeconds: 300 }],
      unhealthyMachineConditions: [{ type: 'Healthy', status: 'False', timeoutSeconds: 90 }],
    },
    remediation: {
      triggerIf: { unhealthyLessThanOrEqualTo: '40%', unhealthyInRange: '[1-3]' },
      templateRef: {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
        kind: 'DevRemediationTemplate',
        name: 'rem',
      },
    },
  };
  // selectors.ForControlPlaneMHC: the topology-owned and control plane labels.
  const selector = { matchLabels: { 'cluster.x-k8s.io/control-plane': '', 'topology.cluster.x-k8s.io/owned': '' } };

  it('v1beta2: checks and remediation as given, nodeStartupTimeoutSeconds defaulted to DefaultNodeStartupTimeoutSeconds (600), the cluster-name label added', () => {
    const [mhc] = healthChecks(inputs({ classHealthCheck: healthCheck })) as any[];
    expect(mhc.apiVersion).toBe('cluster.x-k8s.io/v1beta2');
    expect(mhc.metadata.labels).toEqual({
      'cluster.x-k8s.io/cluster-name': 'c1',
      'topology.cluster.x-k8s.io/owned': '',
    });
    expect(mhc.spec).toEqual({
      clusterName: 'c1',
      selector,
      checks: { nodeStartupTimeoutSeconds: 600, ...healthCheck.checks },
      remediation: healthCheck.remediation,
    });
  });

  it('v1beta1 output: Convert_v1beta2_MachineHealthCheckSpec_To_v1beta1 (durations, maxUnhealthy, unhealthyRange, a remediationTemplate in the MHC namespace)', () => {
    const [mhc] = healthChecks(inputs({ classHealthCheck: healthCheck }), 'v1beta1') as any[];
    expect(mhc.apiVersion).toBe('cluster.x-k8s.io/v1beta1');
    expect(mhc.spec).toEqual({
      clusterName: 'c1',
      selector,
      unhealthyConditions: [{ type: 'Ready', status: 'False', timeout: '5m0s' }],
      unhealthyMachineConditions: [{ type: 'Healthy', status: 'False', timeout: '1m30s' }],
      nodeStartupTimeout: '10m0s',
      maxUnhealthy: '40%',
      unhealthyRange: '[1-3]',
      remediationTemplate: {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
        kind: 'DevRemediationTemplate',
        name: 'rem',
        namespace: 'ns',
      },
    });
  });

  it('the topology health check, when defined, replaces the class one as a whole (ControlPlaneMachineHealthCheckClass)', () => {
    const [mhc] = healthChecks(
      inputs({ classHealthCheck: healthCheck, topologyHealthCheck: { checks: { nodeStartupTimeoutSeconds: 120 } } }),
    ) as any[];
    expect(mhc.spec.checks).toEqual({ nodeStartupTimeoutSeconds: 120 });
    expect(mhc.spec.remediation).toBeUndefined();
  });

  it('explain: each field from the health check it was taken from, the default startup timeout as the webhook default', () => {
    const cls = objectOf(
      explainCluster(inputs({ classHealthCheck: healthCheck }), config(), 'c1').objects,
      'ControlPlaneHealthCheck',
    );
    expect(sourceOf(cls, 'spec.checks.nodeStartupTimeoutSeconds')).toEqual({
      kind: 'default',
      detail: 'MachineHealthCheck default nodeStartupTimeoutSeconds (600)',
    });
    expect(sourceOf(cls, 'spec.checks.unhealthyNodeConditions[0].timeoutSeconds')).toEqual({
      kind: 'clusterClass',
      path: 'spec.controlPlane.healthCheck.checks.unhealthyNodeConditions[0].timeoutSeconds',
    });
    expect(sourceOf(cls, 'spec.remediation.triggerIf.unhealthyInRange')).toEqual({
      kind: 'clusterClass',
      path: 'spec.controlPlane.healthCheck.remediation.triggerIf.unhealthyInRange',
    });
    expect(sourceOf(cls, 'spec.remediation.templateRef.name')).toEqual({
      kind: 'clusterClass',
      path: 'spec.controlPlane.healthCheck.remediation.templateRef.name',
    });
    const top = objectOf(
      explainCluster(
        inputs({ classHealthCheck: healthCheck, topologyHealthCheck: { checks: { nodeStartupTimeoutSeconds: 120 } } }),
        config(),
        'c1',
      ).objects,
      'ControlPlaneHealthCheck',
    );
    expect(sourceOf(top, 'spec.checks.nodeStartupTimeoutSeconds')).toEqual({
      kind: 'topology',
      path: 'spec.topology.controlPlane.healthCheck.checks.nodeStartupTimeoutSeconds',
    });
  });

  it('explain, v1beta1 output: each converted field from the v1beta2 field it was converted from', () => {
    const mhc = objectOf(
      explainCluster(inputs({ classHealthCheck: healthCheck }), config({ outputApiVersion: 'v1beta1' }), 'c1').objects,
      'ControlPlaneHealthCheck',
    );
    const cls = (path: string, note?: string) => ({
      kind: 'clusterClass',
      path: `spec.controlPlane.healthCheck.${path}`,
      ...(note ? { note } : {}),
    });
    expect(sourceOf(mhc, 'spec.nodeStartupTimeout')).toEqual({
      kind: 'default',
      detail: 'MachineHealthCheck default nodeStartupTimeout (10m0s)',
    });
    expect(sourceOf(mhc, 'spec.unhealthyConditions[0].timeout')).toEqual(
      cls('checks.unhealthyNodeConditions[0].timeoutSeconds', 'seconds converted to a duration'),
    );
    expect(sourceOf(mhc, 'spec.unhealthyMachineConditions[0].type')).toEqual(
      cls('checks.unhealthyMachineConditions[0].type'),
    );
    expect(sourceOf(mhc, 'spec.maxUnhealthy')).toEqual(cls('remediation.triggerIf.unhealthyLessThanOrEqualTo'));
    expect(sourceOf(mhc, 'spec.unhealthyRange')).toEqual(cls('remediation.triggerIf.unhealthyInRange'));
    expect(sourceOf(mhc, 'spec.remediationTemplate.kind')).toEqual(cls('remediation.templateRef.kind'));
    expect(sourceOf(mhc, 'spec.remediationTemplate.namespace')).toEqual({
      kind: 'fixed',
      detail: 'namespace of the Cluster',
    });
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
      detail:
        'name of the InfrastructureCluster, from the default naming template "{{ .cluster.name }}-{{ .random }}" ({{ .random }} is a stable hash)',
    });
    expect(
      sourceOf(
        objectOf(explained(inputs({ infraNaming: 'infra-{{ .cluster.name }}' })), 'InfrastructureCluster'),
        'metadata.name',
      ),
    ).toEqual({
      kind: 'builtin',
      detail:
        'name of the InfrastructureCluster, from the naming template "infra-{{ .cluster.name }}" (ClusterClass spec.infrastructure.naming.template; {{ .random }} is a stable hash)',
    });
  });

  it('the other fields of the InfrastructureCluster and the machine template clone stay those of their templates', () => {
    const objects = explained(inputs());
    const template = (kind: string, name: string, path: string) => ({
      kind: 'template',
      template: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind, name },
      path,
    });
    expect(sourceOf(objectOf(objects, 'InfrastructureCluster'), 'spec.backend.docker')).toEqual(
      template('DevClusterTemplate', 'infra', 'spec.template.spec.backend.docker'),
    );
    expect(sourceOf(objectOf(objects, 'ControlPlaneMachineTemplate'), 'spec.template.spec.backend.docker')).toEqual(
      template('DevMachineTemplate', 'machine', 'spec.template.spec.backend.docker'),
    );
  });

  it('the control plane machine template clone: names.ControlPlaneInfrastructureMachineTemplateNamePrefix ("<cluster>-") plus a content hash', () => {
    expect(sourceOf(objectOf(explained(inputs()), 'ControlPlaneMachineTemplate'), 'metadata.name')).toEqual({
      kind: 'builtin',
      detail:
        'name of the control plane machine template clone: "c1-" + a hash of its patched content (changes, i.e. rotates, when the template content changes)',
    });
  });

  it('the control plane MachineHealthCheck: named as the control plane (computeMachineHealthCheck), selecting its Machines', () => {
    const mhc = objectOf(explained(inputs({ classHealthCheck: CHECKS })), 'ControlPlaneHealthCheck');
    expect(sourceOf(mhc, 'metadata.name')).toEqual({
      kind: 'builtin',
      detail: 'same name as the control plane it checks',
    });
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
    const upgrading = explained(
      inputs({
        pools: ['mp-0'],
        observed: [liveControlPlane('v1.31.0', 'v1.30.0'), liveMachinePool('mp-0', 'v1.30.0')],
      }),
    );
    const pool = sourceOf(objectOf(upgrading, 'MachinePool mp-0'), 'spec.template.spec.version') as {
      kind: string;
      detail: string;
    };
    expect(pool.kind).toBe('builtin');
    expect(pool.detail).toMatch(
      /^Kubernetes version v1\.30\.0 chosen by upgrade sequencing on the way to spec\.topology\.version v1\.31\.0: MachinePool c1-mp-0-xyz12 \(topology mp-0\) stays at v1\.30\.0 \(target v1\.31\.0\): /,
    );
  });

  it('control plane fields: from the topology when it sets them, else from the class; timeouts in seconds noted when rendered as durations', () => {
    const classControlPlane = {
      readinessGates: [{ conditionType: 'A' }],
      taints: [{ key: 'k', effect: 'NoSchedule', propagation: 'Always' }],
      deletion: { nodeDrainTimeoutSeconds: 10, nodeVolumeDetachTimeoutSeconds: 20 },
    };
    const topologyControlPlane = {
      replicas: 3,
      rollout: { after: '2030-01-01T00:00:00Z' },
      readinessGates: [{ conditionType: 'B' }],
      deletion: { nodeDrainTimeoutSeconds: 5 },
    };
    const topology = (path: string, note?: string) => ({
      kind: 'topology',
      path: `spec.topology.controlPlane.${path}`,
      ...(note ? { note } : {}),
    });
    const cls = (path: string, note?: string) => ({
      kind: 'clusterClass',
      path: `spec.controlPlane.${path}`,
      ...(note ? { note } : {}),
    });
    const v2 = objectOf(explained(inputs({ classControlPlane, topologyControlPlane })), 'ControlPlane');
    expect(sourceOf(v2, 'spec.replicas')).toEqual(topology('replicas'));
    expect(sourceOf(v2, 'spec.rollout.after')).toEqual(topology('rollout.after'));
    expect(sourceOf(v2, 'spec.machineTemplate.spec.readinessGates[0].conditionType')).toEqual(
      topology('readinessGates[0].conditionType'),
    );
    expect(sourceOf(v2, 'spec.machineTemplate.spec.taints[0].key')).toEqual(cls('taints[0].key'));
    expect(sourceOf(v2, 'spec.machineTemplate.spec.deletion.nodeDrainTimeoutSeconds')).toEqual(
      topology('deletion.nodeDrainTimeoutSeconds'),
    );
    expect(sourceOf(v2, 'spec.machineTemplate.spec.deletion.nodeVolumeDetachTimeoutSeconds')).toEqual(
      cls('deletion.nodeVolumeDetachTimeoutSeconds'),
    );
    expect(sourceOf(v2, 'spec.version')).toEqual({ kind: 'topology', path: 'spec.topology.version' });

    const v1 = objectOf(
      explained(inputs({ classControlPlane, topologyControlPlane, controlPlaneVersion: 'v1beta1' })),
      'ControlPlane',
    );
    expect(sourceOf(v1, 'spec.machineTemplate.nodeDrainTimeout')).toEqual(
      topology('deletion.nodeDrainTimeoutSeconds', 'seconds converted to a duration'),
    );
    expect(sourceOf(v1, 'spec.machineTemplate.nodeVolumeDetachTimeout')).toEqual(
      cls('deletion.nodeVolumeDetachTimeoutSeconds', 'seconds converted to a duration'),
    );
    expect(sourceOf(v1, 'spec.machineTemplate.readinessGates[0].conditionType')).toEqual(
      topology('readinessGates[0].conditionType'),
    );
  });

  it('the control plane name and its machine template reference (computeControlPlane, ControlPlaneNameGenerator)', () => {
    const cp = objectOf(explained(inputs()), 'ControlPlane');
    expect(sourceOf(cp, 'metadata.name')).toEqual({
      kind: 'builtin',
      detail:
        'name of the ControlPlane, from the default naming template "{{ .cluster.name }}-{{ .random }}" ({{ .random }} is a stable hash)',
    });
    const ref = sourceOf(cp, 'spec.machineTemplate.spec.infrastructureRef.name') as { kind: string; detail: string };
    expect(ref.kind).toBe('builtin');
    expect(ref.detail).toMatch(
      /^reference to the control plane machine template clone "c1-[a-z0-9]+" \(DevMachineTemplate from ClusterClass spec\.controlPlane\.machineInfrastructure\.templateRef\)$/,
    );
    const named = objectOf(
      explained(inputs({ classControlPlane: { naming: { template: 'cp-{{ .cluster.name }}' } } })),
      'ControlPlane',
    );
    expect(sourceOf(named, 'metadata.name')).toEqual({
      kind: 'builtin',
      detail:
        'name of the ControlPlane, from the naming template "cp-{{ .cluster.name }}" (ClusterClass spec.controlPlane.naming.template; {{ .random }} is a stable hash)',
    });
  });

  it('class readiness gates and metadata, topology taints and annotations are attributed to where they were written', () => {
    const cp = objectOf(
      explained(
        inputs({
          classControlPlane: {
            readinessGates: [{ conditionType: 'A' }],
            metadata: { labels: { cl: 'l' }, annotations: { ca: 'a' } },
          },
          topologyControlPlane: {
            taints: [{ key: 'k', effect: 'NoSchedule', propagation: 'Always' }],
            metadata: { annotations: { ta: 'x' } },
          },
        }),
      ),
      'ControlPlane',
    );
    expect(sourceOf(cp, 'metadata.labels.cl')).toEqual({
      kind: 'clusterClass',
      path: 'spec.controlPlane.metadata.labels.cl',
    });
    expect(sourceOf(cp, 'spec.machineTemplate.metadata.annotations.ca')).toEqual({
      kind: 'clusterClass',
      path: 'spec.controlPlane.metadata.annotations.ca',
    });
    expect(sourceOf(cp, 'spec.machineTemplate.spec.taints[0].key')).toEqual({
      kind: 'topology',
      path: 'spec.topology.controlPlane.taints[0].key',
    });
    expect(sourceOf(cp, 'spec.machineTemplate.spec.readinessGates[0].conditionType')).toEqual({
      kind: 'clusterClass',
      path: 'spec.controlPlane.readinessGates[0].conditionType',
    });
    expect(sourceOf(cp, 'metadata.annotations.ta')).toEqual({
      kind: 'topology',
      path: 'spec.topology.controlPlane.metadata.annotations.ta',
    });
    expect(sourceOf(cp, 'spec.machineTemplate.metadata.annotations.ta')).toEqual({
      kind: 'topology',
      path: 'spec.topology.controlPlane.metadata.annotations.ta',
    });
  });
});

describe('the control plane machine template metadata (computeControlPlane: util.MergeMap(controlPlaneLabels, template labels); contract Metadata.Set)', () => {
  const machineTemplateMetadata = {
    labels: { tmpl: 'x', 'cluster.x-k8s.io/cluster-name': 'other' },
    annotations: { ta: 'template' },
    extra: 'kept',
  };
  const opts: Options = {
    machineTemplateMetadata,
    topologyControlPlane: { metadata: { labels: { top: 'v' }, annotations: { ta: 'topology' } } },
  };

  it("the control plane labels and annotations win over the template's; fields other than labels and annotations are kept", () => {
    const out = runPipeline(inputs(opts), config());
    expect(out.results.filter((r) => r.severity === 'error')).toEqual([]);
    const cp = out.generated.flatMap((g) => g.objects).find((o) => o.kind === 'KubeadmControlPlane') as any;
    expect(cp.spec.machineTemplate.metadata).toEqual({
      extra: 'kept',
      labels: { 'cluster.x-k8s.io/cluster-name': 'c1', tmpl: 'x', top: 'v', 'topology.cluster.x-k8s.io/owned': '' },
      annotations: { ta: 'topology' },
    });
  });

  it('explain: each label from the layer that set it last', () => {
    const cp = objectOf(explainCluster(inputs(opts), config(), 'c1').objects, 'ControlPlane');
    const CP_TEMPLATE = {
      apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
      kind: 'KubeadmControlPlaneTemplate',
      name: 'cp',
    };
    expect(sourceOf(cp, 'spec.machineTemplate.metadata.labels.tmpl')).toEqual({
      kind: 'template',
      template: CP_TEMPLATE,
      path: 'spec.template.spec.machineTemplate.metadata.labels.tmpl',
    });
    expect(sourceOf(cp, 'spec.machineTemplate.metadata.labels.top')).toEqual({
      kind: 'topology',
      path: 'spec.topology.controlPlane.metadata.labels.top',
    });
    expect(sourceOf(cp, "spec.machineTemplate.metadata.labels['cluster.x-k8s.io/cluster-name']")).toEqual({
      kind: 'fixed',
      detail: 'label with the Cluster name, set on every generated object',
    });
    expect(sourceOf(cp, 'spec.machineTemplate.metadata.annotations.ta')).toEqual({
      kind: 'topology',
      path: 'spec.topology.controlPlane.metadata.annotations.ta',
    });
  });
});
