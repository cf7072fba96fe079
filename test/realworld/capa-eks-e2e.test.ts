/**
 * capa-eks-e2e.yaml — a v1beta2 class with a managed control plane (AWSManagedControlPlaneTemplate,
 * contract v1beta1): no machineInfrastructure, no replicas, a template that already carries
 * `spec.version` (§2.5, §2.8); `spec: {}` and `template: {}` templates. Expectations from the
 * fixture README's "Expected-result hints" and the YAML; each holds with and without the CRDs.
 */
import { describe, expect, it } from 'vitest';
import { clusterOf, expectNoErrors, fixtureMissing, rendersOf } from './helpers.js';

const FILE = 'capa-eks-e2e.yaml';

describe.skipIf(fixtureMissing(FILE))('real-world: capa-eks-e2e', () => {
  for (const [variant, render] of rendersOf(FILE)) {
    describe(variant, () => {
      it('renders both Clusters with no error result', () => {
        expectNoErrors(render());
        expect([...render().clusters.keys()].sort()).toEqual(['default/capa-eks-1', 'default/capa-eks-2']);
      });

      it("capa-eks-2: the control plane takes the topology version (v1.33.4), not the template's v1.34.8; no replicas, no machine template", () => {
        const { controlPlane: cp, cpMachineTemplate, cpHealthCheck } = clusterOf(render(), 'capa-eks-2');
        expect(cp.kind).toBe('AWSManagedControlPlane');
        expect(cp.spec.version).toBe('v1.33.4');
        expect(cp.spec.region).toBe('us-west-2');
        expect(cp.spec.replicas).toBeUndefined();
        expect(cp.spec.machineTemplate).toBeUndefined();
        expect(cpMachineTemplate).toBeUndefined();
        expect(cpHealthCheck).toBeUndefined();
      });

      it('capa-eks-1: version v1.34.8; the NodeadmConfigTemplate clone keeps `template: {}`', () => {
        const c = clusterOf(render(), 'capa-eks-1');
        expect(c.controlPlane.spec.version).toBe('v1.34.8');
        expect(c.md['md-0']!.bootstrap.kind).toBe('NodeadmConfigTemplate');
        expect(c.md['md-0']!.bootstrap.spec.template).toEqual({});
      });

      it('capa-eks-2: two MachineDeployments in their failure domains, at the topology version', () => {
        const { md } = clusterOf(render(), 'capa-eks-2');
        expect(Object.keys(md).sort()).toEqual(['ng-a', 'ng-b']);
        expect(md['ng-a']!.md.spec.template.spec.failureDomain).toBe('us-west-2a');
        expect(md['ng-b']!.md.spec.template.spec.failureDomain).toBe('us-west-2b');
        expect(md['ng-b']!.md.spec.replicas).toBe(3);
        for (const m of Object.values(md)) expect(m.md.spec.template.spec.version).toBe('v1.33.4');
      });
    });
  }
});
