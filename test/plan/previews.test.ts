/**
 * Upgrade previews and rollouts as CAPI performs them, through the real CLI on the real-world
 * fixtures (../shared/fixtures/real-world) and CRDs (../shared/fixtures/crds): a class migrated
 * by `convert` rolls nothing and keeps its clone names; CAPI 1.14 → 1.15 changes nothing on any
 * fixture, 1.13 → 1.14 makes a Cluster fail; a provider CRD whose default changes rolls the
 * MachineDeployments (Machines counted), a new defaulted field alone rolls nothing; the change
 * and the upgrade are shown apart and judged apart by the gates; in-place updates are said.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import YAML from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { binPath, repoRoot, run, type Run } from '../helpers/tools.js';
import { haveRealWorldFixtures } from '../helpers/resource-list.js';
import { fixtureCrdsMissing } from '../helpers/fixture-crds.js';
import { writeProviderCrds } from '../../scripts/oracle/fixture-crds.mjs';

const REAL_WORLD = join(repoRoot, '..', 'shared', 'fixtures', 'real-world');
if (!haveRealWorldFixtures)
  console.warn('SKIPPED: ../shared/fixtures/real-world is missing; the plan preview tests did not run');
const crdsMissing = fixtureCrdsMissing();

type Machines = { min: number; max: number };
interface Section {
  clusters: {
    cluster: string;
    status: string;
    modified: { renamedFrom?: string }[];
    rollouts: { kind: string; machines: Machines; inPlace?: true }[];
    machines: Machines;
    newErrors: { message: string }[];
  }[];
  summary: { clusters: number; changed: number; rollingOut: number; newlyFailing: number; machines: Machines };
}
interface JsonPlan extends Section {
  upgrade?: Section & { from: { capiVersion: string; crds?: string }; to: { capiVersion: string; crds?: string } };
  gates: { gate: string; breached: boolean; section?: string }[];
}

const validate = new Ajv({ allErrors: true, strict: true }).compile(
  JSON.parse(readFileSync(join(repoRoot, 'schemas', 'plan.v1.json'), 'utf8')) as object,
);
/** The JSON plan, checked against the published schema. */
function checked(r: Run): JsonPlan {
  const plan = JSON.parse(r.stdout) as JsonPlan;
  expect(validate(plan), JSON.stringify(validate.errors)).toBe(true);
  return plan;
}

const plan = (...args: string[]) => run(process.execPath, [binPath, 'plan', ...args]);
const byName = (s: Section) => Object.fromEntries(s.clusters.map((c) => [c.cluster, c]));

/** A directory holding one fixture file (each fixture is a self-contained input set). */
function fixtureDir(root: string, file: string, edit: (text: string) => string = (t) => t): string {
  const dir = join(root, file.replace(/\.yaml$/, ''));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, file), edit(readFileSync(join(REAL_WORLD, file), 'utf8')));
  return dir;
}

describe.skipIf(!haveRealWorldFixtures)('plan of a class migrated by convert', () => {
  const root = mkdtempSync(join(tmpdir(), 'rcc-plan-convert-'));
  const V1BETA1 = [
    'k3s-docker-v1beta1.yaml',
    'byoh-quickstart-v1beta1.yaml',
    'capa-simple-clusterclass-v1beta1.yaml',
    'capz-aks-aso-clusterclass-v1beta1.yaml',
  ];

  it.each(V1BETA1)('%s: no change, no rollout, no clone renamed', (file) => {
    const base = fixtureDir(join(root, 'base'), file);
    const head = join(root, 'head', file);
    const converted = run(process.execPath, [binPath, 'convert', base, '-o', head]);
    expect(converted.code, converted.stderr).toBe(0);
    expect(converted.stderr).not.toContain('name(s) change');
    const r = plan('--base', base, head, '--format', 'json');
    const p = checked(r);
    expect(p.summary.clusters).toBeGreaterThan(0);
    expect(p.summary).toMatchObject({ changed: 0, rollingOut: 0, newlyFailing: 0, machines: { min: 0, max: 0 } });
    expect(p.clusters.flatMap((c) => c.modified)).toEqual([]);
    expect(r.code).toBe(0);
  });
});

describe.skipIf(!haveRealWorldFixtures)('plan --to-capi-version on the real-world fixtures', () => {
  const root = mkdtempSync(join(tmpdir(), 'rcc-plan-capi-'));
  const files = haveRealWorldFixtures ? readdirSync(REAL_WORLD).filter((f) => f.endsWith('.yaml')) : [];

  // The 1.15 profile is a preview: v1.14's rules plus what CAPI main changes, which is nothing the
  // renderer judges differently (README "What differs per CAPI version"). Every fixture says so.
  it.each(files)('%s: CAPI 1.14 → 1.15 changes nothing', (file) => {
    const r = plan('--to-capi-version', '1.15', fixtureDir(root, file), '--format', 'json');
    const p = checked(r);
    expect(p.upgrade?.from).toEqual({ capiVersion: '1.14' });
    expect(p.upgrade?.to).toEqual({ capiVersion: '1.15' });
    expect(p.upgrade?.summary).toMatchObject({ changed: 0, rollingOut: 0, newlyFailing: 0 });
    expect(p.summary.changed).toBe(0);
    expect(r.code, r.stderr).toBe(0);
  });

  it('CAPI 1.13 → 1.14: a version 1.14 refuses (blang semver) fails its Cluster, in every format', () => {
    const dir = fixtureDir(root, 'capi-docker-quick-start.yaml', (t) =>
      t.replace('version: "v1.34.2"', 'version: "v1.34.02"'),
    );
    const args = ['--capi-version', '1.13', '--to-capi-version', '1.14', dir];
    const r = plan(...args, '--format', 'json', '--fail-on', 'new-error');
    const p = checked(r);
    const failing = byName(p.upgrade!)['default/qs-dev-1']!;
    expect(failing.status).toBe('failing');
    expect(failing.newErrors.map((e) => e.message).join('\n')).toContain('version must be a valid semantic version');
    // No --base: no change of its own, and the gate judges the upgrade.
    expect(p.summary.changed).toBe(0);
    expect(p.gates).toEqual([expect.objectContaining({ gate: 'new-error', breached: true, section: 'upgrade' })]);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('--fail-on new-error by the upgrade breached');
    const text = plan(...args).stdout;
    expect(text).toContain('== Upgrade preview: CAPI 1.13 → CAPI 1.14 ==');
    expect(text).toMatch(/default\/qs-dev-1 \(default\/quick-start\): failing/);
    const md = plan(...args, '--format', 'markdown').stdout;
    expect(md).toContain('## Upgrade preview: CAPI 1.13 → CAPI 1.14');
    expect(md).not.toContain('0 of 3 Clusters change, 0 roll out, 0 newly fail');
  });

  it('refuses a release it does not know (exit 3)', () => {
    const r = plan('--to-capi-version', '1.16', fixtureDir(root, 'capi-docker-quick-start.yaml'));
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('--to-capi-version must be 1.12, 1.13, 1.14, 1.15, not "1.16"');
  });
});

describe.skipIf(!haveRealWorldFixtures || crdsMissing)('plan --to-crds: a provider upgrade', () => {
  const root = mkdtempSync(join(tmpdir(), 'rcc-plan-crds-'));
  const installed = join(root, 'crds');
  const AWS_MACHINE_TEMPLATES = 'capa_infrastructure.cluster.x-k8s.io_awsmachinetemplates.yaml';
  /** The provider's new AWSMachineTemplate CRD, its v1beta2 `spec.template.spec` edited. */
  function upgradedCrd(name: string, edit: (spec: { properties: Record<string, object> }) => void): string {
    const crd = YAML.parse(readFileSync(join(installed, AWS_MACHINE_TEMPLATES), 'utf8')) as {
      spec: { versions: { name: string; schema: { openAPIV3Schema: { properties: Record<string, never> } } }[] };
    };
    const v1beta2 = crd.spec.versions.find((v) => v.name === 'v1beta2')!;
    const schema = v1beta2.schema.openAPIV3Schema as unknown as {
      properties: {
        spec: { properties: { template: { properties: { spec: { properties: Record<string, object> } } } } };
      };
    };
    edit(schema.properties.spec.properties.template.properties.spec);
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'awsmachinetemplates.yaml'), YAML.stringify(crd));
    return dir;
  }
  let hostAffinity: string;
  let newField: string;
  let eks: string;
  beforeAll(() => {
    writeProviderCrds(installed);
    // CAPA's next release defaults hostAffinity to "host" (it was "default").
    hostAffinity = upgradedCrd('host-affinity', (spec) => {
      spec.properties.hostAffinity = { ...spec.properties.hostAffinity, default: 'host' };
    });
    // …or only adds a field with a default.
    newField = upgradedCrd('new-field', (spec) => {
      spec.properties.bootTimeout = { type: 'string', default: '10m' };
    });
    eks = fixtureDir(root, 'capa-eks-e2e.yaml');
  });

  it('a changed default rolls every MachineDeployment whose template has it; Machines counted per Cluster and fleet', () => {
    const r = plan('--crds', installed, '--to-crds', hostAffinity, eks, '--format', 'json');
    const p = checked(r);
    expect(p.upgrade!.to).toEqual({ capiVersion: '1.14', crds: hostAffinity });
    const clusters = byName(p.upgrade!);
    expect(Object.values(clusters).map((c) => [c.cluster, c.rollouts.map((x) => x.kind), c.machines.max])).toEqual([
      ['default/capa-eks-1', ['MachineDeployment'], 2],
      ['default/capa-eks-2', ['MachineDeployment', 'MachineDeployment'], 4],
    ]);
    expect(p.upgrade!.summary).toMatchObject({ changed: 2, rollingOut: 2, machines: { min: 6, max: 6 } });
    expect(r.code).toBe(1);
    const text = plan('--crds', installed, '--to-crds', hostAffinity, eks).stdout;
    expect(text).toContain(
      'changes spec.template.spec.hostAffinity ("default" → "host"); rolls 3 MachineDeployments, replacing 6 Machines',
    );
  });

  it('a new defaulted field alone rolls nothing: CAPI defaults the current clone before comparing', () => {
    const r = plan('--crds', installed, '--to-crds', newField, eks, '--format', 'json');
    const p = checked(r);
    expect(p.upgrade!.summary).toMatchObject({ changed: 0, rollingOut: 0, machines: { min: 0, max: 0 } });
    expect(r.code).toBe(0);
  });

  it('with --base, the pull request and the upgrade are shown apart and judged apart', () => {
    const head = fixtureDir(join(root, 'pr'), 'capa-eks-e2e.yaml', (t) =>
      t.replace('instanceType: "t3.large"', 'instanceType: "t3.xlarge"'),
    );
    const args = ['--base', eks, '--crds', installed, '--to-crds', hostAffinity, head];
    const r = plan(...args, '--format', 'json', '--max-replaced-machines', '6');
    const p = checked(r);
    // The change: the new instance type, on today's CRDs (hostAffinity stays "default").
    expect(p.summary).toMatchObject({ changed: 2, rollingOut: 2, machines: { min: 6, max: 6 } });
    // The upgrade, of the head as the change leaves it: only hostAffinity.
    expect(p.upgrade!.summary).toMatchObject({ changed: 2, rollingOut: 2, machines: { min: 6, max: 6 } });
    expect(p.gates.map((g) => [g.gate, g.section ?? 'change', g.breached])).toEqual([
      ['max-replaced-machines', 'change', false],
      ['max-replaced-machines', 'upgrade', false],
    ]);
    expect(r.code).toBe(1);
    const text = plan(...args).stdout;
    const [change, upgrade] = text.split('== Upgrade preview');
    expect(change).toContain('instanceType');
    expect(change).not.toContain('hostAffinity');
    expect(upgrade).toContain('hostAffinity');
    expect(upgrade).not.toContain('instanceType');
  });

  it('with the InPlaceUpdates gate on, a MachineDeployment rolls in place if an extension accepts', () => {
    const args = ['--crds', installed, '--to-crds', hostAffinity, eks, '--feature-gates', 'InPlaceUpdates=true'];
    const p = checked(plan(...args, '--format', 'json'));
    expect(p.upgrade!.clusters.flatMap((c) => c.rollouts.map((x) => x.inPlace))).toEqual([true, true, true]);
    expect(plan(...args).stdout).toContain('in place if an extension accepts, else 2 Machines replaced');
  });
});

describe.skipIf(!haveRealWorldFixtures)('plan compares what the topology controller compares', () => {
  const root = mkdtempSync(join(tmpdir(), 'rcc-plan-endpoint-'));
  const withEndpoint = (host: string) => (text: string) =>
    text.replace(
      'InfrastructureClusterTemplate.template.annotationValue"\n    spec:\n',
      `InfrastructureClusterTemplate.template.annotationValue"\n    spec:\n      controlPlaneEndpoint: {host: "${host}", port: 6443}\n`,
    );
  const modifiedKinds = (p: Section) =>
    p.clusters.flatMap((c) => c.modified.map((m) => (m as { ref: { kind: string } }).ref.kind));

  it('a control plane endpoint host the desired object leaves empty is no change (CAPI keeps the current one)', () => {
    const base = fixtureDir(join(root, 'base'), 'capi-docker-quick-start.yaml', withEndpoint('10.0.0.1'));
    const empty = fixtureDir(join(root, 'empty'), 'capi-docker-quick-start.yaml', withEndpoint(''));
    const other = fixtureDir(join(root, 'other'), 'capi-docker-quick-start.yaml', withEndpoint('10.0.0.2'));
    expect(readFileSync(join(base, 'capi-docker-quick-start.yaml'), 'utf8')).toContain('host: "10.0.0.1"');
    const ignored = checked(plan('--base', base, empty, '--format', 'json'));
    expect(ignored.summary.changed).toBe(0);
    const moved = checked(plan('--base', base, other, '--format', 'json'));
    expect(new Set(modifiedKinds(moved))).toEqual(new Set(['DevCluster']));
  });
});
