/**
 * No data loss as a model-based property (issue 23 scopes 1 and 9, issue 28 scope 3): seeded
 * random sequences of edits to a rendered fleet — break a Cluster in each way it can fail (its
 * file does not parse, a typo hides spec.topology, the topology removed, a duplicate, an unknown
 * or an invalid class), fix it, change it, delete or add it, add or remove unparseable files —
 * each followed by `render -o DIR` and by the KRM function on the package's ResourceList, both
 * through the bundle the bin runs, in-process. After every step:
 * - every Cluster in the inputs has its fresh render if it renders, else exactly its last output
 *   (the file byte for byte; the objects as they came);
 * - only a Cluster absent from every input loses its output, and none does in a run where an
 *   input could not be read;
 * - nothing else appears in DIR, every input item is in the answer, and the exit code is 1
 *   exactly when something failed.
 * `NO_DATA_LOSS_SEED` and `NO_DATA_LOSS_RUNS` replay a failure or run a longer campaign.
 */
import fc from 'fast-check';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import type { CliIO } from '../../src/cli/io.js';
import { BREAKAGES, ownerOf, repoFiles, resourceList, writeRepo, type Fleet } from '../helpers/fleet-repo.js';
import { fakeIO } from '../helpers/io.js';
import type { Obj } from '../helpers/scenario.js';
import { repoRoot, snapshot } from '../helpers/tools.js';

const SEED = Number(process.env.NO_DATA_LOSS_SEED ?? 20261126);
const RUNS = Number(process.env.NO_DATA_LOSS_RUNS ?? 40);
const NAMES = ['c0', 'c1', 'c2', 'c3', 'c4', 'c5'];
const REPLICAS = [1, 2, 3];
const MAX_JUNK = 2;
const LIST = '.render-clusterclass-outputs';

const { dispatch } = createRequire(import.meta.url)(join(repoRoot, 'dist', 'render-clusterclass.cjs')) as {
  dispatch(args: string[], io: CliIO): Promise<number>;
};
const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), `rcc-keep-prop-${prefix}-`));

async function renderDir(repo: string, out: string): Promise<{ code: number; stderr: string }> {
  const io = fakeIO();
  const code = await dispatch(['render', repo, '-o', out], io);
  return { code, stderr: io.err };
}

async function renderPackage(text: string): Promise<{ code: number; items: Obj[]; stderr: string }> {
  const io = fakeIO(text);
  const code = await dispatch([], io);
  // Items that cannot be read come back as they came (a repeated key).
  return { code, items: io.out === '' ? [] : YAML.parse(io.out, { uniqueKeys: false }).items, stderr: io.err };
}

const generatedBy = (items: readonly Obj[], name: string) => items.filter((o) => ownerOf(o) === `fleet/${name}`);

/** Every Cluster's fresh render at each replica count: its `-o` file and its objects in the KRM answer. */
async function freshRenders(): Promise<{ file: Map<string, string>; objects: Map<string, Obj[]> }> {
  const file = new Map<string, string>();
  const objects = new Map<string, Obj[]>();
  for (const replicas of REPLICAS) {
    const fleet: Fleet = new Map(NAMES.map((n) => [n, { replicas }]));
    const repo = tempDir('fresh');
    const out = join(tempDir('fresh-out'), 'rendered');
    writeRepo(repo, repoFiles(fleet, 0));
    const dir = await renderDir(repo, out);
    const answer = await renderPackage(resourceList(fleet, 0, []));
    if (dir.code !== 0 || answer.code !== 0)
      throw new Error(`the healthy fleet does not render: ${dir.stderr}${answer.stderr}`);
    for (const name of NAMES) {
      file.set(`${name}/${replicas}`, readFileSync(join(out, 'fleet', `${name}.yaml`), 'utf8'));
      objects.set(`${name}/${replicas}`, generatedBy(answer.items, name));
    }
  }
  return { file, objects };
}

interface Model {
  fleet: Fleet;
  junk: number;
  /** Each Cluster's file in DIR after the last run (undefined: none). */
  lastFile: Map<string, string>;
  /** Each Cluster's objects in the last answer. */
  lastObjects: Map<string, Obj[]>;
}

interface Real {
  repo: string;
  out: string;
  /** The generated objects of the last answer: what kpt reads back from `rendered/`. */
  earlier: Obj[];
  fresh: Awaited<ReturnType<typeof freshRenders>>;
}

/** Whether an input cannot be read this run (then nothing is pruned). */
const unreadableRun = (m: Model) => m.junk > 0 || [...m.fleet.values()].some((s) => s.breakage === 'unparseable');

/**
 * The exit code a run must have: 1 when an input cannot be read or a Cluster fails, except a
 * Cluster without topology that never had output (a plain pass-through, `hadOutput` false).
 */
function expectedCode(m: Model, hadOutput: (name: string) => boolean): number {
  const fails = [...m.fleet].some(
    ([name, s]) => s.breakage !== undefined && (s.breakage !== 'no-topology' || hadOutput(name)),
  );
  return unreadableRun(m) || fails ? 1 : 0;
}

/** What a Cluster's output must be after a run: its fresh render, its last output, or none. */
function expected<T>(m: Model, name: string, fresh: (key: string) => T, last: T | undefined): T | undefined {
  const state = m.fleet.get(name);
  if (state && state.breakage === undefined) return fresh(`${name}/${state.replicas}`);
  if (state || unreadableRun(m)) return last;
  return undefined;
}

/** Applies an edit to the model, then runs both front-ends and checks every invariant against it. */
async function step(m: Model, r: Real, edit: (m: Model) => void): Promise<void> {
  edit(m);
  writeRepo(r.repo, repoFiles(m.fleet, m.junk));

  const dir = await renderDir(r.repo, r.out);
  expect(dir.code, dir.stderr).toBe(expectedCode(m, (name) => m.lastFile.has(name)));
  const files = snapshot(r.out);
  const wanted = new Map<string, string>();
  for (const name of NAMES) {
    const file = expected(m, name, (k) => r.fresh.file.get(k)!, m.lastFile.get(name));
    expect(files[`fleet/${name}.yaml`], `${name} in DIR\n${dir.stderr}`).toBe(file);
    if (file !== undefined) wanted.set(`fleet/${name}.yaml`, file);
  }
  expect(Object.keys(files).sort(), 'nothing else in DIR').toEqual([LIST, ...wanted.keys()].sort());
  m.lastFile = new Map([...wanted].map(([path, text]) => [path.slice('fleet/'.length, -'.yaml'.length), text]));

  const input = resourceList(m.fleet, m.junk, r.earlier);
  const answer = await renderPackage(input);
  expect(answer.code, answer.stderr).toBe(expectedCode(m, (name) => (m.lastObjects.get(name) ?? []).length > 0));
  const sources = YAML.parse(input, { uniqueKeys: false }).items.filter((o: Obj) => ownerOf(o) === undefined).length;
  expect(
    answer.items.filter((o) => ownerOf(o) === undefined),
    'every input item in the answer',
  ).toHaveLength(sources);
  for (const name of NAMES) {
    const objects = expected(m, name, (k) => r.fresh.objects.get(k)!, m.lastObjects.get(name)) ?? [];
    expect(generatedBy(answer.items, name), `${name} in the answer\n${answer.stderr}`).toEqual(objects);
    m.lastObjects.set(name, objects);
  }
  r.earlier = answer.items.filter((o) => ownerOf(o) !== undefined);
}

type Command = fc.AsyncCommand<Model, Real>;

/** The edits the sequences made, by kind (`break (duplicate)`, `fix`, ...): the test fails if one never ran. */
const made = new Map<string, number>();

/**
 * One edit of the inputs as a fast-check command, on the `pick`-th of the Clusters it applies to
 * (`among`; none: not applicable), so that every generated command runs. `edit` says what it
 * did (`set replicas 2`); the label names that and the Cluster, for the counterexample.
 */
function command(
  among: (m: Readonly<Model>) => readonly string[],
  pick: number,
  edit: (m: Model, name: string) => string,
): Command {
  let label = '(not run)';
  return {
    check: (m) => among(m).length > 0,
    run: (m, r) =>
      step(m, r, (model) => {
        const names = among(model);
        const name = names[pick % names.length]!;
        const edited = edit(model, name);
        const kind = edited.replace(/ \d+$/, '');
        made.set(kind, (made.get(kind) ?? 0) + 1);
        label = name ? `${edited}: ${name}` : edited;
      }),
    toString: () => label,
  };
}

const present = (m: Readonly<Model>) => [...m.fleet.keys()];
const broken = (m: Readonly<Model>) => [...m.fleet].filter(([, s]) => s.breakage !== undefined).map(([n]) => n);
const absent = (m: Readonly<Model>) => NAMES.filter((n) => !m.fleet.has(n));
const anyFleet = () => [''];
const commands = [
  // One arbitrary per breakage: fast-check picks among them evenly, so about half the edits break a Cluster.
  ...BREAKAGES.map((b) =>
    fc.nat().map((i) => command(present, i, (m, n) => ((m.fleet.get(n)!.breakage = b), `break (${b})`))),
  ),
  fc.nat().map((i) => command(broken, i, (m, n) => (delete m.fleet.get(n)!.breakage, 'fix'))),
  fc
    .tuple(fc.nat(), fc.constantFrom(...REPLICAS))
    .map(([i, replicas]) =>
      command(present, i, (m, n) => ((m.fleet.get(n)!.replicas = replicas), `set replicas ${replicas}`)),
    ),
  fc.nat().map((i) => command(present, i, (m, n) => (m.fleet.delete(n), 'delete'))),
  fc.nat().map((i) => command(absent, i, (m, n) => (m.fleet.set(n, { replicas: 1 }), 'add'))),
  // Up to MAX_JUNK unparseable files: one more, or one fewer (always one of them, so it always runs).
  fc.boolean().map((more) =>
    command(anyFleet, 0, (m) => {
      if ((more && m.junk < MAX_JUNK) || m.junk === 0) return (m.junk++, 'add an unparseable file');
      return (m.junk--, 'remove an unparseable file');
    }),
  ),
];

describe('no data loss over random sequences of edits (render -o DIR and the KRM function, through the bundle)', () => {
  it(
    `holds for ${RUNS} sequences (fast-check seed ${SEED})`,
    async () => {
      const fresh = await freshRenders();
      await fc.assert(
        fc.asyncProperty(fc.commands(commands, { maxCommands: 12 }), async (cmds) => {
          // Four of the six Clusters to begin with, so that adding one is an edit too.
          const model: Model = {
            fleet: new Map(NAMES.slice(0, 4).map((n) => [n, { replicas: 1 }])),
            junk: 0,
            lastFile: new Map(),
            lastObjects: new Map(),
          };
          const real: Real = { repo: tempDir('repo'), out: join(tempDir('out'), 'rendered'), earlier: [], fresh };
          // The fleet rendered once, healthy: the last good output every later step is held to.
          await step(model, real, () => undefined);
          await fc.asyncModelRun(() => ({ model, real }), cmds);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      console.log(
        `no-data-loss sequences (seed ${SEED}, ${RUNS} runs): ${[...made]
          .sort()
          .map(([k, n]) => `${k} ×${n}`)
          .join(', ')}`,
      );
      const kinds = [
        ...BREAKAGES.map((b) => `break (${b})`),
        'fix',
        'set replicas',
        'delete',
        'add',
        'add an unparseable file',
        'remove an unparseable file',
      ];
      expect(
        kinds.filter((k) => !made.has(k)),
        'edits no sequence made (raise NO_DATA_LOSS_RUNS)',
      ).toEqual([]);
      // A guard against a hang only, far above the half second a sequence takes (the suite's default is 2 minutes).
    },
    RUNS * 15_000,
  );
});
