/**
 * capi-docker-quick-start.yaml — CAPI's reference ClusterClass `quick-start` (v1beta2, Dev*
 * provider) with Clusters qs-dev-1 (upstream e2e), qs-custom and qs-minimal.
 * Expectations derived by hand from topology-semantics.md §2 (desired state), §3 (names,
 * labels), §5.4 (defaulting order), §6 (builtins), §7 (patch order, enabledIf, write-back).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { describe, expect, it } from 'vitest';
import {
  CLONED_GK,
  CLONED_NAME,
  CLUSTER_NAME,
  MD_NAME,
  MP_NAME,
  OWNED,
  clusterOf,
  expectNoErrors,
  fixedLabels,
  fixtureMissing,
  nameRe,
  renderFixture,
  withTaintPropagation,
  type FixtureRender,
  type RenderOptions,
} from './helpers.js';

/** The fixture as CAPI admits all three Clusters (qs-custom's taint with its propagation). */
const renderAdmitted = (options: RenderOptions = {}): FixtureRender =>
  renderFixture(FILE, {
    ...options,
    mutate: (docs) => {
      withTaintPropagation(docs);
      options.mutate?.(docs);
    },
  });

const FILE = 'capi-docker-quick-start.yaml';

const EVICTION = { name: 'eviction-hard', value: 'nodefs.available<0%,nodefs.inodesFree<0%,imagefs.available<0%' };
const CLOUD_PROVIDER = { name: 'cloud-provider', value: 'external' };
const PSS_ARG = { name: 'admission-control-config-file', value: '/etc/kubernetes/kube-apiserver-admission-pss.yaml' };
const PSS_VOLUME = {
  name: 'admission-pss',
  hostPath: '/etc/kubernetes/kube-apiserver-admission-pss.yaml',
  mountPath: '/etc/kubernetes/kube-apiserver-admission-pss.yaml',
  readOnly: true,
  pathType: 'File',
};
const FAILURE_DOMAINS = [
  { name: 'fd1', controlPlane: true },
  { name: 'fd2', controlPlane: true },
  { name: 'fd3', controlPlane: true },
  { name: 'fd4', controlPlane: false },
  { name: 'fd5', controlPlane: false },
  { name: 'fd6', controlPlane: false },
  { name: 'fd7', controlPlane: false },
  { name: 'fd8', controlPlane: false },
];
const DOCKER_SOCK = [{ containerPath: '/var/run/docker.sock', hostPath: '/var/run/docker.sock' }];
const CLASS_CP_CHECKS = {
  nodeStartupTimeoutSeconds: 600,
  unhealthyNodeConditions: [{ type: 'e2e.remediation.condition', status: 'False', timeoutSeconds: 20 }],
  unhealthyMachineConditions: [{ type: 'e2e.clusterclass.condition', status: 'False', timeoutSeconds: 300 }],
};

describe.skipIf(fixtureMissing(FILE))('real-world: capi-docker-quick-start', () => {
  let r: FixtureRender;
  const render = () => (r ??= renderAdmitted());

  it('renders all three Clusters with no error result', () => {
    expectNoErrors(render());
    expect([...render().clusters.keys()].sort()).toEqual([
      'default/qs-custom',
      'default/qs-dev-1',
      'default/qs-minimal',
    ]);
  });

  describe('qs-dev-1 (upstream e2e Cluster)', () => {
    const c = () => clusterOf(render(), 'qs-dev-1');

    it('variables: user entries first, then defaulted-but-unset ones alphabetically (§5.4)', () => {
      expect(render().variables.get('default/qs-dev-1')).toEqual([
        { name: 'etcdImageTag', value: '' },
        { name: 'coreDNSImageTag', value: '' },
        { name: 'preLoadImages', value: [] },
        { name: 'controlPlaneTaint', value: true },
        { name: 'externalCloudProvider', value: false },
        { name: 'ipv6Primary', value: false },
        { name: 'kubeadmControlPlaneMaxSurge', value: '' },
        { name: 'lbImageRepository', value: 'kindest' },
      ]);
    });

    it('DevCluster: only spec.template.metadata propagates (not the template object metadata); lbImageRepository patch', () => {
      const infra = c().infraCluster;
      expect(infra.apiVersion).toBe('infrastructure.cluster.x-k8s.io/v1beta2');
      expect(infra.kind).toBe('DevCluster');
      expect(infra.metadata.name).toMatch(nameRe('qs-dev-1-'));
      expect(infra.metadata.namespace).toBe('default');
      expect(infra.metadata.labels).toEqual({
        'InfrastructureClusterTemplate.template.label': 'InfrastructureClusterTemplate.template.labelValue',
        ...fixedLabels('qs-dev-1'),
      });
      expect(infra.metadata.annotations).toEqual({
        'InfrastructureClusterTemplate.template.annotation': 'InfrastructureClusterTemplate.template.annotationValue',
        [CLONED_NAME]: 'quick-start-cluster',
        [CLONED_GK]: 'DevClusterTemplate.infrastructure.cluster.x-k8s.io',
      });
      expect(infra.metadata.ownerReferences).toBeUndefined();
      expect(infra.spec).toEqual({
        backend: { docker: { failureDomains: FAILURE_DOMAINS, loadBalancer: { imageRepository: 'kindest' } } },
      });
    });

    it('CP DevMachineTemplate clone: own template metadata + fixed labels, owner → Cluster, customImage from builtin.controlPlane.version', () => {
      const t = c().cpMachineTemplate;
      expect(t.kind).toBe('DevMachineTemplate');
      expect(t.metadata.name).toMatch(nameRe('qs-dev-1-'));
      expect(t.metadata.labels).toEqual({
        'InfraMachineTemplate.controlPlane.label': 'InfraMachineTemplate.controlPlane.labelValue',
        ...fixedLabels('qs-dev-1'),
      });
      expect(t.metadata.annotations).toEqual({
        'InfraMachineTemplate.controlPlane.annotation': 'InfraMachineTemplate.controlPlane.annotationValue',
        [CLONED_NAME]: 'quick-start-control-plane',
        [CLONED_GK]: 'DevMachineTemplate.infrastructure.cluster.x-k8s.io',
      });
      // §2.11: the owner reference needs the Cluster uid, unknown offline (README: emitted only with metadata.uid).
      expect(t.metadata.ownerReferences).toBeUndefined();
      expect(t.spec.template.metadata).toEqual({
        labels: {
          'InfraMachineTemplate.controlPlane.template.label': 'InfraMachineTemplate.controlPlane.template.labelValue',
        },
        annotations: {
          'InfraMachineTemplate.controlPlane.template.annotation':
            'InfraMachineTemplate.controlPlane.template.annotationValue',
        },
      });
      expect(t.spec.template.spec).toEqual({
        backend: { docker: { extraMounts: DOCKER_SOCK, preLoadImages: [], customImage: 'kindest/node:v1.34.2' } },
      });
    });

    it('KubeadmControlPlane: metadata precedence template < class < topology, machineTemplate metadata, refs, deletion, version', () => {
      const { controlPlane: kcp, cpMachineTemplate } = c();
      expect(kcp.apiVersion).toBe('controlplane.cluster.x-k8s.io/v1beta2');
      expect(kcp.kind).toBe('KubeadmControlPlane');
      expect(kcp.metadata.name).toMatch(nameRe('qs-dev-1-'));
      expect(kcp.metadata.labels).toEqual({
        'ControlPlaneTemplate.template.label': 'ControlPlaneTemplate.template.labelValue',
        'ClusterClass.controlPlane.label': 'ClusterClass.controlPlane.labelValue',
        'Cluster.topology.controlPlane.label': 'Cluster.topology.controlPlane.labelValue',
        'Cluster.topology.controlPlane.label.node.cluster.x-k8s.io': 'Cluster.topology.controlPlane.nodeLabelValue',
        ...fixedLabels('qs-dev-1'),
      });
      expect(kcp.metadata.annotations).toEqual({
        'ControlPlaneTemplate.template.annotation': 'ControlPlaneTemplate.template.annotationValue',
        'ClusterClass.controlPlane.annotation': 'ClusterClass.controlPlane.annotationValue',
        'Cluster.topology.controlPlane.annotation': 'Cluster.topology.controlPlane.annotationValue',
        'Cluster.topology.controlPlane.annotation.node.cluster.x-k8s.io':
          'Cluster.topology.controlPlane.nodeAnnotationValue',
        [CLONED_NAME]: 'quick-start-control-plane',
        [CLONED_GK]: 'KubeadmControlPlaneTemplate.controlplane.cluster.x-k8s.io',
      });
      expect(kcp.metadata.ownerReferences).toBeUndefined();
      // §2.5 step 3: CP labels (class/topology + fixed) over the template's machineTemplate.metadata; no template-object labels.
      expect(kcp.spec.machineTemplate.metadata).toEqual({
        labels: {
          'ControlPlaneTemplate.machineTemplate.label': 'ControlPlaneTemplate.machineTemplate.labelValue',
          'ClusterClass.controlPlane.label': 'ClusterClass.controlPlane.labelValue',
          'Cluster.topology.controlPlane.label': 'Cluster.topology.controlPlane.labelValue',
          'Cluster.topology.controlPlane.label.node.cluster.x-k8s.io': 'Cluster.topology.controlPlane.nodeLabelValue',
          ...fixedLabels('qs-dev-1'),
        },
        annotations: {
          'ControlPlaneTemplate.machineTemplate.annotation': 'ControlPlaneTemplate.machineTemplate.annotationValue',
          'ClusterClass.controlPlane.annotation': 'ClusterClass.controlPlane.annotationValue',
          'Cluster.topology.controlPlane.annotation': 'Cluster.topology.controlPlane.annotationValue',
          'Cluster.topology.controlPlane.annotation.node.cluster.x-k8s.io':
            'Cluster.topology.controlPlane.nodeAnnotationValue',
        },
      });
      // Contract v1beta2 reference shape, pointing at the actual clone.
      expect(kcp.spec.machineTemplate.spec.infrastructureRef).toEqual({
        apiGroup: 'infrastructure.cluster.x-k8s.io',
        kind: 'DevMachineTemplate',
        name: cpMachineTemplate.metadata.name,
      });
      // template nodeDrainTimeoutSeconds: 1 kept; topology adds deletion + volume-detach (0 is a value).
      expect(kcp.spec.machineTemplate.spec.deletion).toEqual({
        nodeDrainTimeoutSeconds: 1,
        nodeDeletionTimeoutSeconds: 0,
        nodeVolumeDetachTimeoutSeconds: 300,
      });
      expect(kcp.spec.replicas).toBe(3);
      expect(kcp.spec.version).toBe('v1.34.2');
      expect(kcp.spec.rollout).toEqual({ before: { certificatesExpiryDays: 21 } });
    });

    it('KCP patches: podSecurityStandard on; etcd/dns/maxSurge/taint/cloud-provider/ipv6/log-level patches disabled', () => {
      const spec = c().controlPlane.spec.kubeadmConfigSpec;
      expect(spec.clusterConfiguration).toEqual({
        apiServer: {
          certSANs: ['localhost', 'host.docker.internal', '::', '::1', '127.0.0.1', '0.0.0.0'],
          extraArgs: [PSS_ARG],
          extraVolumes: [PSS_VOLUME],
        },
      });
      expect(spec.files).toHaveLength(1);
      expect(spec.files[0].path).toBe('/etc/kubernetes/kube-apiserver-admission-pss.yaml');
      expect(spec.files[0].content).toContain('kind: AdmissionConfiguration\n');
      expect(spec.files[0].content).toContain('      namespaces: [kube-system]\n');
      expect(spec.initConfiguration).toEqual({ nodeRegistration: { kubeletExtraArgs: [EVICTION] } });
      expect(spec.joinConfiguration).toEqual({ nodeRegistration: { kubeletExtraArgs: [EVICTION] } });
    });

    it('control plane MachineHealthCheck from the class (nodeStartupTimeoutSeconds defaulted to 600)', () => {
      const { cpHealthCheck: mhc, controlPlane } = c();
      expect(mhc.apiVersion).toBe('cluster.x-k8s.io/v1beta2');
      expect(mhc.metadata.name).toBe(controlPlane.metadata.name);
      expect(mhc.metadata.labels).toEqual(fixedLabels('qs-dev-1'));
      expect(mhc.metadata.ownerReferences).toBeUndefined();
      expect(mhc.spec.clusterName).toBe('qs-dev-1');
      expect(mhc.spec.selector).toEqual({ matchLabels: { [OWNED]: '', 'cluster.x-k8s.io/control-plane': '' } });
      expect(mhc.spec.checks).toEqual(CLASS_CP_CHECKS);
      expect(mhc.spec.remediation).toBeUndefined();
    });

    it('MachineDeployment md-0: merged metadata on object and template, scalar fields, refs to the clones, no MHC', () => {
      const { md: d, bootstrap, infra, mhc } = c().md['md-0']!;
      const labels = {
        'ClusterClass.machineDeployment.label': 'ClusterClass.machineDeployment.labelValue',
        'Cluster.topology.machineDeployment.label': 'Cluster.topology.machineDeployment.labelValue',
        'Cluster.topology.machineDeployment.label.node.cluster.x-k8s.io':
          'Cluster.topology.machineDeployment.nodeLabelValue',
        ...fixedLabels('qs-dev-1'),
        [MD_NAME]: 'md-0',
      };
      const annotations = {
        'ClusterClass.machineDeployment.annotation': 'ClusterClass.machineDeployment.annotationValue',
        'Cluster.topology.machineDeployment.annotation': 'Cluster.topology.machineDeployment.annotationValue',
        'Cluster.topology.md.annotation.node.cluster.x-k8s.io':
          'Cluster.topology.machineDeployment.nodeAnnotationValue',
      };
      expect(d.apiVersion).toBe('cluster.x-k8s.io/v1beta2');
      expect(d.metadata.name).toMatch(nameRe('qs-dev-1-md-0-'));
      expect(d.metadata.labels).toEqual(labels);
      expect(d.metadata.annotations).toEqual(annotations);
      expect(d.metadata.ownerReferences).toBeUndefined();
      expect(d.spec.template.metadata).toEqual({ labels, annotations });
      expect(d.spec.selector).toEqual({ matchLabels: { ...fixedLabels('qs-dev-1'), [MD_NAME]: 'md-0' } });
      expect(d.spec.clusterName).toBe('qs-dev-1');
      expect(d.spec.replicas).toBe(2);
      expect(d.spec.rollout).toEqual({
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '20%', maxUnavailable: 0 } },
      });
      const ts = d.spec.template.spec;
      expect(ts.clusterName).toBe('qs-dev-1');
      expect(ts.version).toBe('v1.34.2');
      expect(ts.failureDomain).toBe('fd4');
      expect(ts.minReadySeconds).toBe(5);
      expect(ts.deletion).toEqual({ nodeDeletionTimeoutSeconds: 0, nodeVolumeDetachTimeoutSeconds: 300 });
      expect(ts.bootstrap.configRef).toEqual({
        apiGroup: 'bootstrap.cluster.x-k8s.io',
        kind: 'KubeadmConfigTemplate',
        name: bootstrap.metadata.name,
      });
      expect(ts.infrastructureRef).toEqual({
        apiGroup: 'infrastructure.cluster.x-k8s.io',
        kind: 'DevMachineTemplate',
        name: infra.metadata.name,
      });
      expect(mhc).toBeUndefined();
    });

    it('md-0 template clones: template object metadata + deployment-name label, customImage from builtin.machineDeployment.version', () => {
      const { bootstrap, infra } = c().md['md-0']!;
      expect(bootstrap.kind).toBe('KubeadmConfigTemplate');
      expect(bootstrap.metadata.name).toMatch(nameRe('qs-dev-1-md-0-'));
      expect(bootstrap.metadata.labels).toEqual({
        'BootstrapConfigTemplate.machineDeployment.label': 'BootstrapConfigTemplate.machineDeployment.labelValue',
        ...fixedLabels('qs-dev-1'),
        [MD_NAME]: 'md-0',
      });
      expect(bootstrap.metadata.annotations[CLONED_NAME]).toBe('quick-start-md-default-worker-bootstraptemplate');
      expect(bootstrap.spec.template.spec).toEqual({
        joinConfiguration: { nodeRegistration: { kubeletExtraArgs: [EVICTION] } },
      });
      expect(infra.kind).toBe('DevMachineTemplate');
      expect(infra.metadata.name).toMatch(nameRe('qs-dev-1-md-0-'));
      expect(infra.metadata.labels).toEqual({
        'InfraMachineTemplate.machineDeployment.label': 'InfraMachineTemplate.machineDeployment.labelValue',
        ...fixedLabels('qs-dev-1'),
        [MD_NAME]: 'md-0',
      });
      expect(infra.spec.template.spec.backend.docker).toEqual({
        extraMounts: DOCKER_SOCK,
        preLoadImages: [],
        customImage: 'kindest/node:v1.34.2',
      });
    });

    it('MachinePool mp-0: objects (not templates) for bootstrap/infra, pool-name label, failureDomains, customImage from builtin.machinePool.version', () => {
      const { mp, bootstrap, infra } = c().mp['mp-0']!;
      expect(bootstrap.apiVersion).toBe('bootstrap.cluster.x-k8s.io/v1beta2');
      expect(bootstrap.kind).toBe('KubeadmConfig');
      expect(bootstrap.metadata.name).toMatch(nameRe('qs-dev-1-mp-0-'));
      expect(bootstrap.metadata.labels).toEqual({
        'BootstrapConfigTemplate.machinePool.template.label': 'BootstrapConfigTemplate.machinePool.template.labelValue',
        ...fixedLabels('qs-dev-1'),
        [MP_NAME]: 'mp-0',
      });
      expect(bootstrap.metadata.ownerReferences).toBeUndefined();
      expect(bootstrap.spec).toEqual({ joinConfiguration: { nodeRegistration: { kubeletExtraArgs: [EVICTION] } } });
      expect(infra.kind).toBe('DevMachinePool');
      expect(infra.metadata.name).toMatch(nameRe('qs-dev-1-mp-0-'));
      expect(infra.metadata.labels).toEqual({
        'InfraMachinePoolTemplate.machinePool.template.label':
          'InfraMachinePoolTemplate.machinePool.template.labelValue',
        ...fixedLabels('qs-dev-1'),
        [MP_NAME]: 'mp-0',
      });
      expect(infra.metadata.annotations).toEqual({
        'InfraMachinePoolTemplate.machinePool.template.annotation':
          'InfraMachinePoolTemplate.machinePool.template.annotationValue',
        [CLONED_NAME]: 'quick-start-default-worker-machinepooltemplate',
        [CLONED_GK]: 'DevMachinePoolTemplate.infrastructure.cluster.x-k8s.io',
      });
      expect(infra.spec).toEqual({
        backend: { docker: { extraMounts: DOCKER_SOCK, preLoadImages: [], customImage: 'kindest/node:v1.34.2' } },
      });

      const labels = {
        'ClusterClass.machinePool.label': 'ClusterClass.machinePool.labelValue',
        'Cluster.topology.machinePool.label': 'Cluster.topology.machinePool.labelValue',
        'Cluster.topology.machinePool.label.node.cluster.x-k8s.io': 'Cluster.topology.machinePool.nodeLabelValue',
        ...fixedLabels('qs-dev-1'),
        [MP_NAME]: 'mp-0',
      };
      const annotations = {
        'ClusterClass.machinePool.annotation': 'ClusterClass.machinePool.annotationValue',
        'Cluster.topology.machinePool.annotation': 'Cluster.topology.machinePool.annotationValue',
      };
      expect(mp.apiVersion).toBe('cluster.x-k8s.io/v1beta2');
      expect(mp.metadata.name).toMatch(nameRe('qs-dev-1-mp-0-'));
      expect(mp.metadata.labels).toEqual(labels);
      expect(mp.metadata.annotations).toEqual(annotations);
      expect(mp.spec.template.metadata).toEqual({ labels, annotations });
      expect(mp.spec.selector).toBeUndefined();
      expect(mp.spec.clusterName).toBe('qs-dev-1');
      expect(mp.spec.replicas).toBe(2);
      expect(mp.spec.failureDomains).toEqual(['fd4']);
      const ts = mp.spec.template.spec;
      expect(ts.version).toBe('v1.34.2');
      expect(ts.minReadySeconds).toBe(5);
      expect(ts.deletion).toEqual({ nodeDeletionTimeoutSeconds: 0, nodeVolumeDetachTimeoutSeconds: 300 });
      expect(ts.bootstrap.configRef).toEqual({
        apiGroup: 'bootstrap.cluster.x-k8s.io',
        kind: 'KubeadmConfig',
        name: bootstrap.metadata.name,
      });
      expect(ts.infrastructureRef).toEqual({
        apiGroup: 'infrastructure.cluster.x-k8s.io',
        kind: 'DevMachinePool',
        name: infra.metadata.name,
      });
    });

    it('classic Cluster (expand mode): user labels + fixed labels, refs to InfraCluster and KCP, no topology', () => {
      const { cluster, infraCluster, controlPlane } = c();
      expect(cluster.metadata.labels).toEqual({ cni: 'qs-dev-1-crs-0', ...fixedLabels('qs-dev-1') });
      expect(cluster.spec.topology).toBeUndefined();
      expect(cluster.spec.infrastructureRef).toEqual({
        apiGroup: 'infrastructure.cluster.x-k8s.io',
        kind: 'DevCluster',
        name: infraCluster.metadata.name,
      });
      expect(cluster.spec.controlPlaneRef).toEqual({
        apiGroup: 'controlplane.cluster.x-k8s.io',
        kind: 'KubeadmControlPlane',
        name: controlPlane.metadata.name,
      });
    });
  });

  describe('qs-custom (overrides, health-check override/disable, defer-upgrade, taints)', () => {
    const c = () => clusterOf(render(), 'qs-custom');

    it('variables: user values kept in order, ipv6Primary and lbImageRepository defaulted after them', () => {
      expect(render().variables.get('default/qs-custom')).toEqual([
        { name: 'kubeletLogLevel', value: '4' },
        { name: 'kubeControlPlaneLogLevel', value: '3' },
        { name: 'externalCloudProvider', value: true },
        { name: 'controlPlaneTaint', value: false },
        { name: 'kubeadmControlPlaneMaxSurge', value: '1' },
        { name: 'etcdImageTag', value: '3.5.21-0' },
        { name: 'coreDNSImageTag', value: 'v1.12.1' },
        { name: 'preLoadImages', value: ['registry.k8s.io/pause:3.10'] },
        { name: 'ipv6Primary', value: false },
        { name: 'lbImageRepository', value: 'kindest' },
      ]);
    });

    it('KCP metadata: topology label overrides the class label of the same key (object and machineTemplate)', () => {
      const kcp = c().controlPlane;
      expect(kcp.metadata.labels).toEqual({
        'ControlPlaneTemplate.template.label': 'ControlPlaneTemplate.template.labelValue',
        'ClusterClass.controlPlane.label': 'overridden-by-topology',
        tier: 'control-plane',
        ...fixedLabels('qs-custom'),
      });
      expect(kcp.spec.machineTemplate.metadata.labels).toEqual({
        'ControlPlaneTemplate.machineTemplate.label': 'ControlPlaneTemplate.machineTemplate.labelValue',
        'ClusterClass.controlPlane.label': 'overridden-by-topology',
        tier: 'control-plane',
        ...fixedLabels('qs-custom'),
      });
      expect(kcp.spec.machineTemplate.metadata.annotations).toEqual({
        'ControlPlaneTemplate.machineTemplate.annotation': 'ControlPlaneTemplate.machineTemplate.annotationValue',
        'ClusterClass.controlPlane.annotation': 'ClusterClass.controlPlane.annotationValue',
      });
    });

    it('KCP topology fields: replicas, readinessGates and drain timeout (v1beta2 contract paths), version', () => {
      const kcp = c().controlPlane;
      expect(kcp.spec.replicas).toBe(1);
      expect(kcp.spec.version).toBe('v1.33.5');
      expect(kcp.spec.machineTemplate.spec.readinessGates).toEqual([
        { conditionType: 'example.com/ControlPlaneReady' },
      ]);
      expect(kcp.spec.machineTemplate.spec.deletion).toEqual({ nodeDrainTimeoutSeconds: 120 });
    });

    it('KCP patches: etcd/dns tags, stray-quote maxSurge string `1"`, empty taints, cloud-provider and log levels appended in patch order', () => {
      const spec = c().controlPlane.spec;
      // kubeadmControlPlaneMaxSurge template `maxSurge: {{ . }}"` → YAML plain scalar `1"` (a string).
      expect(spec.rollout).toEqual({
        before: { certificatesExpiryDays: 21 },
        strategy: { rollingUpdate: { maxSurge: '1"' } },
      });
      const kcs = spec.kubeadmConfigSpec;
      expect(kcs.clusterConfiguration.etcd).toEqual({ local: { imageTag: '3.5.21-0' } });
      expect(kcs.clusterConfiguration.dns).toEqual({ imageTag: 'v1.12.1' });
      // podSecurityStandard creates extraArgs, controlPlaneLogLevel appends to it (order matters).
      expect(kcs.clusterConfiguration.apiServer.extraArgs).toEqual([PSS_ARG, { name: 'v', value: '3' }]);
      expect(kcs.clusterConfiguration.controllerManager).toEqual({ extraArgs: [{ name: 'v', value: '3' }] });
      expect(kcs.clusterConfiguration.scheduler).toEqual({ extraArgs: [{ name: 'v', value: '3' }] });
      // controlPlaneExternalCloudProvider (patch 9) before controlPlaneKubeletLogLevel (patch 14, CP override "6" wins over "4").
      for (const cfg of ['initConfiguration', 'joinConfiguration']) {
        expect(kcs[cfg].nodeRegistration).toEqual({
          kubeletExtraArgs: [EVICTION, CLOUD_PROVIDER, { name: 'v', value: '6' }],
          taints: [],
        });
      }
      expect(kcs.initConfiguration.localAPIEndpoint).toBeUndefined();
    });

    it('DevCluster/DevMachineTemplates: preLoadImages from the variable, customImage v1.33.5 everywhere', () => {
      const cl = c();
      expect(cl.infraCluster.spec.backend.docker.loadBalancer).toEqual({ imageRepository: 'kindest' });
      for (const t of [cl.cpMachineTemplate, cl.md['md-small']!.infra, cl.md['md-large']!.infra]) {
        expect(t.spec.template.spec.backend.docker.preLoadImages).toEqual(['registry.k8s.io/pause:3.10']);
        expect(t.spec.template.spec.backend.docker.customImage).toBe('kindest/node:v1.33.5');
      }
      const mpInfra = cl.mp['mp-autoscaled']!.infra;
      expect(mpInfra.spec.backend.docker).toEqual({
        extraMounts: DOCKER_SOCK,
        preLoadImages: ['registry.k8s.io/pause:3.10'],
        customImage: 'kindest/node:v1.33.5',
      });
    });

    it('worker bootstrap: `*-worker` wildcard matches default-worker; per-MD kubeletLogLevel override', () => {
      const cl = c();
      const args = (o: { spec: { template?: { spec: unknown }; joinConfiguration?: unknown } }) =>
        (o.spec.template
          ? (o.spec.template.spec as { joinConfiguration: { nodeRegistration: { kubeletExtraArgs: unknown } } })
          : (o.spec as { joinConfiguration: { nodeRegistration: { kubeletExtraArgs: unknown } } })
        ).joinConfiguration.nodeRegistration.kubeletExtraArgs;
      expect(args(cl.md['md-small']!.bootstrap)).toEqual([EVICTION, CLOUD_PROVIDER, { name: 'v', value: '2' }]);
      expect(args(cl.md['md-large']!.bootstrap)).toEqual([EVICTION, CLOUD_PROVIDER, { name: 'v', value: '4' }]);
      expect(args(cl.mp['mp-autoscaled']!.bootstrap)).toEqual([EVICTION, CLOUD_PROVIDER, { name: 'v', value: '4' }]);
    });

    it('control plane MHC uses the topology checks as a whole (not the class ones) with nodeStartupTimeoutSeconds 900', () => {
      const mhc = c().cpHealthCheck;
      expect(mhc.metadata.name).toBe(c().controlPlane.metadata.name);
      expect(mhc.spec.checks).toEqual({
        nodeStartupTimeoutSeconds: 900,
        unhealthyNodeConditions: [{ type: 'Ready', status: 'Unknown', timeoutSeconds: 300 }],
      });
      expect(mhc.spec.remediation).toEqual({ triggerIf: { unhealthyLessThanOrEqualTo: 1 } });
    });

    it('md-small: no MachineHealthCheck, class metadata only, no class/topology scalar fields', () => {
      const { md: d, mhc } = c().md['md-small']!;
      expect(mhc).toBeUndefined();
      expect(c().mhcs.map((m: { metadata: { name: string } }) => m.metadata.name)).toEqual([
        c().controlPlane.metadata.name,
      ]);
      expect(d.spec.replicas).toBe(1);
      expect(d.metadata.labels).toEqual({
        'ClusterClass.machineDeployment.label': 'ClusterClass.machineDeployment.labelValue',
        ...fixedLabels('qs-custom'),
        [MD_NAME]: 'md-small',
      });
      expect(d.metadata.annotations).toEqual({
        'ClusterClass.machineDeployment.annotation': 'ClusterClass.machineDeployment.annotationValue',
      });
      expect(d.spec.rollout).toBeUndefined();
      expect(d.spec.deletion).toBeUndefined();
      expect(d.spec.template.spec.failureDomain).toBeUndefined();
      expect(d.spec.template.spec.minReadySeconds).toBeUndefined();
      expect(d.spec.template.spec.version).toBe('v1.33.5');
    });

    it('md-large: defer-upgrade stripped from both annotation maps, deletion order, drain timeout, rollout, taints, failureDomain', () => {
      const { md: d } = c().md['md-large']!;
      const annotations = {
        'ClusterClass.machineDeployment.annotation': 'ClusterClass.machineDeployment.annotationValue',
        'example.com/note': 'large-pool',
      };
      expect(d.metadata.annotations).toEqual(annotations);
      expect(d.spec.template.metadata.annotations).toEqual(annotations);
      expect(d.metadata.annotations['topology.cluster.x-k8s.io/defer-upgrade']).toBeUndefined();
      expect(d.metadata.labels).toEqual({
        'ClusterClass.machineDeployment.label': 'ClusterClass.machineDeployment.labelValue',
        pool: 'large',
        ...fixedLabels('qs-custom'),
        [MD_NAME]: 'md-large',
      });
      expect(d.spec.replicas).toBe(3);
      expect(d.spec.deletion).toEqual({ order: 'Oldest' });
      expect(d.spec.rollout).toEqual({
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      });
      const ts = d.spec.template.spec;
      expect(ts.failureDomain).toBe('fd5');
      expect(ts.minReadySeconds).toBe(30);
      expect(ts.deletion).toEqual({ nodeDrainTimeoutSeconds: 600 });
      expect(ts.taints).toEqual([
        { key: 'example.com/dedicated', value: 'large', effect: 'NoSchedule', propagation: 'Always' },
      ]);
      expect(ts.version).toBe('v1.33.5');
    });

    it('mp-autoscaled: no replicas, no failureDomains', () => {
      const { mp } = c().mp['mp-autoscaled']!;
      expect(mp.metadata.name).toMatch(nameRe('qs-custom-mp-autoscaled-'));
      expect(mp.spec.replicas).toBeUndefined();
      expect(mp.spec.failureDomains).toBeUndefined();
      expect(mp.metadata.labels).toEqual({
        'ClusterClass.machinePool.label': 'ClusterClass.machinePool.labelValue',
        ...fixedLabels('qs-custom'),
        [MP_NAME]: 'mp-autoscaled',
      });
    });

    it('classic Cluster keeps the user labels/annotations', () => {
      const { cluster } = c();
      expect(cluster.metadata.labels).toEqual({ env: 'test', ...fixedLabels('qs-custom') });
      expect(cluster.metadata.annotations).toEqual({ 'example.com/owner': 'team-a' });
    });
  });

  describe('qs-minimal (everything defaulted)', () => {
    const c = () => clusterOf(render(), 'qs-minimal');

    it('variables: all eight defaulted entries in alphabetical (status) order; the two log levels stay unset', () => {
      const vars = render().variables.get('default/qs-minimal')!;
      expect(vars).toEqual([
        { name: 'controlPlaneTaint', value: true },
        { name: 'coreDNSImageTag', value: '' },
        { name: 'etcdImageTag', value: '' },
        { name: 'externalCloudProvider', value: false },
        { name: 'ipv6Primary', value: false },
        { name: 'kubeadmControlPlaneMaxSurge', value: '' },
        { name: 'lbImageRepository', value: 'kindest' },
        { name: 'preLoadImages', value: [] },
      ]);
      expect(vars.map((v) => v.name)).not.toContain('kubeControlPlaneLogLevel');
      expect(vars.map((v) => v.name)).not.toContain('kubeletLogLevel');
    });

    it('version gets the v prefix; KCP has no spec.replicas; no workers; class MHC still present', () => {
      const cl = c();
      expect(cl.controlPlane.spec.version).toBe('v1.34.2');
      expect('replicas' in cl.controlPlane.spec).toBe(false);
      expect(Object.keys(cl.md)).toEqual([]);
      expect(Object.keys(cl.mp)).toEqual([]);
      expect(
        cl.all.filter((o: { kind: string }) => o.kind === 'MachineDeployment' || o.kind === 'MachinePool'),
      ).toEqual([]);
      expect(cl.cpMachineTemplate.spec.template.spec.backend.docker.customImage).toBe('kindest/node:v1.34.2');
      expect(cl.cpHealthCheck.spec.checks).toEqual(CLASS_CP_CHECKS);
      expect(cl.controlPlane.metadata.labels).toEqual({
        'ControlPlaneTemplate.template.label': 'ControlPlaneTemplate.template.labelValue',
        'ClusterClass.controlPlane.label': 'ClusterClass.controlPlane.labelValue',
        ...fixedLabels('qs-minimal'),
      });
      expect(cl.controlPlane.spec.machineTemplate.spec.deletion).toEqual({ nodeDrainTimeoutSeconds: 1 });
      expect(cl.controlPlane.spec.kubeadmConfigSpec.initConfiguration.nodeRegistration).toEqual({
        kubeletExtraArgs: [EVICTION],
      });
      expect(cl.controlPlane.spec.kubeadmConfigSpec.clusterConfiguration.apiServer.extraArgs).toEqual([PSS_ARG]);
      expect(cl.infraCluster.spec.backend.docker.loadBalancer).toEqual({ imageRepository: 'kindest' });
    });
  });

  describe('variants (inputs changed in memory)', () => {
    type Doc = { kind: string; metadata: { name: string }; spec: Record<string, any> };
    const cluster = (docs: Doc[], name: string) => docs.find((d) => d.kind === 'Cluster' && d.metadata.name === name)!;

    it('upstream e2e value kubeadmControlPlaneMaxSurge "0" gives the string `0"`; ipv6Primary adds localAPIEndpoint', () => {
      const out = renderAdmitted({
        mutate: (docs: Doc[]) => {
          cluster(docs, 'qs-dev-1').spec.topology.variables.push(
            { name: 'kubeadmControlPlaneMaxSurge', value: '0' },
            { name: 'ipv6Primary', value: true },
          );
        },
      });
      expectNoErrors(out);
      const kcp = clusterOf(out, 'qs-dev-1').controlPlane;
      expect(kcp.spec.rollout.strategy).toEqual({ rollingUpdate: { maxSurge: '0"' } });
      expect(kcp.spec.kubeadmConfigSpec.initConfiguration.localAPIEndpoint).toEqual({ advertiseAddress: '::' });
    });

    it('enabledIf is evaluated per template: a CP-only override of kubeletLogLevel enables the CP patch but not the worker one', () => {
      const out = renderAdmitted({
        mutate: (docs: Doc[]) => {
          const t = cluster(docs, 'qs-minimal').spec.topology;
          t.controlPlane = { variables: { overrides: [{ name: 'kubeletLogLevel', value: '5' }] } };
          t.workers = { machineDeployments: [{ class: 'default-worker', name: 'md-0' }] };
        },
      });
      expectNoErrors(out);
      const c = clusterOf(out, 'qs-minimal');
      expect(c.controlPlane.spec.kubeadmConfigSpec.joinConfiguration.nodeRegistration.kubeletExtraArgs).toEqual([
        EVICTION,
        { name: 'v', value: '5' },
      ]);
      expect(c.md['md-0']!.bootstrap.spec.template.spec.joinConfiguration.nodeRegistration.kubeletExtraArgs).toEqual([
        EVICTION,
      ]);
      // MD without replicas: spec.replicas omitted (§2.9).
      expect('replicas' in c.md['md-0']!.md.spec).toBe(false);
    });

    it('write-back rules (§7.1, §7.6): metadata synced into the request, preserved CP fields, writes outside spec.template discarded', () => {
      const KCPT = {
        apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
        kind: 'KubeadmControlPlaneTemplate',
        matchResources: { controlPlane: true },
      };
      const DMT = {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
        kind: 'DevMachineTemplate',
        matchResources: { controlPlane: true },
      };
      // Inline patches may only write under /spec (ClusterClass webhook, §7.5): a patch of the
      // template's own /metadata makes the class invalid. (Writing the template's own metadata
      // back, which only external patches can do, is covered by test/patches/writeback.test.ts.)
      let probeIndex = -1;
      const outsideSpec = renderAdmitted({
        mutate: (docs: Doc[]) => {
          probeIndex =
            docs
              .find((d) => d.kind === 'ClusterClass')!
              .spec.patches.push({
                name: 'probeMetadata',
                definitions: [
                  {
                    selector: DMT,
                    jsonPatches: [{ op: 'add', path: '/metadata/labels/example.com~1clone', value: 'patched' }],
                  },
                ],
              }) - 1;
        },
      });
      expect(
        outsideSpec.errors
          .filter((e) => e.resourceRef?.kind === 'ClusterClass')
          .map((e) => [e.field?.path, e.message.split('; ')[0]]),
      ).toEqual([
        [
          `spec.patches[${probeIndex}].definitions[0].jsonPatches[0].path`,
          'Invalid value: "{\\n  \\"op\\": \\"add\\",\\n  \\"path\\": \\"/metadata/labels/example.com~1clone\\",\\n  \\"value\\": \\"patched\\"\\n}": jsonPatch path must start with "/spec"',
        ],
      ]);
      expect(outsideSpec.clusters.size).toBe(0);
      const out = renderAdmitted({
        mutate: (docs: Doc[]) => {
          docs
            .find((d) => d.kind === 'ClusterClass')!
            .spec.patches.push({
              name: 'probeWriteBack',
              definitions: [
                {
                  selector: KCPT,
                  jsonPatches: [
                    { op: 'add', path: '/spec/template/spec/replicas', value: 5 },
                    { op: 'add', path: '/spec/template/spec/version', value: 'v9.9.9' },
                    { op: 'add', path: '/spec/template/metadata/labels/example.com~1patched', value: 'yes' },
                    { op: 'add', path: '/spec/outsideTemplate', value: 'dropped' },
                  ],
                },
                {
                  selector: DMT,
                  jsonPatches: [
                    { op: 'add', path: '/spec/template/metadata/labels/example.com~1clone', value: 'patched' },
                  ],
                },
              ],
            });
        },
      });
      expectNoErrors(out);
      for (const name of ['qs-dev-1', 'qs-minimal']) {
        const c = clusterOf(out, name);
        // replicas: preserved when the topology sets it (3), otherwise the patched value survives.
        expect(c.controlPlane.spec.replicas, name).toBe(name === 'qs-dev-1' ? 3 : 5);
        expect(c.controlPlane.spec.version, name).toBe('v1.34.2');
        expect(c.controlPlane.metadata.labels['example.com/patched'], name).toBe('yes');
        expect(c.controlPlane.metadata.labels[CLUSTER_NAME], name).toBe(name);
        expect(c.controlPlane.spec.outsideTemplate, name).toBeUndefined();
        expect(c.controlPlane.outsideTemplate, name).toBeUndefined();
        expect(c.cpMachineTemplate.spec.template.metadata.labels['example.com/clone'], name).toBe('patched');
      }
    });

    it('builtin variables seen by each request item (§6), including the template-name builtins = the emitted names', () => {
      const probe = (kind: string, apiVersion: string, matchResources: unknown, variable: string) => ({
        selector: { apiVersion, kind, matchResources },
        jsonPatches: [{ op: 'add', path: '/spec/template/spec/probe', valueFrom: { variable } }],
      });
      const out = renderAdmitted({
        mutate: (docs: Doc[]) => {
          const cc = docs.find((d) => d.kind === 'ClusterClass')!;
          cc.spec.patches.push({
            name: 'probeBuiltins',
            definitions: [
              probe(
                'DevClusterTemplate',
                'infrastructure.cluster.x-k8s.io/v1beta2',
                { infrastructureCluster: true },
                'builtin.cluster',
              ),
              probe(
                'KubeadmControlPlaneTemplate',
                'controlplane.cluster.x-k8s.io/v1beta2',
                { controlPlane: true },
                'builtin.controlPlane',
              ),
              probe(
                'KubeadmConfigTemplate',
                'bootstrap.cluster.x-k8s.io/v1beta2',
                { machineDeploymentClass: { names: ['default-worker'] } },
                'builtin.machineDeployment',
              ),
              probe(
                'KubeadmConfigTemplate',
                'bootstrap.cluster.x-k8s.io/v1beta2',
                { machinePoolClass: { names: ['default-worker'] } },
                'builtin.machinePool',
              ),
            ],
          });
        },
      });
      expectNoErrors(out);
      const c = clusterOf(out, 'qs-dev-1');
      expect(c.infraCluster.spec.probe).toEqual({
        name: 'qs-dev-1',
        namespace: 'default',
        metadata: { labels: { cni: 'qs-dev-1-crs-0', ...fixedLabels('qs-dev-1') } },
        topology: {
          version: 'v1.34.2',
          classRef: { name: 'quick-start', namespace: 'default' },
          class: 'quick-start',
          classNamespace: 'default',
        },
        network: { serviceDomain: 'cluster.local', services: ['10.128.0.0/12'], pods: ['192.168.0.0/16'] },
      });
      const kcp = c.controlPlane;
      const kcpMeta = { ...kcp.metadata };
      expect(kcp.spec.probe).toEqual({
        version: 'v1.34.2',
        metadata: { labels: kcpMeta.labels, annotations: kcpMeta.annotations },
        name: kcp.metadata.name,
        replicas: 3,
        machineTemplate: { infrastructureRef: { name: c.cpMachineTemplate.metadata.name } },
      });
      expect(kcp.spec.probe.metadata.labels['ControlPlaneTemplate.template.label']).toBe(
        'ControlPlaneTemplate.template.labelValue',
      );
      expect(kcp.spec.probe.metadata.annotations[CLONED_NAME]).toBe('quick-start-control-plane');
      const md = c.md['md-0']!;
      expect(md.bootstrap.spec.template.spec.probe).toEqual({
        version: 'v1.34.2',
        metadata: { labels: md.md.metadata.labels, annotations: md.md.metadata.annotations },
        class: 'default-worker',
        name: md.md.metadata.name,
        topologyName: 'md-0',
        replicas: 2,
        bootstrap: { configRef: { name: md.bootstrap.metadata.name } },
        infrastructureRef: { name: md.infra.metadata.name },
      });
      const mp = c.mp['mp-0']!;
      expect(mp.bootstrap.spec.probe).toEqual({
        version: 'v1.34.2',
        metadata: { labels: mp.mp.metadata.labels, annotations: mp.mp.metadata.annotations },
        class: 'default-worker',
        name: mp.mp.metadata.name,
        topologyName: 'mp-0',
        replicas: 2,
        bootstrap: { configRef: { name: mp.bootstrap.metadata.name } },
        infrastructureRef: { name: mp.infra.metadata.name },
      });
      // qs-custom: Cluster annotations appear in builtin.cluster.metadata; no replicas for mp-autoscaled.
      const custom = clusterOf(out, 'qs-custom');
      expect(custom.infraCluster.spec.probe.metadata).toEqual({
        labels: { env: 'test', ...fixedLabels('qs-custom') },
        annotations: { 'example.com/owner': 'team-a' },
      });
      expect('replicas' in custom.mp['mp-autoscaled']!.bootstrap.spec.probe).toBe(false);
      // qs-minimal: no clusterNetwork → no builtin.cluster.network; no CP replicas → no builtin.controlPlane.replicas.
      const minimal = clusterOf(out, 'qs-minimal');
      expect(minimal.infraCluster.spec.probe.network).toBeUndefined();
      expect('replicas' in minimal.controlPlane.spec.probe).toBe(false);
      expect(minimal.controlPlane.spec.replicas).toBeUndefined();
    });
  });

  it('with a Cluster uid, owner references → Cluster go exactly on the CP machine template, MD templates, MP objects and MHCs (§2.11)', () => {
    const uid = '6a1f5c9e-0000-4000-8000-000000000001';
    const withUid = renderAdmitted({
      mutate: (docs) => {
        docs.find((d) => d.kind === 'Cluster' && d.metadata.name === 'qs-dev-1').metadata.uid = uid;
      },
    });
    expectNoErrors(withUid);
    const cl = clusterOf(withUid, 'qs-dev-1');
    const owner = [{ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', name: 'qs-dev-1', uid }];
    const owned = [
      cl.cpMachineTemplate,
      cl.cpHealthCheck,
      cl.md['md-0']!.bootstrap,
      cl.md['md-0']!.infra,
      cl.mp['mp-0']!.bootstrap,
      cl.mp['mp-0']!.infra,
    ];
    for (const o of owned) expect(o.metadata.ownerReferences, `${o.kind} ${o.metadata.name}`).toEqual(owner);
    for (const o of [cl.infraCluster, cl.controlPlane, cl.md['md-0']!.md, cl.mp['mp-0']!.mp])
      expect(o.metadata.ownerReferences, `${o.kind}`).toBeUndefined();
  });

  it('CLI: `render FILE --format manifests` prints every applyable object (3 classic Clusters + generated objects)', async () => {
    const { runRender } = await import('../../src/cli/render.js');
    const { fakeIO } = await import('../helpers/io.js');
    const { parseAllDocuments } = await import('yaml');
    const { quickStart } = await import('../explain/helpers.js');
    const io = fakeIO();
    const code = await runRender(
      [quickStart, '--format', 'manifests', '--feature-gates', 'MachineTaintPropagation=true'],
      io,
    );
    expect(code).toBe(0);
    const docs = parseAllDocuments(io.out).map((d) => d.toJS());
    const kinds = (cluster: string) =>
      docs.filter((d) => d.metadata?.labels?.[CLUSTER_NAME] === cluster).map((d) => d.kind);
    expect(kinds('qs-minimal')).toEqual([
      'Cluster',
      'DevCluster',
      'DevMachineTemplate',
      'KubeadmControlPlane',
      'MachineHealthCheck',
    ]);
    expect(kinds('qs-custom').filter((k) => k === 'MachineHealthCheck')).toHaveLength(1);
    expect(kinds('qs-dev-1')).toContain('MachinePool');
  });
});
