/**
 * capi-docker-quick-start-runtimesdk.yaml — class `quick-start-runtimesdk`: ONLY external
 * (Runtime SDK) patches plus custom naming templates. Spec §7.7: an offline renderer must fail
 * clearly on `generatePatchesExtension` unless told to skip it; §3.1: naming templates are Go
 * templates with `.cluster.name`, `.random`, `.machineDeployment.topologyName`,
 * `.machinePool.topologyName`; clone names keep their fixed prefixes.
 */
import { describe, expect, it } from 'vitest';
import {
  CLONED_NAME,
  clusterOf,
  errorsFor,
  fixedLabels,
  fixtureMissing,
  nameRe,
  renderFixture,
  RANDOM5,
} from './helpers.js';

const FILE = 'capi-docker-quick-start-runtimesdk.yaml';

describe.skipIf(fixtureMissing(FILE))('real-world: capi-docker-quick-start-runtimesdk', () => {
  it("with CAPI's default gates: the class is refused as CAPI's webhook refuses it (RuntimeSDK off), nothing rendered", () => {
    const r = renderFixture(FILE, { settings: { featureGates: {} } });
    expect(
      r.errors
        .filter((e) => e.resourceRef?.kind === 'ClusterClass')
        .map((e) => [e.field?.path, e.message.split('; ')[0]]),
    ).toEqual([
      [
        'spec.patches[0].external',
        'Forbidden: patch.external can be used only if the RuntimeSDK feature flag is enabled',
      ],
    ]);
    expect(errorsFor(r, 'rt-1').map((e) => e.tags?.rule)).toEqual(['class-invalid']);
    expect(r.clusters.has('default/rt-1')).toBe(false);
  });

  it('with RuntimeSDK on and no extension: rt-1 fails with exactly one error naming the external generate extension; nothing rendered', () => {
    const r = renderFixture(FILE);
    expect(r.errors).toHaveLength(1);
    expect(errorsFor(r, 'rt-1')).toHaveLength(1);
    const msg = r.errors[0]!.message;
    expect(msg).toContain('test-patch');
    expect(msg).toContain('generate-patches.k8s-upgrade-with-runtimesdk');
    expect(msg).toContain('skipExternalPatches');
    expect(r.clusters.has('default/rt-1')).toBe(false);
  });

  it('with skipExternalPatches=true: renders with warnings only, and the class naming templates decide the names', () => {
    const r = renderFixture(FILE, { settings: { skipExternalPatches: true } });
    expect(r.errors).toEqual([]);
    // The skipped extension is reported (clear warning), not silently dropped.
    expect(
      r.results.some(
        (x) => x.severity === 'warning' && x.message.includes('generate-patches.k8s-upgrade-with-runtimesdk'),
      ),
    ).toBe(true);
    // So is variable discovery, which only a live extension can answer (§5.2, §7.7).
    expect(
      r.results.find((x) => x.field?.path === 'spec.patches[0].external.discoverVariablesExtension'),
    ).toMatchObject({ severity: 'warning' });
    const c = clusterOf(r, 'rt-1');
    // {{ .cluster.name }}-infra-{{ .random }}
    expect(c.infraCluster.kind).toBe('DevCluster');
    expect(c.infraCluster.metadata.name).toMatch(nameRe('rt-1-infra-'));
    // {{ .cluster.name }}-cp-{{ .random }}
    expect(c.controlPlane.kind).toBe('KubeadmControlPlane');
    expect(c.controlPlane.metadata.name).toMatch(nameRe('rt-1-cp-'));
    // {{ .cluster.name }}-md-{{ .machineDeployment.topologyName }}-{{ .random }}
    expect(c.md['md-0']!.md.metadata.name).toMatch(nameRe('rt-1-md-md-0-'));
    // Clones are prefix-generated and not configurable (§3.1).
    expect(c.cpMachineTemplate.metadata.name).toMatch(nameRe('rt-1-'));
    expect(c.cpMachineTemplate.metadata.name).not.toMatch(/^rt-1-cp-/);
    expect(c.md['md-0']!.bootstrap.metadata.name).toMatch(nameRe('rt-1-md-0-'));
    expect(c.md['md-0']!.infra.metadata.name).toMatch(nameRe('rt-1-md-0-'));
    // References follow the generated names.
    expect(c.cluster.spec.infrastructureRef.name).toBe(c.infraCluster.metadata.name);
    expect(c.cluster.spec.controlPlaneRef.name).toBe(c.controlPlane.metadata.name);
    expect(c.controlPlane.spec.machineTemplate.spec.infrastructureRef.name).toBe(c.cpMachineTemplate.metadata.name);
    expect(c.md['md-0']!.md.spec.template.spec.infrastructureRef.name).toBe(c.md['md-0']!.infra.metadata.name);
    expect(c.md['md-0']!.md.spec.template.spec.bootstrap.configRef.name).toBe(c.md['md-0']!.bootstrap.metadata.name);
  });

  it('with skipExternalPatches=true: objects are the unpatched templates plus topology fields', () => {
    const c = clusterOf(renderFixture(FILE, { settings: { skipExternalPatches: true } }), 'rt-1');
    expect(c.infraCluster.metadata.labels).toEqual(fixedLabels('rt-1'));
    expect(c.infraCluster.spec.backend.docker.failureDomains).toHaveLength(8);
    expect(c.infraCluster.spec.backend.docker.loadBalancer).toBeUndefined();
    const kcp = c.controlPlane;
    expect(kcp.spec.replicas).toBe(1);
    expect(kcp.spec.version).toBe('v1.34.2');
    expect(kcp.spec.kubeadmConfigSpec.clusterConfiguration).toEqual({
      apiServer: { certSANs: ['localhost', '127.0.0.1', '0.0.0.0', 'host.docker.internal'] },
      encryptionAlgorithm: 'RSA-4096',
    });
    expect(kcp.spec.machineTemplate.spec.deletion).toEqual({ nodeDrainTimeoutSeconds: 1 });
    expect(kcp.spec.machineTemplate.metadata.labels).toEqual(fixedLabels('rt-1'));
    expect(c.cpMachineTemplate.spec.template.spec.backend.docker.customImage).toBeUndefined();
    // The worker KubeadmConfigTemplate has no spec at all: the clone has none either (§2.3 copies verbatim).
    expect(c.md['md-0']!.bootstrap.spec).toBeUndefined();
    expect(c.md['md-0']!.bootstrap.metadata.annotations[CLONED_NAME]).toBe(
      'quick-start-default-worker-bootstraptemplate',
    );
    expect(c.md['md-0']!.md.spec.replicas).toBe(1);
    // No health checks anywhere in the class.
    expect(c.mhcs).toEqual([]);
  });

  it('MachinePool naming template {{ .cluster.name }}-mp-{{ .machinePool.topologyName }}-{{ .random }} (MP added in memory)', () => {
    const r = renderFixture(FILE, {
      settings: { skipExternalPatches: true },
      mutate: (docs) => {
        const cl = docs.find((d) => d.kind === 'Cluster');
        cl.spec.topology.workers.machinePools = [{ class: 'default-worker', name: 'pool-a', replicas: 2 }];
      },
    });
    expect(r.errors).toEqual([]);
    const { mp, bootstrap, infra } = clusterOf(r, 'rt-1').mp['pool-a']!;
    expect(mp.metadata.name).toMatch(nameRe('rt-1-mp-pool-a-'));
    expect(bootstrap.metadata.name).toMatch(nameRe('rt-1-pool-a-'));
    expect(bootstrap.kind).toBe('KubeadmConfig');
    expect(infra.metadata.name).toMatch(new RegExp(`^rt-1-pool-a-${RANDOM5}$`));
    expect(infra.kind).toBe('DevMachinePool');
    expect(mp.spec.replicas).toBe(2);
  });
});
