import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/model.js';
import type { Result } from '../../src/core/result.js';
import { DEFAULT_CONFIG } from '../../src/krm/config.js';
import { readYamlStream } from '../../src/krm/read.js';
import { runPipeline } from '../../src/pipeline/run.js';
import { compareClusterClasses, compareClusters, rolloutReport } from '../../src/webhooks/compatibility.js';
import { CLASS_REF, clusterRef, makeClass, makeCluster, mdClasses, topology, workers } from './helpers.js';
import { UNSAFE_VERSION_CHECK_ANNOTATION } from '../../src/core/labels.js';

const brief = (rs: Result[]) =>
  rs.map((r) => ({
    severity: r.severity,
    path: r.field?.path,
    message: r.message,
    clusters: r.tags?.clusters,
    rule: r.tags?.rule,
  }));

describe('compareClusterClasses', () => {
  const c1 = makeCluster('c1');
  const c2 = makeCluster('c2', (spec) => {
    topology(spec).version = 'v1.31.0';
    (workers(topology(spec)).machineDeployments as JsonObject[]).push({ class: 'default-worker', name: 'md-1' });
    topology(spec).variables = [
      { name: 'imageRepository', value: 'a-very-long-repository-name-that-is-fine-for-64-but-not-for-ten' },
    ];
  });

  it('accepts an unchanged class and free changes (names, versions, bootstrap kinds, metadata)', () => {
    const next = makeClass((spec) => {
      ((spec.infrastructure as JsonObject).templateRef as JsonObject).name = 'other';
      ((spec.infrastructure as JsonObject).templateRef as JsonObject).apiVersion =
        'infrastructure.cluster.x-k8s.io/v1beta3';
      (mdClasses(spec)[0]!.bootstrap as JsonObject).templateRef = {
        apiVersion: 'bootstrap.example.com/v1',
        kind: 'OtherConfigTemplate',
        name: 'x',
      };
    });
    expect(compareClusterClasses(makeClass(), makeClass(), CLASS_REF, [c1, c2])).toEqual([]);
    expect(compareClusterClasses(makeClass(), next, CLASS_REF, [c1, c2])).toEqual([]);
  });

  it('forbids group/kind changes of infrastructure, control plane and worker infrastructure templates', () => {
    const next = makeClass((spec) => {
      ((spec.infrastructure as JsonObject).templateRef as JsonObject).apiVersion = 'infrastructure.example.com/v1beta2';
      ((spec.controlPlane as JsonObject).templateRef as JsonObject).kind = 'OtherControlPlaneTemplate';
      (mdClasses(spec)[0]!.infrastructure as JsonObject).templateRef = {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
        kind: 'AWSMachineTemplate',
        name: 'x',
      };
    });
    expect(brief(compareClusterClasses(makeClass(), next, CLASS_REF, [c1, c2]))).toEqual([
      {
        severity: 'error',
        rule: 'class-compatibility',
        path: 'spec.infrastructure.templateRef.apiVersion',
        clusters: 'c1,c2',
        message:
          'Forbidden: group of apiVersion cannot be changed from "infrastructure.cluster.x-k8s.io" to "infrastructure.example.com" to prevent incompatible changes in the Clusters; ' +
          'keep the previous API group and kind (switching provider or template kind needs a new ClusterClass and new Clusters); used by Cluster(s) "c1", "c2"',
      },
      {
        severity: 'error',
        rule: 'class-compatibility',
        path: 'spec.controlPlane.templateRef.kind',
        clusters: 'c1,c2',
        message: expect.stringMatching(
          /^Forbidden: kind cannot be changed from "KubeadmControlPlaneTemplate" to "OtherControlPlaneTemplate" to prevent incompatible changes in the Clusters; /,
        ),
      },
      {
        severity: 'error',
        rule: 'class-compatibility',
        path: 'spec.workers.machineDeployments[0].infrastructure.templateRef.kind',
        clusters: 'c1,c2',
        message: expect.stringContaining('kind cannot be changed from "DevMachineTemplate" to "AWSMachineTemplate"'),
      },
    ]);
  });

  it('forbids adding or removing controlPlane.machineInfrastructure', () => {
    const without = makeClass((spec) => delete (spec.controlPlane as JsonObject).machineInfrastructure);
    expect(
      brief(compareClusterClasses(makeClass(), without, CLASS_REF, [])).map((r) => [
        r.path,
        r.message.split(';')[0],
        r.clusters,
      ]),
    ).toEqual([
      [
        'spec.controlPlane.machineInfrastructure.templateRef.apiVersion',
        'Forbidden: group of apiVersion cannot be changed from "infrastructure.cluster.x-k8s.io" to "" to prevent incompatible changes in the Clusters',
        undefined,
      ],
      [
        'spec.controlPlane.machineInfrastructure.templateRef.kind',
        'Forbidden: kind cannot be changed from "DevMachineTemplate" to "" to prevent incompatible changes in the Clusters',
        undefined,
      ],
    ]);
    expect(compareClusterClasses(without, makeClass(), CLASS_REF, []).map((r) => r.message.split(';')[0])).toEqual([
      'Forbidden: group of apiVersion cannot be changed from "" to "infrastructure.cluster.x-k8s.io" to prevent incompatible changes in the Clusters',
      'Forbidden: kind cannot be changed from "" to "DevMachineTemplate" to prevent incompatible changes in the Clusters',
    ]);
  });

  it('forbids removing worker classes still used, naming each Cluster', () => {
    const next = makeClass((spec) => {
      mdClasses(spec)[0]!.class = 'renamed-worker';
      workers(spec).machinePools = [];
    });
    const pools = makeCluster('c3', (spec) => {
      workers(topology(spec)).machinePools = [{ class: 'default-pool', name: 'mp-0' }];
    });
    expect(brief(compareClusterClasses(makeClass(), next, CLASS_REF, [c1, c2, pools]))).toEqual([
      {
        severity: 'error',
        rule: 'class-removed',
        path: 'spec.workers.machineDeployments',
        clusters: 'c1',
        message:
          'Forbidden: MachineDeploymentClass "default-worker" cannot be deleted because it is used by Cluster "c1"; keep the class until no Cluster uses it (move Cluster "c1"\'s machineDeployments of class "default-worker" to another class first)',
      },
      expect.objectContaining({
        path: 'spec.workers.machineDeployments',
        clusters: 'c2',
        message: expect.stringContaining(
          'MachineDeploymentClass "default-worker" cannot be deleted because it is used by Cluster "c2"',
        ),
      }),
      expect.objectContaining({ path: 'spec.workers.machineDeployments', clusters: 'c3' }),
      expect.objectContaining({
        path: 'spec.workers.machinePools',
        clusters: 'c3',
        message: expect.stringContaining(
          'MachinePoolClass "default-pool" cannot be deleted because it is used by Cluster "c3"',
        ),
      }),
    ]);
  });

  it('forbids removing a variable still set by a Cluster (also as an override)', () => {
    const next = makeClass((spec) => {
      spec.variables = (spec.variables as JsonObject[]).filter(
        (v) => v.name !== 'replicasHint' && v.name !== 'imageRepository',
      );
    });
    const c4 = makeCluster('c4', (spec) => {
      (workers(topology(spec)).machineDeployments as JsonObject[])[0]!.variables = {
        overrides: [{ name: 'replicasHint', value: 2 }],
      };
    });
    expect(brief(compareClusterClasses(makeClass(), next, CLASS_REF, [c1, c2, c4]))).toEqual([
      {
        severity: 'error',
        rule: 'variable-removed',
        path: 'spec.variables',
        clusters: 'c2',
        message:
          'Forbidden: variable imageRepository can not be removed. It is used in Clusters [c2]; keep the variable until those Clusters stop setting "imageRepository"',
      },
      expect.objectContaining({
        rule: 'variable-removed',
        clusters: 'c4',
        message: expect.stringContaining('variable replicasHint can not be removed. It is used in Clusters [c4]'),
      }),
    ]);
  });

  it('forbids schema changes that invalidate values in use, and newly required variables without default', () => {
    const next = makeClass((spec) => {
      const vars = spec.variables as JsonObject[];
      vars[0] = {
        name: 'imageRepository',
        required: false,
        schema: { openAPIV3Schema: { type: 'string', maxLength: 10 } },
      };
      vars.push({ name: 'region', required: true, schema: { openAPIV3Schema: { type: 'string' } } });
      vars.push({ name: 'zone', required: true, schema: { openAPIV3Schema: { type: 'string', default: 'a' } } });
    });
    expect(brief(compareClusterClasses(makeClass(), next, CLASS_REF, [c1, c2]))).toEqual([
      {
        severity: 'error',
        rule: 'variable-schema',
        path: 'spec.variables[0]',
        clusters: 'c2',
        message:
          'Forbidden: variable schema change for imageRepository is invalid. It failed validation in Clusters [c2]; make the schema accept the values in use or update those Clusters first ' +
          '(c2: spec.topology.variables[imageRepository].value: Too long: may not be more than 10 bytes)',
      },
      {
        severity: 'error',
        rule: 'variable-required',
        path: 'spec.variables[2]',
        clusters: 'c1,c2',
        message:
          'Forbidden: variable region is required but is not defined in Clusters [c1 c2]; give the variable a default, or set it in those Clusters first',
      },
    ]);
  });

  it('forbids kubernetesVersions that drop a version in use', () => {
    const next = makeClass((spec) => (spec.kubernetesVersions = ['v1.32.0', 'v1.33.0']));
    expect(brief(compareClusterClasses(makeClass(), next, CLASS_REF, [c1, c2]))).toEqual([
      {
        severity: 'error',
        rule: 'kubernetes-versions',
        path: 'spec.kubernetesVersions',
        clusters: 'c2',
        message:
          'Forbidden: Kubernetes Version v1.31.0 is used by Cluster "c2" but not set in ClusterClass; add v1.31.0 to spec.kubernetesVersions, or move Cluster "c2" to a listed version first',
      },
    ]);
  });

  it('forbids removing a health check a Cluster enables without its own definition', () => {
    const withHc = (spec: JsonObject) => {
      mdClasses(spec)[0]!.healthCheck = { checks: { nodeStartupTimeoutSeconds: 600 } };
    };
    const relies = makeCluster('c5', (spec) => {
      (workers(topology(spec)).machineDeployments as JsonObject[])[0]!.healthCheck = { enabled: true };
    });
    expect(brief(compareClusterClasses(makeClass(withHc), makeClass(), CLASS_REF, [c1, relies]))).toEqual([
      {
        severity: 'error',
        rule: 'health-check-removed',
        path: 'spec.workers.machineDeployments[default-worker].healthCheck',
        clusters: 'c5',
        message:
          'Forbidden: healthCheck cannot be deleted because it is used by Cluster(s) "c5"; keep it, or give those Clusters their own healthCheck definition first',
      },
    ]);
  });

  it('forbids class autoscaler annotations when a Cluster sets replicas', () => {
    const next = makeClass((spec) => {
      mdClasses(spec)[0]!.metadata = {
        annotations: { 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size': '1' },
      };
    });
    const fixed = makeCluster('c6', (spec) => {
      (workers(topology(spec)).machineDeployments as JsonObject[])[0]!.replicas = 2;
    });
    expect(brief(compareClusterClasses(makeClass(), next, CLASS_REF, [c1, fixed]))).toEqual([
      {
        severity: 'error',
        rule: 'autoscaler',
        path: 'spec.topology.workers.machineDeployments[md-0].replicas',
        clusters: 'c6',
        message:
          'Invalid value: 2: cannot be set for cluster "c6" in namespace "default" if the source class "default-worker" of this MachineDeploymentTopology has autoscaler annotations; remove the autoscaler annotations from class "default-worker" or unset replicas in Cluster "c6"',
      },
    ]);
  });
});

describe('compareClusters', () => {
  const ref = clusterRef('c1');
  const at = (version: string, annotations?: Record<string, string>) =>
    makeCluster('c1', (spec, meta) => {
      topology(spec).version = version;
      if (annotations) meta.annotations = annotations;
    });
  const cc = makeClass();

  it('accepts same version, patch and one-minor upgrades', () => {
    expect(compareClusters(at('v1.32.0'), at('v1.32.0'), ref, { old: cc, new: cc })).toEqual([]);
    expect(compareClusters(at('v1.32.0'), at('v1.33.4'), ref, { old: cc, new: cc })).toEqual([]);
  });

  it('forbids downgrades (pre-releases ignored)', () => {
    expect(brief(compareClusters(at('v1.33.0'), at('v1.32.5'), ref, { old: cc, new: cc }))).toEqual([
      {
        severity: 'error',
        rule: 'version-update',
        path: 'spec.topology.version',
        clusters: undefined,
        message:
          'Invalid value: "v1.32.5": version cannot be decreased from "1.33.0" to "1.32.5"; Kubernetes cannot be downgraded: restore version v1.33.0 (or later)',
      },
    ]);
    expect(compareClusters(at('v1.33.0'), at('v1.33.0-rc.1'), ref, { old: cc, new: cc })).toEqual([]);
  });

  it('forbids more than one minor up when the class has no kubernetesVersions', () => {
    expect(
      brief(compareClusters(at('v1.32.0'), at('v1.34.0'), ref, { old: cc, new: cc })).map((r) => r.message),
    ).toEqual([
      'Invalid value: "v1.34.0": version cannot be increased from "1.32.0" to "1.34.0"; upgrade one minor version at a time (to v1.33.x first), or list the versions in the ClusterClass spec.kubernetesVersions',
    ]);
    const listed = makeClass((spec) => (spec.kubernetesVersions = ['v1.32.0', 'v1.33.0', 'v1.34.0']));
    expect(compareClusters(at('v1.32.0'), at('v1.34.0'), ref, { old: listed, new: listed })).toEqual([]);
    const plans = makeClass((spec) => (spec.upgrade = { external: { generateUpgradePlanExtension: 'plans' } }));
    expect(compareClusters(at('v1.32.0'), at('v1.34.0'), ref, { old: plans, new: plans })).toEqual([]);
  });

  it('skips the version checks with a warning when the unsafe annotation is set', () => {
    const out = compareClusters(at('v1.33.0'), at('v1.30.0', { [UNSAFE_VERSION_CHECK_ANNOTATION]: '' }), ref, {
      old: cc,
      new: cc,
    });
    expect(brief(out)).toEqual([
      {
        severity: 'warning',
        rule: 'version-update',
        path: 'spec.topology.version',
        clusters: undefined,
        message:
          'Skipping version validation for Cluster because annotation "unsafe.topology.cluster.x-k8s.io/disable-update-version-check" is set.',
      },
    ]);
  });

  it('requires a class change to a compatible class', () => {
    const moved = makeCluster('c1', (spec) => ((topology(spec).classRef as JsonObject).name = 'other'));
    const other = makeClass(
      (spec) => (((spec.infrastructure as JsonObject).templateRef as JsonObject).kind = 'AWSClusterTemplate'),
      { ...CLASS_REF, name: 'other' },
    );
    expect(brief(compareClusters(makeCluster('c1'), moved, ref, { old: cc, new: other }))).toEqual([
      {
        severity: 'error',
        rule: 'class-change',
        path: 'spec.topology.classRef',
        clusters: undefined,
        message:
          'Forbidden: kind cannot be changed from "DevClusterTemplate" to "AWSClusterTemplate" to prevent incompatible changes in the Clusters; ' +
          'spec.infrastructure.templateRef.kind differs between the previous ClusterClass "default/quick-start" and ClusterClass "default/other": ' +
          'keep class "default/quick-start", or move to a class whose templates have the same API groups and kinds',
      },
    ]);
    expect(
      compareClusters(makeCluster('c1'), moved, ref, {
        old: cc,
        new: makeClass(undefined, { ...CLASS_REF, name: 'other' }),
      }),
    ).toEqual([]);
    expect(brief(compareClusters(makeCluster('c1'), moved, ref, { new: other }))).toEqual([
      {
        severity: 'warning',
        rule: 'class-change',
        path: 'spec.topology.classRef',
        clusters: undefined,
        message:
          'valid ClusterClass with name "default/quick-start" could not be retrieved, change from class "default/quick-start" to class "default/other" cannot be validated; ' +
          'add the previous ClusterClass to the previous state so the change can be checked',
      },
    ]);
  });
});

// ------------------------------------------------------------------ rollouts

const label = { 'cluster.x-k8s.io/cluster-name': 'c1' };
const meta = (name: string) => ({ name, namespace: 'default', labels: label });
const machineTemplate = (name: string, image: string): JsonObject => ({
  apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
  kind: 'DevMachineTemplate',
  metadata: meta(name),
  spec: { template: { spec: { customImage: image } } },
});
const kcp = (infra: string, version: string, files: string[] = []): JsonObject => ({
  apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
  kind: 'KubeadmControlPlane',
  metadata: meta('c1-abcde'),
  spec: {
    version,
    machineTemplate: {
      spec: {
        infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'DevMachineTemplate', name: infra },
      },
    },
    kubeadmConfigSpec: { files: files.map((f) => ({ path: f })) },
  },
});
const md = (infra: string, boot: string, version: string, replicas = 1): JsonObject => ({
  apiVersion: 'cluster.x-k8s.io/v1beta2',
  kind: 'MachineDeployment',
  metadata: meta('c1-md-0-xyz12'),
  spec: {
    replicas,
    template: {
      spec: {
        version,
        bootstrap: { configRef: { apiGroup: 'bootstrap.cluster.x-k8s.io', kind: 'KubeadmConfigTemplate', name: boot } },
        infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'DevMachineTemplate', name: infra },
      },
    },
  },
});
const bootstrap = (name: string, cmd: string): JsonObject => ({
  apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2',
  kind: 'KubeadmConfigTemplate',
  metadata: meta(name),
  spec: { template: { spec: { preKubeadmCommands: [cmd] } } },
});

describe('rolloutReport', () => {
  const previous = [
    machineTemplate('c1-aaaaa', 'img:1'),
    kcp('c1-aaaaa', 'v1.32.0'),
    machineTemplate('c1-md-0-bbbbb', 'img:1'),
    bootstrap('c1-md-0-ccccc', 'a'),
    md('c1-md-0-bbbbb', 'c1-md-0-ccccc', 'v1.32.0'),
  ];

  it('reports nothing when only non-rolling fields change', () => {
    expect(rolloutReport(previous, previous)).toEqual([]);
    const scaled = previous.map((o) =>
      o.kind === 'MachineDeployment' ? md('c1-md-0-bbbbb', 'c1-md-0-ccccc', 'v1.32.0', 5) : o,
    );
    expect(rolloutReport(previous, scaled)).toEqual([]);
  });

  it('reports template rotations with the changed clone fields, and version changes', () => {
    const current = [
      machineTemplate('c1-ddddd', 'img:2'),
      kcp('c1-ddddd', 'v1.33.0', ['/etc/x']),
      machineTemplate('c1-md-0-bbbbb', 'img:1'),
      bootstrap('c1-md-0-eeeee', 'b'),
      md('c1-md-0-bbbbb', 'c1-md-0-eeeee', 'v1.32.0'),
    ];
    expect(rolloutReport(previous, current)).toEqual([
      {
        cluster: 'c1',
        namespace: 'default',
        kind: 'KubeadmControlPlane',
        name: 'c1-abcde',
        reasons: [
          {
            cause: 'infrastructureTemplate',
            template: 'machine infrastructure template DevMachineTemplate "c1-aaaaa" → "c1-ddddd"',
            fields: ['spec.template.spec.customImage'],
            from: 'c1-aaaaa',
            to: 'c1-ddddd',
          },
          {
            cause: 'version',
            template: 'version v1.32.0 → v1.33.0',
            fields: ['spec.version'],
            from: 'v1.32.0',
            to: 'v1.33.0',
          },
          {
            cause: 'kubeadmConfigSpec',
            template: 'KubeadmControlPlane spec.kubeadmConfigSpec changed',
            fields: ['spec.kubeadmConfigSpec.files[0]'],
          },
        ],
      },
      {
        cluster: 'c1',
        namespace: 'default',
        kind: 'MachineDeployment',
        name: 'c1-md-0-xyz12',
        reasons: [
          {
            cause: 'bootstrapTemplate',
            template: 'bootstrap template KubeadmConfigTemplate "c1-md-0-ccccc" → "c1-md-0-eeeee"',
            fields: ['spec.template.spec.preKubeadmCommands[0]'],
            from: 'c1-md-0-ccccc',
            to: 'c1-md-0-eeeee',
          },
        ],
      },
    ]);
  });

  it('reports MachineDeployment version changes and ignores new or removed objects', () => {
    const current = [
      ...previous.filter((o) => o.kind !== 'MachineDeployment'),
      md('c1-md-0-bbbbb', 'c1-md-0-ccccc', 'v1.33.0'),
    ];
    expect(rolloutReport(previous, current).map((r) => [r.kind, r.reasons.map((x) => x.template)])).toEqual([
      ['MachineDeployment', ['version v1.32.0 → v1.33.0']],
    ]);
    expect(rolloutReport([], current)).toEqual([]);
    expect(rolloutReport(previous, [])).toEqual([]);
  });

  it('reports rollouts from two real pipeline renders (examples/basic, v1beta1 contract)', () => {
    const here = dirname(fileURLToPath(import.meta.url));
    const dir = resolve(here, '../../examples/basic');
    const render = (edit: (text: string) => string) => {
      const items = ['clusterclass.yaml', 'cluster-foo.yaml'].flatMap((f) => {
        const read = readYamlStream(edit(readFileSync(resolve(dir, f), 'utf8')), f);
        if (!read.ok) throw new Error(read.message);
        return read.items;
      });
      const out = runPipeline(items, { ...DEFAULT_CONFIG, mode: 'preview' });
      return out.generated.flatMap((g) => g.objects);
    };
    const base = render((t) => t);
    expect(base.length).toBeGreaterThan(0);
    const head = render((t) => t.replace('version: v1.19.1', 'version: v1.20.0'));
    const rollouts = rolloutReport(base, head);
    expect(rollouts.map((r) => [r.cluster, r.kind, r.reasons.map((x) => x.cause)])).toEqual([
      ['foo', 'KubeadmControlPlane', ['version']],
      ['foo', 'MachineDeployment', ['version']],
      ['foo', 'MachineDeployment', ['version']],
      ['foo', 'MachineDeployment', ['version']],
    ]);
  });
});
