/**
 * `plan --format sarif` through the real CLI, in a git repository holding CAPI's quick-start
 * class (../shared/fixtures/real-world) split as a team keeps it: the class and its templates in
 * one file, the Clusters in another. Each change points the finding at the input line that causes
 * it — a template field, a variable value of a Cluster (with the patch it flows through), the
 * Cluster's version, the field of a new error, the ClusterClass of a breached gate — and every
 * log validates against the SARIF 2.1.0 schema.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { binPath, run, skipUnless } from '../helpers/tools.js';
import { lineAt, validSarif, type SarifResult } from '../helpers/sarif.js';
import { FIXTURE_DIR, fixtureMissing } from '../realworld/helpers.js';

const FIXTURE = 'capi-docker-quick-start.yaml';
const CLASS_FILE = 'classes/quick-start.yaml';
const CLUSTER_FILE = 'clusters/quick-start-clusters.yaml';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, encoding: 'utf8' });

describe.skipIf(fixtureMissing(FIXTURE) || skipUnless('git'))('plan --format sarif', () => {
  let repo: string;
  const edit = (file: string, from: string, to: string) => {
    const text = readFileSync(join(repo, file), 'utf8');
    expect(text).toContain(from);
    writeFileSync(join(repo, file), text.replace(from, to));
  };
  /** An edit inside the MachineDeployments' DevMachineTemplate only (the control plane's has the same lines). */
  const editWorkerTemplate = (from: string, to: string) => {
    const template = readFileSync(join(repo, CLASS_FILE), 'utf8')
      .split('---\n')
      .find((d) =>
        d.includes('kind: DevMachineTemplate\nmetadata:\n  name: quick-start-default-worker-machinetemplate'),
      )!;
    edit(CLASS_FILE, template, template.replace(from, to));
  };
  const plan = (...args: string[]) =>
    run(process.execPath, [binPath, 'plan', '--base', 'HEAD', '--format', 'sarif', ...args], { cwd: repo });
  const results = (out: { stdout: string }, rule: string): SarifResult[] =>
    validSarif(out.stdout).runs[0]!.results.filter((r) => r.ruleId === rule);

  beforeEach(() => {
    repo = mkdtempSync(join(tmpdir(), 'rcc-sarif-'));
    const docs = readFileSync(join(FIXTURE_DIR, FIXTURE), 'utf8').split(/^---\n/m);
    const isCluster = (d: string) => /^kind: Cluster$/m.test(d);
    for (const [file, part] of [
      [CLASS_FILE, docs.filter((d) => !isCluster(d))],
      [CLUSTER_FILE, docs.filter(isCluster)],
    ] as const) {
      mkdirSync(join(repo, file, '..'), { recursive: true });
      writeFileSync(join(repo, file), part.join('---\n'));
    }
    git(repo, 'init', '-q');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'base');
  });
  afterEach(() => rmSync(repo, { recursive: true, force: true }));

  it('points a rollout caused by a template change at the template line', () => {
    editWorkerTemplate('hostPath: "/var/run/docker.sock"', 'hostPath: "/run/docker.sock"');
    const out = plan();
    expect(out.code, out.stderr).toBe(1);
    const [rollout, ...others] = results(out, 'rollout');
    expect(others).toEqual([]);
    expect(rollout!.message.text).toContain('MachineDeployment qs-dev-1-md-0-');
    const location = rollout!.locations![0]!;
    expect(location.physicalLocation!.artifactLocation).toEqual({ uri: CLASS_FILE, uriBaseId: 'SRCROOT' });
    expect(lineAt(repo, location)).toBe('            hostPath: "/run/docker.sock"');
  });

  it('points a rollout caused by a removed template field at its nearest parent still written', () => {
    editWorkerTemplate('            hostPath: "/var/run/docker.sock"\n', '');
    const [rollout] = results(plan(), 'rollout');
    expect(rollout!.message.text).toContain('(spec.template.spec.backend.docker.extraMounts[0].hostPath)');
    expect(rollout!.locations!.map((l) => lineAt(repo, l))).toEqual([
      '          - containerPath: "/var/run/docker.sock"',
    ]);
  });

  it('points a rollout caused by a variable at the Cluster value, with the patch it flows through', () => {
    edit(CLUSTER_FILE, '- name: etcdImageTag\n      value: ""', '- name: etcdImageTag\n      value: "3.5.21-0"');
    const out = plan();
    const [rollout] = results(out, 'rollout');
    expect(rollout!.message.text).toContain('KubeadmControlPlane qs-dev-1-');
    expect(rollout!.locations!.map((l) => [l.physicalLocation!.artifactLocation.uri, lineAt(repo, l)])).toEqual([
      [CLUSTER_FILE, '      value: "3.5.21-0"'],
    ]);
    const related = rollout!.relatedLocations!.map((l) => [l.message!.text, lineAt(repo, l).trim()]);
    expect(related).toContainEqual(['patch "etcdImageTag"', '- op: add']);
  });

  it("points a version rollout at the Cluster's version line, and its held-back workers too", () => {
    edit(CLUSTER_FILE, 'version: "v1.34.2"', 'version: "v1.35.0"');
    const out = plan();
    const [rollout] = results(out, 'rollout');
    expect(rollout!.properties.clusters).toEqual(['default/qs-dev-1']);
    expect(rollout!.locations!.map((l) => lineAt(repo, l))).toEqual(['    version: "v1.35.0"']);
    const [deferred] = results(out, 'deferred-worker');
    expect(lineAt(repo, deferred!.locations![0])).toBe('    version: "v1.35.0"');
    expect(deferred!.relatedLocations!.map((l) => lineAt(repo, l).trim())).toEqual([
      '- class: "default-worker"',
      '- class: "default-worker"',
    ]);
  });

  it('points a new error at the field it names', () => {
    edit(CLUSTER_FILE, '  name: qs-minimal', '  name: qs-minimal\n  labels: {"bad label!": x}');
    const out = plan();
    const [error] = results(out, 'new-error');
    expect(error!.level).toBe('error');
    expect(error!.message.text).toContain('Cluster default/qs-minimal');
    expect(error!.locations![0]!.physicalLocation!.artifactLocation.uri).toBe(CLUSTER_FILE);
    expect(lineAt(repo, error!.locations![0])).toContain('bad label!');
  });

  it('locates a breached gate at the ClusterClass whose Clusters breach it', () => {
    edit(CLUSTER_FILE, 'version: "v1.34.2"', 'version: "v1.35.0"');
    const out = plan('--fail-on', 'rollout');
    expect(out.code).toBe(8);
    const [gate] = results(out, 'gate-breached');
    expect(gate!.message.text).toContain('--fail-on rollout breached');
    expect(gate!.locations![0]!.logicalLocations).toEqual([
      { name: 'ClusterClass default/quick-start', kind: 'resource' },
    ]);
    expect(lineAt(repo, gate!.locations![0])).toBe('  name: quick-start');
  });

  it('gives the same log on every run: stable order, fingerprints, no timestamps', () => {
    edit(CLUSTER_FILE, 'version: "v1.34.2"', 'version: "v1.35.0"');
    const first = plan().stdout;
    expect(plan().stdout).toBe(first);
    const log = validSarif(first);
    expect(log.runs[0]!.tool.driver).toMatchObject({ name: 'render-clusterclass', version: '0.1.0' });
    expect(log.runs[0]!.tool.driver.rules.map((r) => r.id)).toEqual([
      'new-error',
      'double-rollout',
      'rollout',
      'deferred-worker',
      'gate-breached',
    ]);
    expect(first).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:/);
    // An unrelated edit above the Cluster moves its lines, not its findings' fingerprints.
    const fingerprints = (text: string) => validSarif(text).runs[0]!.results.map((r) => r.partialFingerprints);
    edit(CLUSTER_FILE, 'kind: Cluster\n', 'kind: Cluster\n# moved down a line\n');
    const moved = plan().stdout;
    expect(moved).not.toBe(first);
    expect(fingerprints(moved)).toEqual(fingerprints(first));
  });
});
