/** Real external tools (kpt, kubectl, git) for end-to-end tests; tests skip visibly without them. */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

export const repoRoot = join(import.meta.dirname, '..', '..');
/** The CLI under test; `RENDER_CLUSTERCLASS_BIN` points the tests at another build (test/SAFETY.md checks them on an older commit). */
export const binPath = process.env.RENDER_CLUSTERCLASS_BIN ?? join(repoRoot, 'bin', 'render-clusterclass');

export function hasTool(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Logs why a suite is skipped, so a missing tool is visible in the test output. */
export function skipUnless(tool: string): boolean {
  const ok = hasTool(tool);
  if (!ok) console.warn(`SKIPPED: '${tool}' is not installed on this machine; its end-to-end tests did not run`);
  return !ok;
}

export function tempCopy(dir: string): string {
  const dest = mkdtempSync(join(tmpdir(), 'rcc-'));
  cpSync(dir, dest, { recursive: true });
  return dest;
}

/** Every file below `dir` with its content, for before/after comparisons. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d).sort()) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export function run(
  cmd: string,
  args: string[],
  options: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv } = {},
): Run {
  const r = spawnSync(cmd, args, {
    cwd: options.cwd,
    input: options.input,
    env: options.env ?? process.env,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return { code: r.status ?? -1, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}
