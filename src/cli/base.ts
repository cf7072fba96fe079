/**
 * The "before" side of a comparison: a directory as it is, or the same paths at a git revision
 * (extracted with `git archive` into a temporary directory; the working tree is never touched).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

export type BaseOutcome = { ok: true; paths: string[] } | { ok: false; message: string };

export function materializeBase(base: string, headPaths: string[]): BaseOutcome {
  if (existsSync(base) && statSync(base).isDirectory()) return { ok: true, paths: [base] };
  try {
    const top = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
    const rel = headPaths.map((p) => relative(top, resolve(p)) || '.');
    const dir = mkdtempSync(join(tmpdir(), 'render-clusterclass-base-'));
    // After `--end-of-options` (git 2.24) the revision is a revision whatever it looks like:
    // `--output=FILE` or `--remote=URL` can never be read as an option of git archive.
    const archive = execFileSync('git', ['archive', '--format=tar', '--end-of-options', base, ...rel], { cwd: top, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 30 });
    execFileSync('tar', ['-x', '-C', dir], { input: archive });
    return { ok: true, paths: rel.map((r) => join(dir, r)).filter((p) => existsSync(p)) };
  } catch (e) {
    const stderr = (e as { stderr?: Buffer | string }).stderr?.toString().trim();
    return { ok: false, message: `cannot read "${base}" as a directory or git revision${stderr ? `: ${stderr}` : ''}` };
  }
}
