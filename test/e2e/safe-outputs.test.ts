/**
 * Issue 23, `render -o DIR`: every write, rename and delete stays inside DIR whatever DIR holds
 * (links at any depth, outputs-list lines, names like the tool's own), output file names never
 * collide, DIR is never read back when it is or holds an input path, one run at a time, and an
 * interrupted run leaves nothing behind. Everything through the built CLI.
 */
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { binPath, hasTool, repoRoot, run, tempCopy } from '../helpers/tools.js';
import { litter, tree } from '../helpers/tree.js';
import { classObjects, clusterObject } from '../../bench/fleet.mjs';

const example = join(repoRoot, 'examples', 'basic');
const cli = (args: string[], cwd: string) => run('node', [binPath, ...args], { cwd });
const LIST = '.render-clusterclass-outputs';
const LOCK = '.render-clusterclass-lock';

/** The example package without its committed output, with more Clusters of the same class. */
function pkg(...names: string[]): string {
  const dir = tempCopy(example);
  rmSync(join(dir, 'rendered'), { recursive: true });
  const foo = readFileSync(join(dir, 'cluster-foo.yaml'), 'utf8');
  for (const name of names)
    writeFileSync(join(dir, `cluster-${name}.yaml`), foo.replace('name: foo\n', `name: ${name}\n`));
  return dir;
}

/** A directory outside the package holding a file someone cares about. */
function elsewhere(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rcc-elsewhere-'));
  writeFileSync(join(dir, 'foo.yaml'), 'precious\n');
  writeFileSync(join(dir, 'victim.yaml'), 'precious\n');
  return dir;
}

/** The outputs list's lines as path<TAB>Cluster (the reuse marks after them: test/e2e/reuse-o.test.ts). */
const listed = (dir: string) =>
  readFileSync(join(dir, LIST), 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.split('\t').slice(0, 2).join('\t'));

describe('-o DIR: no write, rename or delete outside DIR, whatever DIR holds', () => {
  it('a committed link rendered/<namespace> -> elsewhere is refused, naming it; nothing changes on either side', () => {
    const dir = pkg();
    const other = elsewhere();
    mkdirSync(join(dir, 'rendered'));
    symlinkSync(other, join(dir, 'rendered', 'bar'));
    const before = { dir: tree(dir), other: tree(other) };
    const r = cli(['render', '.', '-o', 'rendered'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'render-clusterclass render: cannot write -o rendered: rendered/bar is a symbolic link: refusing to write through it or over it\n',
    );
    expect(tree(dir)).toEqual(before.dir);
    expect(tree(other)).toEqual(before.other);
  });

  it('DIR itself may be a link the user named: it is resolved once, and the run writes where it points', () => {
    const dir = pkg();
    const target = mkdtempSync(join(tmpdir(), 'rcc-target-'));
    symlinkSync(target, join(dir, 'out'));
    const runs = [1, 2].map(() => cli(['render', '.', '-o', 'out'], dir));
    expect(runs.map((r) => [r.code, r.stderr])).toEqual([
      [0, 'out: 1 written, 0 unchanged, 0 kept, 0 skipped, 0 pruned\n'],
      [0, 'out: 0 written, 1 unchanged (1 reused: inputs unchanged), 0 kept, 0 skipped, 0 pruned\n'],
    ]);
    expect(Object.keys(tree(target))).toEqual([LIST, 'bar', 'bar/foo.yaml']);
  });

  it('a link in place of an output file or of the outputs list is refused; the file it points to is untouched', () => {
    for (const name of ['bar/foo.yaml', LIST]) {
      const dir = pkg();
      const other = elsewhere();
      expect(cli(['render', '.', '-o', 'out'], dir).code).toBe(0);
      rmSync(join(dir, 'out', name));
      symlinkSync(join(other, 'victim.yaml'), join(dir, 'out', name));
      const before = { dir: tree(dir), other: tree(other) };
      const r = cli(['render', '.', '-o', 'out'], dir);
      expect(r.code, name).toBe(1);
      expect(r.stderr).toContain(`cannot write -o out: out/${name} is a symbolic link`);
      expect(tree(dir)).toEqual(before.dir);
      expect(tree(other)).toEqual(before.other);
    }
  });

  it('outputs-list lines that are absolute, leave DIR, go through a link, or name the list, the lock or a directory are never pruned, and are dropped', () => {
    const dir = pkg('foo2');
    const other = elsewhere();
    expect(cli(['render', '.', '-o', 'out'], dir).code).toBe(0);
    writeFileSync(join(dir, 'outside.txt'), 'precious\n');
    symlinkSync(other, join(dir, 'out', 'ln'));
    // A directory where Cluster bar/gone's file would be.
    mkdirSync(join(dir, 'out', 'bar', 'gone.yaml'));
    writeFileSync(join(dir, 'out', 'bar', 'gone.yaml', 'inside.yaml'), 'precious\n');
    // Owners as the layout gives those paths (pipeline/layout.ts), so each line reaches the check it probes.
    const hostile = [
      [`${join(other, 'victim.yaml')}`, 'bar/gone'],
      ['../outside.txt', 'bar/gone'],
      ['bar/../../outside.txt', 'bar/gone'],
      ['ln/victim.yaml', 'ln/victim'],
      [LIST, 'bar/gone'],
      [LOCK, 'bar/gone'],
      ['bar/gone.yaml', 'bar/gone'],
    ];
    writeFileSync(
      join(dir, 'out', LIST),
      `${readFileSync(join(dir, 'out', LIST), 'utf8')}${hostile.map(([p, owner]) => `${p}\t${owner}\n`).join('')}`,
    );
    const before = tree(other);
    const r = cli(['render', '.', '-o', 'out'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(tree(other)).toEqual(before);
    expect(readFileSync(join(dir, 'outside.txt'), 'utf8')).toBe('precious\n');
    expect(readFileSync(join(dir, 'out', 'bar', 'gone.yaml', 'inside.yaml'), 'utf8')).toBe('precious\n');
    expect(r.stderr.split('\n').filter((l) => l.includes('render-clusterclass render: '))).toEqual([
      'render-clusterclass render: out/.render-clusterclass-outputs:4: ignored: an absolute path',
      'render-clusterclass render: out/.render-clusterclass-outputs:5: ignored: a path that leaves the directory (..)',
      'render-clusterclass render: out/.render-clusterclass-outputs:6: ignored: a path that leaves the directory (..)',
      'render-clusterclass render: out/.render-clusterclass-outputs:8: ignored: a name this tool keeps for itself (.render-clusterclass*)',
      'render-clusterclass render: out/.render-clusterclass-outputs:9: ignored: a name this tool keeps for itself (.render-clusterclass*)',
      'render-clusterclass render: out/ln is a symbolic link: listed, but not pruned (only regular files are)',
      'render-clusterclass render: out/bar/gone.yaml is a directory: listed, but not pruned (only regular files are)',
    ]);
    expect(r.stderr).toContain(
      'out: 0 written, 2 unchanged (2 reused: inputs unchanged), 0 kept, 0 skipped, 0 pruned\n',
    );
    expect(listed(join(dir, 'out'))).toEqual(['bar/foo.yaml\tbar/foo', 'bar/foo2.yaml\tbar/foo2']);
  });

  it('a stale staging directory, temporary file and lock of a killed run are swept; a link named like them is left alone', () => {
    const dir = pkg();
    const other = elsewhere();
    const out = join(dir, 'out');
    expect(cli(['render', '.', '-o', 'out'], dir).code).toBe(0);
    mkdirSync(join(out, '.render-clusterclass-tmp-dead12'));
    writeFileSync(join(out, '.render-clusterclass-tmp-dead12', '0'), 'half a file');
    writeFileSync(join(out, '.render-clusterclass-tmp-0badf00d'), 'a lock draft');
    symlinkSync(other, join(out, '.render-clusterclass-tmp-link'));
    const dead = run('node', ['-e', 'process.stdout.write(String(process.pid))']).stdout;
    writeFileSync(join(out, LOCK), `${JSON.stringify({ pid: Number(dead), host: hostname() })}\n`);
    const before = tree(other);
    const r = cli(['render', '.', '-o', 'out'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['.render-clusterclass-outputs', '.render-clusterclass-tmp-link', 'bar']);
    expect(tree(other)).toEqual(before);
  });
});

describe('output file names never collide', () => {
  it('a Cluster named foo.provenance and the provenance report of foo are different files', () => {
    const dir = pkg('foo.provenance');
    const r = cli(['render', '.', '-o', 'out', '--set', 'provenance=true'], dir);
    expect(r.code, r.stderr).toBe(0);
    const files = Object.fromEntries(
      readdirSync(join(dir, 'out', 'bar')).map((f) => [
        f,
        YAML.parseAllDocuments(readFileSync(join(dir, 'out', 'bar', f), 'utf8')).map((d) => d.get('kind')),
      ]),
    );
    expect(Object.keys(files).sort()).toEqual([
      'foo.provenance.yaml',
      'foo.provenance_provenance.yaml',
      'foo.yaml',
      'foo_provenance.yaml',
    ]);
    for (const f of ['foo.yaml', 'foo.provenance.yaml']) expect(files[f]).not.toContain('ProvenanceReport');
    for (const f of ['foo_provenance.yaml', 'foo.provenance_provenance.yaml'])
      expect(files[f]).toEqual(['ProvenanceReport']);
  });

  it('--with-inputs: an input copied to a Cluster’s output path is an error for both; the Cluster keeps its earlier file', () => {
    const dir = pkg('foo2');
    expect(cli(['render', '.', '-o', 'out', '--with-inputs'], dir).code).toBe(0);
    const earlier = readFileSync(join(dir, 'out', 'bar', 'foo.yaml'), 'utf8');
    mkdirSync(join(dir, 'bar'));
    writeFileSync(
      join(dir, 'bar', 'foo.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: bar}\n',
    );
    writeFileSync(
      join(dir, 'cluster-foo.yaml'),
      readFileSync(join(dir, 'cluster-foo.yaml'), 'utf8').replace('replicas: 5', 'replicas: 6'),
    );
    const r = cli(['render', '.', '-o', 'out', '--with-inputs'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'error: Cluster bar/foo: -o: Cluster bar/foo (bar/foo.yaml) and a copied input (bar/foo.yaml) would write the same path; not written (a Cluster keeps its earlier files)',
    );
    expect(readFileSync(join(dir, 'out', 'bar', 'foo.yaml'), 'utf8')).toBe(earlier);
    expect(listed(join(dir, 'out'))).toContain('bar/foo.yaml\tbar/foo');
  });
});

describe('a failing Cluster keeps its file against every other writer', () => {
  it('--with-inputs: an input copied to the path of a Cluster that is not rendered is an error; the Cluster keeps its file', () => {
    const dir = pkg();
    expect(cli(['render', '.', '-o', 'out', '--with-inputs'], dir).code).toBe(0);
    const earlier = readFileSync(join(dir, 'out', 'bar', 'foo.yaml'), 'utf8');
    writeFileSync(
      join(dir, 'cluster-foo.yaml'),
      readFileSync(join(dir, 'cluster-foo.yaml'), 'utf8').replace('class: linux-worker', 'class: no-such-class'),
    );
    mkdirSync(join(dir, 'bar'));
    writeFileSync(
      join(dir, 'bar', 'foo.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: bar}\n',
    );
    const r = cli(['render', '.', '-o', 'out', '--with-inputs'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'error: -o: a copied input (bar/foo.yaml) would replace the earlier file of Cluster bar/foo, which this run keeps; not written',
    );
    expect(readFileSync(join(dir, 'out', 'bar', 'foo.yaml'), 'utf8')).toBe(earlier);
  });
});

describe('a DIR that is, holds or is inside an input path is never read back', () => {
  it('render . -o . is a fixed point: the second and third runs read the sources only and change nothing', () => {
    const dir = pkg('foo2');
    const runs = [1, 2, 3].map(() => cli(['render', '.', '-o', '.'], dir));
    expect(runs.map((r) => [r.code, r.stderr])).toEqual([
      [0, '.: 2 written, 0 unchanged, 0 kept, 0 skipped, 0 pruned\n'],
      [0, '.: 0 written, 2 unchanged (2 reused: inputs unchanged), 0 kept, 0 skipped, 0 pruned\n'],
      [0, '.: 0 written, 2 unchanged (2 reused: inputs unchanged), 0 kept, 0 skipped, 0 pruned\n'],
    ]);
    expect(listed(dir)).toEqual(['bar/foo.yaml\tbar/foo', 'bar/foo2.yaml\tbar/foo2']);
  });

  it('an input inside DIR, and a listed output given as an argument, are not read back', () => {
    const dir = pkg();
    mkdirSync(join(dir, 'clusters'));
    renameSync(join(dir, 'cluster-foo.yaml'), join(dir, 'clusters', 'foo.yaml'));
    const args = ['render', 'clusters', 'clusterclass.yaml', '-o', '.'];
    expect(cli(args, dir).stderr).toBe('.: 1 written, 0 unchanged, 0 kept, 0 skipped, 0 pruned\n');
    const after = tree(dir);
    const again = cli([...args, 'bar/foo.yaml'], dir);
    expect([again.code, again.stderr]).toEqual([
      0,
      '.: 0 written, 1 unchanged (1 reused: inputs unchanged), 0 kept, 0 skipped, 0 pruned\n',
    ]);
    expect(tree(dir)).toEqual(after);
  });

  it('a file DIR would write that is one of the inputs is never overwritten: an error for its Cluster', () => {
    const dir = pkg();
    mkdirSync(join(dir, 'bar'));
    const source = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: bar}\n';
    writeFileSync(join(dir, 'bar', 'foo.yaml'), source);
    const r = cli(['render', '.', '-o', '.'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'error: Cluster bar/foo: -o: Cluster bar/foo (bar/foo.yaml) would replace an input of this run',
    );
    expect(readFileSync(join(dir, 'bar', 'foo.yaml'), 'utf8')).toBe(source);
  });

  it('--with-inputs into a DIR that is or holds an input path is a usage error, and writes nothing', () => {
    const dir = pkg();
    mkdirSync(join(dir, 'clusters'));
    renameSync(join(dir, 'cluster-foo.yaml'), join(dir, 'clusters', 'foo.yaml'));
    const before = tree(dir);
    for (const args of [
      ['.', '-o', '.'],
      ['clusters', '-o', '.'],
      ['.', '-o', './'],
    ]) {
      const r = cli(['render', ...args, '--with-inputs'], dir);
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(
        /^render-clusterclass render: --with-inputs cannot copy the inputs into -o \.\/?: it is, or holds, an input path/,
      );
    }
    expect(tree(dir)).toEqual(before);
    // DIR inside the input path is fine: DIR is skipped as a whole.
    expect(cli(['render', '.', '-o', 'out', '--with-inputs'], dir).code).toBe(0);
  });
});

/** A fleet of `count` Clusters of the benchmark class, as files: enough for a run to spend a while writing. */
function fleet(count: number, replicas = 0): string {
  const dir = mkdtempSync(join(tmpdir(), 'rcc-fleet-'));
  writeFileSync(
    join(dir, 'class.yaml'),
    classObjects()
      .map((o) => YAML.stringify(o))
      .join('---\n'),
  );
  for (let i = 0; i < count; i++) {
    const c = clusterObject(i) as { spec: { topology: { workers: { machineDeployments: { replicas: number }[] } } } };
    c.spec.topology.workers.machineDeployments[0]!.replicas += replicas;
    writeFileSync(join(dir, `c${i}.yaml`), YAML.stringify(c));
  }
  return dir;
}

/** Runs render -o `out`, stops it the moment it takes the lock, and ends it with `signal`. */
function interruptWhileWriting(
  inputs: string,
  out: string,
  signal: 'SIGTERM' | 'SIGINT',
): Promise<{ code: number | null; caught: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [binPath, 'render', inputs, '-o', out], { stdio: 'ignore' });
    let caught = false;
    const watcher = watch(out, (_e, name) => {
      if (name !== LOCK || caught || !existsSync(join(out, LOCK))) return;
      child.kill('SIGSTOP');
      caught = existsSync(join(out, LOCK));
      child.kill(signal);
      child.kill('SIGCONT');
    });
    child.on('close', (code) => {
      watcher.close();
      resolve({ code, caught });
    });
  });
}

describe('one run at a time; an interrupted run leaves nothing behind', () => {
  it('a second run refuses while another holds DIR, naming it; nothing changes', () => {
    const dir = pkg();
    expect(cli(['render', '.', '-o', 'out'], dir).code).toBe(0);
    for (const holder of [
      { pid: process.pid, host: hostname() },
      { pid: 1, host: 'ci-runner-7.example' },
    ]) {
      writeFileSync(join(dir, 'out', LOCK), JSON.stringify(holder));
      const before = tree(dir);
      const r = cli(['render', '.', '-o', 'out'], dir);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        `render-clusterclass render: cannot write -o out: out is in use by another render-clusterclass run (pid ${holder.pid} on ${holder.host}); run again once it is done, or remove out/${LOCK} if that process is gone\n`,
      );
      expect(tree(dir)).toEqual(before);
    }
  });

  it('a lock that is a link or not this tool’s is refused, and what it points to untouched', () => {
    const dir = pkg();
    const other = elsewhere();
    expect(cli(['render', '.', '-o', 'out'], dir).code).toBe(0);
    symlinkSync(join(other, 'victim.yaml'), join(dir, 'out', LOCK));
    const before = { dir: tree(dir), other: tree(other) };
    const r = cli(['render', '.', '-o', 'out'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `out/${LOCK} is not a lock this tool wrote: remove it if no render-clusterclass run is using out`,
    );
    expect({ dir: tree(dir), other: tree(other) }).toEqual(before);
  });

  it('a run that starts while another is writing DIR refuses, naming it; no file is left unlisted', async () => {
    const [a, b] = [fleet(150), fleet(160)];
    for (let attempt = 1; attempt <= 10; attempt++) {
      const out = mkdtempSync(join(tmpdir(), 'rcc-shared-'));
      const first = spawn(process.execPath, [binPath, 'render', a, '-o', out], { stdio: 'ignore' });
      const done = new Promise<number | null>((resolve) => first.on('close', resolve));
      // The first run is stopped while its staging directory is there: it is writing.
      const writing = await new Promise<boolean>((resolve) => {
        const watcher = watch(out, (_e, name) => {
          if (
            !name?.startsWith('.render-clusterclass-tmp-') ||
            !statSync(join(out, name), { throwIfNoEntry: false })?.isDirectory()
          )
            return;
          watcher.close();
          first.kill('SIGSTOP');
          resolve(existsSync(join(out, name)));
        });
        first.on('close', () => (watcher.close(), resolve(false)));
      });
      const second = writing ? cli(['render', b, '-o', out], tmpdir()) : undefined;
      first.kill('SIGCONT');
      expect(await done).toBe(0);
      if (!second) continue;
      expect(second.code).toBe(1);
      expect(second.stderr).toBe(
        `render-clusterclass render: cannot write -o ${out}: ${out} is in use by another render-clusterclass run (pid ${first.pid} on ${hostname()}); run again once it is done, or remove ${out}/${LOCK} if that process is gone\n`,
      );
      const files = Object.keys(tree(out)).filter((p) => p.endsWith('.yaml'));
      expect(files).toHaveLength(150);
      expect(files.filter((f) => !listed(out).some((l) => l.startsWith(`${f}\t`)))).toEqual([]);
      expect(litter(out)).toEqual([]);
      return;
    }
    expect.unreachable('the first run was never caught writing');
  });

  for (const [signal, status] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const) {
    it(`${signal} while writing: the staging goes, the lock is released, exit ${status}; the next run converges`, async () => {
      const out = mkdtempSync(join(tmpdir(), 'rcc-signal-'));
      let interrupted: { code: number | null; caught: boolean } = { code: null, caught: false };
      // A run that is done before it is caught is simply tried again with changed inputs.
      for (let attempt = 1; !interrupted.caught && attempt <= 10; attempt++)
        interrupted = await interruptWhileWriting(fleet(150, attempt), out, signal);
      expect(interrupted).toEqual({ code: status, caught: true });
      expect(litter(out)).toEqual([]);
      const inputs = fleet(150, 20);
      const fresh = mkdtempSync(join(tmpdir(), 'rcc-fresh-'));
      expect(cli(['render', inputs, '-o', fresh], tmpdir()).code).toBe(0);
      expect(cli(['render', inputs, '-o', out], tmpdir()).code).toBe(0);
      expect(tree(out)).toEqual(tree(fresh));
    });
  }
});

describe.skipIf(!hasTool('git'))('a git revision read as the base', () => {
  it('plan --base REV and render --previous REV leave no temporary copy behind', () => {
    const dir = pkg();
    const git = (...args: string[]) =>
      run('git', ['-c', 'user.email=ci@example.com', '-c', 'user.name=ci', ...args], { cwd: dir });
    for (const args of [
      ['init', '-q'],
      ['add', '.'],
      ['commit', '-qm', 'fleet'],
    ])
      expect(git(...args).code).toBe(0);
    const temp = mkdtempSync(join(tmpdir(), 'rcc-tmpdir-'));
    const env = { ...process.env, TMPDIR: temp };
    expect(run('node', [binPath, 'plan', '--base', 'HEAD', '.'], { cwd: dir, env }).code).toBe(0);
    expect(run('node', [binPath, 'render', '.', '--previous', 'HEAD'], { cwd: dir, env }).code).toBe(0);
    expect(readdirSync(temp)).toEqual([]);
  });
});
