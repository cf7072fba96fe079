/**
 * Acceptance (issue #6): explain on the CAPI docker quick-start fixture attributes every field of
 * the rendered KubeadmControlPlane — template fields, class/topology metadata, topology fields,
 * controller-set fields and the fields set by patches — with the sources derived by hand from
 * the fixture and topology-semantics §2/§6/§7.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/model.js';
import { explainCluster } from '../../src/cli/explain-cluster.js';
import { formatPath, leaves } from '../../src/provenance/paths.js';
import type { ExplainResult, PatchSource } from '../../src/provenance/types.js';
import { toManifest } from '../../src/output/write.js';
import { runPipeline } from '../../src/pipeline/run.js';
import { config, fieldOf, hasShared, objectOf, quickStart, readItems, sourceOf } from './helpers.js';
import type { InputItem } from '../../src/krm/item.js';

const KCPT = {
  apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
  kind: 'KubeadmControlPlaneTemplate',
  name: 'quick-start-control-plane',
};
const tmpl = (path: string) => ({ kind: 'template', template: KCPT, path });

describe.skipIf(!hasShared)('explain: capi-docker-quick-start', () => {
  let items: InputItem[];
  let dev: ExplainResult;
  let custom: ExplainResult;
  beforeAll(() => {
    items = readItems(quickStart);
    dev = explainCluster(items, config(), 'qs-dev-1');
    custom = explainCluster(items, config(), 'default/qs-custom');
  });

  const pipelineObject = (cluster: string, kind: string): JsonObject => {
    const out = runPipeline(items, config());
    const objs = out.generated.find((g) => g.cluster === cluster)!.objects.filter((o) => o.kind === kind);
    expect(objs).toHaveLength(1);
    return toManifest(objs[0]!)!;
  };

  it('renders without errors and reproduces the rendered objects by replay', () => {
    for (const r of [dev, custom]) {
      expect(r.results.filter((x) => x.severity === 'error')).toEqual([]);
      expect(r.results.filter((x) => x.tags?.rule === 'explain-replay')).toEqual([]);
      expect(r.objects.length).toBeGreaterThan(5);
    }
    expect(dev.cluster).toMatchObject({ name: 'qs-dev-1', namespace: 'default' });
    expect(dev.clusterClass).toMatchObject({ name: 'quick-start', namespace: 'default' });
  });

  it('every leaf of the rendered KubeadmControlPlane has a source (none unattributed)', () => {
    for (const [r, key] of [
      [dev, 'default/qs-dev-1'],
      [custom, 'default/qs-custom'],
    ] as const) {
      const kcp = objectOf(r.objects, 'ControlPlane');
      const rendered = pipelineObject(key, 'KubeadmControlPlane');
      expect(kcp.fields.map((f) => f.path).sort()).toEqual(
        leaves(rendered)
          .map((l) => formatPath(l.segs))
          .sort(),
      );
      for (const f of kcp.fields) expect(f.source.kind, f.path).not.toBe('unknown');
    }
  });

  it('no field of any object is unattributed', () => {
    for (const r of [dev, custom]) {
      for (const o of r.objects)
        for (const f of o.fields) expect(f.source.kind, `${o.ref.kind} ${f.path}`).not.toBe('unknown');
    }
  });

  it('qs-dev-1 KubeadmControlPlane: topology, class, template and controller fields', () => {
    const kcp = objectOf(dev.objects, 'ControlPlane');
    expect(fieldOf(kcp, 'spec.version')).toMatchObject({
      value: 'v1.34.2',
      source: { kind: 'topology', path: 'spec.topology.version' },
    });
    expect(fieldOf(kcp, 'spec.replicas')).toMatchObject({
      value: 3,
      source: { kind: 'topology', path: 'spec.topology.controlPlane.replicas' },
    });
    expect(sourceOf(kcp, 'spec.machineTemplate.spec.infrastructureRef.name')).toMatchObject({ kind: 'builtin' });
    expect(sourceOf(kcp, 'spec.machineTemplate.spec.infrastructureRef.kind')).toMatchObject({ kind: 'builtin' });
    // Template value kept (no topology/class drain timeout) vs topology values.
    expect(fieldOf(kcp, 'spec.machineTemplate.spec.deletion.nodeDrainTimeoutSeconds')).toMatchObject({
      value: 1,
      source: tmpl('spec.template.spec.machineTemplate.spec.deletion.nodeDrainTimeoutSeconds'),
    });
    expect(sourceOf(kcp, 'spec.machineTemplate.spec.deletion.nodeVolumeDetachTimeoutSeconds')).toEqual({
      kind: 'topology',
      path: 'spec.topology.controlPlane.deletion.nodeVolumeDetachTimeoutSeconds',
    });
    expect(sourceOf(kcp, 'spec.machineTemplate.spec.deletion.nodeDeletionTimeoutSeconds')).toEqual({
      kind: 'topology',
      path: 'spec.topology.controlPlane.deletion.nodeDeletionTimeoutSeconds',
    });
    // Labels: template spec.template.metadata < class < topology < fixed.
    expect(sourceOf(kcp, "metadata.labels['ClusterClass.controlPlane.label']")).toEqual({
      kind: 'clusterClass',
      path: "spec.controlPlane.metadata.labels['ClusterClass.controlPlane.label']",
    });
    expect(sourceOf(kcp, "metadata.labels['Cluster.topology.controlPlane.label']")).toEqual({
      kind: 'topology',
      path: "spec.topology.controlPlane.metadata.labels['Cluster.topology.controlPlane.label']",
    });
    expect(sourceOf(kcp, "metadata.labels['ControlPlaneTemplate.template.label']")).toEqual(
      tmpl("spec.template.metadata.labels['ControlPlaneTemplate.template.label']"),
    );
    expect(sourceOf(kcp, "metadata.labels['cluster.x-k8s.io/cluster-name']")).toMatchObject({ kind: 'fixed' });
    expect(sourceOf(kcp, "metadata.labels['topology.cluster.x-k8s.io/owned']")).toMatchObject({ kind: 'fixed' });
    expect(sourceOf(kcp, "metadata.annotations['ClusterClass.controlPlane.annotation']")).toEqual({
      kind: 'clusterClass',
      path: "spec.controlPlane.metadata.annotations['ClusterClass.controlPlane.annotation']",
    });
    expect(sourceOf(kcp, "metadata.annotations['cluster.x-k8s.io/cloned-from-name']")).toMatchObject({ kind: 'fixed' });
    // The template's own metadata is not propagated to the object (§2.2 note).
    expect(kcp.fields.some((f) => f.path.includes("'ControlPlaneTemplate.label'"))).toBe(false);
    // Machine template metadata: CP labels over the template's machineTemplate.metadata.
    expect(sourceOf(kcp, "spec.machineTemplate.metadata.labels['ControlPlaneTemplate.machineTemplate.label']")).toEqual(
      tmpl("spec.template.spec.machineTemplate.metadata.labels['ControlPlaneTemplate.machineTemplate.label']"),
    );
    expect(sourceOf(kcp, "spec.machineTemplate.metadata.labels['Cluster.topology.controlPlane.label']")).toMatchObject({
      kind: 'topology',
    });
    expect(
      sourceOf(kcp, "spec.machineTemplate.metadata.annotations['ClusterClass.controlPlane.annotation']"),
    ).toMatchObject({ kind: 'clusterClass' });
    // Template-origin kubeadm fields.
    expect(sourceOf(kcp, 'spec.kubeadmConfigSpec.clusterConfiguration.apiServer.certSANs[1]')).toEqual(
      tmpl('spec.template.spec.kubeadmConfigSpec.clusterConfiguration.apiServer.certSANs[1]'),
    );
    expect(
      sourceOf(kcp, 'spec.kubeadmConfigSpec.initConfiguration.nodeRegistration.kubeletExtraArgs[0].value'),
    ).toEqual(
      tmpl('spec.template.spec.kubeadmConfigSpec.initConfiguration.nodeRegistration.kubeletExtraArgs[0].value'),
    );
    expect(sourceOf(kcp, 'spec.rollout.before.certificatesExpiryDays')).toEqual(
      tmpl('spec.template.spec.rollout.before.certificatesExpiryDays'),
    );
    expect(sourceOf(kcp, 'apiVersion')).toEqual(tmpl('apiVersion'));
    expect(sourceOf(kcp, 'kind')).toMatchObject({ kind: 'fixed' });
    expect(sourceOf(kcp, 'metadata.name')).toMatchObject({ kind: 'builtin' });
  });

  it('qs-dev-1 KubeadmControlPlane: fields set by the podSecurityStandard patch; disabled patches set nothing', () => {
    const kcp = objectOf(dev.objects, 'ControlPlane');
    const files = sourceOf(kcp, 'spec.kubeadmConfigSpec.files[0].content') as PatchSource;
    expect(files).toMatchObject({
      kind: 'patch',
      patch: 'podSecurityStandard',
      patchIndex: 11,
      definitionIndex: 0,
      jsonPatchIndex: 2,
      op: 'add',
      opPath: '/spec/template/spec/kubeadmConfigSpec/files',
    });
    expect(files.valueFrom?.template).toContain('AdmissionConfiguration');
    expect(files.enabledIf).toBeUndefined();
    expect(sourceOf(kcp, 'spec.kubeadmConfigSpec.clusterConfiguration.apiServer.extraArgs[0].name')).toMatchObject({
      kind: 'patch',
      patch: 'podSecurityStandard',
      jsonPatchIndex: 0,
    });
    expect(
      sourceOf(kcp, 'spec.kubeadmConfigSpec.clusterConfiguration.apiServer.extraVolumes[0].readOnly'),
    ).toMatchObject({ kind: 'patch', patch: 'podSecurityStandard', jsonPatchIndex: 1 });
    const patched = new Set(kcp.fields.flatMap((f) => (f.source.kind === 'patch' ? [f.source.patch] : [])));
    expect([...patched]).toEqual(['podSecurityStandard']);
    expect(
      kcp.fields.some((f) => f.path.includes('etcd') || f.path.includes('.dns.') || f.path.includes('taints')),
    ).toBe(false);

    // etcdImageTag: the Cluster sets "" (not a default) → enabledIf false.
    const byName = new Map(kcp.patches!.map((p) => [p.patch, p]));
    expect(byName.get('etcdImageTag')).toMatchObject({
      enabled: false,
      enabledIf: '{{ ne .etcdImageTag "" }}',
      enabledIfVariables: [
        { name: 'etcdImageTag', value: '', defaulted: false, from: 'spec.topology.variables[0].value' },
      ],
    });
    // controlPlaneTaint: not set by the Cluster, class default true → disabled.
    expect(byName.get('controlPlaneTaint')).toMatchObject({
      enabled: false,
      enabledIfVariables: [
        {
          name: 'controlPlaneTaint',
          value: true,
          defaulted: true,
          defaultFrom: 'spec.variables[5].schema.openAPIV3Schema.default',
        },
      ],
    });
    expect(byName.get('kubeadmControlPlaneMaxSurge')).toMatchObject({
      enabled: false,
      enabledIfVariables: [{ name: 'kubeadmControlPlaneMaxSurge', value: '', defaulted: true }],
    });
    expect(byName.get('podSecurityStandard')).toMatchObject({ enabled: true, definitions: [0] });
    // DevMachineTemplate-only patches never match the KubeadmControlPlane.
    expect(byName.has('customImage')).toBe(false);
  });

  it('qs-custom KubeadmControlPlane: fields added by enabled patches, with their variables', () => {
    const kcp = objectOf(custom.objects, 'ControlPlane');
    expect(fieldOf(kcp, 'spec.kubeadmConfigSpec.clusterConfiguration.etcd.local.imageTag')).toMatchObject({
      value: '3.5.21-0',
      source: {
        kind: 'patch',
        patch: 'etcdImageTag',
        patchIndex: 1,
        definitionIndex: 0,
        jsonPatchIndex: 0,
        op: 'add',
        opPath: '/spec/template/spec/kubeadmConfigSpec/clusterConfiguration/etcd',
        enabledIf: '{{ ne .etcdImageTag "" }}',
        enabledIfResult: true,
        variables: [
          { name: 'etcdImageTag', value: '3.5.21-0', defaulted: false, from: 'spec.topology.variables[5].value' },
        ],
      },
    });
    expect(fieldOf(kcp, 'spec.kubeadmConfigSpec.clusterConfiguration.dns.imageTag')).toMatchObject({
      value: 'v1.12.1',
      source: {
        kind: 'patch',
        patch: 'coreDNSImageTag',
        patchIndex: 2,
        variables: [{ name: 'coreDNSImageTag', from: 'spec.topology.variables[6].value' }],
      },
    });
    // controlPlaneTaint=false → taints: [] (an empty list is a leaf) from a literal value.
    const taints = fieldOf(kcp, 'spec.kubeadmConfigSpec.initConfiguration.nodeRegistration.taints');
    expect(taints).toMatchObject({
      value: [],
      source: {
        kind: 'patch',
        patch: 'controlPlaneTaint',
        patchIndex: 7,
        jsonPatchIndex: 0,
        enabledIf: '{{ not .controlPlaneTaint }}',
      },
    });
    expect((taints.source as PatchSource).valueFrom).toBeUndefined();
    expect(sourceOf(kcp, 'spec.kubeadmConfigSpec.joinConfiguration.nodeRegistration.taints')).toMatchObject({
      kind: 'patch',
      patch: 'controlPlaneTaint',
      jsonPatchIndex: 1,
    });
    expect(sourceOf(kcp, 'spec.rollout.strategy.rollingUpdate.maxSurge')).toMatchObject({
      kind: 'patch',
      patch: 'kubeadmControlPlaneMaxSurge',
      patchIndex: 6,
    });
    // Appended list items (`/-`): the template item stays, each appended item names its patch.
    const args = 'spec.kubeadmConfigSpec.initConfiguration.nodeRegistration.kubeletExtraArgs';
    expect(sourceOf(kcp, `${args}[0].name`)).toEqual(tmpl(`spec.template.${args}[0].name`));
    expect(fieldOf(kcp, `${args}[1].value`)).toMatchObject({
      value: 'external',
      source: { patch: 'controlPlaneExternalCloudProvider', patchIndex: 8, jsonPatchIndex: 1 },
    });
    expect(fieldOf(kcp, `${args}[2].value`)).toMatchObject({
      value: '6',
      source: {
        patch: 'controlPlaneKubeletLogLevel',
        patchIndex: 13,
        jsonPatchIndex: 1,
        // The control plane override wins over the Cluster-level value "4".
        variables: [
          {
            name: 'kubeletLogLevel',
            value: '6',
            defaulted: false,
            from: 'spec.topology.controlPlane.variables.overrides[0].value',
          },
        ],
      },
    });
    expect(fieldOf(kcp, 'spec.kubeadmConfigSpec.clusterConfiguration.apiServer.extraArgs[1].value')).toMatchObject({
      value: '3',
      source: {
        patch: 'controlPlaneLogLevel',
        jsonPatchIndex: 0,
        opPath: '/spec/template/spec/kubeadmConfigSpec/clusterConfiguration/apiServer/extraArgs/-',
      },
    });
    // `controllerManager: {}` (jsonPatches[1]) is then filled by jsonPatches[2].
    expect(
      sourceOf(kcp, 'spec.kubeadmConfigSpec.clusterConfiguration.controllerManager.extraArgs[0].name'),
    ).toMatchObject({ patch: 'controlPlaneLogLevel', jsonPatchIndex: 2 });
    // Topology over template; readiness gates and replicas from the topology.
    expect(fieldOf(kcp, 'spec.machineTemplate.spec.deletion.nodeDrainTimeoutSeconds')).toMatchObject({
      value: 120,
      source: { kind: 'topology', path: 'spec.topology.controlPlane.deletion.nodeDrainTimeoutSeconds' },
    });
    expect(sourceOf(kcp, 'spec.machineTemplate.spec.readinessGates[0].conditionType')).toEqual({
      kind: 'topology',
      path: 'spec.topology.controlPlane.readinessGates[0].conditionType',
    });
    expect(fieldOf(kcp, "metadata.labels['ClusterClass.controlPlane.label']")).toMatchObject({
      value: 'overridden-by-topology',
      source: { kind: 'topology' },
    });
  });

  it('health checks, MachineDeployments and worker templates', () => {
    const devMhc = objectOf(dev.objects, 'ControlPlaneHealthCheck');
    expect(fieldOf(devMhc, 'spec.checks.nodeStartupTimeoutSeconds')).toMatchObject({
      value: 600,
      source: { kind: 'default' },
    });
    expect(sourceOf(devMhc, 'spec.checks.unhealthyNodeConditions[0].type')).toEqual({
      kind: 'clusterClass',
      path: 'spec.controlPlane.healthCheck.checks.unhealthyNodeConditions[0].type',
    });
    const customMhc = objectOf(custom.objects, 'ControlPlaneHealthCheck');
    expect(sourceOf(customMhc, 'spec.checks.nodeStartupTimeoutSeconds')).toEqual({
      kind: 'topology',
      path: 'spec.topology.controlPlane.healthCheck.checks.nodeStartupTimeoutSeconds',
    });

    const large = objectOf(custom.objects, 'MachineDeployment md-large');
    expect(sourceOf(large, 'spec.deletion.order')).toEqual({
      kind: 'topology',
      path: 'spec.topology.workers.machineDeployments[1].deletion.order',
    });
    expect(sourceOf(large, 'spec.rollout.strategy.rollingUpdate.maxSurge')).toEqual({
      kind: 'topology',
      path: 'spec.topology.workers.machineDeployments[1].rollout.strategy.rollingUpdate.maxSurge',
    });
    expect(sourceOf(large, 'spec.template.spec.failureDomain')).toEqual({
      kind: 'topology',
      path: 'spec.topology.workers.machineDeployments[1].failureDomain',
    });
    expect(sourceOf(large, "metadata.labels['ClusterClass.machineDeployment.label']")).toEqual({
      kind: 'clusterClass',
      path: "spec.workers.machineDeployments[0].metadata.labels['ClusterClass.machineDeployment.label']",
    });
    expect(sourceOf(large, "spec.selector.matchLabels['topology.cluster.x-k8s.io/deployment-name']")).toMatchObject({
      kind: 'fixed',
    });
    expect(large.fields.some((f) => f.path.includes('defer-upgrade'))).toBe(false);
    expect(custom.objects.some((o) => o.role === 'MachineDeploymentHealthCheck md-small')).toBe(false);

    const smallBootstrap = objectOf(custom.objects, 'MachineDeploymentBootstrapTemplate md-small');
    expect(
      sourceOf(smallBootstrap, 'spec.template.spec.joinConfiguration.nodeRegistration.kubeletExtraArgs[2].value'),
    ).toMatchObject({
      patch: 'workerKubeletLogLevel',
      variables: [
        {
          name: 'kubeletLogLevel',
          value: '2',
          from: 'spec.topology.workers.machineDeployments[0].variables.overrides[0].value',
        },
      ],
    });
    const largeBootstrap = objectOf(custom.objects, 'MachineDeploymentBootstrapTemplate md-large');
    expect(
      sourceOf(largeBootstrap, 'spec.template.spec.joinConfiguration.nodeRegistration.kubeletExtraArgs[2].value'),
    ).toMatchObject({
      variables: [{ name: 'kubeletLogLevel', value: '4', from: 'spec.topology.variables[0].value' }],
    });
    const infra = objectOf(custom.objects, 'MachineDeploymentInfrastructureTemplate md-large');
    expect(fieldOf(infra, 'spec.template.spec.backend.docker.customImage')).toMatchObject({
      value: 'kindest/node:v1.33.5',
      source: {
        patch: 'customImage',
        definitionIndex: 0,
        variables: [{ name: 'builtin.machineDeployment.version', value: 'v1.33.5', defaulted: false }],
      },
    });
    expect(sourceOf(infra, "metadata.labels['InfraMachineTemplate.machineDeployment.label']")).toMatchObject({
      kind: 'template',
      path: "metadata.labels['InfraMachineTemplate.machineDeployment.label']",
    });
    const preload = fieldOf(infra, 'spec.template.spec.backend.docker.preLoadImages[0]');
    expect(preload.source).toMatchObject({
      patch: 'preloadImages',
      valueFrom: { variable: 'preLoadImages' },
      variables: [{ name: 'preLoadImages', defaulted: false }],
    });
  });

  it('qs-minimal: version with the "v" prefix added, defaults everywhere', () => {
    const r = explainCluster(items, config(), 'qs-minimal');
    expect(r.results.filter((x) => x.severity === 'error')).toEqual([]);
    const kcp = objectOf(r.objects, 'ControlPlane');
    expect(fieldOf(kcp, 'spec.version')).toMatchObject({
      value: 'v1.34.2',
      source: { kind: 'topology', path: 'spec.topology.version', note: expect.stringContaining('"v" prefix') },
    });
    expect(kcp.fields.some((f) => f.path === 'spec.replicas')).toBe(false);
    const infraCluster = objectOf(r.objects, 'InfrastructureCluster');
    expect(sourceOf(infraCluster, 'spec.backend.docker.loadBalancer.imageRepository')).toMatchObject({
      patch: 'lbImageRepository',
      variables: [
        {
          name: 'lbImageRepository',
          value: 'kindest',
          defaulted: true,
          defaultFrom: 'spec.variables[0].schema.openAPIV3Schema.default',
        },
      ],
    });
  });

  it('expand mode explains the classic Cluster; preview mode does not emit it', () => {
    const cluster = objectOf(custom.objects, 'Cluster');
    expect(sourceOf(cluster, 'metadata.labels.env')).toEqual({ kind: 'topology', path: 'metadata.labels.env' });
    expect(sourceOf(cluster, "metadata.labels['cluster.x-k8s.io/cluster-name']")).toMatchObject({ kind: 'fixed' });
    expect(sourceOf(cluster, 'spec.controlPlaneRef.name')).toMatchObject({ kind: 'builtin' });
    expect(sourceOf(cluster, 'spec.clusterNetwork.pods.cidrBlocks[0]')).toEqual({
      kind: 'topology',
      path: 'spec.clusterNetwork.pods.cidrBlocks[0]',
    });
    const preview = explainCluster(items, config({ mode: 'preview' }), 'qs-custom');
    expect(preview.objects.some((o) => o.role === 'Cluster')).toBe(false);
  });

  it('unknown and ambiguous Cluster names are errors', () => {
    expect(explainCluster(items, config(), 'nope')).toMatchObject({
      objects: [],
      results: [{ severity: 'error', message: expect.stringContaining('not found') }],
    });
    expect(explainCluster(items, config(), 'other/qs-dev-1').objects).toEqual([]);
  });
});
