/**
 * capv-supervisor-e2e.yaml — CAPV's supervisor (vm-operator) class as its e2e builds it: naming
 * templates for the InfraCluster, the control plane and the MachineDeployments (§3.4), a
 * VSphereClusterTemplate without `spec` plus a patch adding `/spec`, image choice from
 * `builtin.*.version` (`if`/`else if` chains; a pre-release version takes the `else` branch),
 * `regexReplaceAll` + `printf "%q"` (§7). Expectations from the fixture README's "Expected-result
 * hints" and the YAML; each holds with and without the fixture CRDs.
 */
import { describe, expect, it } from 'vitest';
import { clusterOf, expectNoErrors, fixtureMissing, rendersOf, type Obj } from './helpers.js';

const FILE = 'capv-supervisor-e2e.yaml';
const PRE_KUBEADM = '/etc/pre-kubeadm-commands/10-prekubeadmscript.sh';
const paths = (files: Obj[] | undefined): string[] => (files ?? []).map((f) => f.path);

describe.skipIf(fixtureMissing(FILE))('real-world: capv-supervisor-e2e', () => {
  for (const [variant, render] of rendersOf(FILE)) {
    describe(variant, () => {
      it('renders both Clusters with no error result', () => {
        expectNoErrors(render());
        expect([...render().clusters.keys()].sort()).toEqual(['default/capv-sup-1', 'default/capv-sup-custom']);
      });

      it('capv-sup-1: names from the naming templates (VSphereCluster and KubeadmControlPlane capv-sup-1, MachineDeployment capv-sup-1-md-0)', () => {
        const c = clusterOf(render(), 'capv-sup-1');
        expect(c.infraCluster.kind).toBe('VSphereCluster');
        expect(c.infraCluster.metadata.name).toBe('capv-sup-1');
        expect(c.controlPlane.metadata.name).toBe('capv-sup-1');
        expect(c.md['md-0']!.md.metadata.name).toBe('capv-sup-1-md-0');
      });

      it('capv-sup-1: v1.37.0-rc.1 takes the else branch: both VSphereMachineTemplate clones get ubuntu-2404-kube-v1.36.0', () => {
        const c = clusterOf(render(), 'capv-sup-1');
        expect(c.cpMachineTemplate.spec.template.spec.imageName).toBe('ubuntu-2404-kube-v1.36.0');
        expect(c.md['md-0']!.infra.spec.template.spec.imageName).toBe('ubuntu-2404-kube-v1.36.0');
      });

      it('capv-sup-1: the patch-added VSphereCluster spec has the endpoint with an integer port; preKubeadmScript is off', () => {
        const c = clusterOf(render(), 'capv-sup-1');
        expect(c.infraCluster.spec.controlPlaneEndpoint).toEqual({ host: '10.0.0.110', port: 6443 });
        expect(paths(c.controlPlane.spec.kubeadmConfigSpec.files)).not.toContain(PRE_KUBEADM);
        expect(paths(c.md['md-0']!.bootstrap.spec.template.spec.files)).not.toContain(PRE_KUBEADM);
      });

      it('capv-sup-custom: exact-match image v1.33.0, port 8443, the pre-kubeadm script with KUBERNETES_VERSION=v1.33.0, two MachineDeployments', () => {
        const c = clusterOf(render(), 'capv-sup-custom');
        expect(c.cpMachineTemplate.spec.template.spec.imageName).toBe('ubuntu-2404-kube-v1.33.0');
        expect(c.infraCluster.spec.controlPlaneEndpoint).toEqual({ host: '10.0.0.111', port: 8443 });
        const script = (files: Obj[]) => files.find((f) => f.path === PRE_KUBEADM);
        expect(script(c.controlPlane.spec.kubeadmConfigSpec.files).content).toContain('KUBERNETES_VERSION=v1.33.0');
        expect(script(c.md['md-0']!.bootstrap.spec.template.spec.files).content).toContain(
          'KUBERNETES_VERSION=v1.33.0',
        );
        expect(
          Object.values(c.md)
            .map((m) => m.md.metadata.name)
            .sort(),
        ).toEqual(['capv-sup-custom-a-much-longer-machine-deployment-name', 'capv-sup-custom-md-0']);
        // The SSH patch is off (sshKey "": enabledIf renders nothing), so the template's user stays;
        // with the patch on, its key would be the empty sshKey.
        expect(c.controlPlane.spec.kubeadmConfigSpec.users).toEqual([
          {
            name: 'capv',
            sshAuthorizedKeys: [
              'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeFakeFakeFakeFakeFakeFakeFakeFakeFakeFake capv@example.com',
            ],
            sudo: 'ALL=(ALL) NOPASSWD:ALL',
          },
        ]);
      });
    });
  }
});
