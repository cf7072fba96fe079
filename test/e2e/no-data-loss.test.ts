/**
 * No data loss (issue 23 scope 1, issue 28 scope 3), through the real CLI and the real kpt: a
 * Cluster that is in the inputs keeps its previous output byte for byte whenever it cannot be
 * rendered, whatever the reason; only a Cluster absent from every input is pruned, and nothing is
 * pruned in a run where an input could not be read; one unreadable file among thousands is an
 * error result for that file while every other Cluster is rendered and written.
 * The same properties over random sequences: no-data-loss.property.test.ts.
 */
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import {
  BREAKAGES,
  ownerOf,
  repoFiles,
  resourceList,
  writeRepo,
  type Breakage,
  type Fleet,
} from '../helpers/fleet-repo.js';
import type { Obj } from '../helpers/scenario.js';
import { binPath, run, skipUnless, snapshot } from '../helpers/tools.js';

const cli = (args: string[], input?: string) => run('node', [binPath, ...args], input === undefined ? {} : { input });
const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), `rcc-keep-${prefix}-`));
const NAMES = ['c1', 'c2', 'c3'];
/** c1..c3 with `replicas`; `broken` is c2's breakage. */
const fleetOf = (replicas: number, broken?: Breakage): Fleet =>
  new Map(NAMES.map((n) => [n, n === 'c2' && broken ? { replicas, breakage: broken } : { replicas }]));

/** What each breakage is reported as (the result that says why the Cluster was not rendered; kpt quotes it, so no quotes here). */
const REPORTED: Record<Breakage, string> = {
  unparseable: 'error: not valid YAML: ',
  'topology-typo':
    'Cluster fleet/c2 spec.topology: Forbidden: cannot be removed from an existing Cluster: this Cluster was rendered before with a topology and CAPI refuses the update, so its earlier output is kept as it was',
  'no-topology': 'Cluster fleet/c2 spec.topology: Forbidden: cannot be removed from an existing Cluster',
  duplicate: 'Cluster fleet/c2 metadata.name: may not add resource with an already registered id',
  'unknown-class': 'Cluster fleet/c2 spec.topology.classRef.name: ClusterClass',
  'invalid-class': 'Cluster fleet/c2 spec.topology: ClusterClass',
};

/** A repository with c1..c3 rendered once to `out`. */
function renderedRepo(): { repo: string; out: string; before: Record<string, string> } {
  const repo = tempDir('repo');
  const out = join(tempDir('out'), 'rendered');
  writeRepo(repo, repoFiles(fleetOf(1), 0));
  const first = cli(['render', repo, '-o', out]);
  expect(first.code, first.stderr).toBe(0);
  return { repo, out, before: snapshot(out) };
}

describe('render -o DIR keeps the output of every Cluster in the inputs', () => {
  it.each(BREAKAGES)(
    '%s: c2 keeps its file byte for byte, c1 and c3 are rendered anew, nothing is pruned',
    (breakage) => {
      const { repo, out, before } = renderedRepo();
      writeRepo(repo, repoFiles(fleetOf(2, breakage), 0));
      const second = cli(['render', repo, '-o', out]);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(REPORTED[breakage]);
      if (breakage === 'unparseable')
        expect(second.stderr).toMatch(
          new RegExp(
            `^${join(repo, 'clusters', 'c2.yaml')}:\\d+:\\d+: error: not valid YAML: .*; this file is skipped, and nothing is pruned in a run that cannot read every input$`,
            'm',
          ),
        );
      const after = snapshot(out);
      expect(after['fleet/c2.yaml']).toBe(before['fleet/c2.yaml']);
      for (const name of ['c1', 'c3']) expect(after[`fleet/${name}.yaml`]).toContain('replicas: 2');
      expect(Object.keys(after)).toEqual(Object.keys(before));
      const kept =
        breakage === 'unparseable'
          ? '1 kept (not pruned: an input could not be read), 1 skipped (input file could not be read)'
          : '1 kept (of Clusters not rendered), 0 skipped';
      expect(second.stderr.split('\n').at(-2)).toBe(`${out}: 2 written, 0 unchanged, ${kept}, 0 pruned`);
    },
  );

  it('a Cluster without spec.topology that never had output stays a plain pass-through', () => {
    const repo = tempDir('repo');
    const out = join(tempDir('out'), 'rendered');
    writeRepo(repo, repoFiles(new Map([...fleetOf(1), ['classic', { replicas: 1, breakage: 'no-topology' }]]), 0));
    const run1 = cli(['render', repo, '-o', out, '--format', 'all']);
    expect(run1.code, run1.stderr).toBe(0);
    expect(existsSync(join(out, 'fleet', 'classic.yaml'))).toBe(false);
    const list = cli(['render', repo, '--format', 'resourcelist']);
    const results = YAML.parse(list.stdout).results as {
      severity: string;
      message: string;
      resourceRef?: { name: string };
    }[];
    expect(results.filter((r) => r.resourceRef?.name === 'classic').map((r) => [r.severity, r.message])).toEqual([
      [
        'info',
        'Cluster fleet/classic has no spec.topology: passed through unrendered (only Clusters with a managed topology are rendered)',
      ],
    ]);
  });

  it('only a Cluster absent from every input is pruned, and none while an input cannot be read (a result says so)', () => {
    const { repo, out, before } = renderedRepo();
    const withoutC3 = new Map([...fleetOf(1)].filter(([n]) => n !== 'c3'));
    writeRepo(repo, repoFiles(withoutC3, 2));
    const unread = cli(['render', repo, '-o', out]);
    expect(unread.code).toBe(1);
    expect(unread.stderr).toContain(
      `warning: 1 file of Clusters not found this run kept: input ${join(repo, 'junk-0.yaml')} and ${join(repo, 'junk-1.yaml')} could not be read; nothing is pruned while an input cannot be read (the Clusters missing from this run may be in it)\n`,
    );
    expect(unread.stderr.split('\n').at(-2)).toBe(
      `${out}: 0 written, 2 unchanged (2 reused: inputs unchanged), 1 kept (not pruned: an input could not be read), 2 skipped (input files could not be read), 0 pruned`,
    );
    expect(snapshot(out)).toEqual(before);
    writeRepo(repo, repoFiles(withoutC3, 0));
    const read = cli(['render', repo, '-o', out]);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stderr).toBe(
      `${out}: 0 written, 2 unchanged (2 reused: inputs unchanged), 0 kept, 0 skipped, 1 pruned (gone from the inputs)\n`,
    );
    expect(Object.keys(snapshot(out))).toEqual(['.render-clusterclass-outputs', 'fleet/c1.yaml', 'fleet/c2.yaml']);
  });

  it('one YAML syntax error in 1 of 2,000 files: an error for that file at line:column, the 1,999 other Clusters written, a summary', () => {
    const repo = tempDir('repo');
    const out = join(tempDir('out'), 'rendered');
    const fleet: Fleet = new Map(
      Array.from({ length: 2000 }, (_, i) => [
        `c${String(i).padStart(4, '0')}`,
        { replicas: 1, ...(i === 1234 ? { breakage: 'unparseable' as const } : {}) },
      ]),
    );
    writeRepo(repo, repoFiles(fleet, 0));
    const r = cli(['render', repo, '-o', out]);
    expect(r.code).toBe(1);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(
      `${join(repo, 'clusters', 'c1234.yaml')}:17:1: error: not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] at line 17, column 1; this file is skipped, and nothing is pruned in a run that cannot read every input`,
    );
    expect(lines[1]).toBe(
      `${out}: 1999 written, 0 unchanged, 0 kept, 1 skipped (input file could not be read), 0 pruned`,
    );
    expect(Object.keys(snapshot(join(out, 'fleet')))).toHaveLength(1999);
    // A guard against a hang only (the suite's default is 2 minutes; a loaded machine may need more).
  }, 600_000);
});

/** The KRM function on stdin, its answer parsed. */
function krm(text: string): { code: number; items: Obj[]; results: Obj[] } {
  const r = cli([], text);
  // Items that cannot be read come back as they came (a repeated key).
  const answer = YAML.parse(r.stdout, { uniqueKeys: false });
  return { code: r.code, items: answer.items, results: answer.results ?? [] };
}
const generatedBy = (items: readonly Obj[], cluster: string) => items.filter((o) => ownerOf(o) === `fleet/${cluster}`);

describe('KRM function: a re-render keeps the earlier objects of every Cluster in the inputs', () => {
  const first = krm(resourceList(fleetOf(1), 0, []));
  const earlier = first.items.filter((o) => ownerOf(o) !== undefined);

  it('the first render gives each Cluster its objects', () => {
    expect(first.code).toBe(0);
    for (const name of NAMES) expect(generatedBy(first.items, name).length).toBeGreaterThan(5);
  });

  it.each(BREAKAGES)(
    '%s: c2’s earlier objects stay in the answer as they came, c1 and c3 are rendered anew',
    (breakage) => {
      const second = krm(resourceList(fleetOf(2, breakage), 0, earlier));
      expect(second.code).toBe(1);
      expect(generatedBy(second.items, 'c2')).toEqual(generatedBy(earlier, 'c2'));
      for (const name of ['c1', 'c3']) expect(YAML.stringify(generatedBy(second.items, name))).toContain('replicas: 2');
    },
  );

  it('an item that cannot be read: nothing is pruned, and a result says why', () => {
    const withoutC3 = new Map([...fleetOf(1)].filter(([n]) => n !== 'c3'));
    const second = krm(resourceList(withoutC3, 1, earlier));
    expect(second.code).toBe(1);
    expect(generatedBy(second.items, 'c3')).toEqual(generatedBy(earlier, 'c3'));
    const index = second.items.findIndex((o) => Array.isArray(o));
    expect(
      second.results.filter((r) => r.tags?.rule === 'unreadable-input-kept').map((r) => [r.severity, r.message]),
    ).toEqual([
      [
        'warning',
        `the earlier objects of Clusters not found this run (fleet/c3) kept: input items[${index}] could not be read; nothing is pruned while an input cannot be read (the Clusters missing from this run may be in it)`,
      ],
    ]);
    // With every item read, the absent Cluster's objects are pruned.
    const third = krm(resourceList(withoutC3, 0, earlier));
    expect(third.code).toBe(0);
    expect(generatedBy(third.items, 'c3')).toEqual([]);
  });
});

/** A kpt package of the fleet whose Kptfile runs the built bin, rendered once by kpt. */
function kptPackage(): string {
  const dir = tempDir('pkg');
  writeRepo(dir, {
    ...repoFiles(fleetOf(1), 0),
    Kptfile: `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: fleet\n  annotations:\n    config.kubernetes.io/local-config: "true"\npipeline:\n  mutators:\n    - exec: ${binPath}\n`,
  });
  const first = run('kpt', ['fn', 'render', dir, '--allow-exec']);
  expect(first.code, first.stderr).toBe(0);
  expect(existsSync(join(dir, 'rendered', 'fleet', 'c2.yaml'))).toBe(true);
  return dir;
}

/** Breakages kpt can read (it refuses a package with a file that does not parse, before any function runs). */
const KPT_BREAKAGES = BREAKAGES.filter((b) => b !== 'unparseable');

describe.skipIf(skipUnless('kpt'))('kpt: a broken Cluster never costs its rendered file', () => {
  it.each(KPT_BREAKAGES)('kpt fn render, %s: the function fails with the reason and every file stays', (breakage) => {
    const dir = kptPackage();
    const files = repoFiles(fleetOf(1, breakage), 0);
    writeFileSync(join(dir, 'clusters', 'c2.yaml'), files['clusters/c2.yaml']!);
    if (files['classes-broken.yaml']) writeFileSync(join(dir, 'classes-broken.yaml'), files['classes-broken.yaml']);
    if (breakage === 'duplicate')
      writeFileSync(join(dir, 'clusters', 'c2-copy.yaml'), readFileSync(join(dir, 'clusters', 'c2.yaml'), 'utf8'));
    const before = snapshot(dir);
    const out = run('kpt', ['fn', 'render', dir, '--allow-exec']);
    expect(out.code).not.toBe(0);
    expect(out.stdout + out.stderr).toContain(REPORTED[breakage]);
    expect(snapshot(dir)).toEqual(before);
  });

  it('kpt fn eval --exec, a Cluster whose spec.topology was removed: an error at spec.topology, its rendered file stays', () => {
    const dir = kptPackage();
    writeFileSync(join(dir, 'clusters', 'c2.yaml'), repoFiles(fleetOf(1, 'no-topology'), 0)['clusters/c2.yaml']!);
    const before = snapshot(dir);
    const out = run('kpt', ['fn', 'eval', dir, '--exec', binPath]);
    expect(out.code).not.toBe(0);
    expect(out.stdout + out.stderr).toContain('spec.topology: Forbidden: cannot be removed from an existing Cluster');
    expect(snapshot(dir)).toEqual(before);
  });

  it.each(KPT_BREAKAGES)(
    'the ResourceList kpt reads from the package (kpt fn source), %s: the answer keeps c2’s earlier objects as they came',
    (breakage) => {
      const dir = kptPackage();
      const source = run('kpt', ['fn', 'source', dir]);
      const earlier = generatedBy(YAML.parse(source.stdout).items, 'c2');
      writeFileSync(join(dir, 'clusters', 'c2.yaml'), repoFiles(fleetOf(1, breakage), 0)['clusters/c2.yaml']!);
      if (breakage === 'duplicate')
        writeFileSync(join(dir, 'clusters', 'c2-copy.yaml'), readFileSync(join(dir, 'clusters', 'c2.yaml'), 'utf8'));
      const listed = run('kpt', ['fn', 'source', dir]);
      expect(listed.code, listed.stderr).toBe(0);
      const answer = krm(listed.stdout);
      expect(answer.code).toBe(1);
      const strip = (o: Obj) => ({
        ...o,
        metadata: {
          ...o.metadata,
          annotations: Object.fromEntries(Object.entries(o.metadata.annotations).filter(([k]) => !k.endsWith('/id'))),
        },
      });
      expect(generatedBy(answer.items, 'c2').map(strip)).toEqual(earlier.map(strip));
    },
  );
});
