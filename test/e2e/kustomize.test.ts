/**
 * The renderer under `kubectl kustomize` (krm-integration §3.2): kubectl's kustomize cannot run
 * KRM exec functions, but it runs exec transformer plugins, which is what examples/kustomize uses.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { pluginHome, writeRepository } from '../../bench/kustomize.mjs';
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
      for (const key of Object.keys(d.metadata.annotations ?? {}))
        expect(key).not.toMatch(/config\.kubernetes\.io|render-clusterclass/);
    }
  });

  it('refuses mode validate, which would hand kustomize no objects (kubectl apply -k --prune would delete them all)', () => {
    const dir = tempCopy(example);
    const config = join(dir, 'render.yaml');
    writeFileSync(config, readFileSync(config, 'utf8').replace('mode: expand', 'mode: validate'));
    const out = run('kubectl', ['kustomize', '--enable-alpha-plugins', dir], { env });
    expect(out.code).not.toBe(0);
    expect(out.stdout).toBe('');
    expect(out.stderr).toContain(
      'mode validate prints no manifests, which kustomize reads as an application without objects',
    );
  });

  it('fails the build with the error on stderr when a Cluster is invalid', () => {
    const dir = tempCopy(example);
    const file = join(dir, 'cluster.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('version: v1.34.2', 'version: not-a-version'));
    const broken = run('kubectl', ['kustomize', '--enable-alpha-plugins', dir], { env });
    expect(broken.code).not.toBe(0);
    expect(broken.stderr).toContain('version must be a valid semantic version');
  });

  it('hands kustomize at most kustomizeMaxObjects objects (exactly the limit passes, one more fails at once)', () => {
    const count = YAML.parseAllDocuments(
      run('kubectl', ['kustomize', '--enable-alpha-plugins', example], { env }).stdout,
    ).length;
    const dir = tempCopy(example);
    const config = join(dir, 'render.yaml');
    const withLimit = (limit: number) => {
      writeFileSync(config, `${readFileSync(join(example, 'render.yaml'), 'utf8')}  kustomizeMaxObjects: ${limit}\n`);
      return run('kubectl', ['kustomize', '--enable-alpha-plugins', dir], { env });
    };
    expect(withLimit(count).code).toBe(0);
    const over = withLimit(count - 1);
    expect(over.code).not.toBe(0);
    expect(over.stdout).toBe('');
    expect(over.stderr).toContain(
      `refusing to hand kustomize ${count} objects, over kustomizeMaxObjects (${count - 1})`,
    );
    expect(over.stderr).toContain('render PATH -o DIR');
  });
});

/** A generated team repository through the real `kubectl kustomize` at the sizes of README "kustomize". */
describe.skipIf(skipUnless('kubectl'))('kubectl kustomize at fleet size', () => {
  const fleetEnv = { ...process.env, KUSTOMIZE_PLUGIN_HOME: pluginHome };
  const build = (clusters: number) => {
    const dir = mkdtempSync(join(tmpdir(), 'rcc-kustomize-fleet-'));
    try {
      writeRepository(dir, clusters);
      return run('kubectl', ['kustomize', '--enable-alpha-plugins', dir], { env: fleetEnv });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it('renders 300 Clusters (4,800 objects, under the default limit): every Cluster classic, no class input left', () => {
    const out = build(300);
    expect(out.code, out.stderr.slice(0, 2000)).toBe(0);
    const docs = YAML.parseAllDocuments(out.stdout).map((d) => d.toJS());
    expect(docs).toHaveLength(4800);
    const clusters = docs.filter((d) => d.kind === 'Cluster');
    expect(clusters).toHaveLength(300);
    expect(clusters.filter((c) => c.spec.topology !== undefined || !c.spec.controlPlaneRef)).toEqual([]);
    expect(docs.filter((d) => d.kind === 'ClusterClass')).toEqual([]);
  }, 0); // kustomize's own minutes (README "kustomize"): no limit, as the guide asks of tests

  it('refuses 2,000 Clusters (32,000 objects) at once, printing nothing, instead of hours of kustomize', () => {
    const out = build(2000);
    expect(out.code).not.toBe(0);
    expect(out.stdout).toBe('');
    expect(out.stderr).toContain('refusing to hand kustomize 32000 objects, over kustomizeMaxObjects (5000)');
    expect(out.stderr).toContain('kustomizeMaxObjects in the transformer config (0: no limit)');
  }, 0);
});
