/**
 * Deterministic everywhere (README "Security and limits"): no locale- or ICU-dependent ordering
 * or formatting in src, and the bytes of render (stdout and -o), plan and explain are the same
 * under any LC_ALL, TZ, working directory and input order. The fleet is made to tell locales
 * apart: Danish collation sorts "aa" after "zz", Lithuanian "y" right after "i", so a sort that
 * followed the locale would reorder the rollouts plan lists (MachineDeployments aa, ja, ya, zz).
 * The input orders are drawn with fast-check, seed 2323 (named in the test).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { binPath, repoRoot, snapshot } from './helpers/tools.js';
import { fleetCluster, fleetDocs, type Obj } from './helpers/scenario.js';

const SRC = join(repoRoot, 'src');
const SEED = 2323;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : [path];
  });
}

describe('no locale in src', () => {
  it('neither localeCompare, Intl nor toLocale* appears in any source file', () => {
    const found = sourceFiles(SRC).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          /localeCompare|\bIntl\b|\.toLocale/.test(line)
            ? [`${relative(repoRoot, file)}:${i + 1}: ${line.trim()}`]
            : [],
        ),
    );
    expect(found).toEqual([]);
  });
});

/** The fleet class and four Clusters, each with MachineDeployments aa, ja, ya and zz, at `version`. */
function fleetAt(version: string): Obj[] {
  const clusters = ['c-zz', 'c-aa', 'c-ya', 'c-ia'].map((name) =>
    fleetCluster(name, (t) => {
      t.version = version;
      t.workers.machineDeployments = ['zz', 'ya', 'ja', 'aa'].map((md) => ({ class: 'general', name: md }));
    }),
  );
  return [...fleetDocs(), ...clusters];
}

/** How the documents are laid out: their order, and which of a few files each goes to. */
interface Layout {
  order: number[];
  files: number[];
}

/** Writes `docs` as `layout` says into a new directory; returns its absolute path. */
function writeLayout(docs: readonly Obj[], layout: Layout): string {
  const dir = mkdtempSync(join(tmpdir(), 'rcc-det-'));
  const byFile = new Map<number, Obj[]>();
  for (const i of layout.order) byFile.set(layout.files[i]!, [...(byFile.get(layout.files[i]!) ?? []), docs[i]!]);
  for (const [f, list] of byFile)
    writeFileSync(join(dir, `part-${'zyxw'[f]}.yaml`), list.map((d) => YAML.stringify(d)).join('---\n'));
  return dir;
}

interface Environment {
  env: NodeJS.ProcessEnv;
  cwd: string;
}

const ENVIRONMENTS: Environment[] = [
  { env: { LC_ALL: 'C', LANG: 'C', TZ: 'UTC' }, cwd: repoRoot },
  { env: { LC_ALL: 'da_DK.UTF-8', LANG: 'da_DK.UTF-8', TZ: 'Pacific/Chatham' }, cwd: '/' },
  { env: { LC_ALL: 'lt_LT.UTF-8', LANG: 'lt_LT.UTF-8', TZ: 'America/St_Johns' }, cwd: tmpdir() },
];

function cli(args: string[], at: Environment): string {
  const r = spawnSync(process.execPath, [binPath, ...args], {
    cwd: at.cwd,
    env: { PATH: process.env.PATH, ...at.env },
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  if (r.status !== 0 && r.status !== 1) throw new Error(`${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/** Every output the test compares, for one layout of base and head in one environment. */
function outputs(base: string, head: string, at: Environment): Record<string, unknown> {
  const out = mkdtempSync(join(tmpdir(), 'rcc-det-out-'));
  mkdirSync(out, { recursive: true });
  cli(['render', head, '-o', out], at);
  return {
    render: cli(['render', head, '--set', 'keepClassInputs=false'], at),
    'render -o': snapshot(out),
    'plan text': cli(['plan', '--base', base, head], at),
    'plan markdown': cli(['plan', '--base', base, head, '--format', 'markdown'], at),
    'plan json': cli(['plan', '--base', base, head, '--format', 'json'], at),
    explain: cli(['explain', 'fleet/c-aa', '-f', head], at),
  };
}

describe('byte-identical output under any locale, time zone, working directory and input order', () => {
  const [before, after] = [fleetAt('v1.33.0'), fleetAt('v1.34.0')];
  const identity: Layout = { order: before.map((_, i) => i), files: before.map(() => 0) };
  let reference: Record<string, unknown>;
  beforeAll(() => {
    reference = outputs(writeLayout(before, identity), writeLayout(after, identity), ENVIRONMENTS[0]!);
  });

  it('the reference plan lists rollouts whose order a locale would change', () => {
    const plan = JSON.parse(reference['plan json'] as string);
    const rollouts = plan.clusters.find((c: Obj) => c.cluster === 'fleet/c-aa').rollouts.map((r: Obj) => r.name);
    expect(rollouts.filter((n: string) => /^c-aa-..-/.test(n)).map((n: string) => n.slice(5, 7))).toEqual([
      'aa',
      'ja',
      'ya',
      'zz',
    ]);
  });

  it(`shuffled files and documents, in every environment (fast-check seed ${SEED})`, () => {
    const n = before.length;
    const layout = fc.record({
      order: fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
      files: fc.array(fc.nat({ max: 3 }), { minLength: n, maxLength: n }),
    });
    // One drawn layout per environment, so every environment is run.
    const layouts = fc.sample(layout, { seed: SEED, numRuns: ENVIRONMENTS.length });
    ENVIRONMENTS.forEach((at, i) => {
      const l = layouts[i]!;
      expect(
        outputs(writeLayout(before, l), writeLayout(after, l), at),
        `${JSON.stringify(at)} ${JSON.stringify(l)}`,
      ).toEqual(reference);
    });
  });
});
