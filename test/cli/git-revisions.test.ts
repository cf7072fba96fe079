/**
 * A git revision given to `plan --base` or `render --previous` is always a revision, never an
 * option of git: `--base=--output=FILE` once made `git archive` truncate FILE. Through the real
 * CLI in a real repository.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binPath, repoRoot, run, skipUnless } from '../helpers/tools.js';

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rcc-rev-'));
  cpSync(join(repoRoot, 'examples', 'basic'), join(dir, 'pkg'), { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir, stdio: 'pipe' });
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'base');
  return dir;
}

describe.skipIf(skipUnless('git'))('git revisions are never options', () => {
  it.each([
    ['plan', (rev: string) => ['plan', `--base=${rev}`, 'pkg']],
    ['render --previous', (rev: string) => ['render', 'pkg', `--previous=${rev}`]],
  ])('%s: --output=FILE is a revision that does not exist; FILE is neither created nor touched', (_, args) => {
    const dir = repo();
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    const fresh = join(dir, 'fresh.txt');
    for (const [file, rev] of [
      [victim, `--output=${victim}`],
      [fresh, `--output=${fresh}`],
    ] as const) {
      const r = run(binPath, args(rev), { cwd: dir });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`cannot read "${rev}" as a directory or git revision`);
      expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
      if (file === victim) expect(readFileSync(victim, 'utf8')).toBe('precious\n');
      else expect(existsSync(fresh)).toBe(false);
    }
  });

  it('a real revision still works after the hardening', () => {
    const dir = repo();
    const r = run(binPath, ['plan', '--base', 'HEAD', 'pkg'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
  });
});
