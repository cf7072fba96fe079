/**
 * capo-dev-test.yaml — CAPO `dev-test` (v1beta2): object variable with nested defaults, array
 * variable with `default: []`, `format: ipv4`; enabledIf with `len`/`gt` and a bare boolean; a
 * `remove` op; a template replacing the whole kubeadmConfigSpec / bootstrap spec using sprig
 * `semver` + `printf` (§7.4); `replace` of a nested field. Clusters capo-1 and capo-bastion.
 */
import { describe, expect, it } from 'vitest';
import {
  CLONED_GK,
  CLONED_NAME,
  clusterOf,
  errorsFor,
  expectNoErrors,
  fixedLabels,
  fixtureMissing,
  nameRe,
  renderFixture,
  type FixtureRender,
} from './helpers.js';

const FILE = 'capo-dev-test.yaml';

const CLOUD_PROVIDER = { name: 'cloud-provider', value: 'external' };
const IGNITION_PRE = [
  'export COREOS_OPENSTACK_HOSTNAME=${COREOS_OPENSTACK_HOSTNAME%.*}',
  'export COREOS_OPENSTACK_INSTANCE_UUID=${COREOS_OPENSTACK_INSTANCE_UUID}',
  'envsubst < /etc/kubeadm.yml > /etc/kubeadm.yml.tmp',
  'mv /etc/kubeadm.yml.tmp /etc/kubeadm.yml',
];
const IGNITION_NODE_REGISTRATION = {
  name: '${COREOS_OPENSTACK_HOSTNAME}',
  kubeletExtraArgs: [CLOUD_PROVIDER, { name: 'provider-id', value: 'openstack:///${COREOS_OPENSTACK_INSTANCE_UUID}' }],
};
const TEMPLATE_NODE_REGISTRATION = {
  kubeletExtraArgs: [CLOUD_PROVIDER, { name: 'provider-id', value: 'openstack:///{{ v1.instance_id }}' }],
  name: '{{ v1.local_hostname }}',
};

/** The Flatcar sysext config for one Kubernetes version, as the block scalar in the class yields it. */
function expectAdditionalConfig(text: string, version: string, minor: string): void {
  expect(
    text.startsWith(
      'storage:\n' +
        '  links:\n' +
        '    - path: /etc/extensions/kubernetes.raw\n' +
        '      hard: false\n' +
        `      target: /opt/extensions/kubernetes/kubernetes-${version}-x86-64.raw\n` +
        '  files:\n' +
        `    - path: /etc/sysupdate.kubernetes.d/kubernetes-${minor}.conf\n` +
        '      mode: 0644\n' +
        '      contents:\n' +
        '        remote:\n' +
        `          url: https://extensions.flatcar.org/extensions/kubernetes/kubernetes-${minor}.conf\n`,
    ),
  ).toBe(true);
  expect(text).toContain(`    - path: /opt/extensions/kubernetes/kubernetes-${version}-x86-64.raw\n`);
  expect(text).toContain(`          url: https://extensions.flatcar.org/extensions/kubernetes-${version}-x86-64.raw\n`);
  // Comments inside a literal block are content.
  expect(text).toContain(
    "    - name: update-engine.service\n      # Set this to 'false' if you want to enable Flatcar auto-update\n      mask: true\n",
  );
  expect(text.endsWith('            EnvironmentFile=/run/metadata/flatcar\n')).toBe(true);
  expect(text).not.toContain('{{');
  expect(text).not.toContain('<no value>');
}

type Doc = {
  kind: string;
  metadata: { name: string };
  spec: { topology: { variables: { name: string; value: unknown }[] } };
};
const setVars = (cluster: string, values: Record<string, unknown>) => (docs: Doc[]) => {
  const vars = docs.find((d) => d.kind === 'Cluster' && d.metadata.name === cluster)!.spec.topology.variables;
  for (const [name, value] of Object.entries(values)) {
    const v = vars.find((x) => x.name === name);
    if (v) v.value = value;
    else vars.push({ name, value });
  }
};

describe.skipIf(fixtureMissing(FILE))('real-world: capo-dev-test', () => {
  let r: FixtureRender;
  const render = () => (r ??= renderFixture(FILE));

  it('renders both Clusters with no error result', () => {
    expectNoErrors(render());
    expect([...render().clusters.keys()].sort()).toEqual(['default/capo-1', 'default/capo-bastion']);
  });

  describe('capo-1 (injectIgnitionSysext: true, bastion disabled)', () => {
    const c = () => clusterOf(render(), 'capo-1');

    it('variables as given; imageName (no default) stays unset', () => {
      const vars = render().variables.get('default/capo-1')!;
      expect(vars).toEqual([
        { name: 'identityRef', value: { cloudName: 'capo-e2e', name: 'dev-test-cloud-config' } },
        { name: 'imageRef', value: 'node-image' },
        { name: 'addImageVersion', value: false },
        { name: 'injectIgnitionSysext', value: true },
        { name: 'allowedCIDRs', value: [] },
        {
          name: 'bastion',
          value: {
            enabled: false,
            spec: {
              flavor: { filter: { name: 'm1.small' } },
              image: { imageRef: { name: 'ubuntu-24.04' } },
              sshKeyName: '',
            },
          },
        },
      ]);
    });

    it('OpenStackCluster: template metadata propagates; identityRef from the object variable; allowedCIDRs ([]) and bastion (enabled: false) disabled', () => {
      const infra = c().infraCluster;
      expect(infra.kind).toBe('OpenStackCluster');
      expect(infra.metadata.name).toMatch(nameRe('capo-1-'));
      expect(infra.metadata.labels).toEqual({
        'capo.e2e.test/template-metadata': 'propagated',
        ...fixedLabels('capo-1'),
      });
      expect(infra.metadata.annotations).toEqual({
        'capo.e2e.test/template-metadata': 'propagated',
        [CLONED_NAME]: 'dev-test-openstackcluster',
        [CLONED_GK]: 'OpenStackClusterTemplate.infrastructure.cluster.x-k8s.io',
      });
      expect(infra.spec.identityRef).toEqual({ cloudName: 'capo-e2e', name: 'dev-test-cloud-config' });
      expect(infra.spec.apiServer).toEqual({ managedLoadBalancer: { enabled: true } });
      expect(infra.spec.bastion).toBeUndefined();
      expect(infra.spec.managedSubnets).toEqual([{ cidr: '10.6.0.0/24', dnsNameservers: ['8.8.8.8'] }]);
      expect(infra.spec.managedSecurityGroups.clusterNodesSecurityGroupRules).toHaveLength(2);
    });

    it('OpenStackMachineTemplates: imageRef patch (replace nested field) on; imageName patch (remove) off', () => {
      const { cpMachineTemplate, md } = c();
      expect(cpMachineTemplate.spec.template.spec).toEqual({
        flavor: { filter: { name: 'm1.medium' } },
        image: { imageRef: { name: 'node-image' } },
        sshKeyName: '',
      });
      expect(md['md-0']!.infra.spec.template.spec).toEqual({
        flavor: { filter: { name: 'm1.small' } },
        image: { imageRef: { name: 'node-image' } },
        sshKeyName: '',
      });
    });

    it('KCP: ignitionSysext (`{{ .injectIgnitionSysext }}`) replaces the whole kubeadmConfigSpec; semver/printf give v1.34', () => {
      const kcp = c().controlPlane;
      const kcs = kcp.spec.kubeadmConfigSpec;
      expect(Object.keys(kcs).sort()).toEqual([
        'format',
        'ignition',
        'initConfiguration',
        'joinConfiguration',
        'preKubeadmCommands',
      ]);
      expect(kcs.preKubeadmCommands).toEqual(IGNITION_PRE);
      expect(kcs.initConfiguration).toEqual({ nodeRegistration: IGNITION_NODE_REGISTRATION });
      expect(kcs.joinConfiguration).toEqual({ nodeRegistration: IGNITION_NODE_REGISTRATION });
      expect(kcs.format).toBe('ignition');
      expectAdditionalConfig(kcs.ignition.containerLinuxConfig.additionalConfig, 'v1.34.2', 'v1.34');
      // Template fields outside kubeadmConfigSpec survive.
      expect(kcp.spec.rollout).toEqual({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } });
      expect(kcp.spec.replicas).toBe(3);
      expect(kcp.spec.version).toBe('v1.34.2');
    });

    it('worker bootstrap: the whole spec.template.spec replaced, version from builtin.machineDeployment.version', () => {
      const spec = c().md['md-0']!.bootstrap.spec.template.spec;
      expect(Object.keys(spec).sort()).toEqual(['format', 'ignition', 'joinConfiguration', 'preKubeadmCommands']);
      expect(spec.preKubeadmCommands).toEqual(IGNITION_PRE);
      expect(spec.joinConfiguration).toEqual({ nodeRegistration: IGNITION_NODE_REGISTRATION });
      expectAdditionalConfig(spec.ignition.containerLinuxConfig.additionalConfig, 'v1.34.2', 'v1.34');
      expect(c().md['md-0']!.md.spec.replicas).toBe(2);
      expect(c().mhcs).toEqual([]);
    });
  });

  describe('capo-bastion (bastion enabled, ignition off)', () => {
    const c = () => clusterOf(render(), 'capo-bastion');

    it('OpenStackCluster: bastion patch on (`{{ .bastion.enabled }}` → true) with the variable value; identityRef from the variable', () => {
      const infra = c().infraCluster;
      expect(infra.spec.bastion).toEqual({
        enabled: true,
        spec: {
          flavor: { filter: { name: 'm1.small' } },
          image: { imageRef: { name: 'bastion-image' } },
          sshKeyName: '',
        },
      });
      expect(infra.spec.identityRef).toEqual({ name: 'capo-bastion-cloud-config', cloudName: 'capo-e2e' });
      expect(infra.spec.apiServer).toEqual({ managedLoadBalancer: { enabled: true } });
    });

    it('KCP and bootstrap keep the template kubeadm config (ignitionSysext false); version v1.33.5', () => {
      const { controlPlane: kcp, md } = c();
      expect(kcp.spec.kubeadmConfigSpec).toEqual({
        clusterConfiguration: { controllerManager: { extraArgs: [CLOUD_PROVIDER] } },
        initConfiguration: { nodeRegistration: TEMPLATE_NODE_REGISTRATION },
        joinConfiguration: { nodeRegistration: TEMPLATE_NODE_REGISTRATION },
      });
      expect(kcp.spec.version).toBe('v1.33.5');
      expect(kcp.spec.replicas).toBe(1);
      expect(md['md-0']!.bootstrap.spec.template.spec).toEqual({
        joinConfiguration: { nodeRegistration: TEMPLATE_NODE_REGISTRATION },
      });
      expect(md['md-0']!.md.spec.template.spec.version).toBe('v1.33.5');
    });
  });

  describe('variants (variables changed in memory)', () => {
    it('imageName set, imageRef "" and addImageVersion: the `remove` op drops imageRef, filter gets the version suffix', () => {
      const out = renderFixture(FILE, {
        mutate: setVars('capo-1', { imageName: 'ubuntu-2404', imageRef: '', addImageVersion: true }) as never,
      });
      expectNoErrors(out);
      const c = clusterOf(out, 'capo-1');
      expect(c.cpMachineTemplate.spec.template.spec.image).toEqual({ filter: { name: 'ubuntu-2404-v1.34.2' } });
      expect(c.md['md-0']!.infra.spec.template.spec.image).toEqual({ filter: { name: 'ubuntu-2404-v1.34.2' } });
    });

    it('addImageVersion with imageRef: the worker definition reads .builtin.controlPlane.version, absent for MD items → `<no value>` (§6)', () => {
      const out = renderFixture(FILE, { mutate: setVars('capo-1', { addImageVersion: true }) as never });
      expectNoErrors(out);
      const c = clusterOf(out, 'capo-1');
      expect(c.cpMachineTemplate.spec.template.spec.image).toEqual({ imageRef: { name: 'node-image-v1.34.2' } });
      expect(c.md['md-0']!.infra.spec.template.spec.image).toEqual({ imageRef: { name: 'node-image-<no value>' } });
    });

    it('allowedCIDRs non-empty: `{{ gt (len .allowedCIDRs) 0 }}` enables the patch', () => {
      const out = renderFixture(FILE, {
        mutate: setVars('capo-1', { allowedCIDRs: ['10.0.0.0/8', '192.168.0.0/16'] }) as never,
      });
      expectNoErrors(out);
      expect(clusterOf(out, 'capo-1').infraCluster.spec.apiServer).toEqual({
        managedLoadBalancer: { enabled: true, allowedCIDRs: ['10.0.0.0/8', '192.168.0.0/16'] },
      });
    });

    it('bastion set without `enabled`: the nested default false applies, so the patch stays disabled', () => {
      const out = renderFixture(FILE, {
        mutate: setVars('capo-bastion', { bastion: { availabilityZone: 'az1' } }) as never,
      });
      expectNoErrors(out);
      expect(out.variables.get('default/capo-bastion')!.find((v) => v.name === 'bastion')!.value).toEqual({
        availabilityZone: 'az1',
        enabled: false,
      });
      expect(clusterOf(out, 'capo-bastion').infraCluster.spec.bastion).toBeUndefined();
    });

    it('format: ipv4 is enforced on bastion.floatingIP (only that Cluster fails)', () => {
      const out = renderFixture(FILE, {
        mutate: setVars('capo-bastion', { bastion: { enabled: true, floatingIP: '300.1.2.3' } }) as never,
      });
      const errors = errorsFor(out, 'capo-bastion');
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.map((e) => e.message).join('\n')).toMatch(/floatingIP/);
      expect(errors.map((e) => e.message).join('\n')).toMatch(/ipv4/);
      expect(out.errors).toEqual(errors);
      expect(out.clusters.has('default/capo-1')).toBe(true);
    });
  });
});
