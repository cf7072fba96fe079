/**
 * The Argo CD Config Management Plugin contract (krm-integration §3.3): run the generate command
 * of examples/argocd/plugin.yaml exactly as the sidecar does — in the application's directory,
 * with Argo CD's build environment and parameter variables — and check what Argo CD would apply.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { binPath, repoRoot, run, snapshot, tempCopy } from '../helpers/tools.js';

const plugin = YAML.parse(readFileSync(join(repoRoot, 'examples', 'argocd', 'plugin.yaml'), 'utf8'));

function generate(appDir: string, params: Record<string, string> = {}) {
  const env: NodeJS.ProcessEnv = {
    PATH: `${dirname(binPath)}:${process.env.PATH ?? ''}`,
    HOME: process.env.HOME,
    ARGOCD_APP_NAME: 'clusters',
    ARGOCD_APP_NAMESPACE: 'argocd',
    ARGOCD_APP_PROJECT_NAME: 'default',
    ARGOCD_APP_REVISION: '0123456789abcdef0123456789abcdef01234567',
    ARGOCD_APP_REVISION_SHORT: '0123456',
    ARGOCD_APP_SOURCE_PATH: 'clusters',
    ARGOCD_APP_SOURCE_REPO_URL: 'https://git.example.com/platform/clusters.git',
    ARGOCD_APP_SOURCE_TARGET_REVISION: 'main',
    KUBE_VERSION: '1.34.2',
    ARGOCD_APP_PARAMETERS: JSON.stringify(Object.entries(params).map(([name, string]) => ({ name, string }))),
  };
  for (const [name, value] of Object.entries(params)) env[`PARAM_${name.toUpperCase().replace(/[-.]/g, '_')}`] = value;
  const [cmd, ...args] = [...plugin.spec.generate.command, ...plugin.spec.generate.args];
  return run(cmd, args, { cwd: appDir, env });
}

describe('Argo CD config management plugin', () => {
  it('prints only applyable manifests for an application directory', () => {
    const app = tempCopy(join(repoRoot, 'examples', 'basic'));
    writeFileSync(
      join(app, 'clusterclass-render.yaml'),
      readFileSync(join(repoRoot, 'examples', 'argocd', 'clusterclass-render.yaml')),
    );
    const before = snapshot(app);
    const out = generate(app);
    expect(out.code, out.stderr).toBe(0);
    const docs = YAML.parseAllDocuments(out.stdout).map((d) => d.toJS());
    const kinds = docs.map((d) => d.kind);
    expect(kinds).not.toContain('Kptfile');
    expect(kinds).not.toContain('RenderClusterClass');
    expect(kinds).not.toContain('ResourceList');
    expect(kinds.filter((k) => k === 'Cluster')).toHaveLength(1);
    expect(docs.find((d) => d.kind === 'Cluster').spec.topology).toBeUndefined();
    expect(kinds).toContain('KubeadmControlPlane');
    for (const d of docs) {
      for (const key of Object.keys(d.metadata.annotations ?? {})) {
        expect(key).not.toMatch(
          /^(internal\.)?config\.kubernetes\.io\/|^config\.k8s\.io\/|^render-clusterclass\.dev\//,
        );
      }
    }
    // The checkout is left untouched.
    expect(snapshot(app)).toEqual(before);
  });

  it('honours plugin parameters: keep-class-inputs=false drops the ClusterClass and templates', () => {
    const app = tempCopy(join(repoRoot, 'examples', 'basic'));
    const out = generate(app, { 'keep-class-inputs': 'false' });
    expect(out.code, out.stderr).toBe(0);
    const kinds = YAML.parseAllDocuments(out.stdout).map((d) => d.get('kind'));
    expect(kinds).not.toContain('ClusterClass');
    expect(kinds).not.toContain('KubeadmControlPlaneTemplate');
  });

  it('fails with the error on stderr and an empty stdout when a Cluster is invalid, so nothing is pruned', () => {
    const app = tempCopy(join(repoRoot, 'examples', 'basic'));
    const file = join(app, 'cluster-foo.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('class: linux-worker', 'class: no-such-class'));
    const out = generate(app);
    expect(out.code).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toContain('MachineDeploymentClass with name "no-such-class" does not exist');
  });

  it('refuses mode validate, which prints no manifests: Argo CD would prune the whole application', () => {
    const app = tempCopy(join(repoRoot, 'examples', 'basic'));
    const out = generate(app, { mode: 'validate' });
    expect(out.code).toBe(3);
    expect(out.stdout).toBe('');
    expect(out.stderr).toContain('mode validate prints no manifests, and Argo CD would prune the whole application');
    // The renderer refuses it too whenever it runs under Argo CD (a plugin without the check).
    const direct = run(binPath, ['render', '.', '--set', 'mode=validate'], {
      cwd: app,
      env: { ...process.env, ARGOCD_APP_NAME: 'clusters' },
    });
    expect(direct.code).toBe(3);
    expect(direct.stdout).toBe('');
    expect(direct.stderr).toContain(
      'mode validate prints no manifests, which Argo CD reads as an application without objects: it would prune them all',
    );
    // Outside Argo CD, validate is what CI runs: results only, exit 0.
    const env = { ...process.env };
    delete env.ARGOCD_APP_NAME;
    expect(run(binPath, ['render', '.', '--set', 'mode=validate'], { cwd: app, env }).code).toBe(0);
  });

  it('never answers "no objects" with success while a Cluster is in the application', () => {
    // Everything local-config, and the Cluster has no topology: nothing would be printed.
    const app = tempCopy(join(repoRoot, 'examples', 'basic'));
    // Never rendered before: a Cluster whose earlier output exists may not lose its topology (an error of its own).
    rmSync(join(app, 'rendered'), { recursive: true });
    const local = (text: string) =>
      YAML.parseAllDocuments(text)
        .map((d) => {
          const o = d.toJS();
          o.metadata.annotations = { ...o.metadata.annotations, 'config.kubernetes.io/local-config': 'true' };
          if (o.kind === 'Cluster') o.spec = { paused: true };
          return YAML.stringify(o);
        })
        .join('---\n');
    for (const file of ['clusterclass.yaml', 'cluster-foo.yaml'])
      writeFileSync(join(app, file), local(readFileSync(join(app, file), 'utf8')));
    const out = generate(app);
    expect(out.code).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toContain('refusing to print no manifests while 1 Cluster is among the inputs');
  });

  it('rejects a bad parameter value as a configuration error', () => {
    const app = tempCopy(join(repoRoot, 'examples', 'basic'));
    const out = generate(app, { mode: 'apply-everything' });
    expect(out.code).toBe(3);
    expect(out.stdout).toBe('');
  });
});
