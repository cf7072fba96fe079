/** Shared pieces of the extension tests: the CLI run asynchronously (the test process serves the extension), inputs. */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { afterAll, beforeAll } from 'vitest';
import { binPath, hasTool } from '../helpers/tools.js';
import { startExtension, type RunningExtension } from './server.js';
import { makePki, type TestPki } from './tls.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The real CLI in a child process; never blocks this process (it answers the extension calls, and a run that never ends fails the test by its timeout). */
export function cli(
  args: string[],
  cwd?: string,
  stdin?: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [binPath, ...args], {
      cwd,
      env,
      stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (stdin !== undefined) child.stdin!.end(stdin);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** An ExtensionConfig as YAML (v1beta2), reaching `url` (or a Service) with the CA bundle. */
export function extensionConfig(
  name: string,
  clientConfig: Record<string, unknown>,
  caPem: string | undefined,
  extra: Record<string, unknown> = {},
): string {
  const spec = {
    clientConfig: { ...clientConfig, ...(caPem ? { caBundle: Buffer.from(caPem).toString('base64') } : {}) },
    ...extra,
  };
  return YAML.stringify({
    apiVersion: 'runtime.cluster.x-k8s.io/v1beta2',
    kind: 'ExtensionConfig',
    metadata: { name },
    spec,
  });
}

export function tempDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'rcc-ext-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

export const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'shared', 'fixtures', 'real-world');
export const readFixture = (file: string) => readFileSync(join(FIXTURES, file), 'utf8');

/** The fixture's documents, with `edit` applied to each (YAML text back). */
export function editDocs(text: string, edit: (doc: any) => void): string {
  return YAML.parseAllDocuments(text)
    .map((d) => {
      const js = d.toJS();
      if (js && typeof js === 'object') edit(js);
      return YAML.stringify(js);
    })
    .join('---\n');
}

export const parseAll = (text: string): any[] =>
  YAML.parseAllDocuments(text)
    .map((d) => d.toJS())
    .filter((d) => d && typeof d === 'object');

/**
 * The Go oracle (go-hooks/main.go, standard library only): each body decoded into CAPI's hook
 * types with unknown fields refused, then marshalled again. Undefined without Go.
 */
export function goRoundTrip(bodies: { kind: string; body: string }[]): { out?: string; err?: string }[] | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'rcc-go-'));
  const bin = join(dir, 'go-hooks');
  try {
    execFileSync('go', ['build', '-o', bin, 'main.go'], {
      cwd: join(import.meta.dirname, 'go-hooks'),
      env: { ...process.env, GO111MODULE: 'off', GOCACHE: join(dir, 'cache'), GOFLAGS: '' },
      stdio: 'ignore',
    });
  } catch {
    return undefined;
  }
  const out = execFileSync(bin, {
    input: bodies.map((b) => JSON.stringify({ kind: b.kind, body: b.body })).join('\n') + '\n',
    encoding: 'utf8',
    maxBuffer: 256 << 20,
  });
  return out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

/**
 * The test extension (server.ts) with its PKI for the tests of one file, started before them and
 * stopped after; `missing` (and a visible SKIPPED line) without openssl.
 */
export function testExtension(what: string): { missing: boolean; pki: () => TestPki; ext: () => RunningExtension } {
  const missing = !hasTool('openssl');
  if (missing) console.warn(`SKIPPED: openssl is not installed; ${what} did not run`);
  let pki: TestPki;
  let ext: RunningExtension | undefined;
  beforeAll(async () => {
    if (missing) return;
    pki = makePki();
    ext = await startExtension(pki);
  });
  afterAll(async () => ext?.stop());
  return { missing, pki: () => pki, ext: () => ext! };
}
