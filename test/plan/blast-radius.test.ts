/**
 * `plan` on the real quick-start fixture (../shared/fixtures/real-world), through the real CLI:
 * Machines replaced per Cluster, ClusterClass and fleet, workers held back by upgrade
 * sequencing, double rollouts, MachinePool bootstrap changes (in place, not a rollout), the gates
 * and their exit codes, `--class` and `--only rollouts`, grouped changes, and the JSON contract
 * checked against schemas/plan.v1.json.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { binPath, repoRoot, run, type Run } from '../helpers/tools.js';
import { haveRealWorldFixtures } from '../helpers/resource-list.js';

const FIXTURE = join(repoRoot, '..', 'shared', 'fixtures', 'real-world', 'capi-docker-quick-start.yaml');
if (!haveRealWorldFixtures)
  console.warn('SKIPPED: ../shared/fixtures/real-world is missing; the plan blast-radius tests did not run');

/** Replaces `old` (which must be there) after the first occurrence of `anchor`. */
function edit(text: string, anchor: string, old: string, replacement: string): string {
  const at = text.indexOf(anchor);
  const i = text.indexOf(old, at);
  if (at < 0 || i < 0) throw new Error(`not in the fixture: ${anchor} … ${old}`);
  return text.slice(0, i) + replacement + text.slice(i + old.length);
}

const WORKER_TEMPLATE = 'kind: DevMachineTemplate\nmetadata:\n  name: quick-start-default-worker-machinetemplate';
const MOUNT = '            hostPath: "/var/run/docker.sock"';
/** The MachineDeployment worker template gets a second mount: every MachineDeployment rolls. */
const mountChange = (t: string) =>
  edit(
    t,
    WORKER_TEMPLATE,
    MOUNT,
    `${MOUNT}\n          - containerPath: /var/lib/extra\n            hostPath: /var/lib/extra`,
  );
/** qs-custom moves from v1.33.5 to v1.34.2. */
const versionBump = (t: string) => edit(t, 'name: qs-custom', 'version: v1.33.5', 'version: v1.34.2');
/** The MachinePool bootstrap template gets a kubelet argument. */
const poolBootstrapChange = (t: string) =>
  edit(
    t,
    'kind: KubeadmConfigTemplate\nmetadata:\n  name: quick-start-mp-default-worker-bootstraptemplate',
    "              value: 'nodefs.available<0%,nodefs.inodesFree<0%,imagefs.available<0%'",
    "              value: 'nodefs.available<0%,nodefs.inodesFree<0%,imagefs.available<0%'\n            - name: v\n              value: '4'",
  );
/** qs-dev-1 gets an autoscaled MachineDeployment (no replicas; min 2, max 5), on both sides. */
const autoscaledPool = (t: string) =>
  edit(
    t,
    "name: 'qs-dev-1'",
    '      machinePools:',
    `      - class: default-worker
        name: md-auto
        metadata:
          annotations:
            cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size: "2"
            cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size: "5"
      machinePools:`,
  );

/** qs-custom's taint with the `propagation` CAPI's CRD requires (v1.13+; upstream's quick-start lacks it). */
const taintPropagation = (t: string) =>
  edit(
    t,
    'name: qs-custom',
    '          effect: NoSchedule\n',
    '          effect: NoSchedule\n          propagation: Always\n',
  );

const dir = mkdtempSync(join(tmpdir(), 'rcc-plan-blast-'));
/** A directory holding the fixture, edited. */
function tree(name: string, ...edits: ((t: string) => string)[]): string {
  const path = join(dir, name);
  mkdirSync(path, { recursive: true });
  writeFileSync(
    join(path, 'quick-start.yaml'),
    [taintPropagation, ...edits].reduce((t, e) => e(t), readFileSync(FIXTURE, 'utf8')),
  );
  return path;
}

/** qs-custom sets taints, which need this CAPI feature gate. */
const plan = (base: string, head: string, ...args: string[]): Run =>
  run(process.execPath, [
    binPath,
    'plan',
    '--base',
    base,
    head,
    '--feature-gates',
    'MachineTaintPropagation=true',
    ...args,
  ]);

interface Machines {
  min: number;
  max: number;
}
interface JsonPlan {
  schemaVersion: number;
  clusters: {
    cluster: string;
    machines: Machines;
    rollouts: { kind: string; name: string; machines: Machines; double: boolean; deferred?: string }[];
    deferred: { kind: string; topology: string; reason: string }[];
    modified: { ref: { kind: string } }[];
  }[];
  summary: {
    machines: Machines;
    rollingOut: number;
    deferred: number;
    doubleRollouts: number;
    byClass: { machines: Machines }[];
  };
  groups: { clusters: string[] }[];
  gates: { gate: string; breached: boolean; exitCode: number }[];
}
const json = (r: Run) => JSON.parse(r.stdout) as JsonPlan;
const byName = (p: JsonPlan) => Object.fromEntries(p.clusters.map((c) => [c.cluster, c]));

const schema = JSON.parse(readFileSync(join(repoRoot, 'schemas', 'plan.v1.json'), 'utf8')) as object;
const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);
/** Every JSON plan a test reads is checked against the published schema. */
function checked(r: Run): JsonPlan {
  const p = json(r);
  expect(validate(p), JSON.stringify(validate.errors)).toBe(true);
  return p;
}

describe.skipIf(!haveRealWorldFixtures)('plan blast radius on the quick-start fixture', () => {
  let base: string;
  let mounts: string;
  let mountsAndBump: string;
  let bumpOnly: string;
  beforeAll(() => {
    base = tree('base', autoscaledPool);
    mounts = tree('mounts', autoscaledPool, mountChange);
    mountsAndBump = tree('mounts-bump', autoscaledPool, mountChange, versionBump);
    bumpOnly = tree('bump', autoscaledPool, versionBump);
  });

  it('counts the Machines each rollout replaces, per Cluster, ClusterClass and fleet; an autoscaled pool as a range', () => {
    const p = checked(plan(base, mounts, '--format', 'json'));
    expect(p.schemaVersion).toBe(1);
    const c = byName(p);
    // md-0: replicas 2; md-auto: no replicas, autoscaler 2..5.
    expect(c['default/qs-dev-1']?.rollouts.map((r) => [r.kind, r.machines])).toEqual([
      ['MachineDeployment', { min: 2, max: 2 }],
      ['MachineDeployment', { min: 2, max: 5 }],
    ]);
    expect(c['default/qs-dev-1']?.machines).toEqual({ min: 4, max: 7 });
    // md-small 1 + md-large 3; qs-minimal has no workers.
    expect(c['default/qs-custom']?.machines).toEqual({ min: 4, max: 4 });
    expect(c['default/qs-minimal']?.rollouts).toEqual([]);
    expect(p.summary.machines).toEqual({ min: 8, max: 11 });
    expect(p.summary.byClass.map((k) => k.machines)).toEqual([{ min: 8, max: 11 }]);
    const text = plan(base, mounts).stdout;
    expect(text).toContain('2 of 3 Clusters change, 2 roll out replacing 8 to 11 Machines');
    expect(text).toContain('default/qs-dev-1 (default/quick-start): changed, replaces 4 to 7 Machines');
  });

  it('names the workers upgrade sequencing holds back, and the double rollouts with how to avoid them', () => {
    const p = checked(plan(base, mountsAndBump, '--format', 'json'));
    const custom = byName(p)['default/qs-custom'];
    expect(custom?.deferred.map((d) => [d.kind, d.topology])).toEqual([
      ['MachineDeployment', 'md-small'],
      ['MachineDeployment', 'md-large'],
      ['MachinePool', 'mp-autoscaled'],
    ]);
    expect(custom?.deferred[1]?.reason).toContain('annotation topology.cluster.x-k8s.io/defer-upgrade is set');
    expect(custom?.deferred[0]?.reason).toContain('waiting for the control plane to finish its upgrade to v1.34.2');
    // The template rotates now, the version follows the control plane: twice each. The pool's only rollout is its version.
    expect(custom?.rollouts.map((r) => [r.kind, r.double])).toEqual([
      ['KubeadmControlPlane', false],
      ['MachineDeployment', true],
      ['MachineDeployment', true],
      ['MachinePool', false],
    ]);
    // Control plane 1, md-large 3×2, md-small 1×2, the pool (no replicas) 1.
    expect(custom?.machines).toEqual({ min: 10, max: 10 });
    expect(p.summary).toMatchObject({ deferred: 1, doubleRollouts: 2 });
    const text = plan(base, mountsAndBump).stdout;
    expect(text).toContain('1 Cluster waits for upgrade sequencing; 2 workers roll twice');
    expect(text).toMatch(/MachineDeployment qs-custom-md-small-\w+ rolls twice \(1 Machine each time\): now for /);
    expect(text).toContain(
      'to roll these Machines once, first change only the version, with annotation topology.cluster.x-k8s.io/defer-upgrade',
    );
  });

  it('does not call a version bump whose template follows the version a double rollout', () => {
    const p = checked(plan(base, bumpOnly, '--format', 'json'));
    expect(p.summary).toMatchObject({ deferred: 1, doubleRollouts: 0 });
    expect(byName(p)['default/qs-custom']?.rollouts.every((r) => !r.double)).toBe(true);
  });

  it('does not roll a MachinePool whose bootstrap template changes (CAPI patches it in place)', () => {
    const p = checked(plan(base, tree('pool-bootstrap', autoscaledPool, poolBootstrapChange), '--format', 'json'));
    const dev = byName(p)['default/qs-dev-1'];
    expect(dev?.modified.map((m) => m.ref.kind)).toContain('KubeadmConfig');
    expect(dev?.rollouts).toEqual([]);
    expect(p.summary).toMatchObject({ rollingOut: 0, machines: { min: 0, max: 0 } });
  });

  it('exits with each gate’s own code when it breaches, the lowest when several do, and 1 when none does', () => {
    const gate = (...args: string[]) => plan(base, mountsAndBump, ...args);
    expect(gate('--fail-on', 'new-error').code).toBe(1);
    expect(gate('--fail-on', 'double-rollout').code).toBe(5);
    expect(gate('--max-replaced-machines', '17').code).toBe(1);
    expect(gate('--max-replaced-machines', '16').code).toBe(6);
    expect(gate('--max-rolling-clusters', '2').code).toBe(1);
    expect(gate('--max-rolling-clusters', '1').code).toBe(7);
    expect(gate('--fail-on', 'rollout').code).toBe(8);
    const all = gate('--fail-on', 'rollout,double-rollout', '--max-rolling-clusters', '1', '--format', 'json');
    expect(all.code).toBe(5);
    expect(all.stderr.split('\n').filter((l) => l.startsWith('error: '))).toEqual([
      'error: --fail-on double-rollout breached: 2 worker(s) roll twice (exit 5)',
      'error: --max-rolling-clusters 1 breached: 2 Cluster(s) roll out (exit 7)',
      'error: --fail-on rollout breached: 2 Cluster(s) roll out (exit 8)',
    ]);
    expect(checked(all).gates.map((g) => [g.gate, g.breached, g.exitCode])).toEqual([
      ['double-rollout', true, 5],
      ['max-rolling-clusters', true, 7],
      ['rollout', true, 8],
    ]);
    const markdown = gate('--max-replaced-machines', '100', '--format', 'markdown').stdout;
    expect(markdown).toContain('- ✅ `--max-replaced-machines 100 passed: 14 to 17 Machines replaced (exit 6)`');
  });

  it('exits 4 when a Cluster newly fails validation under --fail-on new-error', () => {
    const broken = tree('broken', autoscaledPool, (t) =>
      edit(t, "name: 'qs-dev-1'", 'name: coreDNSImageTag', 'name: coreDNSImageTagg'),
    );
    expect(plan(base, broken, '--fail-on', 'new-error').code).toBe(4);
  });

  it('refuses a gate it cannot read (exit 3)', () => {
    for (const [args, message] of [
      [['--max-replaced-machines', 'ten'], '--max-replaced-machines must be a whole number of 0 or more, not "ten"'],
      [
        ['--fail-on', 'rollouts'],
        '--fail-on must be rollout, double-rollout, new-error, not "rollouts"; did you mean "rollout"?',
      ],
      [['--only', 'changes'], '--only must be rollouts'],
      [
        ['--class', 'quick-start'],
        '--class quick-start: no Cluster of the plan uses this ClusterClass (write it NAMESPACE/NAME)',
      ],
    ] as const) {
      const r = plan(base, mounts, ...args);
      expect(r.code).toBe(3);
      expect(r.stderr).toContain(message);
    }
  });

  it('groups identical changes across Clusters and narrows with --class and --only rollouts', () => {
    const text = plan(base, mounts).stdout;
    expect(text).toContain('Changes, grouped:');
    expect(text).toContain(
      '  2 Clusters: DevMachineTemplate quick-start-default-worker-machinetemplate (new clone) (4 objects) gets spec.template.spec.backend.docker.extraMounts[1] = {"containerPath":"/var/lib/extra","hostPath":"/var/lib/extra"}; rolls 4 MachineDeployments, replacing 8 to 11 Machines',
    );
    const same = checked(plan(base, mounts, '--class', 'default/quick-start', '--format', 'json'));
    expect(same.summary.machines).toEqual({ min: 8, max: 11 });
    const rollouts = checked(plan(base, mounts, '--only', 'rollouts', '--format', 'json'));
    expect(rollouts.clusters.map((c) => [c.cluster, c.modified.length, c.rollouts.length])).toEqual([
      ['default/qs-custom', 0, 2],
      ['default/qs-dev-1', 0, 2],
    ]);
    expect(plan(base, mounts, '--only', 'rollouts').stdout).not.toContain('  ~ DevMachineTemplate');
  });
});
