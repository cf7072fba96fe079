/**
 * The "before" side of a comparison: a directory as it is, or the same paths at a git revision
 * (extracted with `git archive` into a temporary directory, removed once read — also when the
 * run is interrupted; the working tree is never touched).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { readInputs, type InputsOutcome } from './inputs.js';
import type { CliIO } from './io.js';
import { cleanUpOnInterrupt } from './interrupt.js';

type BaseOutcome = { ok: true; paths: string[] } | { ok: false; message: string };

/** The inputs at `base`: a directory, or `headPaths` at the git revision `base`. */
export async function readBase(base: string, headPaths: string[], io: CliIO): Promise<InputsOutcome> {
  if (existsSync(base) && statSync(base).isDirectory()) return readInputs([base], io);
  const dir = mkdtempSync(join(tmpdir(), 'render-clusterclass-base-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  const stopWatching = cleanUpOnInterrupt(remove);
  try {
    const at = materializeBase(base, headPaths, dir);
    return at.ok ? await readInputs(at.paths, io) : at;
  } finally {
    remove();
    stopWatching();
  }
}

/** Extracts `headPaths` at the git revision `base` into `dir`. */
function materializeBase(base: string, headPaths: string[], dir: string): BaseOutcome {
  try {
    const top = execFileSync('git', ['rev-parse', '--show-toplevel'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
    const rel = headPaths.map((p) => relative(top, resolve(p)) || '.');
    // After `--end-of-options` (git 2.24) the revision is a revision whatever it looks like:
    // `--output=FILE` or `--remote=URL` can never be read as an option of git archive.
    const archive = execFileSync('git', ['archive', '--format=tar', '--end-of-options', base, ...rel], {
      cwd: top,
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 1 << 30,
    });
    execFileSync('tar', ['-x', '-C', dir], { input: archive });
    return { ok: true, paths: rel.map((r) => join(dir, r)).filter((p) => existsSync(p)) };
  } catch (e) {
    const stderr = (e as { stderr?: Buffer | string }).stderr?.toString().trim();
    return { ok: false, message: `cannot read "${base}" as a directory or git revision${stderr ? `: ${stderr}` : ''}` };
  }
}
