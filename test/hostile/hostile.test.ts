/**
 * The hostile corpus (test/hostile/cases.json, issue #8) through the real CLI process: KRM mode
 * with the case on stdin, and `render FILE --format resourcelist` for YAML streams. Every case
 * must exit with an allowed code, print no stack trace, keep every parsed input item, render the
 * sibling Clusters it names, stay under 10 s and 1.5 GiB RSS. Injection cases also run in-process
 * and must leave Object.prototype untouched.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFunction } from '../../src/cli/render.js';
import { fakeIO } from '../helpers/io.js';
// @ts-expect-error -- plain ESM generator module without types
import { generators } from './huge.mjs';

interface HostileCase {
  id: string;
  category: string;
  kind: 'krm' | 'stream' | 'stream-huge';
  file?: string;
  generator?: string;
  exit: number[];
  stderr?: string;
  rendered?: string[];
  failed?: string[];
  internal?: boolean;
  krm?: boolean;
  /** Environment of the CLI process (e.g. a lower RENDER_CLUSTERCLASS_MAX_INPUT_BYTES). */
  env?: Record<string, string>;
  /** A bug found and reported, outside this suite's reach to fix: the case must still fail. */
  knownBug?: string;
  /** A questionable behaviour, reported; the expectations describe today's behaviour. */
  bug?: string;
}

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const cases: HostileCase[] = JSON.parse(readFileSync(join(here, 'cases.json'), 'utf8'));
const CLI = process.env.RENDER_CLUSTERCLASS_CLI ?? join(root, 'bin', 'render-clusterclass');
const TIME = '/usr/bin/time';
const HAS_TIME = existsSync(TIME);
const MAX_WALL_MS = 10_000;
const MAX_RSS_KB = 1.5 * 1024 * 1024;
const OWNER = 'render-clusterclass.dev/cluster';
const PARSE = { version: '1.1', uniqueKeys: false, maxAliasCount: -1, customTags: (t: YAML.Tags) => t.filter((x) => (x as { tag?: string }).tag !== 'tag:yaml.org,2002:timestamp') } as const;

let tmp = '';
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'hostile-'));
  if (!HAS_TIME) console.log(`SKIPPED: RSS checks (${TIME} not found)`);
  if (!process.env.RENDER_CLUSTERCLASS_CLI && !existsSync(join(root, 'dist', 'render-clusterclass.cjs'))) {
    throw new Error('dist/render-clusterclass.cjs is missing: run `npm run build` first');
  }
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// At most two CLI processes at a time (2-core CI machines); each is timed on its own.
let running = 0;
const waiting: (() => void)[] = [];
async function slot<T>(f: () => Promise<T>): Promise<T> {
  if (running >= 2) await new Promise<void>((r) => waiting.push(r));
  running++;
  try {
    return await f();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  rssKb?: number;
}

function runCli(args: string[], stdin: Buffer | string, env: Record<string, string> = {}): Promise<Run> {
  return slot(
    () =>
      new Promise<Run>((done, fail) => {
        const rssFile = join(tmp, `rss-${Math.random().toString(36).slice(2)}`);
        const [cmd, argv] = HAS_TIME ? [TIME, ['-f', '%M', '-o', rssFile, process.execPath, CLI, ...args]] : [process.execPath, [CLI, ...args]];
        const start = Date.now();
        const child = spawn(cmd, argv, { cwd: root, env: { ...process.env, NODE_OPTIONS: '', ...env }, detached: true });
        const out: Buffer[] = [];
        const err: Buffer[] = [];
        child.stdout.on('data', (b: Buffer) => out.push(b));
        child.stderr.on('data', (b: Buffer) => err.push(b));
        // Kill the whole process group: killing /usr/bin/time alone would leave the CLI running.
        const timer = setTimeout(() => {
          try {
            process.kill(-child.pid!, 'SIGKILL');
          } catch {
            child.kill('SIGKILL');
          }
        }, 2 * MAX_WALL_MS);
        child.on('error', fail);
        child.stdin.on('error', () => undefined); // the CLI may exit before reading all of stdin
        child.on('close', (code) => {
          clearTimeout(timer);
          const run: Run = { code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), ms: Date.now() - start };
          if (HAS_TIME && existsSync(rssFile)) {
            const kb = Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop());
            if (Number.isFinite(kb)) run.rssKb = kb;
            rmSync(rssFile, { force: true });
          }
          done(run);
        });
        child.stdin.end(stdin);
      }),
  );
}

/** A YAML stream as a ResourceList (text level, so the test parses nothing the CLI should). */
function wrapStream(text: string): string {
  const items = text
    .split(/^---[ \t]*$/m)
    .map((d) => d.replace(/^(\s*#.*\n|\s*\n)+/, '').trimEnd())
    .filter((d) => d && !/^(~|null)$/.test(d.trim()))
    .map((d) => d.split(/\r?\n/).map((l, i) => (i === 0 ? `- ${l}` : `  ${l}`)).join('\n'));
  return `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${items.join('\n')}\n`;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Identity of an item: apiVersion/kind/namespace/name, or its content when it has none. */
function identity(item: unknown): string {
  if (!isObj(item)) return `value:${JSON.stringify(item)}`;
  const meta = isObj(item.metadata) ? item.metadata : {};
  if (typeof item.apiVersion === 'string' && typeof item.kind === 'string' && typeof meta.name === 'string' && meta.name) {
    return `${item.apiVersion}|${item.kind}|${typeof meta.namespace === 'string' ? meta.namespace : ''}|${meta.name}`;
  }
  return `content:${JSON.stringify(item)}`;
}
const ownerOf = (item: unknown): unknown => (isObj(item) && isObj(item.metadata) && isObj(item.metadata.annotations) ? item.metadata.annotations[OWNER] : undefined);

/** Items of the input as the CLI should have read them (undefined when it is not parseable). */
function inputItems(text: string, stream: boolean): unknown[] | undefined {
  try {
    if (stream) {
      const docs = YAML.parseAllDocuments(text.replace(/^\uFEFF/, ''), PARSE) as YAML.Document[];
      if (docs.some((d) => d.errors.length > 0)) return undefined;
      return docs.map((d) => d.toJS({ maxAliasCount: -1 })).filter((v) => v !== null && v !== undefined);
    }
    const doc = YAML.parseDocument(text.replace(/^\uFEFF/, ''), PARSE);
    if (doc.errors.length > 0) return undefined;
    const v = doc.toJS({ maxAliasCount: -1 }) as Obj;
    return Array.isArray(v?.items) ? v.items : [];
  } catch {
    return undefined;
  }
}

function checkRun(c: HostileCase, mode: string, run: Run, input: string, stream: boolean): void {
  const label = `${c.id} [${mode}]`;
  expect(c.exit, `${label}: exit code ${run.code}; stderr:\n${run.stderr.slice(0, 2000)}`).toContain(run.code);
  expect(run.stderr, `${label}: stack trace on stderr`).not.toMatch(/^\s{4}at /m);
  expect(run.stderr, `${label}: uncaught internal error`).not.toMatch(/internal error:/);
  expect(run.ms, `${label}: ${run.ms} ms wall`).toBeLessThan(MAX_WALL_MS);
  if (run.rssKb !== undefined) expect(run.rssKb, `${label}: ${run.rssKb} KiB RSS`).toBeLessThan(MAX_RSS_KB);
  if (c.stderr) expect(run.stderr, `${label}: message`).toMatch(new RegExp(c.stderr, 's'));
  if (run.code !== 0 && run.code !== 1) return;

  expect(run.stdout.length, `${label}: no ResourceList on stdout`).toBeGreaterThan(0);
  const out = YAML.parse(run.stdout, { ...PARSE, maxAliasCount: -1 }) as Obj;
  expect(out.kind).toBe('ResourceList');
  const items = Array.isArray(out.items) ? out.items : [];
  // Every parsed input item is in the output (previous outputs of this function may be replaced).
  const parsed = inputItems(input, stream);
  if (parsed) {
    const have = new Map<string, number>();
    for (const i of items) have.set(identity(i), (have.get(identity(i)) ?? 0) + 1);
    for (const i of parsed) {
      if (ownerOf(i) !== undefined) continue;
      const id = identity(i);
      const n = have.get(id) ?? 0;
      expect(n, `${label}: input item ${id.slice(0, 200)} missing from the output`).toBeGreaterThan(0);
      have.set(id, n - 1);
    }
  }
  const results = Array.isArray(out.results) ? (out.results as Obj[]) : [];
  for (const r of results) {
    expect(['error', 'warning', 'info'], `${label}: severity`).toContain(r.severity);
    expect(typeof r.message === 'string' && r.message.length > 0, `${label}: empty message`).toBe(true);
    if (r.resourceRef !== undefined) {
      const ref = r.resourceRef as Obj;
      for (const k of ['apiVersion', 'kind', 'name']) expect(typeof ref[k], `${label}: resourceRef.${k} in ${JSON.stringify(r)}`).toBe('string');
    }
    if (!c.internal) expect((r.tags as Obj | undefined)?.rule, `${label}: internal error result: ${String(r.message)}`).not.toBe('internal');
  }
  const key = (r: Obj) => {
    const ref = isObj(r.resourceRef) ? r.resourceRef : {};
    return `${String(ref.namespace)}/${String(ref.name)}`;
  };
  for (const cl of c.rendered ?? []) {
    expect(results.some((r) => (r.tags as Obj | undefined)?.rule === 'rendered' && key(r) === cl), `${label}: Cluster ${cl} not rendered\n${run.stderr.slice(0, 2000)}`).toBe(true);
  }
  // A failed Cluster is not rendered and there is an error result (about it, or about its class).
  for (const cl of c.failed ?? []) {
    expect(results.some((r) => (r.tags as Obj | undefined)?.rule === 'rendered' && key(r) === cl), `${label}: Cluster ${cl} rendered`).toBe(false);
    expect(results.some((r) => r.severity === 'error'), `${label}: no error result for Cluster ${cl}`).toBe(true);
  }
}

describe('hostile corpus', () => {
  it('has at least 100 cases across the four categories', () => {
    const counts: Record<string, number> = {};
    for (const c of cases) counts[c.category] = (counts[c.category] ?? 0) + 1;
    expect(cases.length).toBeGreaterThanOrEqual(100);
    expect(Object.keys(counts).sort()).toEqual(['injection', 'isolation', 'malformed', 'resource']);
  });

  for (const c of cases) {
    // Known bugs run as expected failures: when one is fixed, its test fails until the flag goes.
    (c.knownBug ? it.concurrent.fails : it.concurrent)(c.knownBug ? `${c.id} (known bug: ${c.knownBug})` : c.id, async () => {
      if (c.generator) {
        const text: string = (generators as Record<string, () => string>)[c.generator]!();
        if (c.kind === 'stream-huge') {
          const file = join(tmp, `${c.id}.yaml`);
          writeFileSync(file, text);
          checkRun(c, 'render', await runCli(['render', file, '--format', 'resourcelist'], '', c.env), text, true);
        } else {
          checkRun(c, 'krm', await runCli([], text, c.env), text, false);
        }
        return;
      }
      const bytes = readFileSync(join(here, c.file!));
      const text = c.file!.endsWith('.bin') ? bytes.toString('utf8') : bytes.toString('utf8');
      if (c.kind === 'krm') {
        checkRun(c, 'krm', await runCli([], bytes), text, false);
        return;
      }
      checkRun(c, 'render', await runCli(['render', join(here, c.file!), '--format', 'resourcelist'], ''), text, true);
      if (c.krm !== false) {
        const wrapped = wrapStream(text);
        checkRun(c, 'krm', await runCli([], wrapped), wrapped, false);
      }
    });
  }
});

describe('hostile corpus in-process: no prototype pollution', () => {
  const protoKeys = () => Object.getOwnPropertyNames(Object.prototype).sort().join(',');
  for (const c of cases.filter((x) => x.category === 'injection' && x.file)) {
    it(c.id, async () => {
      const before = protoKeys();
      const text = readFileSync(join(here, c.file!), 'utf8');
      const io = fakeIO(c.kind === 'krm' ? text : wrapStream(text));
      const code = await runFunction(io);
      expect(c.exit).toContain(code);
      expect(protoKeys()).toBe(before);
      const probe: Record<string, unknown> = {};
      expect(probe.polluted).toBeUndefined();
      expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
      expect((Array.prototype as unknown as Record<string, unknown>).polluted).toBeUndefined();
      expect((Function.prototype as unknown as Record<string, unknown>).polluted).toBeUndefined();
    });
  }
});
