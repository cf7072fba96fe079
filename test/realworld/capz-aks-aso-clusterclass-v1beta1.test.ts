/**
 * capz-aks-aso-clusterclass-v1beta1.yaml — CAPZ's Azure Service Operator flavour (v1beta1 class):
 * every infrastructure template is `spec: {}` and a patch replaces the whole `/spec/template/spec`
 * with raw ASO resources named from `{{ .builtin.cluster.name }}` (§7); MachinePool classes only
 * (§2.10). Expectations from the fixture README's "Expected-result hints" and the YAML; each holds
 * with and without the fixture CRDs.
 */
import { describe, expect, it } from 'vitest';
import { clusterOf, expectNoErrors, fixtureMissing, rendersOf, type Obj } from './helpers.js';

const FILE = 'capz-aks-aso-clusterclass-v1beta1.yaml';
const resourcesOf = (o: Obj): Obj[] => o.spec.resources;

describe.skipIf(fixtureMissing(FILE))('real-world: capz-aks-aso-clusterclass-v1beta1', () => {
  for (const [variant, render] of rendersOf(FILE)) {
    describe(variant, () => {
      it('renders both Clusters with no error result', () => {
        expectNoErrors(render());
        expect([...render().clusters.keys()].sort()).toEqual(['default/capz-aso', 'default/capz-aso-2']);
      });

      it("capz-aso-2: the control plane takes the topology version v1.32.6, not the patch's v1.33.2; no replicas, no machine template", () => {
        const { controlPlane: cp, cpMachineTemplate } = clusterOf(render(), 'capz-aso-2');
        expect(cp.kind).toBe('AzureASOManagedControlPlane');
        expect(cp.spec.version).toBe('v1.32.6');
        expect(cp.spec.replicas).toBeUndefined();
        expect(cp.spec.machineTemplate).toBeUndefined();
        expect(cpMachineTemplate).toBeUndefined();
        expect(resourcesOf(cp).map((r) => [r.kind, r.metadata.name])).toEqual([['ManagedCluster', 'capz-aso-2']]);
      });

      it("capz-aso-2: the AzureASOManagedCluster's ResourceGroup is named after the Cluster", () => {
        const infra = clusterOf(render(), 'capz-aso-2').infraCluster;
        expect(infra.kind).toBe('AzureASOManagedCluster');
        expect(resourcesOf(infra).map((r) => [r.kind, r.metadata.name])).toEqual([['ResourceGroup', 'capz-aso-2']]);
      });

      it('capz-aso-2: user-a and user-b (one class) both carry the agent pool capz-aso-2-pool1 (named from the Cluster only)', () => {
        const { mp } = clusterOf(render(), 'capz-aso-2');
        expect(Object.keys(mp).sort()).toEqual(['sys', 'user-a', 'user-b']);
        for (const name of ['user-a', 'user-b']) {
          expect(mp[name]!.infra.kind).toBe('AzureASOManagedMachinePool');
          expect(resourcesOf(mp[name]!.infra).map((r) => [r.kind, r.metadata.name])).toEqual([
            ['ManagedClustersAgentPool', 'capz-aso-2-pool1'],
          ]);
        }
        expect(resourcesOf(mp.sys!.infra).map((r) => r.metadata.name)).toEqual(['capz-aso-2-pool0']);
        expect(mp['user-b']!.mp.spec.replicas).toBeUndefined();
        expect(mp['user-a']!.mp.spec.replicas).toBe(2);
      });
    });
  }
});
