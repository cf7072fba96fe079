/**
 * The hostile corpus (test/hostile/cases.json, issue #8) through the real CLI process: KRM mode
 * with the case on stdin, and `render FILE --format resourcelist` for YAML streams. Every case
 * must exit with an allowed code, print no stack trace, keep every parsed input item (in a YAML
 * stream, every document that is a Kubernetes object: the others are skipped), render the sibling
 * Clusters it names, and stay under 1.5 GiB RSS. Wall time is not asserted (a loaded 2-core
 * machine makes any bound flaky): `npm run bench` measures every case against the 10 s target.
 * Injection cases also run in-process and must leave Object.prototype untouched.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFunction } from '../../src/cli/render.js';
import { contractProblems, listItems, lostItems, resultProblems, streamItems } from '../../scripts/fuzz/core.mjs';
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
  /** Also run the case as a JSON ResourceList (default for isolation and injection cases). */
  json?: boolean;
}

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const cases: HostileCase[] = JSON.parse(readFileSync(join(here, 'cases.json'), 'utf8'));
const CLI = process.env.RENDER_CLUSTERCLASS_CLI ?? join(root, 'bin', 'render-clusterclass');
const TIME = '/usr/bin/time';
const HAS_TIME = existsSync(TIME);
// A hang guard only: time is measured by `npm run fuzz` (its budget of the hostile shapes) and
// `npm run bench`, never asserted here, where a loaded machine would make it flaky.
const HANG_MS = 120_000;
const MAX_RSS_KB = 1.5 * 1024 * 1024;

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
  rssKb?: number;
}

function runCli(args: string[], stdin: Buffer | string, env: Record<string, string> = {}): Promise<Run> {
  return slot(
    () =>
      new Promise<Run>((done, fail) => {
        const rssFile = join(tmp, `rss-${Math.random().toString(36).slice(2)}`);
        const [cmd, argv] = HAS_TIME
          ? [TIME, ['-f', '%M', '-o', rssFile, process.execPath, CLI, ...args]]
          : [process.execPath, [CLI, ...args]];
        const child = spawn(cmd, argv, {
          cwd: root,
          env: { ...process.env, NODE_OPTIONS: '', ...env },
          detached: true,
        });
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
        }, HANG_MS);
        child.on('error', fail);
        child.stdin.on('error', () => undefined); // the CLI may exit before reading all of stdin
        child.on('close', (code) => {
          clearTimeout(timer);
          const run: Run = {
            code,
            stdout: Buffer.concat(out).toString('utf8'),
            stderr: Buffer.concat(err).toString('utf8'),
          };
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
    .map((d) =>
      d
        .split(/\r?\n/)
        .map((l, i) => (i === 0 ? `- ${l}` : `  ${l}`))
        .join('\n'),
    );
  return `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${items.join('\n')}\n`;
}

/** A ResourceList text as JSON (its JSON twin), or undefined when its YAML has no JSON form. */
function asJson(text: string): string | undefined {
  try {
    const doc = YAML.parseDocument(text.replace(/^\uFEFF/, ''), {
      version: '1.1',
      uniqueKeys: false,
      customTags: (t: YAML.Tags) => t.filter((x) => (x as { tag?: string }).tag !== 'tag:yaml.org,2002:timestamp'),
    });
    return doc.errors.length > 0 ? undefined : JSON.stringify(doc.toJS({ maxAliasCount: 100 }));
  } catch {
    return undefined;
  }
}
const jsonTwin = (c: HostileCase): boolean =>
  c.json ??
  ((c.category === 'isolation' || c.category === 'injection') && !c.knownBug && c.kind === 'stream' && c.krm !== false);

function checkRun(c: HostileCase, mode: string, run: Run, input: string, stream: boolean): void {
  const label = `${c.id} [${mode}]`;
  expect(c.exit, `${label}: exit code ${run.code}; stderr:\n${run.stderr.slice(0, 2000)}`).toContain(run.code);
  expect(run.stderr, `${label}: stack trace on stderr`).not.toMatch(/^\s{4}at /m);
  expect(run.stderr, `${label}: uncaught internal error`).not.toMatch(/internal error:/);
  if (run.rssKb !== undefined) expect(run.rssKb, `${label}: ${run.rssKb} KiB RSS`).toBeLessThan(MAX_RSS_KB);
  if (c.stderr) expect(run.stderr, `${label}: message`).toMatch(new RegExp(c.stderr, 's'));
  // The input is read only when there is an output to compare it with (a refused 50 MiB scalar is not).
  const parsed = run.stdout === '' ? undefined : stream ? streamItems(input) : listItems(input);
  if (mode === 'krm') {
    // The KRM contract: a ResourceList with every input item, or (input unreadable as a whole) one line on stderr.
    expect(contractProblems(run.code!, run.stdout, run.stderr, parsed), label).toEqual([]);
  }
  if (run.stdout === '') return;
  const out = listItems(run.stdout);
  expect(out, `${label}: stdout is not a ResourceList`).toBeDefined();
  if (parsed) expect(lostItems(parsed, out!), `${label}: input items missing from the output`).toEqual([]);
  const results = out!.results;
  expect(
    resultProblems(results).filter((p) => c.internal !== true || !p.startsWith('internal error result')),
    label,
  ).toEqual([]);
  // Rendered this run: owners of generated objects the input did not hold (a failed Cluster's earlier ones stay).
  const earlierOwners = new Set(parsed?.items.map((i) => i.owner));
  const renderedKeys = new Set(
    out!.items.flatMap((i) => (i.owner === undefined || earlierOwners.has(i.owner) ? [] : [i.owner])),
  );
  for (const cl of c.rendered ?? [])
    expect(renderedKeys.has(cl), `${label}: Cluster ${cl} not rendered\n${run.stderr.slice(0, 2000)}`).toBe(true);
  // A failed Cluster is not rendered and there is an error result (about it, or about its class).
  for (const cl of c.failed ?? []) {
    expect(renderedKeys.has(cl), `${label}: Cluster ${cl} rendered`).toBe(false);
    expect(
      results.some((r) => r.severity === 'error'),
      `${label}: no error result for Cluster ${cl}`,
    ).toBe(true);
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
    (c.knownBug ? it.concurrent.fails : it.concurrent)(
      c.knownBug ? `${c.id} (known bug: ${c.knownBug})` : c.id,
      async () => {
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
        checkRun(
          c,
          'render',
          await runCli(['render', join(here, c.file!), '--format', 'resourcelist'], ''),
          text,
          true,
        );
        if (c.krm !== false) {
          const wrapped = wrapStream(text);
          checkRun(c, 'krm', await runCli([], wrapped), wrapped, false);
        }
      },
    );
    if (jsonTwin(c)) {
      // The same expectations with the ResourceList sent as JSON (issue #13: JSON in, valid out).
      it.concurrent(`${c.id} (as JSON)`, async () => {
        const text = readFileSync(join(here, c.file!), 'utf8');
        const json = asJson(c.kind === 'krm' ? text : wrapStream(text));
        expect(json, `${c.id}: no JSON form`).toBeDefined();
        checkRun(c, 'krm', await runCli([], json!), json!, false);
      });
    }
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
