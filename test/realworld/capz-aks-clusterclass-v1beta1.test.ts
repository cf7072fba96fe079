/**
 * capz-aks-clusterclass-v1beta1.yaml — CAPZ `aks-default` (cluster.x-k8s.io/v1beta1): a managed
 * control plane (no machineInfrastructure, no replicas; the template already carries
 * `spec.version`), MachinePool classes only, no variables or patches. §2.2 (template → object),
 * §2.5 (no machine template / no replicas when unset), §2.8 (version), §2.10 (MachinePools).
 */
import { describe, expect, it } from 'vitest';
import {
  CLONED_GK,
  CLONED_NAME,
  MP_NAME,
  clusterOf,
  expectNoErrors,
  fixedLabels,
  fixtureMissing,
  nameRe,
  renderFixture,
  type FixtureRender,
} from './helpers.js';

const FILE = 'capz-aks-clusterclass-v1beta1.yaml';

describe.skipIf(fixtureMissing(FILE))('real-world: capz-aks-clusterclass-v1beta1', () => {
  let r: FixtureRender;
  const render = () => (r ??= renderFixture(FILE));
  const c = () => clusterOf(render(), 'capz-aks');

  it('renders capz-aks with no error result; no variables at all', () => {
    expectNoErrors(render());
    expect([...render().clusters.keys()]).toEqual(['default/capz-aks']);
    expect(render().variables.get('default/capz-aks')).toEqual([]);
  });

  it('AzureManagedCluster from an empty template spec', () => {
    const infra = c().infraCluster;
    expect(infra.apiVersion).toBe('infrastructure.cluster.x-k8s.io/v1beta1');
    expect(infra.kind).toBe('AzureManagedCluster');
    expect(infra.metadata.name).toMatch(nameRe('capz-aks-'));
    expect(infra.metadata.labels).toEqual(fixedLabels('capz-aks'));
    expect(infra.metadata.annotations).toEqual({
      [CLONED_NAME]: 'capz-aks',
      [CLONED_GK]: 'AzureManagedClusterTemplate.infrastructure.cluster.x-k8s.io',
    });
    expect(infra.spec).toEqual({});
  });

  it('AzureManagedControlPlane: template spec + topology version; no replicas, no machineTemplate, no CP machine template, no MHC', () => {
    const { controlPlane: cp, cpMachineTemplate, mhcs } = c();
    expect(cp.apiVersion).toBe('infrastructure.cluster.x-k8s.io/v1beta1');
    expect(cp.kind).toBe('AzureManagedControlPlane');
    expect(cp.metadata.name).toMatch(nameRe('capz-aks-'));
    expect(cp.metadata.labels).toEqual(fixedLabels('capz-aks'));
    expect(cp.metadata.annotations).toEqual({
      [CLONED_NAME]: 'capz-aks-control-plane',
      [CLONED_GK]: 'AzureManagedControlPlaneTemplate.infrastructure.cluster.x-k8s.io',
    });
    expect(cp.spec).toEqual({
      identityRef: {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
        kind: 'AzureClusterIdentity',
        name: 'cluster-identity',
      },
      location: 'eastus',
      subscriptionID: '00000000-1111-2222-3333-444444444444',
      version: 'v1.33.2',
    });
    expect(cpMachineTemplate).toBeUndefined();
    expect(mhcs).toEqual([]);
    expect(c().md).toEqual({});
  });

  it('two MachinePools, each with a KubeadmConfig and an AzureManagedMachinePool object (not templates)', () => {
    const mps = c().mp;
    expect(Object.keys(mps).sort()).toEqual(['mp-0', 'mp-1']);
    for (const [name, pool, mode] of [
      ['mp-0', 'pool0', 'System'],
      ['mp-1', 'pool1', 'User'],
    ] as const) {
      const { mp, bootstrap, infra } = mps[name]!;
      expect(bootstrap.apiVersion).toBe('bootstrap.cluster.x-k8s.io/v1beta1');
      expect(bootstrap.kind).toBe('KubeadmConfig');
      expect(bootstrap.metadata.name).toMatch(nameRe(`capz-aks-${name}-`));
      expect(bootstrap.metadata.labels).toEqual({ ...fixedLabels('capz-aks'), [MP_NAME]: name });
      expect(bootstrap.metadata.annotations).toEqual({
        [CLONED_NAME]: `capz-aks-${pool}`,
        [CLONED_GK]: 'KubeadmConfigTemplate.bootstrap.cluster.x-k8s.io',
      });
      expect(bootstrap.spec).toEqual({});
      expect(infra.apiVersion).toBe('infrastructure.cluster.x-k8s.io/v1beta1');
      expect(infra.kind).toBe('AzureManagedMachinePool');
      expect(infra.metadata.name).toMatch(nameRe(`capz-aks-${name}-`));
      expect(infra.spec).toEqual({ mode, name: pool, sku: 'Standard_D2s_v3' });
      expect(mp.metadata.name).toMatch(nameRe(`capz-aks-${name}-`));
      expect(mp.metadata.labels).toEqual({ ...fixedLabels('capz-aks'), [MP_NAME]: name });
      expect(mp.spec.template.metadata.labels).toEqual({ ...fixedLabels('capz-aks'), [MP_NAME]: name });
      expect(mp.spec.replicas).toBe(1);
      expect(mp.spec.clusterName).toBe('capz-aks');
      expect(mp.spec.template.spec.version).toBe('v1.33.2');
      expect(mp.spec.template.spec.clusterName).toBe('capz-aks');
      // v1beta1 output (auto, Cluster is v1beta1): full object references.
      expect(mp.apiVersion).toBe('cluster.x-k8s.io/v1beta1');
      expect(mp.spec.template.spec.bootstrap.configRef).toEqual({
        apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta1',
        kind: 'KubeadmConfig',
        name: bootstrap.metadata.name,
        namespace: 'default',
      });
      expect(mp.spec.template.spec.infrastructureRef).toEqual({
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
        kind: 'AzureManagedMachinePool',
        name: infra.metadata.name,
        namespace: 'default',
      });
    }
  });

  it('v1beta2 output: MachinePool refs are {apiGroup, kind, name}; classic Cluster refs too', () => {
    const out = renderFixture(FILE, { settings: { outputApiVersion: 'v1beta2' } });
    expectNoErrors(out);
    const cl = clusterOf(out, 'capz-aks');
    const { mp, bootstrap, infra } = cl.mp['mp-0']!;
    expect(mp.apiVersion).toBe('cluster.x-k8s.io/v1beta2');
    expect(mp.spec.template.spec.bootstrap.configRef).toEqual({
      apiGroup: 'bootstrap.cluster.x-k8s.io',
      kind: 'KubeadmConfig',
      name: bootstrap.metadata.name,
    });
    expect(mp.spec.template.spec.infrastructureRef).toEqual({
      apiGroup: 'infrastructure.cluster.x-k8s.io',
      kind: 'AzureManagedMachinePool',
      name: infra.metadata.name,
    });
    expect(cl.cluster.spec.controlPlaneRef).toEqual({
      apiGroup: 'infrastructure.cluster.x-k8s.io',
      kind: 'AzureManagedControlPlane',
      name: cl.controlPlane.metadata.name,
    });
  });

  it('classic Cluster (v1beta1) references the managed control plane and cluster', () => {
    const { cluster, infraCluster, controlPlane } = c();
    expect(cluster.apiVersion).toBe('cluster.x-k8s.io/v1beta1');
    expect(cluster.spec.infrastructureRef).toEqual({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
      kind: 'AzureManagedCluster',
      name: infraCluster.metadata.name,
      namespace: 'default',
    });
    expect(cluster.spec.controlPlaneRef).toEqual({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
      kind: 'AzureManagedControlPlane',
      name: controlPlane.metadata.name,
      namespace: 'default',
    });
    expect(cluster.spec.clusterNetwork).toEqual({ pods: { cidrBlocks: ['192.168.0.0/16'] } });
  });
});
