/**
 * The renderer under `kubectl kustomize` (krm-integration §3.2): kubectl's kustomize cannot run
 * KRM exec functions, but it runs exec transformer plugins, which is what examples/kustomize uses.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { repoRoot, run, skipUnless, tempCopy } from '../helpers/tools.js';

const example = join(repoRoot, 'examples', 'kustomize');
// As the README says it, in a checkout: the plugin finds the checkout's bin (no npm link).
const env = { ...process.env, KUSTOMIZE_PLUGIN_HOME: join(example, 'plugins') };

describe.skipIf(skipUnless('kubectl'))('kubectl kustomize', () => {
  it('renders the topology as a transformer: classic Cluster plus rendered objects, class inputs dropped', () => {
    const out = run('kubectl', ['kustomize', '--enable-alpha-plugins', example], { env });
    expect(out.code, out.stderr).toBe(0);
    const docs = YAML.parseAllDocuments(out.stdout).map((d) => d.toJS());
    const kinds = docs.map((d) => `${d.kind}/${d.metadata.name}`);
    expect(kinds.filter((k) => k.startsWith('ClusterClass') || k.includes('small-'))).toEqual([]);
    const cluster = docs.find((d) => d.kind === 'Cluster');
    expect(cluster.spec.topology).toBeUndefined();
    expect(cluster.spec.controlPlaneRef.kind).toBe('KubeadmControlPlane');
    const kcp = docs.find((d) => d.kind === 'KubeadmControlPlane');
    expect(kcp.spec.kubeadmConfigSpec.clusterConfiguration.imageRepository).toBe('mirror.example.com/k8s');
    expect(kcp.spec.replicas).toBe(1);
    expect(docs.filter((d) => d.kind === 'MachineDeployment')).toHaveLength(1);
    for (const d of docs) {
      for (const key of Object.keys(d.metadata.annotations ?? {})) expect(key).not.toMatch(/config\.kubernetes\.io|render-clusterclass/);
    }
  });

  it('refuses mode validate, which would hand kustomize no objects (kubectl apply -k --prune would delete them all)', () => {
    const dir = tempCopy(example);
    const config = join(dir, 'render.yaml');
    writeFileSync(config, readFileSync(config, 'utf8').replace('mode: expand', 'mode: validate'));
    const out = run('kubectl', ['kustomize', '--enable-alpha-plugins', dir], { env });
    expect(out.code).not.toBe(0);
    expect(out.stdout).toBe('');
    expect(out.stderr).toContain('mode validate prints no manifests, which kustomize reads as an application without objects');
  });

  it('fails the build with the error on stderr when a Cluster is invalid', () => {
    const dir = tempCopy(example);
    const file = join(dir, 'cluster.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('version: v1.34.2', 'version: not-a-version'));
    const broken = run('kubectl', ['kustomize', '--enable-alpha-plugins', dir], { env });
    expect(broken.code).not.toBe(0);
    expect(broken.stderr).toContain('version must be a valid semantic version');
  });
});
