/**
 * k3s-docker-v1beta1.yaml — a v1beta1 class whose K3s control plane and bootstrap templates are
 * v1beta2 objects following contract v1beta1 (CRD label `cluster.x-k8s.io/v1beta1:
 * v1beta1_v1beta2`, §1.2), a MachineDeployment class and a MachinePool class of the same name, a
 * `|` block template whose trailing newline disappears when the output is parsed as YAML (§7),
 * versions like `v1.31.8+k3s1`. Docker* kinds have no CRD at the pinned cluster-api commit.
 * Expectations from the fixture README's "Expected-result hints" and the YAML; each holds with
 * and without the fixture CRDs.
 */
import { describe, expect, it } from 'vitest';
import { clusterOf, expectNoErrors, fixtureMissing, rendersOf } from './helpers.js';

const FILE = 'k3s-docker-v1beta1.yaml';

describe.skipIf(fixtureMissing(FILE))('real-world: k3s-docker-v1beta1', () => {
  for (const [variant, render] of rendersOf(FILE)) {
    describe(variant, () => {
      it('renders both Clusters with no error result', () => {
        expectNoErrors(render());
        expect([...render().clusters.keys()].sort()).toEqual(['default/k3s-mp', 'default/k3s-topo']);
      });

      it("k3s-topo: DockerMachineTemplate clones get kindest/node:v1.33.0, without the template's trailing newline", () => {
        const c = clusterOf(render(), 'k3s-topo');
        expect(c.cpMachineTemplate.spec.template.spec.customImage).toBe('kindest/node:v1.33.0');
        expect(c.md['k3s-topo-md-0']!.infra.spec.template.spec.customImage).toBe('kindest/node:v1.33.0');
      });

      it('k3s-topo: the KThreesControlPlane (contract v1beta1) gets spec.machineTemplate.infrastructureRef, not .spec.infrastructureRef', () => {
        const { controlPlane: cp, cpMachineTemplate } = clusterOf(render(), 'k3s-topo');
        expect(cp.kind).toBe('KThreesControlPlane');
        expect(cp.spec.machineTemplate.infrastructureRef).toMatchObject({
          apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
          kind: 'DockerMachineTemplate',
          name: cpMachineTemplate.metadata.name,
        });
        expect(cp.spec.machineTemplate.spec).toBeUndefined();
        expect(cp.spec.version).toBe('v1.31.8+k3s1');
      });

      it('k3s-mp: the MachinePool override (v1.32.5) reaches only the DockerMachinePool; no control plane MachineHealthCheck', () => {
        const c = clusterOf(render(), 'k3s-mp');
        expect(c.mp['mp-0']!.infra.kind).toBe('DockerMachinePool');
        expect(c.mp['mp-0']!.infra.spec.template.customImage).toBe('kindest/node:v1.32.5');
        expect(c.cpMachineTemplate.spec.template.spec.customImage).toBe('kindest/node:v1.32.2');
        expect(c.md['md-0']!.infra.spec.template.spec.customImage).toBe('kindest/node:v1.32.2');
        expect(c.cpHealthCheck).toBeUndefined();
      });
    });
  }
});
