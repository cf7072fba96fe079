/**
 * rke2-docker-in-place.yaml — a non-kubeadm control plane and bootstrap provider (RKE2, contract
 * v1beta2 for its v1beta2 objects, §1.2), array variables patched in as whole values (§7), a
 * MachineDeployment variable override (§5.6) and versions with build metadata (`+rke2r1`, which
 * CAPI's Cluster webhook accepts: blang semver.Parse). Docker* kinds have no CRD at the pinned
 * cluster-api commit, so the CRD variant validates the RKE2 objects only. Expectations from the
 * fixture README's "Expected-result hints" and the YAML; each holds with and without the CRDs.
 */
import { describe, expect, it } from 'vitest';
import { clusterOf, expectNoErrors, fixtureMissing, rendersOf } from './helpers.js';

const FILE = 'rke2-docker-in-place.yaml';

describe.skipIf(fixtureMissing(FILE))('real-world: rke2-docker-in-place', () => {
  for (const [variant, render] of rendersOf(FILE)) {
    describe(variant, () => {
      it('renders both Clusters (v1.34.2+rke2r1, v1.33.6+rke2r1) with no error result', () => {
        expectNoErrors(render());
        expect([...render().clusters.keys()].sort()).toEqual(['default/rke2-ip-1', 'default/rke2-ip-files']);
      });

      it('rke2-ip-1: the RKE2ControlPlane (contract v1beta2) gets machineTemplate.spec.infrastructureRef and the build-metadata version', () => {
        const { controlPlane: cp, cpMachineTemplate } = clusterOf(render(), 'rke2-ip-1');
        expect(cp.kind).toBe('RKE2ControlPlane');
        expect(cp.spec.version).toBe('v1.34.2+rke2r1');
        expect(cp.spec.machineTemplate.spec.infrastructureRef).toEqual({
          apiGroup: 'infrastructure.cluster.x-k8s.io',
          kind: 'DockerMachineTemplate',
          name: cpMachineTemplate.metadata.name,
        });
        expect(cp.spec.machineTemplate.infrastructureRef).toBeUndefined();
        expect(cp.spec.replicas).toBe(3);
      });

      it('rke2-ip-1: files: [] and preRKE2Commands: [] are patched in whole, on the control plane and the worker template', () => {
        const c = clusterOf(render(), 'rke2-ip-1');
        expect(c.controlPlane.spec.files).toEqual([]);
        expect(c.controlPlane.spec.preRKE2Commands).toEqual([]);
        expect(c.md['md-0']!.bootstrap.spec.template.spec).toEqual({ files: [], preRKE2Commands: [] });
        expect(c.md['md-0']!.md.spec.template.spec.version).toBe('v1.34.2+rke2r1');
      });

      it('rke2-ip-files: the worker gets only /etc/worker-only.conf (its override), the control plane only /tmp/rke2-in-place-test', () => {
        const c = clusterOf(render(), 'rke2-ip-files');
        expect(c.controlPlane.spec.files.map((f: { path: string }) => f.path)).toEqual(['/tmp/rke2-in-place-test']);
        expect(c.md['md-0']!.bootstrap.spec.template.spec.files.map((f: { path: string }) => f.path)).toEqual([
          '/etc/worker-only.conf',
        ]);
        expect(c.controlPlane.spec.preRKE2Commands).toEqual([
          'echo "pre rke2" > /tmp/pre-rke2',
          'sysctl -w net.ipv4.ip_forward=1',
        ]);
        expect(c.cpMachineTemplate.spec.template.spec.customImage).toBe('kindest/node:v1.33.1');
        expect(c.md['md-0']!.infra.spec.template.spec.customImage).toBe('kindest/node:v1.33.4');
      });
    });
  }
});
