/**
 * `render-clusterclass convert` through the built bin (npm test builds first): the dry run's
 * diff applies with the real `git apply`, `--in-place` writes atomically and twice is a no-op,
 * `-o` writes a converted copy, and exit codes say one thing each. The KRM form runs under the
 * real kpt (`kpt fn eval --exec … -- mode=convert`).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { binPath, repoRoot, run, skipUnless, snapshot, tempCopy } from '../helpers/tools.js';
import { FIXTURE_DIR, fixtureMissing } from '../realworld/helpers.js';

const FIXTURE = 'capz-ci-default-v1beta1.yaml';

/** A directory with the fixture in a subfolder and an unrelated file next to it. */
function estate(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rcc-convert-'));
  mkdirSync(join(dir, 'classes'));
  writeFileSync(join(dir, 'classes', FIXTURE), readFileSync(join(FIXTURE_DIR, FIXTURE), 'utf8'));
  writeFileSync(join(dir, 'notes.yaml'), '# not Cluster API\nkind: Note\n');
  return dir;
}

/** A command's exit code, stdout and stderr (also on success: the results go to stderr). */
function exec(cmd: string, args: string[], cwd?: string): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

const convert = (args: string[], cwd?: string) => exec(binPath, ['convert', ...args], cwd);

describe.skipIf(fixtureMissing(FIXTURE))('render-clusterclass convert', () => {
  it('dry run: prints a unified diff that git apply turns into the --in-place result, and writes nothing', () => {
    const dir = estate();
    const before = snapshot(dir);
    const dry = convert(['.'], dir);
    expect(dry.code, dry.stderr).toBe(0);
    expect(snapshot(dir)).toEqual(before);
    expect(dry.stdout).toMatch(
      /^--- a\/classes\/capz-ci-default-v1beta1\.yaml\n\+\+\+ b\/classes\/capz-ci-default-v1beta1\.yaml\n@@ /,
    );
    const copy = tempCopy(dir);
    run('git', ['init', '-q'], { cwd: copy });
    const applied = run('git', ['apply', '-'], { cwd: copy, input: dry.stdout });
    expect(applied.code, applied.stderr).toBe(0);
    const inPlace = convert(['--in-place', '.'], dir);
    expect(inPlace.code, inPlace.stderr).toBe(0);
    expect(readFileSync(join(copy, 'classes', FIXTURE), 'utf8')).toBe(
      readFileSync(join(dir, 'classes', FIXTURE), 'utf8'),
    );
  });

  it('--in-place replaces each changed file by rename, leaves other files alone, and a second run changes nothing', () => {
    const dir = estate();
    const file = join(dir, 'classes', FIXTURE);
    const inode = statSync(file).ino;
    const notes = statSync(join(dir, 'notes.yaml'));
    const first = convert(['--in-place', dir]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('1 of 2 files converted, 1 written');
    expect(statSync(file).ino).not.toBe(inode);
    expect(statSync(join(dir, 'notes.yaml')).mtimeMs).toBe(notes.mtimeMs);
    expect(readdirSync(join(dir, 'classes'))).toEqual([FIXTURE]);
    expect(readFileSync(file, 'utf8')).toMatch(/^apiVersion: cluster\.x-k8s\.io\/v1beta2\nkind: ClusterClass$/m);
    const after = snapshot(dir);
    const second = convert(['--in-place', dir]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain('0 of 2 files converted, 0 written');
    expect(snapshot(dir)).toEqual(after);
  });

  it('-o DIR writes every input file, converted, under DIR', () => {
    const dir = estate();
    const out = mkdtempSync(join(tmpdir(), 'rcc-out-'));
    const before = snapshot(dir);
    const r = convert(['-o', out, dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(snapshot(dir)).toEqual(before);
    expect(Object.keys(snapshot(out)).sort()).toEqual(['classes/capz-ci-default-v1beta1.yaml', 'notes.yaml']);
    expect(snapshot(out)['notes.yaml']).toBe(before['notes.yaml']);
  });

  it('exit 1 when a patch cannot be converted: the reason and a suggested rewrite on stderr, its template stays v1beta1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcc-convert-'));
    const text = readFileSync(join(FIXTURE_DIR, FIXTURE), 'utf8').replace(
      'feature-gates: {{ .k8sFeatureGates }}',
      '{{ range $k, $v := .gates }}{{ $k }}: {{ $v }}{{ end }}',
    );
    writeFileSync(join(dir, 'f.yaml'), text);
    const r = convert(['--in-place', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'f.yaml: error: ClusterClass default/ci-default spec.patches[0].definitions[0].jsonPatches[0]: patch "k8sFeatureGates" definition 0 operation 0',
    );
    expect(r.stderr).toContain('Suggested rewrite: write the v1beta2 list instead');
    expect(r.stderr).toContain(
      'f.yaml: error: KubeadmControlPlaneTemplate default/capz-ci-control-plane apiVersion: stays controlplane.cluster.x-k8s.io/v1beta1',
    );
    const docs = YAML.parseAllDocuments(readFileSync(join(dir, 'f.yaml'), 'utf8')).map((d) => d.toJS());
    expect(docs.find((d) => d.kind === 'KubeadmControlPlaneTemplate').apiVersion).toBe(
      'controlplane.cluster.x-k8s.io/v1beta1',
    );
    expect(docs.find((d) => d.kind === 'ClusterClass').apiVersion).toBe('cluster.x-k8s.io/v1beta2');
  });

  it('exit 3 on bad arguments; render refuses mode convert', () => {
    expect(convert(['--to', 'v1beta3', '.']).code).toBe(3);
    expect(convert(['-o', 'x', '--in-place', '.']).code).toBe(3);
    expect(convert([]).code).toBe(3);
    expect(exec(binPath, ['render', '--mode', 'convert', '.']).code).toBe(3);
    const help = convert(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: render-clusterclass convert PATH...');
  });
});

describe.skipIf(skipUnless('kpt'))('kpt fn eval --exec … -- mode=convert', () => {
  it('converts the basic example package; evaluating it again changes nothing', () => {
    const dir = tempCopy(join(repoRoot, 'examples', 'basic'));
    const first = exec('kpt', ['fn', 'eval', dir, '--exec', binPath, '--', 'mode=convert']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('cluster.x-k8s.io/v1beta2/Cluster/bar/foo: equivalent');
    const docs = YAML.parseAllDocuments(readFileSync(join(dir, 'clusterclass.yaml'), 'utf8')).map((d) => d.toJS());
    expect(docs.map((d) => `${d.kind} ${d.apiVersion}`)).toContain('ClusterClass cluster.x-k8s.io/v1beta2');
    expect(docs.map((d) => `${d.kind} ${d.apiVersion}`)).toContain(
      'KubeadmControlPlaneTemplate controlplane.cluster.x-k8s.io/v1beta2',
    );
    // Objects an earlier render generated are not sources: untouched.
    expect(snapshot(join(dir, 'rendered'))).toEqual(snapshot(join(repoRoot, 'examples', 'basic', 'rendered')));
    const after = snapshot(dir);
    const second = exec('kpt', ['fn', 'eval', dir, '--exec', binPath, '--', 'mode=convert']);
    expect(second.code, second.stderr).toBe(0);
    expect(snapshot(dir)).toEqual(after);
  });

  it.skipIf(fixtureMissing(FIXTURE))('fails on a patch it cannot convert, and kpt leaves the package as it was', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcc-kpt-'));
    writeFileSync(join(dir, 'Kptfile'), 'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: p\n');
    writeFileSync(
      join(dir, 'f.yaml'),
      readFileSync(join(FIXTURE_DIR, FIXTURE), 'utf8').replace(
        'feature-gates: {{ .k8sFeatureGates }}',
        '{{ range $k, $v := .gates }}{{ $k }}: {{ $v }}{{ end }}',
      ),
    );
    const before = snapshot(dir);
    const r = exec('kpt', ['fn', 'eval', dir, '--exec', binPath, '--', 'mode=convert']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('cannot be converted');
    expect(snapshot(dir)).toEqual(before);
  });
});
