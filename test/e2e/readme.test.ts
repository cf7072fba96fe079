/**
 * The README's kpt, kustomize and Argo CD commands run as written, in a copy of what a fresh
 * clone has after `npm ci` (the bin, its bundle, the examples), with nothing on PATH but the
 * system's: no `npm link`.
 */
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasTool, repoRoot, run, snapshot } from '../helpers/tools.js';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');

/** The lines of the first `sh` block after a heading. */
function commandsUnder(heading: string): string[] {
  const at = readme.indexOf(`\n${heading}\n`);
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(at));
  if (at < 0 || !block) throw new Error(`no sh block under ${heading}`);
  return block[1]!.split('\n').filter((l) => l.trim() !== '');
}

function checkout(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rcc-clone-'));
  for (const path of [
    'bin',
    'examples',
    'package.json',
    'dist/render-clusterclass.cjs',
    'dist/render-clusterclass.cjs.cache',
  ])
    cpSync(join(repoRoot, path), join(dir, path), { recursive: true });
  return dir;
}

const sh = (command: string, cwd: string) =>
  run('sh', ['-c', command], {
    cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' },
  });

describe('README commands, from a fresh clone', () => {
  it.skipIf(!hasTool('kpt'))('kpt: fn render in the example package is a no-op, fn eval renders a copy', () => {
    const dir = checkout();
    const [render, evaluate] = commandsUnder('### kpt');
    const before = snapshot(join(dir, 'examples', 'basic'));
    const r = sh(render!, dir);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(snapshot(join(dir, 'examples', 'basic'))).toEqual(before);
    const e = sh(evaluate!, dir);
    expect(e.code, e.stdout + e.stderr).toBe(0);
    expect(e.stdout + e.stderr).toContain('rendered 1 of 1 Cluster (16 objects), 0 failed');
  });

  it.skipIf(!hasTool('kubectl'))('kustomize: kubectl kustomize with the exec plugin', () => {
    const [command] = commandsUnder('### kustomize');
    const out = sh(command!, checkout());
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain('kind: KubeadmControlPlane');
  });

  it('Argo CD: what the generate command prints for an application directory', () => {
    const [command] = commandsUnder('### Argo CD');
    const out = sh(command!, checkout());
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toBe('');
    expect(out.stdout).toContain('kind: KubeadmControlPlane');
    expect(out.stdout).not.toContain('config.kubernetes.io/');
  });
});
