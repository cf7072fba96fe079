/**
 * The README's kpt section on repositories as teams have them, through the real `kpt fn render`:
 * the `.krmignore` it gives is what a repository with a Helm chart, a kustomization, docs and a
 * workflow needs, and kpt (not the renderer) rewrites the files it reads, as the README says.
 */
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { CLASS_FILE, clusterName, clusterObject } from '../../bench/fleet.mjs';
import { binPath, repoRoot, run, skipUnless, snapshot } from '../helpers/tools.js';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');

/** The `.krmignore` the README gives: the first plain fenced block after its paragraph. */
const krmignore = /```\n([\s\S]*?)```/.exec(
  readme.slice(readme.indexOf('**A repository as teams have it: `.krmignore`.**')),
)![1]!;

const kptfile = (exec: string) =>
  `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: fleet\n  annotations:\n    config.kubernetes.io/local-config: "true"\npipeline:\n  mutators:\n    - exec: ${exec}\n      configMap:\n        mode: expand\n`;

/** A platform team's repository as a kpt package: the bench class, three Clusters, a Helm chart, a kustomization, docs and a workflow. */
function repository(exec: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'rcc-team-repo-'));
  const files: Record<string, string> = {
    Kptfile: kptfile(exec),
    'clusterclass.yaml': readFileSync(CLASS_FILE, 'utf8'),
    'charts/app/Chart.yaml': 'apiVersion: v2\nname: app\nversion: 0.1.0\n',
    'charts/app/values.yaml': 'replicas: 2\n',
    'charts/app/templates/deployment.yaml':
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  replicas: {{ .Values.replicas }}\n',
    'charts/app/templates/service.yaml':
      '{{- if .Values.service }}\napiVersion: v1\nkind: Service\nmetadata:\n  name: app\n{{- end }}\n',
    'kustomization.yaml':
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - clusterclass.yaml\n',
    'docs/mkdocs.yml': 'site_name: Fleet\nnav:\n  - Home: index.md\n',
  };
  for (let i = 0; i < 3; i++)
    files[`clusters/${clusterName(i)}.yaml`] = `# owned by a team\n${YAML.stringify(clusterObject(i))}`;
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  // The workflow example, where GitHub wants it.
  mkdirSync(join(dir, '.github', 'workflows'), { recursive: true });
  cpSync(
    join(repoRoot, 'examples', 'github-actions', 'render-fleet.yaml'),
    join(dir, '.github', 'workflows', 'render-fleet.yaml'),
  );
  return dir;
}

const render = (dir: string, ...args: string[]) =>
  run('kpt', ['fn', 'render', '--allow-exec', '.', ...args], { cwd: dir });

/** The `Results:` lines kpt prints for a function (it shows the first few and truncates the rest). */
const shownResults = (output: string): string[] =>
  output
    .split('\n')
    .filter((l) => /^\s+\[(error|warning|info)\]/.test(l))
    .map((l) => l.trim());

describe.skipIf(skipUnless('kpt'))('kpt on a repository as teams have it', () => {
  it("refuses the package without the README's .krmignore, and renders it with", () => {
    const dir = repository(binPath);
    const before = snapshot(dir);
    const refused = render(dir);
    expect(refused.code).not.toBe(0);
    // kpt names the first file it cannot take (a template that is no YAML, here).
    expect(refused.stdout + refused.stderr).toMatch(/charts\/app\/|docs\/mkdocs\.yml|\.github\/workflows/);
    expect(snapshot(dir)).toEqual(before);

    writeFileSync(join(dir, '.krmignore'), krmignore);
    const rendered = render(dir);
    expect(rendered.code, rendered.stdout + rendered.stderr).toBe(0);
    expect(Object.keys(snapshot(join(dir, 'rendered'))).sort()).toEqual([
      'fleet/c00000.yaml',
      'fleet/c00001.yaml',
      'fleet/c00002.yaml',
    ]);
    // Ignored files are neither read nor written.
    for (const path of [
      'charts/app/templates/service.yaml',
      'kustomization.yaml',
      'docs/mkdocs.yml',
      '.github/workflows/render-fleet.yaml',
    ]) {
      expect(readFileSync(join(dir, path), 'utf8')).toBe(before[path]);
    }
  });

  it('one failing Cluster among several: kpt shows the error first, then one summary and the kustomization skipped; every Cluster on request', () => {
    const dir = repository(binPath);
    writeFileSync(join(dir, '.krmignore'), krmignore);
    const cluster = YAML.parse(readFileSync(join(dir, 'clusters', `${clusterName(1)}.yaml`), 'utf8'));
    cluster.spec.topology.classRef.name = 'no-such-class';
    writeFileSync(join(dir, 'clusters', `${clusterName(1)}.yaml`), YAML.stringify(cluster));
    const before = snapshot(dir);

    const failed = render(dir);
    expect(failed.code).not.toBe(0);
    const shown = shownResults(failed.stdout + failed.stderr);
    expect(shown[0]).toMatch(
      /^\[error\] cluster\.x-k8s\.io\/v1beta2\/Cluster\/fleet\/c00001 spec\.topology\.classRef\.name: ClusterClass "fleet\/no-such-class" not found/,
    );
    expect(shown.slice(1)).toEqual([
      '[info]: rendered 2 of 3 Clusters (32 objects), 1 failed (see the errors); earlier outputs: 0 kept, 0 pruned; 1 input skipped (not a Kubernetes object)',
      '[info]: kustomization.yaml: a kustomize Kustomization, not a Kubernetes object: skipped',
    ]);
    expect(snapshot(dir)).toEqual(before);

    // Every Cluster's info, through kpt's results file (its printout truncates).
    const kptfile = readFileSync(join(dir, 'Kptfile'), 'utf8');
    writeFileSync(
      join(dir, 'Kptfile'),
      kptfile.replace('mode: expand\n', 'mode: expand\n        reportEachCluster: "true"\n'),
    );
    const resultsDir = mkdtempSync(join(tmpdir(), 'rcc-kpt-results-'));
    expect(render(dir, '--results-dir', resultsDir).code).not.toBe(0);
    const items = YAML.parse(readFileSync(join(resultsDir, 'results.yaml'), 'utf8')).items[0].results as {
      message: string;
    }[];
    expect(items.filter((r) => r.message.startsWith('rendered 16 objects for Cluster')).map((r) => r.message)).toEqual([
      'rendered 16 objects for Cluster fleet/c00000',
      'rendered 16 objects for Cluster fleet/c00002',
    ]);
  });

  it('the function returns every input as it came: preview and validate change no source file, expand marks each Cluster once', () => {
    const dir = repository(binPath);
    writeFileSync(join(dir, '.krmignore'), krmignore);
    // kpt's own style first (a function returning its input unchanged), so what is left is the renderer's.
    const identity = join(mkdtempSync(join(tmpdir(), 'rcc-identity-')), 'identity.sh');
    writeFileSync(identity, '#!/bin/sh\nexec cat\n');
    chmodSync(identity, 0o755);
    expect(run('kpt', ['fn', 'eval', '.', '--exec', identity], { cwd: dir }).code).toBe(0);
    const sources = snapshot(dir);
    for (const mode of ['preview', 'validate']) {
      const r = run('kpt', ['fn', 'eval', '.', '--exec', binPath, '--', `mode=${mode}`], { cwd: dir });
      expect(r.code, r.stderr).toBe(0);
      const after = snapshot(dir);
      expect(
        Object.keys(sources).filter((f) => after[f] !== sources[f]),
        mode,
      ).toEqual([]);
    }
    expect(render(dir).code).toBe(0);
    const expanded = snapshot(dir);
    const changed = Object.keys(sources).filter((f) => expanded[f] !== sources[f]);
    expect(changed).toEqual(['clusters/c00000.yaml', 'clusters/c00001.yaml', 'clusters/c00002.yaml']);
    // Two lines at the end of metadata, nothing else.
    for (const f of changed)
      expect(expanded[f]).toBe(
        sources[f]!.replace(/^spec:/m, '  annotations:\n    config.kubernetes.io/local-config: "true"\nspec:'),
      );
  });

  it('kpt itself rewrites a file it reads (a function that returns its input unchanged), once; -o stdout leaves the sources alone', () => {
    const identity = join(mkdtempSync(join(tmpdir(), 'rcc-identity-')), 'identity.sh');
    writeFileSync(identity, '#!/bin/sh\nexec cat\n');
    chmodSync(identity, 0o755);
    const dir = repository(identity);
    writeFileSync(join(dir, '.krmignore'), krmignore);
    const before = snapshot(dir);

    expect(render(dir, '-o', 'stdout').code).toBe(0);
    expect(snapshot(dir)).toEqual(before);

    expect(render(dir).code).toBe(0);
    const once = snapshot(dir);
    const changed = Object.keys(before).filter((f) => once[f] !== before[f]);
    expect(changed).toEqual(['clusterclass.yaml']);
    // The same objects in kyaml's style: one sequence indentation, URLs in flow mappings quoted.
    const parse = (text: string) => YAML.parseAllDocuments(text).map((d) => d.toJS());
    expect(parse(once['clusterclass.yaml']!)).toEqual(parse(before['clusterclass.yaml']!));
    expect(before['clusterclass.yaml']).toContain(
      '{platform.example.com/runbook: https://runbooks.example.com/control-plane}',
    );
    expect(once['clusterclass.yaml']).toContain(
      "{platform.example.com/runbook: 'https://runbooks.example.com/control-plane'}",
    );

    expect(render(dir).code).toBe(0);
    expect(snapshot(dir)).toEqual(once);
  });
});
