/**
 * capibm-powervs-clusterclass.yaml — infrastructure templates in API version v1beta3 (contract
 * v1beta2 through the label `cluster.x-k8s.io/v1beta2: v1beta3`, §1.2), no variables or patches,
 * the Cluster before the ClusterClass in the file, and template object labels that CAPI copies to
 * the per-Cluster clone, the cluster-name label overwritten by the Cluster's (§3.5).
 * Expectations from the fixture README's "Expected-result hints" and the YAML; each holds with
 * and without the fixture CRDs.
 */
import { describe, expect, it } from 'vitest';
import { CLUSTER_NAME, clusterOf, expectNoErrors, fixtureMissing, rendersOf } from './helpers.js';

const FILE = 'capibm-powervs-clusterclass.yaml';

describe.skipIf(fixtureMissing(FILE))('real-world: capibm-powervs-clusterclass', () => {
  for (const [variant, render] of rendersOf(FILE)) {
    describe(variant, () => {
      it('renders both Clusters with no error result (the first one precedes its ClusterClass in the file)', () => {
        expectNoErrors(render());
        expect([...render().clusters.keys()].sort()).toEqual(['default/ibm-powervs-1', 'default/ibm-powervs-2']);
      });

      it('ibm-powervs-2: the worker KubeadmConfigTemplate clone keeps the template labels, cluster-name overwritten', () => {
        const { bootstrap } = clusterOf(render(), 'ibm-powervs-2').md['md-0']!;
        expect(bootstrap.kind).toBe('KubeadmConfigTemplate');
        expect(bootstrap.metadata.labels[CLUSTER_NAME]).toBe('ibm-powervs-2');
        expect(bootstrap.metadata.labels['cluster.x-k8s.io/control-plane']).toBe('');
      });

      it('v1beta3 infrastructure objects; the KubeadmControlPlane (contract v1beta2) references the v1beta3 machine template by apiGroup', () => {
        const c = clusterOf(render(), 'ibm-powervs-1');
        expect(c.infraCluster.apiVersion).toBe('infrastructure.cluster.x-k8s.io/v1beta3');
        expect(c.infraCluster.kind).toBe('IBMPowerVSCluster');
        expect(c.controlPlane.spec.machineTemplate.spec.infrastructureRef).toEqual({
          apiGroup: 'infrastructure.cluster.x-k8s.io',
          kind: 'IBMPowerVSMachineTemplate',
          name: c.cpMachineTemplate.metadata.name,
        });
        expect(c.controlPlane.spec.replicas).toBe(3);
      });
    });
  }
});
