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
const krmignore = /```\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('**A repository as teams have it: `.krmignore`.**')))![1]!;

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
    'charts/app/templates/deployment.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  replicas: {{ .Values.replicas }}\n',
    'charts/app/templates/service.yaml': '{{- if .Values.service }}\napiVersion: v1\nkind: Service\nmetadata:\n  name: app\n{{- end }}\n',
    'kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - clusterclass.yaml\n',
    'docs/mkdocs.yml': 'site_name: Fleet\nnav:\n  - Home: index.md\n',
  };
  for (let i = 0; i < 3; i++) files[`clusters/${clusterName(i)}.yaml`] = `# owned by a team\n${YAML.stringify(clusterObject(i))}`;
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  // The workflow example, where GitHub wants it.
  mkdirSync(join(dir, '.github', 'workflows'), { recursive: true });
  cpSync(join(repoRoot, 'examples', 'github-actions', 'render-fleet.yaml'), join(dir, '.github', 'workflows', 'render-fleet.yaml'));
  return dir;
}

const render = (dir: string, ...args: string[]) => run('kpt', ['fn', 'render', '--allow-exec', '.', ...args], { cwd: dir });

describe.skipIf(skipUnless('kpt'))('kpt on a repository as teams have it', () => {
  it('refuses the package without the README\'s .krmignore, and renders it with', () => {
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
    expect(Object.keys(snapshot(join(dir, 'rendered'))).sort()).toEqual(['fleet/c00000.yaml', 'fleet/c00001.yaml', 'fleet/c00002.yaml']);
    // Ignored files are neither read nor written.
    for (const path of ['charts/app/templates/service.yaml', 'kustomization.yaml', 'docs/mkdocs.yml', '.github/workflows/render-fleet.yaml']) {
      expect(readFileSync(join(dir, path), 'utf8')).toBe(before[path]);
    }
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
    expect(before['clusterclass.yaml']).toContain('{platform.example.com/runbook: https://runbooks.example.com/control-plane}');
    expect(once['clusterclass.yaml']).toContain("{platform.example.com/runbook: 'https://runbooks.example.com/control-plane'}");

    expect(render(dir).code).toBe(0);
    expect(snapshot(dir)).toEqual(once);
  });
});
