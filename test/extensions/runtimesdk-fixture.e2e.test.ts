/**
 * ../shared/fixtures/real-world/capi-docker-quick-start-runtimesdk.yaml through the test
 * extension that does what CAPI's test extension does for it (capi-test-extension.ts), live and
 * replayed, and compared with the inline quick-start class (capi-docker-quick-start.yaml) where
 * the upstream patches are equivalent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { hasTool } from '../helpers/tools.js';
import { FIXTURES, cli, editDocs, extensionConfig, parseAll, readFixture, tempDir } from './helpers.js';
import { startExtension, type RunningExtension } from './server.js';
import { makePki, type TestPki } from './tls.js';
import { withTaintPropagation } from '../realworld/helpers.js';

const FILE = 'capi-docker-quick-start-runtimesdk.yaml';
const skip = !hasTool('openssl') || !existsSync(join(FIXTURES, FILE));
if (skip)
  console.warn('SKIPPED: openssl or the real-world fixtures are missing; the runtime-SDK fixture tests did not run');

/** What the upstream e2e Cluster for this class sets (test/e2e/data/infrastructure-docker/main/cluster-template-upgrades-runtimesdk/cluster-runtimesdk.yaml). */
const UPSTREAM_VARIABLES = [
  { name: 'kubeadmControlPlaneMaxSurge', value: '1' },
  { name: 'imageRepository', value: 'kindest' },
];

let pki: TestPki;
let ext: RunningExtension;
beforeAll(async () => {
  if (skip) return;
  pki = makePki();
  ext = await startExtension(pki);
});
afterAll(async () => ext?.stop());

const withVariables = (text: string, variables: unknown[]) =>
  editDocs(text, (d) => {
    if (d.kind === 'Cluster') d.spec.topology.variables = variables;
  });

function inputs(fixture: string): string {
  return tempDir({
    'fixture.yaml': fixture,
    'extension.yaml': extensionConfig('k8s-upgrade-with-runtimesdk', { url: ext.url }, pki.caPem),
  });
}

/** The ExtensionConfig is among the inputs here: the operator allows the package's. */
const render = (dir: string, ...flags: string[]) =>
  cli(['render', dir, '--set', 'keepClassInputs=false', '--allow-package-extensions', ...flags]);
const find = (objs: any[], kind: string, name?: RegExp) =>
  objs.find((o) => o.kind === kind && (!name || name.test(o.metadata.name)));

describe.skipIf(skip)('real-world: capi-docker-quick-start-runtimesdk through its extension', () => {
  it('as written, rt-1 lacks the variable the extension declares required (imageRepository): the Cluster webhook would refuse it', async () => {
    const r = await render(inputs(readFixture(FILE)));
    expect(r.code).toBe(1);
    const errors = r.stderr.split('\n').filter((l) => / error: /.test(l));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('Cluster default/rt-1 spec.topology.variables');
    expect(errors[0]).toContain('Required value: required variable "imageRepository" must be set');
  });

  it('with the upstream e2e variables: no error result live, and the same bytes replayed with the server stopped', async () => {
    const own = await startExtension(pki);
    const dir = tempDir({ 'fixture.yaml': withVariables(readFixture(FILE), UPSTREAM_VARIABLES) });
    const configs = tempDir({
      'extension.yaml': extensionConfig('k8s-upgrade-with-runtimesdk', { url: own.url }, pki.caPem),
    });
    const rec = `${dir}-recordings`;
    const live = await render(dir, '--extensions', configs, '--record-extensions', rec);
    await own.stop();
    expect(live.stderr).not.toMatch(/ error: /);
    expect(live.code).toBe(0);
    // Discovery, DiscoverVariables, GeneratePatches (two naming passes), ValidateTopology.
    expect(own.requests.map((q) => q.path.split('/')[3])).toEqual([
      'discovery',
      'discovervariables',
      'generatepatches',
      'generatepatches',
      'validatetopology',
    ]);
    const replayed = await render(dir, '--replay-extensions', rec);
    expect(replayed.code).toBe(0);
    expect(replayed.stdout).toBe(live.stdout);

    const objs = parseAll(live.stdout);
    const kcp = find(objs, 'KubeadmControlPlane');
    // handler.go patchKubeadmControlPlaneTemplate (v1beta2 branch).
    expect(kcp.spec.kubeadmConfigSpec.clusterConfiguration.apiServer.extraArgs).toEqual([{ name: 'v', value: '2' }]);
    expect(kcp.spec.kubeadmConfigSpec.initConfiguration.nodeRegistration.kubeletExtraArgs).toEqual([
      { name: 'v', value: '2' },
      { name: 'node-labels', value: 'kubernetesVersion=v1.34.2' },
    ]);
    expect(kcp.spec.rollout.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } });
    expect(kcp.metadata.labels['top-level-label-1']).toBe('top-level-label-value-1');
    // patchKubeadmConfigTemplate: object labels and the join kubelet args.
    const bootstrap = find(objs, 'KubeadmConfigTemplate');
    expect(bootstrap.metadata.annotations['top-level-annotation-1']).toBe('top-level-annotation-value-1');
    expect(bootstrap.spec.template.spec.joinConfiguration.nodeRegistration.kubeletExtraArgs).toEqual([
      { name: 'v', value: '2' },
    ]);
    // patchDevClusterTemplate; patchDevMachineTemplate with kind.GetMapping(1.34.2): no pre-built image, so kindest/node:v1.34.2.
    expect(find(objs, 'DevCluster').spec.backend.docker.loadBalancer).toEqual({ imageRepository: 'kindest' });
    for (const t of objs.filter((o) => o.kind === 'DevMachineTemplate'))
      expect(t.spec.template.spec.backend.docker.customImage).toBe('kindest/node:v1.34.2');
  });

  it('matches the inline quick-start class where the upstream patches are equivalent (and says where they are not)', async () => {
    const external = await render(inputs(withVariables(readFixture(FILE), UPSTREAM_VARIABLES)));
    expect(external.code).toBe(0);
    // The same Cluster on the inline class: its variables are named differently (lbImageRepository).
    const inline = readFixture('capi-docker-quick-start.yaml');
    const rt1 = parseAll(readFixture(FILE)).find((d) => d.kind === 'Cluster');
    rt1.spec.topology.classRef.name = 'quick-start';
    rt1.spec.topology.variables = [
      { name: 'kubeadmControlPlaneMaxSurge', value: '1' },
      { name: 'lbImageRepository', value: 'kindest' },
    ];
    const onlyClass = editDocs(inline, (d) => {
      if (d.kind !== 'Cluster') return;
      if (d.metadata.name === 'qs-custom') withTaintPropagation([d]);
      d.metadata.name = `unused-${d.metadata.name}`;
    });
    // The quick-start's qs-custom (renamed, rendered alongside, with the taint propagation its CRD
    // requires) sets taints: they need MachineTaintPropagation.
    const inlineRun = await render(
      tempDir({ 'fixture.yaml': onlyClass, 'rt-1.yaml': JSON.stringify(rt1) }),
      '--feature-gates',
      'MachineTaintPropagation=true',
    );
    const a = parseAll(external.stdout);
    const b = parseAll(inlineRun.stdout).filter(
      (o) => o.metadata?.labels?.['cluster.x-k8s.io/cluster-name'] === 'rt-1' || o.metadata?.name === 'rt-1',
    );
    // Equivalent: lbImageRepository / imageRepository, customImage (CP and MD) for v1.34.2.
    expect(find(a, 'DevCluster').spec.backend.docker.loadBalancer).toEqual(
      find(b, 'DevCluster').spec.backend.docker.loadBalancer,
    );
    const cpImage = (objs: any[]) =>
      objs.find(
        (o) => o.kind === 'DevMachineTemplate' && !o.metadata.labels['topology.cluster.x-k8s.io/deployment-name'],
      ).spec.template.spec.backend.docker.customImage;
    const mdImage = (objs: any[]) =>
      objs.find(
        (o) =>
          o.kind === 'DevMachineTemplate' && o.metadata.labels['topology.cluster.x-k8s.io/deployment-name'] === 'md-0',
      ).spec.template.spec.backend.docker.customImage;
    expect(cpImage(a)).toBe(cpImage(b));
    expect(mdImage(a)).toBe(mdImage(b));
    expect(find(a, 'KubeadmControlPlane').spec.version).toBe(find(b, 'KubeadmControlPlane').spec.version);
    // Not equivalent: the inline maxSurge template ends in a stray quote (`maxSurge: {{ .kubeadmControlPlaneMaxSurge }}"`),
    // so it renders the string `1"` without a strategy type; the extension sets type RollingUpdate and the integer 1.
    expect(find(b, 'KubeadmControlPlane').spec.rollout.strategy).toEqual({ rollingUpdate: { maxSurge: '1"' } });
    expect(find(a, 'KubeadmControlPlane').spec.rollout.strategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: 1 },
    });
  });
});
