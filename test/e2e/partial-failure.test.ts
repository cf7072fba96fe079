/**
 * Partial failure at fleet size (issue 28 scope 3), through the real CLI and the KRM function: in
 * a team repository of 2,000 Clusters (four namespaces, two classes), one file with a YAML syntax
 * error is an error result for that file at its line; every other Cluster is rendered and
 * written; the broken file's Cluster keeps its earlier output (a broken file may hide which
 * Clusters it held: nothing is pruned); and a summary always says what was written, kept and
 * skipped, and why. Exit code 1 (README, "Exit codes").
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { writeRepo } from '../helpers/fleet-repo.js';
import { broken, teamCluster, teamRepoFiles } from '../helpers/team-repo.js';
import { binPath, run, snapshot } from '../helpers/tools.js';

const COUNT = 2000;
const BROKEN = teamCluster(1234);
const cli = (args: string[], input?: string) => run('node', [binPath, ...args], input === undefined ? {} : { input });

describe('one broken file among 2,000 Clusters in four namespaces over two classes', () => {
  const repo = mkdtempSync(join(tmpdir(), 'rcc-partial-repo-'));
  const out = join(mkdtempSync(join(tmpdir(), 'rcc-partial-out-')), 'rendered');
  const files = teamRepoFiles(COUNT);
  writeRepo(repo, files);
  const brokenFile = join(repo, BROKEN.path);
  // The line after the unclosed sequence, where the parser gives up.
  const brokenLine = broken(files[BROKEN.path]!).split('\n').length;

  it('render -o: an error for the file at line:column, 1,999 Clusters written, the broken one keeps its earlier file, a summary, exit 1', () => {
    const first = cli(['render', repo, '-o', out]);
    expect(first.code, first.stderr).toBe(0);
    const before = snapshot(out);
    expect(Object.keys(before)).toHaveLength(COUNT + 1); // and the outputs list

    // Every Cluster changes (the class's templates), one file breaks.
    for (const path of Object.keys(files).filter((p) => p.startsWith('classes/')))
      writeFileSync(join(repo, path), files[path]!.replaceAll('managed-by: fleet', 'managed-by: fleet-v2'));
    writeFileSync(brokenFile, broken(files[BROKEN.path]!));
    const second = cli(['render', repo, '-o', out]);
    expect(second.code).toBe(1);
    expect(second.stderr.trimEnd().split('\n')).toEqual([
      `${brokenFile}:${brokenLine}:1: error: not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] at line ${brokenLine}, column 1; this file is skipped, and nothing is pruned in a run that cannot read every input`,
      `warning: 1 file of Clusters not found this run kept: input ${brokenFile} could not be read; nothing is pruned while an input cannot be read (the Clusters missing from this run may be in it)`,
      `${out}: ${COUNT - 1} written, 0 unchanged, 1 kept (not pruned: an input could not be read), 1 skipped (input file could not be read), 0 pruned`,
    ]);
    const after = snapshot(out);
    const brokenOutput = `${BROKEN.namespace}/${BROKEN.name}.yaml`;
    expect(after[brokenOutput]).toBe(before[brokenOutput]);
    const changed = Object.keys(after).filter((f) => after[f] !== before[f]);
    // Every other Cluster's file, and the outputs list: the same files, their reuse marks new.
    expect(changed).toHaveLength(COUNT);
    expect(changed).toContain('.render-clusterclass-outputs');
    expect(Object.keys(after)).toEqual(Object.keys(before));
  }, 600_000);

  it('render to stdout: nothing printed (an applier would prune), and a summary line says what was rendered and skipped', () => {
    const r = cli(['render', repo]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n').at(-1)).toBe(
      `render-clusterclass render: nothing printed (an applier would prune what a partial set leaves out): rendered ${COUNT - 1} of ${COUNT - 1} Clusters (${(COUNT - 1) * 16} objects), 0 failed; earlier outputs: 0 kept, 0 pruned; 1 input skipped (could not be read)`,
    );
  }, 600_000);
});

describe('the KRM function: one failing Cluster and one unreadable item among many', () => {
  it('one summary result after the errors: rendered, failed, kept, skipped, and why; every Cluster’s info on request', () => {
    const items = Array.from({ length: 40 }, (_, i) => teamCluster(i).object);
    items[7]!.spec.topology.classRef.name = 'no-such-class';
    const classes = Object.entries(teamRepoFiles(0)).flatMap(([, text]) =>
      YAML.parseAllDocuments(text).map((d) => d.toJS()),
    );
    const list = (data: Record<string, string>) =>
      YAML.stringify({
        apiVersion: 'config.kubernetes.io/v1',
        kind: 'ResourceList',
        items: [
          ...classes,
          ...items,
          { apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources: ['classes'] },
          { replicas: 2 },
        ],
        functionConfig: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'function-input' }, data },
      });
    const answer = (data: Record<string, string>) => {
      const r = cli([], list(data));
      expect(r.code).toBe(1);
      return YAML.parse(r.stdout).results as { severity: string; message: string; tags?: Record<string, string> }[];
    };
    const results = answer({});
    expect(results.map((r) => r.severity)).toEqual(['error', 'info', 'info', 'info']);
    expect(results[0]!.message).toContain('ClusterClass "team-d/no-such-class" not found');
    expect(results[1]!.message).toBe(
      'rendered 39 of 40 Clusters (624 objects), 1 failed (see the errors); earlier outputs: 0 kept, 0 pruned; 2 inputs skipped (not a Kubernetes object)',
    );
    expect(results.slice(2).map((r) => r.message)).toEqual([
      `items[${classes.length + 40}]: a kustomize Kustomization, not a Kubernetes object: skipped`,
      `items[${classes.length + 41}]: not a Kubernetes object (no kind and no metadata): skipped`,
    ]);
    const every = answer({ reportEachCluster: 'true' });
    expect(every.filter((r) => r.tags?.rule === 'rendered')).toHaveLength(39);
    expect(every.slice(0, 2)).toEqual(results.slice(0, 2));
  });
});
