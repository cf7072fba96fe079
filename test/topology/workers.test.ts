/**
 * Workers (src/topology/workers.ts) as CAPI computes them: exp/topology/desiredstate/desired_state.go
 * `computeMachineDeployment` and `computeMachinePool` (each field topology over class, metadata
 * util.MergeMap(topology, class) without the upgrade-control annotations, the fixed labels on
 * top, the template clones/objects with the Cluster owner reference), the MachineDeployment
 * health check (`IsMachineDeploymentMachineHealthCheckEnabled`), and for v1beta1 output
 * api/core/v1beta1/conversion.go `Convert_v1beta2_MachineDeploymentSpec_To_v1beta1` and the
 * MachineSpec/MachinePoolSpec conversions (durations, minReadySeconds on the spec). The origins are
 * those explain reports (README, explain).
 */
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import type { JsonObject } from '../../src/core/model.js';
import type { ExplainedObject } from '../../src/provenance/types.js';
import { explainCluster } from '../../src/cli/explain-cluster.js';
import { runPipeline } from '../../src/pipeline/run.js';
import { config, itemsOf, objectOf, sourceOf } from '../explain/helpers.js';
import { TEMPLATES } from './templates.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
const BOOT = { apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2', kind: 'KubeadmConfigTemplate', name: 'boot' };
const MACHINE = { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DevMachineTemplate', name: 'machine' };
const POOL = { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'DevMachinePoolTemplate', name: 'pool' };

interface Options {
  /** Fields of the class's machineDeployments[0] / machinePools[0]. */
  mdClass?: object;
  poolClass?: object;
  /** The topology's machineDeployments / machinePools (class and name added). */
  mds?: object[];
  pools?: object[];
  uid?: string;
}

function inputs(opts: Options) {
  const cc = {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'ClusterClass',
    metadata: { name: 'cc', namespace: 'ns' },
    spec: {
      controlPlane: {
        templateRef: {
          apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
          kind: 'KubeadmControlPlaneTemplate',
          name: 'cp',
        },
      },
      workers: {
        machineDeployments: [
          { class: 'md', bootstrap: { templateRef: BOOT }, infrastructure: { templateRef: MACHINE }, ...opts.mdClass },
        ],
        machinePools: [
          { class: 'pool', bootstrap: { templateRef: BOOT }, infrastructure: { templateRef: POOL }, ...opts.poolClass },
        ],
      },
    },
  };
  const cluster = {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Cluster',
    metadata: { name: 'c1', namespace: 'ns', ...(opts.uid ? { uid: opts.uid } : {}) },
    spec: {
      topology: {
        classRef: { name: 'cc' },
        version: 'v1.31.0',
        workers: {
          machineDeployments: (opts.mds ?? []).map((md, i) => ({ class: 'md', name: `md-${i}`, ...md })),
          machinePools: (opts.pools ?? []).map((mp, i) => ({ class: 'pool', name: `mp-${i}`, ...mp })),
        },
      },
    },
  };
  return itemsOf([YAML.stringify(cc), TEMPLATES, YAML.stringify(cluster)].join('---\n'));
}

/** The annotations the KRM output adds (file path and index, the Cluster the object belongs to) are not the desired state's. */
const KRM_ANNOTATION = /^((internal\.)?config\.kubernetes\.io|render-clusterclass\.dev)\//;
const withoutKrm = (o: JsonObject): JsonObject => {
  const meta = o.metadata as JsonObject;
  const annotations = Object.fromEntries(
    Object.entries((meta.annotations as JsonObject | undefined) ?? {}).filter(([k]) => !KRM_ANNOTATION.test(k)),
  );
  const { annotations: _, ...rest } = meta;
  return { ...o, metadata: Object.keys(annotations).length > 0 ? { ...rest, annotations } : rest };
};
const render = (opts: Options, outputApiVersion: 'auto' | 'v1beta1' = 'auto'): JsonObject[] => {
  const out = runPipeline(inputs(opts), config({ outputApiVersion }));
  expect(out.results.filter((r) => r.severity === 'error')).toEqual([]);
  return out.generated.flatMap((g) => g.objects).map(withoutKrm);
};
const ofKind = (objects: JsonObject[], kind: string): any[] => objects.filter((o) => o.kind === kind);
/** Each field's origin as explain reports it. */
const expectOrigins = (o: ExplainedObject, origins: Record<string, object>) => {
  for (const [path, source] of Object.entries(origins)) expect(sourceOf(o, path), path).toEqual(source);
};
const explained = (opts: Options, outputApiVersion: 'auto' | 'v1beta1' = 'auto') => {
  const r = explainCluster(inputs(opts), config({ outputApiVersion }), 'c1');
  expect(r.results.filter((x) => x.severity === 'error')).toEqual([]);
  return r.objects;
};

const OWNED = { 'cluster.x-k8s.io/cluster-name': 'c1', 'topology.cluster.x-k8s.io/owned': '' };
const MD_LABELS = { ...OWNED, 'topology.cluster.x-k8s.io/deployment-name': 'md-0' };
const POOL_LABELS = { ...OWNED, 'topology.cluster.x-k8s.io/pool-name': 'mp-0' };
const OWNER = [{ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', name: 'c1', uid: 'u-1' }];

const classMetadata = {
  labels: { shared: 'class', cl: 'class' },
  annotations: {
    ca: 'class',
    shared: 'class',
    'topology.cluster.x-k8s.io/hold-upgrade-sequence': '',
    'topology.cluster.x-k8s.io/defer-upgrade': '',
  },
};
const topologyMetadata = {
  labels: { shared: 'topology' },
  annotations: { shared: 'topology', 'topology.cluster.x-k8s.io/defer-upgrade': '' },
};
const strategy = (maxSurge: number) => ({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge } });
const mdClass = {
  metadata: classMetadata,
  failureDomain: 'fd-class',
  deletion: { order: 'Oldest', nodeDrainTimeoutSeconds: 10, nodeVolumeDetachTimeoutSeconds: 20 },
  minReadySeconds: 5,
  readinessGates: [{ conditionType: 'ClassGate' }],
  taints: [{ key: 'class-taint', effect: 'NoSchedule', propagation: 'Always' }],
  rollout: { strategy: strategy(1) },
  healthCheck: { checks: { nodeStartupTimeoutSeconds: 300 }, remediation: { maxInFlight: 2 } },
};
const mdTopology = {
  metadata: topologyMetadata,
  replicas: 3,
  failureDomain: 'fd-topology',
  deletion: { order: 'Newest', nodeDrainTimeoutSeconds: 7, nodeDeletionTimeoutSeconds: 30 },
  minReadySeconds: 9,
  taints: [{ key: 'topology-taint', effect: 'NoExecute', propagation: 'Always' }],
  rollout: { after: '2030-01-01T00:00:00Z', strategy: strategy(2) },
  healthCheck: { remediation: { maxInFlight: '50%' } },
};

describe('computeMachineDeployment: every field topology over class', () => {
  it('v1beta2: the topology values where it sets them, the class values elsewhere, metadata merged and fixed labels on top', () => {
    const [md] = ofKind(render({ mdClass, mds: [mdTopology] }), 'MachineDeployment');
    const annotations = { ca: 'class', shared: 'topology' };
    expect(md.metadata).toEqual({
      name: md.metadata.name,
      namespace: 'ns',
      labels: { cl: 'class', shared: 'topology', ...MD_LABELS },
      annotations,
    });
    expect(md.metadata.name).toMatch(/^c1-md-0-[a-z0-9]{5}$/);
    expect(md.spec).toEqual({
      clusterName: 'c1',
      replicas: 3,
      rollout: { after: '2030-01-01T00:00:00Z', strategy: strategy(2) },
      remediation: { maxInFlight: '50%' },
      deletion: { order: 'Newest' },
      selector: { matchLabels: MD_LABELS },
      template: {
        metadata: { labels: { cl: 'class', shared: 'topology', ...MD_LABELS }, annotations },
        spec: {
          clusterName: 'c1',
          version: 'v1.31.0',
          bootstrap: {
            configRef: {
              apiGroup: 'bootstrap.cluster.x-k8s.io',
              kind: 'KubeadmConfigTemplate',
              name: md.spec.template.spec.bootstrap.configRef.name,
            },
          },
          infrastructureRef: {
            apiGroup: 'infrastructure.cluster.x-k8s.io',
            kind: 'DevMachineTemplate',
            name: md.spec.template.spec.infrastructureRef.name,
          },
          failureDomain: 'fd-topology',
          readinessGates: [{ conditionType: 'ClassGate' }],
          taints: [{ key: 'topology-taint', effect: 'NoExecute', propagation: 'Always' }],
          minReadySeconds: 9,
          deletion: { nodeDrainTimeoutSeconds: 7, nodeVolumeDetachTimeoutSeconds: 20, nodeDeletionTimeoutSeconds: 30 },
        },
      },
    });
  });

  it('without topology values: the class strategy (without after), maxInFlight, deletion order, failure domain and timeouts', () => {
    const [md] = ofKind(render({ mdClass, mds: [{}] }), 'MachineDeployment');
    expect(md.spec.rollout).toEqual({ strategy: strategy(1) });
    expect(md.spec.remediation).toEqual({ maxInFlight: 2 });
    expect(md.spec.deletion).toEqual({ order: 'Oldest' });
    expect(md.spec.replicas).toBeUndefined();
    expect(md.spec.template.spec).toMatchObject({
      failureDomain: 'fd-class',
      minReadySeconds: 5,
      taints: [{ key: 'class-taint', effect: 'NoSchedule', propagation: 'Always' }],
      deletion: { nodeDrainTimeoutSeconds: 10, nodeVolumeDetachTimeoutSeconds: 20 },
    });
    expect(md.metadata.annotations).toEqual({ ca: 'class', shared: 'class' });
  });

  it('a rollout.after alone replaces the class rollout as a whole (MachineDeploymentTopologyRolloutSpec not zero); nothing set when neither sets anything', () => {
    const [after] = ofKind(
      render({ mdClass, mds: [{ rollout: { after: '2030-01-01T00:00:00Z' } }] }),
      'MachineDeployment',
    );
    expect(after.spec.rollout).toEqual({ after: '2030-01-01T00:00:00Z' });
    const [bare] = ofKind(render({ mds: [{}] }), 'MachineDeployment');
    expect(Object.keys(bare.spec)).toEqual(['clusterName', 'selector', 'template']);
    expect(Object.keys(bare.spec.template.spec)).toEqual(['clusterName', 'version', 'bootstrap', 'infrastructureRef']);
    expect(bare.metadata).toEqual({ name: bare.metadata.name, namespace: 'ns', labels: MD_LABELS });
    expect(bare.spec.template.metadata).toEqual({ labels: MD_LABELS });
  });

  it('an empty topology rollout is the zero MachineDeploymentTopologyRolloutSpec (reflect.DeepEqual): the class rollout is used', () => {
    const [md] = ofKind(render({ mdClass, mds: [{ rollout: {} }] }), 'MachineDeployment');
    expect(md.spec.rollout).toEqual({ strategy: strategy(1) });
  });

  it('an empty topology failureDomain or deletion order is unset (!= ""): the class value is used', () => {
    const [md] = ofKind(
      render({ mdClass, mds: [{ failureDomain: '', deletion: { order: '' } }] }),
      'MachineDeployment',
    );
    expect(md.spec.template.spec.failureDomain).toBe('fd-class');
    expect(md.spec.deletion).toEqual({ order: 'Oldest' });
  });

  it('v1beta1: strategy with rollingUpdate.deletePolicy and remediation.maxInFlight, rolloutAfter, minReadySeconds on the spec, timeouts as durations', () => {
    const [md] = ofKind(render({ mdClass, mds: [mdTopology] }, 'v1beta1'), 'MachineDeployment');
    expect(md.apiVersion).toBe('cluster.x-k8s.io/v1beta1');
    const { template, ...spec } = md.spec;
    expect(spec).toEqual({
      clusterName: 'c1',
      replicas: 3,
      rolloutAfter: '2030-01-01T00:00:00Z',
      minReadySeconds: 9,
      strategy: {
        type: 'RollingUpdate',
        rollingUpdate: { maxUnavailable: 0, maxSurge: 2, deletePolicy: 'Newest' },
        remediation: { maxInFlight: '50%' },
      },
      selector: { matchLabels: MD_LABELS },
    });
    expect(template.spec).toEqual({
      clusterName: 'c1',
      version: 'v1.31.0',
      bootstrap: {
        configRef: {
          apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2',
          kind: 'KubeadmConfigTemplate',
          name: template.spec.bootstrap.configRef.name,
          namespace: 'ns',
        },
      },
      infrastructureRef: {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
        kind: 'DevMachineTemplate',
        name: template.spec.infrastructureRef.name,
        namespace: 'ns',
      },
      failureDomain: 'fd-topology',
      readinessGates: [{ conditionType: 'ClassGate' }],
      taints: [{ key: 'topology-taint', effect: 'NoExecute', propagation: 'Always' }],
      nodeDrainTimeout: '7s',
      nodeVolumeDetachTimeout: '20s',
      nodeDeletionTimeout: '30s',
    });
  });

  it('v1beta1: a deletion order or maxInFlight alone makes a strategy of its own; none when nothing sets one', () => {
    const mds = (md: object) => ofKind(render({ mds: [md] }, 'v1beta1'), 'MachineDeployment')[0].spec;
    expect(mds({ deletion: { order: 'Random' } }).strategy).toEqual({ rollingUpdate: { deletePolicy: 'Random' } });
    expect(mds({ healthCheck: { remediation: { maxInFlight: 1 } } }).strategy).toEqual({
      remediation: { maxInFlight: 1 },
    });
    expect(mds({}).strategy).toBeUndefined();
  });

  it('the template clones: labelled with the deployment name, owned by the Cluster when it has a uid', () => {
    const objects = render({ uid: 'u-1', mds: [{}] });
    const [md] = ofKind(objects, 'MachineDeployment');
    const [boot] = ofKind(objects, 'KubeadmConfigTemplate');
    const [infra] = ofKind(objects, 'DevMachineTemplate');
    for (const clone of [boot, infra]) {
      expect(clone.metadata.labels).toEqual(MD_LABELS);
      expect(clone.metadata.ownerReferences).toEqual(OWNER);
      expect(clone.metadata.name).toMatch(/^c1-md-0-[a-z0-9]+$/);
    }
    expect(md.spec.template.spec.bootstrap.configRef.name).toBe(boot.metadata.name);
    expect(md.spec.template.spec.infrastructureRef.name).toBe(infra.metadata.name);
    // The MachineDeployment itself has no owner reference (computeMachineDeployment sets none).
    expect(md.metadata.ownerReferences).toBeUndefined();
  });
});

describe('the MachineDeployment health check (IsMachineDeploymentMachineHealthCheckEnabled, ForMachineDeploymentMHC)', () => {
  const checks = { checks: { nodeStartupTimeoutSeconds: 300 } };
  const mhcs = (opts: Options) => ofKind(render(opts), 'MachineHealthCheck');

  it('one named as the MachineDeployment, selecting its Machines, when the class or the topology defines one', () => {
    const objects = render({ mdClass: { healthCheck: checks }, mds: [{}] });
    const [mhc] = ofKind(objects, 'MachineHealthCheck');
    expect(mhc.metadata.name).toBe(ofKind(objects, 'MachineDeployment')[0].metadata.name);
    expect(mhc.spec.selector).toEqual({
      matchLabels: { 'topology.cluster.x-k8s.io/deployment-name': 'md-0', 'topology.cluster.x-k8s.io/owned': '' },
    });
    expect(mhc.spec.checks).toEqual({ nodeStartupTimeoutSeconds: 300 });
    expect(mhcs({ mds: [{ healthCheck: { checks: { nodeStartupTimeoutSeconds: 120 } } }] })[0].spec.checks).toEqual({
      nodeStartupTimeoutSeconds: 120,
    });
  });

  it('none when neither defines one, or when the topology sets enabled: false', () => {
    expect(mhcs({ mds: [{}] })).toEqual([]);
    expect(mhcs({ mdClass: { healthCheck: checks }, mds: [{ healthCheck: { enabled: false } }] })).toEqual([]);
    expect(mhcs({ mds: [{ healthCheck: { enabled: false, ...checks } }] })).toEqual([]);
  });
});

describe('computeMachinePool', () => {
  const poolClass = {
    metadata: classMetadata,
    failureDomains: ['a', 'b'],
    deletion: { nodeDrainTimeoutSeconds: 10 },
    minReadySeconds: 5,
    taints: [{ key: 'class-taint', effect: 'NoSchedule', propagation: 'Always' }],
  };

  it('v1beta2: the pool, its bootstrap and infrastructure objects (templateToObject, pool-name label, Cluster owner reference)', () => {
    const objects = render({
      uid: 'u-1',
      poolClass,
      pools: [
        {
          metadata: topologyMetadata,
          replicas: 2,
          failureDomains: ['c'],
          deletion: { nodeDeletionTimeoutSeconds: 30 },
        },
      ],
    });
    const [mp] = ofKind(objects, 'MachinePool');
    const [boot] = ofKind(objects, 'KubeadmConfig');
    const [infra] = ofKind(objects, 'DevMachinePool');
    for (const o of [boot, infra]) {
      expect(o.metadata.labels).toEqual(POOL_LABELS);
      expect(o.metadata.ownerReferences).toEqual(OWNER);
    }
    expect(mp.apiVersion).toBe('cluster.x-k8s.io/v1beta2');
    expect(mp.metadata).toEqual({
      name: mp.metadata.name,
      namespace: 'ns',
      labels: { cl: 'class', shared: 'topology', ...POOL_LABELS },
      annotations: { ca: 'class', shared: 'topology' },
    });
    expect(mp.spec).toEqual({
      clusterName: 'c1',
      replicas: 2,
      failureDomains: ['c'],
      template: {
        metadata: {
          labels: { cl: 'class', shared: 'topology', ...POOL_LABELS },
          annotations: { ca: 'class', shared: 'topology' },
        },
        spec: {
          clusterName: 'c1',
          version: 'v1.31.0',
          bootstrap: {
            configRef: { apiGroup: 'bootstrap.cluster.x-k8s.io', kind: 'KubeadmConfig', name: boot.metadata.name },
          },
          infrastructureRef: {
            apiGroup: 'infrastructure.cluster.x-k8s.io',
            kind: 'DevMachinePool',
            name: infra.metadata.name,
          },
          taints: [{ key: 'class-taint', effect: 'NoSchedule', propagation: 'Always' }],
          minReadySeconds: 5,
          deletion: { nodeDrainTimeoutSeconds: 10, nodeDeletionTimeoutSeconds: 30 },
        },
      },
    });
  });

  it('v1beta1: minReadySeconds on the spec, timeouts as durations, references with apiVersion and namespace; the class failure domains without topology ones', () => {
    const [mp] = ofKind(render({ poolClass, pools: [{}] }, 'v1beta1'), 'MachinePool');
    expect(mp.apiVersion).toBe('cluster.x-k8s.io/v1beta1');
    expect(mp.spec.minReadySeconds).toBe(5);
    expect(mp.spec.failureDomains).toEqual(['a', 'b']);
    expect(mp.spec.template.spec.minReadySeconds).toBeUndefined();
    expect(mp.spec.template.spec.nodeDrainTimeout).toBe('10s');
    expect(mp.spec.template.spec.bootstrap.configRef).toEqual({
      apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2',
      kind: 'KubeadmConfig',
      name: mp.spec.template.spec.bootstrap.configRef.name,
      namespace: 'ns',
    });
  });
});

describe('explain: the origins of the workers', () => {
  const topology = (path: string, note?: string) => ({
    kind: 'topology',
    path: `spec.topology.workers.machineDeployments[0].${path}`,
    ...(note ? { note } : {}),
  });
  const cls = (path: string, note?: string) => ({
    kind: 'clusterClass',
    path: `spec.workers.machineDeployments[0].${path}`,
    ...(note ? { note } : {}),
  });
  const fixed = (detail: string) => ({ kind: 'fixed', detail });

  it('a MachineDeployment: each field from the topology or the class that set it, the computed ones described', () => {
    const md = objectOf(explained({ mdClass, mds: [mdTopology] }), 'MachineDeployment md-0');
    expectOrigins(md, {
      apiVersion: fixed('CAPI core API version (v1beta2)'),
      kind: fixed('MachineDeployment'),
      'metadata.name': {
        kind: 'builtin',
        detail:
          'name of the MachineDeployment, from the default naming template "{{ .cluster.name }}-{{ .machineDeployment.topologyName }}-{{ .random }}" ({{ .random }} is a stable hash)',
      },
      'metadata.labels.cl': cls('metadata.labels.cl'),
      'metadata.labels.shared': topology('metadata.labels.shared'),
      "metadata.labels['topology.cluster.x-k8s.io/deployment-name']": fixed(
        'label with the MachineDeployment topology name',
      ),
      'spec.template.metadata.annotations.ca': cls('metadata.annotations.ca'),
      'spec.template.metadata.annotations.shared': topology('metadata.annotations.shared'),
      "spec.selector.matchLabels['topology.cluster.x-k8s.io/owned']": fixed(
        'selector of the MachineDeployment: the three fixed labels',
      ),
      'spec.replicas': topology('replicas'),
      'spec.rollout.after': topology('rollout.after'),
      'spec.rollout.strategy.rollingUpdate.maxSurge': topology('rollout.strategy.rollingUpdate.maxSurge'),
      'spec.remediation.maxInFlight': topology('healthCheck.remediation.maxInFlight'),
      'spec.deletion.order': topology('deletion.order'),
      'spec.template.spec.clusterName': fixed('name of the Cluster'),
      'spec.template.spec.version': { kind: 'topology', path: 'spec.topology.version' },
      'spec.template.spec.failureDomain': topology('failureDomain'),
      'spec.template.spec.readinessGates[0].conditionType': cls('readinessGates[0].conditionType'),
      'spec.template.spec.minReadySeconds': topology('minReadySeconds'),
      'spec.template.spec.deletion.nodeDrainTimeoutSeconds': topology('deletion.nodeDrainTimeoutSeconds'),
      'spec.template.spec.deletion.nodeVolumeDetachTimeoutSeconds': cls('deletion.nodeVolumeDetachTimeoutSeconds'),
    });
    const ref = sourceOf(md, 'spec.template.spec.bootstrap.configRef.name') as { kind: string; detail: string };
    expect(ref.kind).toBe('builtin');
    expect(ref.detail).toMatch(
      /^reference to the generated bootstrap template clone \(KubeadmConfigTemplate\) "c1-md-0-[a-z0-9]+"$/,
    );
    const infra = sourceOf(md, 'spec.template.spec.infrastructureRef.kind') as { detail: string };
    expect(infra.detail).toMatch(
      /^reference to the generated infrastructure machine template clone \(DevMachineTemplate\) "c1-md-0-[a-z0-9]+"$/,
    );
  });

  it('a MachineDeployment from the class: class strategy, maxInFlight and deletion order; a naming template of the class', () => {
    const md = objectOf(
      explained({
        mdClass: { ...mdClass, naming: { template: '{{ .machineDeployment.topologyName }}-x' } },
        mds: [{}],
      }),
      'MachineDeployment md-0',
    );
    expect(sourceOf(md, 'metadata.name')).toEqual({
      kind: 'builtin',
      detail:
        'name of the MachineDeployment, from the naming template "{{ .machineDeployment.topologyName }}-x" (ClusterClass spec.workers.machineDeployments[0].naming.template; {{ .random }} is a stable hash)',
    });
    expectOrigins(md, {
      'spec.rollout.strategy.type': cls('rollout.strategy.type'),
      'spec.remediation.maxInFlight': cls('healthCheck.remediation.maxInFlight'),
      'spec.deletion.order': cls('deletion.order'),
      'spec.template.spec.failureDomain': cls('failureDomain'),
      'spec.template.spec.taints[0].key': cls('taints[0].key'),
    });
  });

  it('v1beta1: the converted fields from the fields they were converted from, timeouts noted as durations', () => {
    const md = objectOf(explained({ mdClass, mds: [mdTopology] }, 'v1beta1'), 'MachineDeployment md-0');
    expectOrigins(md, {
      'spec.rolloutAfter': topology('rollout.after'),
      'spec.minReadySeconds': topology('minReadySeconds'),
      'spec.strategy.type': topology('rollout.strategy.type'),
      'spec.strategy.rollingUpdate.deletePolicy': topology('deletion.order'),
      'spec.strategy.remediation.maxInFlight': topology('healthCheck.remediation.maxInFlight'),
      'spec.template.spec.nodeDrainTimeout': topology(
        'deletion.nodeDrainTimeoutSeconds',
        'seconds converted to a duration',
      ),
      'spec.template.spec.nodeVolumeDetachTimeout': cls(
        'deletion.nodeVolumeDetachTimeoutSeconds',
        'seconds converted to a duration',
      ),
    });
    const orderOnly = objectOf(
      explained({ mds: [{ deletion: { order: 'Random' } }] }, 'v1beta1'),
      'MachineDeployment md-0',
    );
    expect(sourceOf(orderOnly, 'spec.strategy.rollingUpdate.deletePolicy')).toEqual(topology('deletion.order'));
  });

  it('the template clones and pool objects: names from the topology name and a hash', () => {
    const objects = explained({ mds: [{}], pools: [{}] });
    expect(sourceOf(objectOf(objects, 'MachineDeploymentBootstrapTemplate md-0'), 'metadata.name')).toEqual({
      kind: 'builtin',
      detail:
        'name of the bootstrap template clone: "c1-md-0-" + a hash of its patched content (changes, i.e. rotates, when the template content changes)',
    });
    expect(sourceOf(objectOf(objects, 'MachineDeploymentInfrastructureTemplate md-0'), 'metadata.name')).toEqual({
      kind: 'builtin',
      detail:
        'name of the infrastructure machine template clone: "c1-md-0-" + a hash of its patched content (changes, i.e. rotates, when the template content changes)',
    });
    expect(sourceOf(objectOf(objects, 'MachinePoolBootstrap mp-0'), 'metadata.name')).toEqual({
      kind: 'builtin',
      detail: 'name of the MachinePool bootstrap config: "c1-mp-0-" + a stable hash',
    });
    expect(sourceOf(objectOf(objects, 'MachinePoolInfrastructure mp-0'), 'metadata.name')).toEqual({
      kind: 'builtin',
      detail: 'name of the infrastructure machine pool: "c1-mp-0-" + a stable hash',
    });
    // The name is recorded beside the origins templateToTemplate/templateToObject recorded, not over them.
    expect(
      sourceOf(
        objectOf(objects, 'MachineDeploymentBootstrapTemplate md-0'),
        "metadata.labels['cluster.x-k8s.io/cluster-name']",
      ),
    ).toEqual(fixed('label with the Cluster name, set on every generated object'));
    expect(
      sourceOf(objectOf(objects, 'MachineDeploymentInfrastructureTemplate md-0'), 'spec.template.spec.backend.docker'),
    ).toEqual({ kind: 'template', template: MACHINE, path: 'spec.template.spec.backend.docker' });
    for (const role of ['MachinePoolBootstrap mp-0', 'MachinePoolInfrastructure mp-0']) {
      expect(sourceOf(objectOf(objects, role), "metadata.labels['topology.cluster.x-k8s.io/pool-name']")).toEqual(
        fixed('label with the MachinePool topology name'),
      );
    }
  });

  it('a MachinePool: replicas, failure domains, timeouts, references and name', () => {
    const pool = (path: string, note?: string) => ({
      kind: 'topology',
      path: `spec.topology.workers.machinePools[0].${path}`,
      ...(note ? { note } : {}),
    });
    const poolCls = (path: string) => ({ kind: 'clusterClass', path: `spec.workers.machinePools[0].${path}` });
    const mp = objectOf(
      explained(
        {
          poolClass: { failureDomains: ['a'], minReadySeconds: 5 },
          pools: [{ replicas: 2, deletion: { nodeDrainTimeoutSeconds: 4 } }],
        },
        'v1beta1',
      ),
      'MachinePool mp-0',
    );
    expectOrigins(mp, {
      kind: fixed('MachinePool'),
      'metadata.name': {
        kind: 'builtin',
        detail:
          'name of the MachinePool, from the default naming template "{{ .cluster.name }}-{{ .machinePool.topologyName }}-{{ .random }}" ({{ .random }} is a stable hash)',
      },
      'spec.replicas': pool('replicas'),
      'spec.failureDomains[0]': poolCls('failureDomains[0]'),
      'spec.minReadySeconds': poolCls('minReadySeconds'),
      'spec.template.spec.nodeDrainTimeout': pool(
        'deletion.nodeDrainTimeoutSeconds',
        'seconds converted to a duration',
      ),
    });
    expect((sourceOf(mp, 'spec.template.spec.infrastructureRef.name') as { detail: string }).detail).toMatch(
      /^reference to the generated infrastructure machine pool \(DevMachinePool\) "c1-mp-0-[a-z0-9]+"$/,
    );
    expect((sourceOf(mp, 'spec.template.spec.bootstrap.configRef.name') as { detail: string }).detail).toMatch(
      /^reference to the generated bootstrap config \(KubeadmConfig\) "c1-mp-0-[a-z0-9]+"$/,
    );
    const named = objectOf(
      explained({
        poolClass: { failureDomains: ['a'], naming: { template: 'pool-{{ .machinePool.topologyName }}' } },
        pools: [{ failureDomains: ['b'] }],
      }),
      'MachinePool mp-0',
    );
    expect(sourceOf(named, 'metadata.name')).toEqual({
      kind: 'builtin',
      detail:
        'name of the MachinePool, from the naming template "pool-{{ .machinePool.topologyName }}" (ClusterClass spec.workers.machinePools[0].naming.template; {{ .random }} is a stable hash)',
    });
    expect(sourceOf(named, 'spec.failureDomains[0]')).toEqual(pool('failureDomains[0]'));
  });

  it('the MachineDeployment health check: named as the MachineDeployment it checks, selecting its Machines', () => {
    const mhc = objectOf(
      explained({ mdClass: { healthCheck: { checks: { nodeStartupTimeoutSeconds: 300 } } }, mds: [{}] }),
      'MachineDeploymentHealthCheck md-0',
    );
    expect(sourceOf(mhc, 'metadata.name')).toEqual({
      kind: 'builtin',
      detail: 'same name as the MachineDeployment md-0 it checks',
    });
    expect(sourceOf(mhc, 'spec.checks.nodeStartupTimeoutSeconds')).toEqual(
      cls('healthCheck.checks.nodeStartupTimeoutSeconds'),
    );
    const fromTopology = objectOf(
      explained({ mds: [{ healthCheck: { checks: { nodeStartupTimeoutSeconds: 120 } } }] }),
      'MachineDeploymentHealthCheck md-0',
    );
    expect(sourceOf(fromTopology, 'spec.checks.nodeStartupTimeoutSeconds')).toEqual(
      topology('healthCheck.checks.nodeStartupTimeoutSeconds'),
    );
  });
});
