/**
 * A closed stdout (EPIPE: `| head -1`, quitting `less`) ends every command as Unix tools end:
 * quietly, with 141 (128 + SIGPIPE, what the shell reports for git or grep killed by SIGPIPE),
 * never "internal error" and never a stack trace. Two ways through the real CLI: a reader that
 * has closed the pipe before the command writes (every command, help and version included), and
 * real shell pipelines into `head -1` under `set -o pipefail`, with outputs far larger than a pipe
 * holds, so the command is still writing when head leaves.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { binPath, repoRoot, run } from '../helpers/tools.js';

const basic = join(repoRoot, 'examples', 'basic');
const CLOSED = 141;

/** Runs the CLI with a stdout whose reader has already gone; the exit code and stderr. */
function closedStdout(args: string[], stdin?: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [binPath, ...args], {
      cwd: repoRoot,
      stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    // Closed before the child has even loaded: its first write fails with EPIPE.
    child.stdout!.destroy();
    if (stdin !== undefined) child.stdin!.end(stdin);
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** No sign of a crash: no internal error, no stack frame, no raw errno. */
const quiet = (stderr: string) => expect(stderr).not.toMatch(/internal error|EPIPE|\n\s+at |node:internal/);

/** 40 copies of the example's Cluster (and its class): ~600 KiB of manifests. */
let fleet: string;
let bumped: string;
let resourceList: string;
beforeAll(() => {
  const make = (version: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'rcc-pipes-'));
    cpSync(join(basic, 'clusterclass.yaml'), join(dir, 'clusterclass.yaml'));
    const cluster = readFileSync(join(basic, 'cluster-foo.yaml'), 'utf8').replace(
      'version: v1.19.1',
      `version: ${version}`,
    );
    writeFileSync(
      join(dir, 'clusters.yaml'),
      Array.from({ length: 40 }, (_, i) => cluster.replace('name: foo', `name: foo-${i}`)).join('---\n'),
    );
    return dir;
  };
  [fleet, bumped] = [make('v1.19.1'), make('v1.20.0')];
  const items = ['clusterclass.yaml', 'clusters.yaml'].flatMap((f) =>
    YAML.parseAllDocuments(readFileSync(join(fleet, f), 'utf8')).map((d) => d.toJS()),
  );
  resourceList = YAML.stringify({ apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items });
});

describe('a closed stdout ends every command quietly with 141', () => {
  it.each([
    ['render', ['render', basic]],
    ['render --format resourcelist', ['render', basic, '--format', 'resourcelist']],
    ['plan', ['plan', '--base', basic, basic]],
    ['plan --format json', ['plan', '--base', basic, basic, '--format', 'json']],
    ['explain', ['explain', 'bar/foo', '-f', basic]],
    ['explain --format json', ['explain', 'bar/foo', '-f', basic, '--format', 'json']],
    ['template', ['template', '{{ .x }}', '--set', 'x=1']],
    ['convert (dry run: a diff)', ['convert', basic]],
    ['help', ['help']],
    ['help render', ['help', 'render']],
    ['render --help', ['render', '--help']],
    ['version', ['version']],
  ])('%s', async (_, args) => {
    const r = await closedStdout(args);
    expect(r.code, r.stderr).toBe(CLOSED);
    quiet(r.stderr);
  });

  it('the KRM function', async () => {
    const r = await closedStdout([], resourceList);
    expect(r.code, r.stderr).toBe(CLOSED);
    quiet(r.stderr);
  });

  it('template --jsonl, which writes a line per request', async () => {
    const requests = Array.from({ length: 2000 }, (_, i) =>
      JSON.stringify({ id: i, template: '{{ .x }}', data: { x: 'y'.repeat(100) } }),
    ).join('\n');
    const r = await closedStdout(['template', '--jsonl'], requests);
    expect(r.code, r.stderr).toBe(CLOSED);
    quiet(r.stderr);
  });
});

describe('shell pipelines into head -1 under set -o pipefail', () => {
  /** The pipeline's status (pipefail: the writer's) and the writer's stderr. */
  const piped = (args: string[], stdin?: string) =>
    run(
      'bash',
      ['-c', 'set -o pipefail; "$@" | head -n 1 > /dev/null', 'pipeline', process.execPath, binPath, ...args],
      stdin === undefined ? {} : { input: stdin },
    );

  it.each([
    ['render', () => ['render', fleet]],
    ['plan --format json', () => ['plan', '--base', fleet, bumped, '--format', 'json']],
    ['convert', () => ['convert', fleet]],
  ])('%s', (_, args) => {
    const r = piped(args());
    expect(r.code, r.stderr).toBe(CLOSED);
    quiet(r.stderr);
  });

  it('the KRM function', () => {
    const r = piped([], resourceList);
    expect(r.code, r.stderr).toBe(CLOSED);
    expect(r.stderr).toBe('');
  });

  it('render into head -1 prints only its first line; read whole, it exits 0 as before', () => {
    expect(
      run('bash', ['-c', 'set -o pipefail; "$@" | head -n 1', 'pipeline', process.execPath, binPath, 'render', fleet])
        .stdout,
    ).toBe('apiVersion: cluster.x-k8s.io/v1beta1\n');
    const whole = run('bash', [
      '-c',
      'set -o pipefail; "$@" | wc -c',
      'pipeline',
      process.execPath,
      binPath,
      'render',
      fleet,
    ]);
    expect(whole.code, whole.stderr).toBe(0);
    expect(Number(whole.stdout.trim())).toBeGreaterThan(256 * 1024);
  });
});
