/**
 * capv-clusterclass.yaml — CAPV `vsphere-quick-start` (v1beta2): an InfraCluster template with
 * NO spec plus a patch that adds `/spec` (§7.5 add on a missing key; §7.6 only spec.template.spec
 * is written back), sprig `regexReplaceAll` + `printf "%q"`, array append after an earlier patch
 * created the array (§7.2 accumulation), nested variable path `infraServer.url` (§7.4), integer
 * variable rendered into YAML, `enabledIf` gated on an optional variable, class-level
 * `deletion.nodeDeletionTimeoutSeconds: 0` (§2.5 step 8, §2.9).
 */
import { describe, expect, it } from 'vitest';
import {
  CLONED_GK,
  CLONED_NAME,
  MD_NAME,
  clusterOf,
  expectNoErrors,
  fixedLabels,
  fixtureMissing,
  nameRe,
  readFixtureItems,
  renderFixture,
  type FixtureRender,
} from './helpers.js';

const FILE = 'capv-clusterclass.yaml';
const SSH = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeKeyForFixturesOnly capv@example.com';
const THUMBPRINT = 'AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD';
const USERS = [{ name: 'capv', sshAuthorizedKeys: [SSH], sudo: 'ALL=(ALL) NOPASSWD:ALL' }];

type Doc = {
  kind: string;
  metadata: { name: string };
  spec: { topology: { variables: { name: string; value: unknown }[] } };
};
const setVar = (name: string, value: unknown) => (docs: Doc[]) => {
  const vars = docs.find((d) => d.kind === 'Cluster')!.spec.topology.variables;
  const v = vars.find((x) => x.name === name);
  if (v) v.value = value;
};
const dropVar = (name: string) => (docs: Doc[]) => {
  const topo = docs.find((d) => d.kind === 'Cluster')!.spec.topology;
  topo.variables = topo.variables.filter((x) => x.name !== name);
};

/** The kube-vip manifest as given in the Cluster input. */
function manifestInput(): string {
  const cluster = readFixtureItems(FILE).find((i) => i.value.kind === 'Cluster')!.value as unknown as Doc;
  return cluster.spec.topology.variables.find((v) => v.name === 'kubeVipPodManifest')!.value as string;
}

describe.skipIf(fixtureMissing(FILE))('real-world: capv-clusterclass', () => {
  let r: FixtureRender;
  const render = () => (r ??= renderFixture(FILE));
  const c = () => clusterOf(render(), 'capv-1');

  it('renders capv-1 with no error result; variables as given (integer port stays an integer)', () => {
    expectNoErrors(render());
    const vars = render().variables.get('default/capv-1')!;
    expect(vars.map((v) => v.name)).toEqual([
      'sshKey',
      'kubeVipPodManifest',
      'controlPlaneIpAddr',
      'controlPlanePort',
      'infraServer',
      'credsSecretName',
    ]);
    expect(vars.find((v) => v.name === 'controlPlanePort')!.value).toBe(6443);
    expect(vars.find((v) => v.name === 'infraServer')!.value).toEqual({
      thumbprint: THUMBPRINT,
      url: 'vcenter.example.com',
    });
  });

  it('VSphereCluster: spec built entirely by patches on a template without spec; integer port; nested variable paths', () => {
    const infra = c().infraCluster;
    expect(infra.apiVersion).toBe('infrastructure.cluster.x-k8s.io/v1beta2');
    expect(infra.kind).toBe('VSphereCluster');
    expect(infra.metadata.name).toMatch(nameRe('capv-1-'));
    expect(infra.metadata.labels).toEqual(fixedLabels('capv-1'));
    expect(infra.metadata.annotations).toEqual({
      [CLONED_NAME]: 'vsphere-quick-start',
      [CLONED_GK]: 'VSphereClusterTemplate.infrastructure.cluster.x-k8s.io',
    });
    expect(infra.spec).toEqual({
      controlPlaneEndpoint: { host: '10.0.0.100', port: 6443 },
      identityRef: { kind: 'Secret', name: 'capv-1' },
      server: 'vcenter.example.com',
      thumbprint: THUMBPRINT,
    });
  });

  it('KCP files: createEmptyArrays makes [], then kubeVipPodManifest appends three files in order', () => {
    const files = c().controlPlane.spec.kubeadmConfigSpec.files;
    expect(files.map((f: { path: string }) => f.path)).toEqual([
      '/etc/kubernetes/manifests/kube-vip.yaml',
      '/etc/kube-vip.hosts',
      '/etc/pre-kubeadm-commands/50-kube-vip-prepare.sh',
    ]);
    // regexReplaceAll rewrites the address line with the same IP, printf "%q" quotes it; YAML unquotes it again.
    expect(files[0]).toEqual({
      owner: 'root:root',
      path: '/etc/kubernetes/manifests/kube-vip.yaml',
      content: manifestInput(),
      permissions: '0644',
    });
    expect(files[1]).toEqual({
      content: '127.0.0.1 localhost kubernetes',
      owner: 'root:root',
      path: '/etc/kube-vip.hosts',
      permissions: '0644',
    });
    expect(files[2].owner).toBe('root:root');
    expect(files[2].permissions).toBe('0700');
    expect(files[2].content.startsWith('#!/bin/bash\n\n# Copyright 2020 The Kubernetes Authors.\n')).toBe(true);
    expect(files[2].content).toContain('if [[ "$KUBEADM_MINOR" -lt "29" ]]; then\n  exit 0\nfi\n');
    expect(files[2].content.endsWith('    /etc/kubernetes/manifests/kube-vip.yaml\nfi\n')).toBe(true);
  });

  it('KCP: users from enableSSHIntoNodes, template preKubeadmCommands kept, class nodeDeletionTimeoutSeconds 0 (v1beta2 contract)', () => {
    const kcp = c().controlPlane;
    expect(kcp.spec.kubeadmConfigSpec.users).toEqual(USERS);
    expect(kcp.spec.kubeadmConfigSpec.preKubeadmCommands).toHaveLength(5);
    expect(kcp.spec.kubeadmConfigSpec.preKubeadmCommands[1]).toBe(
      'echo "::1         ipv6-localhost ipv6-loopback localhost6 localhost6.localdomain6" >/etc/hosts',
    );
    expect(kcp.spec.machineTemplate.spec.deletion).toEqual({ nodeDeletionTimeoutSeconds: 0 });
    expect(kcp.spec.machineTemplate.spec.infrastructureRef).toEqual({
      apiGroup: 'infrastructure.cluster.x-k8s.io',
      kind: 'VSphereMachineTemplate',
      name: c().cpMachineTemplate.metadata.name,
    });
    expect(kcp.spec.replicas).toBe(3);
    expect(kcp.spec.version).toBe('v1.34.2');
    expect(kcp.spec.kubeadmConfigSpec.clusterConfiguration).toEqual({
      controllerManager: { extraArgs: [{ name: 'cloud-provider', value: 'external' }] },
    });
  });

  it('worker: bootstrap files [] and users added; MD gets the class nodeDeletionTimeoutSeconds 0; machine templates untouched', () => {
    const { bootstrap, infra, md, mhc } = c().md['md-0']!;
    expect(bootstrap.spec.template.spec.files).toEqual([]);
    expect(bootstrap.spec.template.spec.users).toEqual(USERS);
    expect(bootstrap.spec.template.spec.preKubeadmCommands).toHaveLength(5);
    expect(bootstrap.metadata.labels).toEqual({ ...fixedLabels('capv-1'), [MD_NAME]: 'md-0' });
    expect(md.spec.template.spec.deletion).toEqual({ nodeDeletionTimeoutSeconds: 0 });
    expect(md.spec.replicas).toBe(2);
    expect(mhc).toBeUndefined();
    expect(infra.spec.template.spec.template).toBe('ubuntu-2404-kube-v1.34.2');
    expect(infra.spec.template.spec.numCPUs).toBe(2);
    expect(c().cpMachineTemplate.spec.template.spec.server).toBe('vcenter.example.com');
    expect(c().mhcs).toEqual([]);
  });

  it('v1beta1 output: MD deletion 0 s becomes the Go duration "0s"; the v1beta2 KCP keeps contract v1beta2 seconds', () => {
    const out = renderFixture(FILE, { settings: { outputApiVersion: 'v1beta1' } });
    expectNoErrors(out);
    const cl = clusterOf(out, 'capv-1');
    expect(cl.md['md-0']!.md.apiVersion).toBe('cluster.x-k8s.io/v1beta1');
    expect(cl.md['md-0']!.md.spec.template.spec.nodeDeletionTimeout).toBe('0s');
    expect(cl.controlPlane.apiVersion).toBe('controlplane.cluster.x-k8s.io/v1beta2');
    expect(cl.controlPlane.spec.machineTemplate.spec.deletion).toEqual({ nodeDeletionTimeoutSeconds: 0 });
  });

  it('classic Cluster: the label already given equals the fixed one', () => {
    expect(c().cluster.metadata.labels).toEqual(fixedLabels('capv-1'));
  });

  it('regexReplaceAll really substitutes: another controlPlaneIpAddr rewrites the address value in the kube-vip manifest', () => {
    const out = renderFixture(FILE, { mutate: setVar('controlPlaneIpAddr', '10.0.0.200') as never });
    expectNoErrors(out);
    const cl = clusterOf(out, 'capv-1');
    const expected = manifestInput().replace(
      '- name: address\n      value: 10.0.0.100',
      '- name: address\n      value: 10.0.0.200',
    );
    expect(expected).not.toBe(manifestInput());
    expect(cl.controlPlane.spec.kubeadmConfigSpec.files[0].content).toBe(expected);
    expect(cl.infraCluster.spec.controlPlaneEndpoint).toEqual({ host: '10.0.0.200', port: 6443 });
  });

  it('without the optional sshKey the enableSSHIntoNodes patch is disabled (worker gets no users; KCP keeps the template users)', () => {
    const out = renderFixture(FILE, { mutate: dropVar('sshKey') as never });
    expectNoErrors(out);
    const cl = clusterOf(out, 'capv-1');
    expect(cl.md['md-0']!.bootstrap.spec.template.spec.users).toBeUndefined();
    expect(cl.md['md-0']!.bootstrap.spec.template.spec.files).toEqual([]);
    expect(cl.controlPlane.spec.kubeadmConfigSpec.users).toEqual(USERS);
  });
});
