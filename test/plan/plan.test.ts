/**
 * `plan` names ClusterClasses by `namespace/name` (two teams may each have a class of one name)
 * and diffs lists of named items by name, through the real CLI.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binPath, repoRoot, run } from '../helpers/tools.js';

const classText = readFileSync(join(repoRoot, 'test', 'golden', 'plan', 'clusterclass.yaml'), 'utf8');
const TEAMS = ['team-a', 'team-b'];

const cluster = (namespace: string, name: string) => `apiVersion: cluster.x-k8s.io/v1beta2
kind: Cluster
metadata: {name: ${name}, namespace: ${namespace}}
spec:
  topology:
    classRef: {name: fleet}
    version: v1.31.2
    workers:
      machineDeployments: [{class: gpu, name: gpu-0}]
`;

/** One package: each team's copy of the class `fleet` in its own namespace, two Clusters per team. */
function fleetPackage(dir: string, edit: (team: string, text: string) => string = (_team, text) => text): string {
  mkdirSync(dir, { recursive: true });
  for (const team of TEAMS) {
    writeFileSync(
      join(dir, `${team}-class.yaml`),
      edit(team, classText.replaceAll('namespace: fleet', `namespace: ${team}`)),
    );
    writeFileSync(join(dir, `${team}-clusters.yaml`), `${cluster(team, 'c1')}---\n${cluster(team, 'c2')}`);
  }
  return dir;
}

interface JsonPlan {
  clusters: { cluster: string; clusterClass: string; modified: { changes: { path: string }[] }[] }[];
  summary: { byClass: { clusterClass: string; clusters: number; changed: number }[] };
}

describe('plan over two ClusterClasses of one name in two namespaces', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rcc-plan-ns-'));
  const base = fleetPackage(join(dir, 'base'));
  // team-a mounts a second device into its GPU machines; team-b changes nothing.
  const head = fleetPackage(join(dir, 'head'), (team, text) =>
    team === 'team-a'
      ? text.replace(
          'extraMounts: [{containerPath: /dev/nvidia0',
          'extraMounts: [{containerPath: /dev/nvidia1, hostPath: /dev/nvidia1}, {containerPath: /dev/nvidia0',
        )
      : text,
  );

  it('keeps the classes apart in the summary and on every Cluster (JSON, text, Markdown)', () => {
    const json = run(process.execPath, [binPath, 'plan', '--base', base, head, '--format', 'json']);
    const plan = JSON.parse(json.stdout) as JsonPlan;
    expect(plan.summary.byClass.map((c) => [c.clusterClass, c.clusters, c.changed])).toEqual([
      ['team-a/fleet', 2, 2],
      ['team-b/fleet', 2, 0],
    ]);
    expect(plan.clusters.map((c) => `${c.cluster} ${c.clusterClass}`)).toEqual([
      'team-a/c1 team-a/fleet',
      'team-a/c2 team-a/fleet',
      'team-b/c1 team-b/fleet',
      'team-b/c2 team-b/fleet',
    ]);
    const text = run(process.execPath, [binPath, 'plan', '--base', base, head]).stdout;
    expect(text).toContain('  team-a/fleet: 2/2 changed');
    expect(text).toContain('  team-b/fleet: 0/2 changed');
    const markdown = run(process.execPath, [binPath, 'plan', '--base', base, head, '--format', 'markdown']).stdout;
    expect(markdown).toContain('| `team-a/fleet` | 2 | 2 |');
    expect(markdown).toContain('| `team-b/fleet` | 2 | 0 |');
  });

  it('reports an item inserted before others by its name, not as a change of every later index', () => {
    const users = (list: string[]) => (text: string) =>
      text.replace(
        '    spec: {}',
        `    spec: {users: [${list.map((n) => `{name: ${n}, sudo: "ALL=(ALL) NOPASSWD:ALL"}`).join(', ')}]}`,
      );
    const before = fleetPackage(join(dir, 'users-base'), (_team, text) => users(['ops', 'admin'])(text));
    const after = fleetPackage(join(dir, 'users-head'), (team, text) =>
      users(team === 'team-a' ? ['audit', 'ops', 'admin'] : ['ops', 'admin'])(text),
    );
    const plan = JSON.parse(
      run(process.execPath, [binPath, 'plan', '--base', before, after, '--format', 'json']).stdout,
    ) as JsonPlan;
    const paths = (c: JsonPlan['clusters'][number]) =>
      c.modified.flatMap((m) => m.changes.map((ch) => ch.path)).filter((p) => p.includes('users'));
    expect(plan.clusters.map((c) => [c.cluster, paths(c)])).toEqual([
      ['team-a/c1', ['spec.template.spec.users[name=audit]']],
      ['team-a/c2', ['spec.template.spec.users[name=audit]']],
      ['team-b/c1', []],
      ['team-b/c2', []],
    ]);
  });
});
