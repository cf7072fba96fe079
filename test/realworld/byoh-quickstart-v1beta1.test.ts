/**
 * byoh-quickstart-v1beta1.yaml — BYOH's quickstart class (v1beta1): an `add` at an array index of
 * an existing element (`/spec/template/spec/kubeadmConfigSpec/files/0/content`), required
 * variables, a variable value holding Go-template text that must reach the object verbatim (only
 * patch templates are evaluated, §7), a class default (§5.4). Expectations from the fixture
 * README's "Expected-result hints" and the YAML; each holds with and without the fixture CRDs.
 */
import { describe, expect, it } from 'vitest';
import { clusterOf, expectNoErrors, fixtureMissing, readFixtureItems, rendersOf, type Obj } from './helpers.js';

const FILE = 'byoh-quickstart-v1beta1.yaml';

describe.skipIf(fixtureMissing(FILE))('real-world: byoh-quickstart-v1beta1', () => {
  const variable = (cluster: string, name: string) =>
    (
      readFixtureItems(FILE).find((i) => i.value.kind === 'Cluster' && (i.value.metadata as Obj).name === cluster)!
        .value as Obj
    ).spec.topology.variables.find((v: Obj) => v.name === name).value;

  for (const [variant, render] of rendersOf(FILE)) {
    describe(variant, () => {
      it('renders both Clusters with no error result', () => {
        expectNoErrors(render());
        expect([...render().clusters.keys()].sort()).toEqual(['default/byoh-1', 'default/byoh-defaults']);
      });

      it('byoh-1: files[0].content of the KubeadmControlPlane is kubeVipPodManifest byte for byte, {{ .DefaultNetworkInterfaceName }} included', () => {
        const manifest = variable('byoh-1', 'kubeVipPodManifest');
        expect(manifest).toContain('{{ .DefaultNetworkInterfaceName }}');
        expect(clusterOf(render(), 'byoh-1').controlPlane.spec.kubeadmConfigSpec.files[0].content).toBe(manifest);
      });

      it('byoh-1: the ByoCluster gets the control plane endpoint from the template patch (integer port)', () => {
        const infra = clusterOf(render(), 'byoh-1').infraCluster;
        expect(infra.kind).toBe('ByoCluster');
        expect(infra.spec.controlPlaneEndpoint).toEqual({ host: '172.18.0.100', port: 6443 });
      });

      it('byoh-defaults: bundleLookupBaseRegistry comes from the class default', () => {
        const infra = clusterOf(render(), 'byoh-defaults').infraCluster;
        expect(infra.spec.bundleLookupBaseRegistry).toBe(
          'https://projects.registry.vmware.com/cluster_api_provider_bringyourownhost',
        );
        expect(infra.spec.controlPlaneEndpoint).toEqual({ host: '172.18.0.101', port: 6443 });
      });
    });
  }
});
