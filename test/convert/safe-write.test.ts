/**
 * Issue 23, `convert` keeps what a user's files are: `--in-place` keeps mode and owner, refuses a
 * symbolic link (naming what it points to) and a file with other hard links, works under the
 * directory's lock and sweeps what a killed run left; `-o` keeps relative paths and never maps
 * two inputs onto one output. Through the built CLI, on the v1beta1 example package.
 */
import {
  chmodSync,
  chownSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binPath, repoRoot, run, tempCopy } from '../helpers/tools.js';
import { tree } from '../helpers/tree.js';

const convert = (args: string[], cwd: string) => run('node', [binPath, 'convert', ...args], { cwd });

/** The v1beta1 example package: a Cluster and its class, both converted by `convert`. */
function estate(): string {
  const dir = tempCopy(join(repoRoot, 'examples', 'basic'));
  rmSync(join(dir, 'rendered'), { recursive: true });
  return dir;
}

describe('convert --in-place keeps what a file is', () => {
  it('a 0600 file stays 0600, with its owner (root only: chown) and group', () => {
    const dir = estate();
    const file = join(dir, 'cluster-foo.yaml');
    chmodSync(file, 0o600);
    const asRoot = process.getuid?.() === 0;
    if (asRoot) chownSync(file, 1234, 4321);
    const before = statSync(file);
    const r = convert(['--in-place', '.'], dir);
    expect(r.code, r.stderr).toBe(0);
    const after = statSync(file);
    expect(after.ino).not.toBe(before.ino);
    expect(readFileSync(file, 'utf8')).toContain('apiVersion: cluster.x-k8s.io/v1beta2');
    expect([after.mode & 0o7777, after.uid, after.gid]).toEqual([0o600, before.uid, before.gid]);
    if (asRoot) expect([after.uid, after.gid]).toEqual([1234, 4321]);
  });

  it('a symbolic link is refused, naming the file it points to; nothing is written', () => {
    const dir = estate();
    const elsewhere = mkdtempSync(join(tmpdir(), 'rcc-target-'));
    writeFileSync(join(elsewhere, 'cluster.yaml'), readFileSync(join(dir, 'cluster-foo.yaml')));
    rmSync(join(dir, 'cluster-foo.yaml'));
    symlinkSync(join(elsewhere, 'cluster.yaml'), join(dir, 'cluster-foo.yaml'));
    const before = { dir: tree(dir), elsewhere: tree(elsewhere) };
    const r = convert(['--in-place', 'cluster-foo.yaml', 'clusterclass.yaml'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `render-clusterclass convert: cannot write: cluster-foo.yaml is a symbolic link: convert the file it points to (${join(elsewhere, 'cluster.yaml')}) instead\n`,
    );
    expect({ dir: tree(dir), elsewhere: tree(elsewhere) }).toEqual(before);
  });

  it('a file with another hard link is refused; both names keep the same text', () => {
    const dir = estate();
    const other = join(mkdtempSync(join(tmpdir(), 'rcc-hard-')), 'same.yaml');
    linkSync(join(dir, 'clusterclass.yaml'), other);
    const before = tree(dir);
    const r = convert(['--in-place', '.'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'render-clusterclass convert: cannot write: clusterclass.yaml has 2 hard links: replacing it would leave the other names with the old text; convert a copy (-o) instead\n',
    );
    expect(tree(dir)).toEqual(before);
    expect(statSync(other).ino).toBe(statSync(join(dir, 'clusterclass.yaml')).ino);
  });

  it('sweeps a killed run’s temporary file and staging; refuses while another run holds the directory', () => {
    const dir = estate();
    writeFileSync(join(dir, '.render-clusterclass-lock'), JSON.stringify({ pid: process.pid, host: hostname() }));
    const before = tree(dir);
    const locked = convert(['--in-place', '.'], dir);
    expect(locked.code).toBe(1);
    expect(locked.stderr).toContain(
      `cannot write: . is in use by another render-clusterclass run (pid ${process.pid} on ${hostname()})`,
    );
    expect(tree(dir)).toEqual(before);
    rmSync(join(dir, '.render-clusterclass-lock'));
    writeFileSync(join(dir, '.render-clusterclass-tmp-0badf00d'), 'half a file');
    mkdirSync(join(dir, '.render-clusterclass-tmp-dead12'));
    const r = convert(['--in-place', '.'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['Kptfile', 'cluster-foo.yaml', 'clusterclass.yaml']);
  });
});

describe('convert -o DIR', () => {
  it('never maps two inputs onto one output: refused, naming both, nothing written', () => {
    const dir = estate();
    for (const [sub, file] of [
      ['a', 'cluster-foo.yaml'],
      ['b', 'clusterclass.yaml'],
    ]) {
      mkdirSync(join(dir, sub!));
      writeFileSync(join(dir, sub!, 'x.yaml'), readFileSync(join(dir, file!)));
    }
    const r = convert(['a/x.yaml', 'b/x.yaml', '-o', 'out'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'render-clusterclass convert: cannot write: a/x.yaml (x.yaml) and b/x.yaml (x.yaml) would write the same path below out\n',
    );
    expect(readdirSync(dir)).not.toContain('out');
  });

  it('refuses to write over its own inputs, or through a link in DIR', () => {
    const dir = estate();
    const before = tree(dir);
    const own = convert(['.', '-o', '.'], dir);
    expect(own.code).toBe(1);
    expect(own.stderr).toContain(
      'cannot write: cluster-foo.yaml (cluster-foo.yaml) would replace an input of this run below .\n',
    );
    expect(tree(dir)).toEqual(before);
    const out = mkdtempSync(join(tmpdir(), 'rcc-out-'));
    const victim = join(mkdtempSync(join(tmpdir(), 'rcc-victim-')), 'victim.yaml');
    writeFileSync(victim, 'precious\n');
    symlinkSync(victim, join(out, 'clusterclass.yaml'));
    const linked = convert(['.', '-o', out], dir);
    expect(linked.code).toBe(1);
    expect(linked.stderr).toContain(
      `cannot write: ${out}/clusterclass.yaml is a symbolic link: refusing to write through it or over it\n`,
    );
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(readdirSync(out)).toEqual(['clusterclass.yaml']);
  });
});
