/**
 * Scenarios over a real git repository: `plan --base HEAD~1` after changing a patch (issue:
 * plan and explain), `render --previous HEAD~1` after an incompatible ClusterClass change
 * (issue: update safety), and after a version bump (upgrade sequencing). Uses the built bin, as
 * CI and users do.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { binPath, repoRoot, run, skipUnless } from '../helpers/tools.js';

const classFile = readFileSync(join(repoRoot, 'test', 'golden', 'plan', 'clusterclass.yaml'), 'utf8');
const update = process.env.UPDATE_GOLDEN === '1';

/** 20 Clusters; every fourth one has a gpu MachineDeployment. */
function clusters(): string {
  return Array.from({ length: 20 }, (_, i) => {
    const name = `c${String(i).padStart(2, '0')}`;
    const gpu = i % 4 === 0 ? `\n      - {class: gpu, name: gpu-0, replicas: 1}` : '';
    return `apiVersion: cluster.x-k8s.io/v1beta2
kind: Cluster
metadata: {name: ${name}, namespace: fleet}
spec:
  topology:
    classRef: {name: fleet}
    version: v1.33.${i % 3}
    workers:
      machineDeployments:
      - {class: general, name: md-0, replicas: 2}${gpu}
`;
  }).join('---\n');
}

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rcc-git-'));
  const git = (...args: string[]) => {
    const out = run('git', ['-c', 'user.email=ci@example.com', '-c', 'user.name=ci', ...args], { cwd: dir });
    if (out.code !== 0) throw new Error(out.stderr);
  };
  git('init', '-q');
  writeFileSync(join(dir, 'clusterclass.yaml'), classFile);
  writeFileSync(join(dir, 'clusters.yaml'), clusters());
  git('add', '.');
  git('commit', '-qm', 'fleet');
  return dir;
}

function commit(dir: string, message: string, edit: (text: string) => string, file = 'clusterclass.yaml'): void {
  writeFileSync(join(dir, file), edit(readFileSync(join(dir, file), 'utf8')));
  for (const args of [
    ['add', '.'],
    ['commit', '-qm', message],
  ])
    run('git', ['-c', 'user.email=ci@example.com', '-c', 'user.name=ci', ...args], { cwd: dir });
}

describe.skipIf(skipUnless('git'))('git scenarios', () => {
  it('plan reports exactly the Clusters, objects and MachineDeployments a patch change affects', () => {
    const dir = repo();
    commit(dir, 'new gpu image', (t) => t.replace('/gpu-node:v1', '/gpu-node:v2'));
    const json = run('node', [binPath, 'plan', '--base', 'HEAD~1', '--format', 'json', '.'], { cwd: dir });
    expect(json.code, json.stderr).toBe(1);
    const plan = JSON.parse(json.stdout);
    const changed = plan.clusters
      .filter((c: { status: string }) => c.status !== 'unchanged')
      .map((c: { cluster: string }) => c.cluster);
    expect(changed).toEqual(['fleet/c00', 'fleet/c04', 'fleet/c08', 'fleet/c12', 'fleet/c16']);
    expect(plan.summary).toMatchObject({ clusters: 20, changed: 5, rollingOut: 5, newlyFailing: 0 });
    for (const c of plan.clusters.filter((x: { status: string }) => x.status === 'changed')) {
      expect(c.created).toEqual([]);
      expect(c.deleted).toEqual([]);
      // The gpu machine template rotates (new content hash) and its MachineDeployment points at it.
      expect(c.modified.map((m: { ref: { kind: string } }) => m.ref.kind).sort()).toEqual([
        'DevMachineTemplate',
        'MachineDeployment',
      ]);
      const template = c.modified.find((m: { ref: { kind: string } }) => m.ref.kind === 'DevMachineTemplate');
      expect(template.renamedFrom).toBeDefined();
      expect(template.changes).toEqual([
        {
          path: 'spec.template.spec.customImage',
          before: 'registry.example.com/gpu-node:v1',
          after: 'registry.example.com/gpu-node:v2',
        },
      ]);
      expect(c.rollouts).toHaveLength(1);
      expect(c.rollouts[0].kind).toBe('MachineDeployment');
      expect(c.rollouts[0].name).toMatch(new RegExp(`^${c.cluster.split('/')[1]}-gpu-0-`));
    }
    const markdown = run('node', [binPath, 'plan', '--base', 'HEAD~1', '--format', 'markdown', '.'], { cwd: dir });
    const golden = join(repoRoot, 'test', 'golden', 'plan', 'gpu-image-change.md');
    if (update) writeFileSync(golden, markdown.stdout);
    expect(markdown.stdout).toBe(readFileSync(golden, 'utf8'));
    // Nothing changed against itself: exit 0.
    expect(run('node', [binPath, 'plan', '--base', 'HEAD', '.'], { cwd: dir }).code).toBe(0);
  });

  it('render --previous reports an incompatible ClusterClass change, and renders none of its Clusters against it', () => {
    const dir = repo();
    // The gpu patch goes with its class: the webhook rejects a selector naming no class (§8.1 rule 9).
    commit(dir, 'drop gpu class and patch, change general machine', (t) =>
      t
        .replace(/    - class: gpu\n[\s\S]*?name: fleet-gpu-machine}\n/, '')
        .replace(/  - name: gpuImage\n[\s\S]*?(?=  - name: generalImage\n)/, '')
        .replace(
          'name: fleet-machine, namespace: fleet}\nspec:\n  template:\n    spec: {backend: {docker: {}}}',
          'name: fleet-machine, namespace: fleet}\nspec:\n  template:\n    spec: {backend: {docker: {preLoadImages: [busybox]}}}',
        ),
    );
    const out = run('node', [binPath, 'render', '.', '--previous', 'HEAD~1', '--mode', 'validate'], { cwd: dir });
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('MachineDeploymentClass "gpu" cannot be deleted because it is used by Cluster');
    expect(out.stderr).toContain('c00');
    // CAPI refuses the class update and keeps the previous class: nothing rolls out yet.
    for (const c of ['c01', 'c02', 'c03']) {
      expect(out.stderr).toMatch(
        new RegExp(`Cluster fleet/${c} spec.topology: ClusterClass "fleet/fleet" is refused on update`),
      );
      expect(out.stderr).not.toMatch(new RegExp(`MachineDeployment ${c}-md-0-\\w+ will roll out`));
    }
  });

  it('render --previous after a version bump moves only the control planes; the workers wait for observed state', () => {
    const dir = repo();
    commit(dir, 'upgrade the fleet', (t) => t.replace(/version: v1\.33\.\d/g, 'version: v1.34.0'), 'clusters.yaml');
    type Doc = { kind: string; spec: { version?: string; template?: { spec: { version: string } } } };
    const render = (...flags: string[]) => {
      const out = run('node', [binPath, 'render', '.', '--previous', 'HEAD~1', '--format', 'resourcelist', ...flags], {
        cwd: dir,
      });
      expect(out.code, out.stderr).toBe(0);
      const list = YAML.parse(out.stdout) as {
        items: Doc[];
        results: { message: string; field?: { path: string }; resourceRef?: { name: string } }[];
      };
      const versions = (kind: string) =>
        new Set(list.items.filter((i) => i.kind === kind).map((i) => i.spec.version ?? i.spec.template!.spec.version));
      return { list, cps: versions('KubeadmControlPlane'), mds: versions('MachineDeployment') };
    };
    const sequenced = render();
    expect(sequenced.cps).toEqual(new Set(['v1.34.0']));
    expect(sequenced.mds).toEqual(new Set(['v1.33.0', 'v1.33.1', 'v1.33.2']));
    const c01 = sequenced.list.results
      .filter((r) => r.resourceRef?.name === 'c01')
      .map((r) => `${r.field?.path ?? ''}: ${r.message}`);
    expect(c01).toContain('spec.topology.version: control plane moves from v1.33.1 to v1.34.0');
    expect(c01.find((m) => m.startsWith('spec.topology.workers.machineDeployments[0]: '))).toMatch(
      /MachineDeployment c01-md-0-\w+ \(topology md-0\) stays at v1\.33\.1 \(target v1\.34\.0\): waiting for the control plane/,
    );
    expect(c01.find((m) => m.includes('will roll out'))).toMatch(
      /^: KubeadmControlPlane c01-\w+ will roll out: version v1\.33\.1 → v1\.34\.0 \(spec\.version\)$/,
    );

    const atOnce = render('--upgrade', 'all-at-once');
    expect(atOnce.mds).toEqual(new Set(['v1.34.0']));
  });
});
