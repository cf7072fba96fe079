/**
 * Repository content is untrusted (README "Security and limits"): symbolic links met while walking
 * a directory are never followed, so a link loop cannot hang a run and a link to a file outside
 * the tree (a Secret) is never read, printed or copied. Every walker is driven through the real
 * CLI: render and its side directories (--crds, --observed, --extensions, --replay-extensions),
 * render --with-inputs -o, plan --base (a directory and a git revision holding the links),
 * explain and convert. A path named on the command line may itself be a link.
 * The runs are asynchronous: on a walker that follows links they never end, and the test fails
 * by its timeout instead of blocking the suite.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../extensions/helpers.js';
import { repoRoot, snapshot } from '../helpers/tools.js';

const SECRET = 'hunter2-from-outside';
const NOT_FOLLOWED = 'warning: symbolic link not followed';

/**
 * A workspace: `pkg/` is examples/basic plus a link to a Secret outside it, a link to a directory
 * outside it, and two self-links (`self -> .`, `up -> ..`) that loop forever when followed.
 */
function workspace(): { root: string; pkg: string; outside: string } {
  const root = mkdtempSync(join(tmpdir(), 'rcc-links-'));
  const pkg = join(root, 'pkg');
  const outside = join(root, 'outside');
  cpSync(join(repoRoot, 'examples', 'basic'), pkg, { recursive: true });
  mkdirSync(outside);
  writeFileSync(
    join(outside, 'secret.yaml'),
    `apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n  namespace: bar\nstringData:\n  password: ${SECRET}\n`,
  );
  loopsAndLeaks(pkg);
  return { root, pkg, outside };
}

/** The links every walked directory gets in these tests. */
function loopsAndLeaks(dir: string): void {
  symlinkSync('../outside/secret.yaml', join(dir, 'secret.yaml'));
  symlinkSync('../outside', join(dir, 'more'));
  symlinkSync('.', join(dir, 'self'));
  symlinkSync('..', join(dir, 'up'));
}

describe('symbolic links in the inputs are not followed', () => {
  it('render: two self-links end, a linked Secret is never printed, each link is named once on stderr', async () => {
    const { root, pkg } = workspace();
    const r = await cli(['render', 'pkg'], root);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain(SECRET);
    expect(r.stdout).toContain('kind: KubeadmControlPlane');
    for (const link of ['secret.yaml', 'more', 'self', 'up'])
      expect(r.stderr).toContain(`pkg/${link}: ${NOT_FOLLOWED}`);
    // The same output as the package without the links.
    const plain = mkdtempSync(join(tmpdir(), 'rcc-links-plain-'));
    cpSync(join(repoRoot, 'examples', 'basic'), join(plain, 'pkg'), { recursive: true });
    expect(r.stdout).toBe((await cli(['render', 'pkg'], plain)).stdout);
    expect(readFileSync(join(pkg, 'secret.yaml'), 'utf8')).toContain(SECRET); // the link itself is intact
  });

  it('render --with-inputs -o never copies what a link points to', async () => {
    const { root } = workspace();
    const r = await cli(['render', 'pkg', '--with-inputs', '-o', 'out'], root);
    expect(r.code, r.stderr).toBe(0);
    const written = snapshot(join(root, 'out'));
    expect(Object.keys(written)).toContain('clusterclass.yaml');
    expect(JSON.stringify(written)).not.toContain(SECRET);
  });

  it('a path named on the command line may be a link: the user named it', async () => {
    const { root } = workspace();
    symlinkSync('pkg', join(root, 'named'));
    symlinkSync('outside/secret.yaml', join(root, 'named-secret.yaml'));
    const r = await cli(['render', 'named', 'named-secret.yaml', '--set', 'keepClassInputs=true'], root);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('kind: KubeadmControlPlane');
    expect(r.stdout).toContain(SECRET);
  });

  it('--crds, --observed, --extensions and --replay-extensions directories: links named, never read', async () => {
    const { root } = workspace();
    for (const side of ['crds', 'observed', 'extensions', 'recordings']) {
      mkdirSync(join(root, side));
      loopsAndLeaks(join(root, side));
    }
    // A recording outside, linked in: replay must not find it.
    writeFileSync(join(root, 'outside', 'generatepatches-0.json'), '{}\n');
    symlinkSync('../outside/generatepatches-0.json', join(root, 'recordings', 'generatepatches-0.json'));
    // Recordings are `.json` files: only such a link is worth naming there.
    for (const [flag, dir, link] of [
      ['--crds', 'crds', 'secret.yaml'],
      ['--observed', 'observed', 'secret.yaml'],
      ['--extensions', 'extensions', 'secret.yaml'],
      ['--replay-extensions', 'recordings', 'generatepatches-0.json'],
    ]) {
      const r = await cli(['render', 'pkg', flag!, dir!], root);
      expect(r.code, `${flag}: ${r.stderr}`).toBe(0);
      expect(r.stdout).not.toContain(SECRET);
      expect(r.stderr).toContain(`${dir}/${link}: ${NOT_FOLLOWED}`);
    }
  });

  it('plan --base: a directory and a git revision holding the links end, and never read outside', async () => {
    const { root } = workspace();
    const base = join(root, 'base');
    cpSync(join(repoRoot, 'examples', 'basic'), base, { recursive: true });
    loopsAndLeaks(base);
    const fromDir = await cli(['plan', '--base', 'base', 'pkg', '--format', 'json'], root);
    expect(fromDir.code, fromDir.stderr).toBe(0);
    for (const side of ['base', 'pkg']) expect(fromDir.stderr).toContain(`${side}/secret.yaml: ${NOT_FOLLOWED}`);
    // Committed links (git stores them as links; git archive extracts them as links).
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
        cwd: root,
        stdio: 'pipe',
      });
    git('init', '-q');
    git('add', 'pkg');
    git('commit', '-q', '-m', 'base with links');
    const fromGit = await cli(['plan', '--base', 'HEAD', 'pkg', '--format', 'json'], root);
    expect(fromGit.code, fromGit.stderr).toBe(0);
    expect(JSON.parse(fromGit.stdout).clusters.map((c: { status: string }) => c.status)).toEqual(['unchanged']);
    const previous = await cli(['render', 'pkg', '--previous', 'HEAD'], root);
    expect(previous.code, previous.stderr).toBe(0);
    expect(previous.stdout).not.toContain(SECRET);
  });

  it('explain and convert walk the same way', async () => {
    const { root } = workspace();
    const explain = await cli(['explain', 'bar/foo', '-f', 'pkg', '--field', 'spec.replicas'], root);
    expect(explain.code, explain.stderr).toBe(0);
    expect(explain.stderr).toContain(`pkg/secret.yaml: ${NOT_FOLLOWED}`);
    // A v1beta1 Cluster outside, linked in: the dry run neither converts nor shows it.
    writeFileSync(
      join(root, 'outside', 'other.yaml'),
      readFileSync(join(repoRoot, 'examples', 'basic', 'cluster-foo.yaml'), 'utf8').replace(
        'name: foo',
        `name: ${SECRET}`,
      ),
    );
    symlinkSync('../outside/other.yaml', join(root, 'pkg', 'other.yaml'));
    const convert = await cli(['convert', 'pkg'], root);
    expect(convert.code, convert.stderr).toBe(0);
    expect(convert.stdout).toContain('cluster-foo.yaml');
    expect(convert.stdout).not.toContain(SECRET);
    expect(convert.stderr).toContain(`pkg/other.yaml: ${NOT_FOLLOWED}`);
  });
});

describe('a link not followed is an input not read: -o prunes nothing while it is there', () => {
  it('a Cluster moved behind a link keeps its file; listed in .krmignore, the link holds no input and the file is pruned', async () => {
    const root = mkdtempSync(join(tmpdir(), 'rcc-links-prune-'));
    const pkg = join(root, 'pkg');
    cpSync(join(repoRoot, 'examples', 'basic'), pkg, { recursive: true });
    const first = await cli(['render', 'pkg', '-o', 'out'], root);
    expect(first.code, first.stderr).toBe(0);
    const rendered = readFileSync(join(root, 'out', 'bar', 'foo.yaml'), 'utf8');
    // The Cluster's file now lives outside the tree, reached only through a committed link.
    mkdirSync(join(root, 'outside'));
    cpSync(join(pkg, 'cluster-foo.yaml'), join(root, 'outside', 'cluster-foo.yaml'));
    execFileSync('rm', [join(pkg, 'cluster-foo.yaml')]);
    symlinkSync('../outside/cluster-foo.yaml', join(pkg, 'cluster-foo.yaml'));
    const linked = await cli(['render', 'pkg', '-o', 'out'], root);
    expect(linked.code, linked.stderr).toBe(0);
    expect(linked.stderr).toContain(`pkg/cluster-foo.yaml: ${NOT_FOLLOWED}`);
    expect(linked.stderr).toContain('nothing is pruned while an input cannot be read');
    expect(readFileSync(join(root, 'out', 'bar', 'foo.yaml'), 'utf8')).toBe(rendered);
    // Said on purpose: the link holds no input, so the Cluster is gone and its file pruned.
    writeFileSync(join(pkg, '.krmignore'), 'cluster-foo.yaml\n');
    const ignored = await cli(['render', 'pkg', '-o', 'out'], root);
    expect(ignored.code, ignored.stderr).toBe(0);
    expect(ignored.stderr).not.toContain(NOT_FOLLOWED);
    expect(Object.keys(snapshot(join(root, 'out')))).not.toContain('bar/foo.yaml');
  });
});
