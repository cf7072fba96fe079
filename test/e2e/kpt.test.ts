/**
 * The function under the real kpt (krm-integration §2): `kpt fn render --allow-exec` with a
 * Kptfile pipeline (render, re-render no-op, error input leaves the package intact) and
 * `kpt fn eval --exec`. Uses the built bin (npm test builds first).
 */
import { readFileSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { binPath, repoRoot, run, skipUnless, snapshot, tempCopy } from '../helpers/tools.js';

const example = join(repoRoot, 'examples', 'basic');

/** A copy of the example whose Kptfile runs the bin by absolute path (kpt resolves exec paths from its cwd). */
function examplePackage(): string {
  const dir = tempCopy(example);
  const kptfile = join(dir, 'Kptfile');
  writeFileSync(kptfile, readFileSync(kptfile, 'utf8').replace('../../bin/render-clusterclass', binPath));
  return dir;
}

describe.skipIf(skipUnless('kpt'))('kpt', () => {
  it('fn render writes the rendered files, and a second run changes nothing', () => {
    const dir = examplePackage();
    rmSync(join(dir, 'rendered'), { recursive: true, force: true });
    const first = run('kpt', ['fn', 'render', dir, '--allow-exec']);
    expect(first.code, first.stderr).toBe(0);
    const rendered = readFileSync(join(dir, 'rendered', 'bar', 'foo.yaml'), 'utf8');
    const kinds = YAML.parseAllDocuments(rendered).map((d) => d.get('kind'));
    expect(kinds).toEqual([
      'Cluster',
      'VSphereCluster',
      'VSphereMachineTemplate',
      'KubeadmControlPlane',
      'MachineHealthCheck',
      ...Array(2)
        .fill(['KubeadmConfigTemplate', 'VSphereMachineTemplate', 'MachineDeployment', 'MachineHealthCheck'])
        .flat(),
      'KubeadmConfigTemplate',
      'VSphereMachineTemplate',
      'MachineDeployment',
      'MachineHealthCheck',
    ]);
    // Comments of the input survive (kpt restores them by object id).
    expect(readFileSync(join(dir, 'cluster-foo.yaml'), 'utf8')).toContain('# This label is additive');
    const before = snapshot(dir);
    const second = run('kpt', ['fn', 'render', dir, '--allow-exec']);
    expect(second.code, second.stderr).toBe(0);
    expect(snapshot(dir)).toEqual(before);
  });

  it('the committed example is already rendered: kpt fn render is a no-op on it', () => {
    const dir = examplePackage();
    const before = snapshot(dir);
    const out = run('kpt', ['fn', 'render', dir, '--allow-exec']);
    expect(out.code, out.stderr).toBe(0);
    expect(snapshot(dir)).toEqual(before);
  });

  it('with rendered/ in .krmignore, kpt never reads the earlier output, still writes the same objects there, and keeps files it did not read', () => {
    const dir = examplePackage();
    const committed = readFileSync(join(dir, 'rendered', 'bar', 'foo.yaml'), 'utf8');
    writeFileSync(join(dir, '.krmignore'), 'rendered/\n');
    // Not YAML: kpt fails on the package if it reads this file.
    writeFileSync(join(dir, 'rendered', 'bar', 'foo.yaml'), 'kind: [unclosed\n');
    writeFileSync(join(dir, 'rendered', 'bar', 'deleted.yaml'), 'kind: [unclosed\n');
    const out = run('kpt', ['fn', 'render', dir, '--allow-exec']);
    expect(out.code, out.stderr).toBe(0);
    // Rendered from the Cluster alone: the objects of the package that holds its output.
    expect(readFileSync(join(dir, 'rendered', 'bar', 'foo.yaml'), 'utf8')).toBe(committed);
    // kpt removes only files it read (README "Fleets of thousands").
    expect(readFileSync(join(dir, 'rendered', 'bar', 'deleted.yaml'), 'utf8')).toBe('kind: [unclosed\n');
    const before = snapshot(dir);
    expect(run('kpt', ['fn', 'render', dir, '--allow-exec']).code).toBe(0);
    expect(snapshot(dir)).toEqual(before);
  });

  it('an error input fails the pipeline, prints the error results and leaves every file intact', () => {
    const dir = examplePackage();
    writeFileSync(
      join(dir, 'broken.yaml'),
      'apiVersion: cluster.x-k8s.io/v1beta2\nkind: Cluster\nmetadata: {name: broken, namespace: bar}\nspec:\n  topology:\n    classRef: {name: does-not-exist}\n    version: v1.30.0\n',
    );
    const before = snapshot(dir);
    const out = run('kpt', ['fn', 'render', dir, '--allow-exec']);
    expect(out.code).not.toBe(0);
    expect(out.stdout + out.stderr).toContain('ClusterClass "bar/does-not-exist" not found');
    expect(snapshot(dir)).toEqual(before);
  });

  it('an invalid function config: kpt shows the structured result naming the field, exit 3, every file intact', () => {
    const dir = examplePackage();
    const before = snapshot(dir);
    const out = run('kpt', ['fn', 'eval', dir, '--exec', binPath, '--', 'mode=explode']);
    expect(out.code).not.toBe(0);
    expect(out.stdout + out.stderr).toContain(
      '[error] v1/ConfigMap/function-input data.mode: invalid function config: mode must be one of expand, preview, validate',
    );
    expect(out.stdout + out.stderr).toContain('Exit code: 3');
    expect(snapshot(dir)).toEqual(before);
  });

  it('fn eval --exec renders in preview mode from key=value arguments', () => {
    const dir = examplePackage();
    rmSync(join(dir, 'rendered'), { recursive: true, force: true });
    const out = run('kpt', ['fn', 'eval', dir, '--exec', binPath, '--', 'mode=preview']);
    expect(out.code, out.stderr).toBe(0);
    const file = join(dir, 'rendered', 'bar', 'foo.yaml');
    expect(existsSync(file)).toBe(true);
    const docs = YAML.parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS());
    expect(docs.every((d) => d.metadata.annotations['config.kubernetes.io/local-config'] === 'true')).toBe(true);
    expect(docs.map((d) => d.kind)).not.toContain('Cluster');
  });
});
