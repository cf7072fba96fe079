#!/usr/bin/env node
// Kill campaign for `render -o DIR` (issue 23): a fleet (bench/fleet.mjs) is rendered to DIR; then,
// over and over, the inputs change (Clusters edited, deleted, added), a run on the new inputs is
// killed (SIGKILL or SIGTERM) at a random point — anywhere in the run, or while it writes — and:
//
//   - every file in DIR is complete: its content is the old one or the new one (a fresh render of
//     the new inputs into another directory), never anything else;
//   - the outputs list names every file in DIR (a superset is fine);
//   - nothing outside DIR changed (the inputs and a sentinel directory next to DIR);
//   - SIGTERM leaves no litter (no lock, staging or temporary file) and exits 143;
//   - the next run exits 0, leaves no litter, and DIR equals the fresh render.
//
//   node bench/kill.mjs [--clusters 10000] [--kills 10] [--seed N]
//
// --kills is per signal. The seed (random when not given) is printed first; the same seed replays
// the same inputs and kill delays (where a delay lands in the run still depends on the machine).
// The last line is `kills=<n> violations=<v> litter-after-kill=<l> litter-after-rerun=<r> seed=<s>`.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { prng } from '../scripts/prng.mjs';
import { classObjects, clusterName, clusterObject } from './fleet.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const BIN = join(here, '..', 'bin', 'render-clusterclass');
const LIST = '.render-clusterclass-outputs';
const LITTER = /(^|\/)\.render-clusterclass-(lock|tmp-)/;
/**
 * Where in a run a kill is aimed, by the name whose appearance in DIR starts the phase: "any" from
 * the start of the run; "writing" from its first name in DIR (its lock, or a staging or temporary
 * name); "renaming" from the outputs list's rewrite as old ∪ new, just before the first rename.
 */
const PHASE_STARTS = {
  writing: (name) => typeof name === 'string' && LITTER.test(name),
  renaming: (name) => name === LIST,
};
const CHILD_ENV = { ...process.env, RENDER_CLUSTERCLASS_MAX_INPUT_BYTES: String(1 << 30) };

/** Every entry below `dir` (links not followed): files by content hash, directories and links marked. */
export function hashTree(dir) {
  const out = new Map();
  const walk = (rel) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const path = rel ? `${rel}/${name}` : name;
      const st = lstatSync(join(dir, path));
      if (st.isSymbolicLink()) out.set(path, 'link');
      else if (st.isDirectory()) {
        out.set(path, 'dir');
        walk(path);
      } else
        out.set(
          path,
          createHash('sha256')
            .update(readFileSync(join(dir, path)))
            .digest('hex'),
        );
    }
  };
  if (existsSync(dir)) walk('');
  return out;
}

const litterIn = (tree) => [...tree.keys()].filter((p) => LITTER.test(p));

/** The fleet's inputs: Cluster index → edit number (0: as generated); each edit changes the first MachineDeployment's replicas. */
function clusterText(index, edit) {
  const c = clusterObject(index);
  c.spec.topology.workers.machineDeployments[0].replicas += edit;
  return YAML.stringify(c, { lineWidth: 0 });
}

function writeInputs(dir, before, after) {
  mkdirSync(join(dir, 'clusters'), { recursive: true });
  if (before.size === 0)
    writeFileSync(
      join(dir, 'clusterclass.yaml'),
      classObjects()
        .map((o) => YAML.stringify(o, { lineWidth: 0 }))
        .join('---\n'),
    );
  for (const [i] of before) if (!after.has(i)) rmSync(join(dir, 'clusters', `${clusterName(i)}.yaml`));
  for (const [i, edit] of after)
    if (before.get(i) !== edit) writeFileSync(join(dir, 'clusters', `${clusterName(i)}.yaml`), clusterText(i, edit));
}

/** The next inputs: about 10% of the Clusters edited, 5% deleted, 5% added. */
function nextInputs(current, random, nextIndex) {
  const out = new Map();
  for (const [i, edit] of current) {
    const r = random();
    if (r < 0.05) continue;
    out.set(i, r < 0.15 ? edit + 1 : edit);
  }
  const added = Math.max(1, Math.round(current.size * 0.05));
  for (let k = 0; k < added; k++) out.set(nextIndex + k, 0);
  return { inputs: out, nextIndex: nextIndex + added };
}

/** A whole run; `writeMs`, `renameMs`: from the start of those phases (when DIR exists beforehand) to its end. */
function render(inputs, dir) {
  return new Promise((resolve) => {
    const start = performance.now();
    let locked;
    let listed;
    const watcher = existsSync(dir)
      ? watch(dir, (_e, name) => {
          locked ??= PHASE_STARTS.writing(name) ? performance.now() : undefined;
          listed ??= PHASE_STARTS.renaming(name) ? performance.now() : undefined;
        })
      : undefined;
    const child = spawn(process.execPath, [BIN, 'render', inputs, '-o', dir], {
      env: CHILD_ENV,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => {
      watcher?.close();
      const end = performance.now();
      resolve({
        code,
        stderr,
        ms: end - start,
        writeMs: locked === undefined ? 0 : end - locked,
        renameMs: listed === undefined ? 0 : end - listed,
      });
    });
  });
}

/**
 * A run on DIR killed with `signal` `delayMs` after the start of `phase` (PHASE_STARTS).
 * Resolves with how it ended and whether the kill happened before it
 * was done.
 */
function killedRun(inputs, dir, signal, phase, delayMs) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'render', inputs, '-o', dir], {
      env: CHILD_ENV,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    let sent = false;
    let watcher;
    child.stderr.on('data', (d) => (stderr += d));
    const kill = () =>
      setTimeout(() => (sent = child.exitCode === null && child.signalCode === null && child.kill(signal)), delayMs);
    if (phase === 'any') kill();
    else {
      watcher = watch(dir, (_event, name) => {
        if (!PHASE_STARTS[phase](name) || watcher === undefined) return;
        watcher.close();
        watcher = undefined;
        kill();
      });
    }
    child.on('close', (code, sig) => {
      watcher?.close();
      resolve({ code, signal: sig, sent, stderr });
    });
  });
}

/**
 * Runs the campaign; `log` gets one line per step. Returns the figures and every violation found
 * (an empty list is the promise kept).
 */
export async function killCampaign({ clusters, kills, seed, log = () => {} }) {
  const random = prng(seed);
  const work = mkdtempSync(join(tmpdir(), 'rcc-kill-'));
  const inputs = join(work, 'inputs');
  const dir = join(work, 'rendered');
  const sentinel = join(work, 'sentinel');
  mkdirSync(sentinel);
  writeFileSync(join(sentinel, 'keep.yaml'), 'kind: Sentinel\n');
  const violations = [];
  const figures = {
    clusters,
    kills: 0,
    killsLanded: 0,
    violations,
    litterAfterKill: 0,
    litterAfterRerun: 0,
    filesChecked: 0,
    firstMs: 0,
    runMs: 0,
    writeMs: 0,
    renameMs: 0,
    steps: [],
  };
  let current = new Map(Array.from({ length: clusters }, (_, i) => [i, 0]));
  let nextIndex = clusters;
  writeInputs(inputs, new Map(), current);
  mkdirSync(dir);
  const first = await render(inputs, dir);
  if (first.code !== 0) throw new Error(`first render failed: ${first.stderr}`);
  // A run on unchanged inputs: a fixed point, and how long a run takes that reads DIR and writes nothing.
  let last = await render(inputs, dir);
  if (last.code !== 0 || !last.stderr.includes(' 0 written'))
    throw new Error(`the second render on unchanged inputs wrote: ${last.stderr}`);
  figures.firstMs = first.ms;
  figures.runMs = last.ms;
  figures.writeMs = first.writeMs;
  figures.renameMs = first.renameMs;
  // Each signal in turn, aimed in turn at any point, at the writing of DIR and at its renames.
  const schedule = [];
  for (let k = 0; k < kills; k++)
    for (const signal of ['SIGKILL', 'SIGTERM'])
      schedule.push({ signal, phase: ['any', 'writing', 'renaming'][k % 3] });
  try {
    for (const [step, { signal, phase }] of schedule.entries()) {
      const old = hashTree(dir);
      const next = nextInputs(current, random, nextIndex);
      writeInputs(inputs, current, next.inputs);
      current = next.inputs;
      nextIndex = next.nextIndex;
      const fresh = join(work, `fresh-${step}`);
      const freshRun = await render(inputs, fresh);
      if (freshRun.code !== 0) throw new Error(`fresh render failed: ${freshRun.stderr}`);
      const expected = hashTree(fresh);
      rmSync(fresh, { recursive: true, force: true });
      const outside = { inputs: hashTree(inputs), sentinel: hashTree(sentinel) };

      // A killed run takes about what the last run took (reading DIR) plus the writing of the files
      // that change (their share of the first run's writing, which wrote every file): delays are
      // drawn over that, from its start or from when it starts writing DIR.
      const changing =
        [...new Set([...old.keys(), ...expected.keys()])].filter((p) => old.get(p) !== expected.get(p)).length /
        Math.max(expected.size, 1);
      const writing = changing * figures.writeMs;
      const window = { any: last.ms + writing, writing: last.writeMs + writing, renaming: changing * figures.renameMs }[
        phase
      ];
      const delayMs = Math.round(random() * window);
      const run = await killedRun(inputs, dir, signal, phase, delayMs);
      const after = hashTree(dir);
      const found = [];
      const listed = existsSync(join(dir, LIST))
        ? new Set(
            readFileSync(join(dir, LIST), 'utf8')
              .split('\n')
              .filter((l) => l && !l.startsWith('#'))
              .map((l) => l.split('\t')[0]),
          )
        : undefined;
      // Files whose content changes: how many the killed run got to (new) and how many it did not (old).
      let oldCount = 0;
      let newCount = 0;
      for (const [path, hash] of after) {
        if (hash === 'dir' || LITTER.test(path) || path === LIST) continue;
        figures.filesChecked++;
        const isOld = old.get(path) === hash;
        const isNew = expected.get(path) === hash;
        if (isNew && !isOld) newCount++;
        else if (isOld && !isNew) oldCount++;
        else if (!isOld && !isNew)
          found.push(`${path}: neither the old nor the new content${hash === 'link' ? ' (a link)' : ''}`);
        if (listed && !listed.has(path)) found.push(`${path}: not in the outputs list`);
      }
      for (const [name, tree] of Object.entries(outside)) {
        const now = hashTree(name === 'inputs' ? inputs : sentinel);
        if (JSON.stringify([...now]) !== JSON.stringify([...tree])) found.push(`${name} changed (outside DIR)`);
      }
      const litter = litterIn(after);
      figures.litterAfterKill += litter.length;
      const landed = run.sent;
      if (landed) figures.killsLanded++;
      if (signal === 'SIGTERM' && landed) {
        if (litter.length > 0) found.push(`SIGTERM left ${litter.join(', ')}`);
        if (run.code !== 143 && run.signal !== 'SIGTERM')
          found.push(`SIGTERM: exit ${run.code ?? run.signal}, not 143`);
      }
      if (!landed && run.code !== 0)
        found.push(`the run finished before the kill with exit ${run.code}: ${run.stderr}`);

      const rerun = await render(inputs, dir);
      last = rerun;
      const converged = hashTree(dir);
      const rerunLitter = litterIn(converged);
      figures.litterAfterRerun += rerunLitter.length;
      if (rerun.code !== 0) found.push(`the next run exited ${rerun.code}: ${rerun.stderr}`);
      if (rerunLitter.length > 0) found.push(`litter after the next run: ${rerunLitter.join(', ')}`);
      if (JSON.stringify([...converged]) !== JSON.stringify([...expected])) {
        const diff = [...new Set([...converged.keys(), ...expected.keys()])].filter(
          (p) => converged.get(p) !== expected.get(p),
        );
        found.push(
          `after the next run DIR differs from a fresh render: ${diff.slice(0, 5).join(', ')}${diff.length > 5 ? ` and ${diff.length - 5} more` : ''}`,
        );
      }
      figures.kills++;
      const line = `kill ${step + 1}/${schedule.length}: ${signal} ${phase === 'any' ? 'after' : `${phase} +`} ${delayMs} ms: ${landed ? `landed (exit ${run.code ?? run.signal})` : `missed (the run was done, exit ${run.code})`}; of the files that change ${newCount} new, ${oldCount} still old; ${litter.length} litter; next run ${rerun.code === 0 ? 'converged' : `exit ${rerun.code}`} in ${(rerun.ms / 1000).toFixed(1)} s${found.length ? `; VIOLATIONS: ${found.join('; ')}` : ''}`;
      figures.steps.push(line);
      log(line);
      violations.push(...found.map((f) => `kill ${step + 1} (${signal}, ${phase}, ${delayMs} ms): ${f}`));
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return figures;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? Number(process.argv[i + 1]) : fallback;
  };
  const seed = arg('seed', Math.floor(Math.random() * 2 ** 31));
  const clusters = arg('clusters', 10000);
  const kills = arg('kills', 10);
  console.log(
    `seed=${seed} clusters=${clusters} kills per signal=${kills} (aimed in turn at any point, at the writing of DIR, at its renames)`,
  );
  const start = performance.now();
  const f = await killCampaign({ clusters, kills, seed, log: (l) => console.log(l) });
  for (const v of f.violations) console.log(`violation: ${v}`);
  console.log(
    `${f.kills} kills (${f.killsLanded} landed before the run was done), ${f.filesChecked} files checked; first render ${(f.firstMs / 1000).toFixed(1)} s (writing ${(f.writeMs / 1000).toFixed(1)} s, renaming ${(f.renameMs / 1000).toFixed(1)} s), a run on unchanged inputs ${(f.runMs / 1000).toFixed(1)} s; ${((performance.now() - start) / 60000).toFixed(1)} min in all`,
  );
  console.log(
    `kills=${f.kills} violations=${f.violations.length} litter-after-kill=${f.litterAfterKill} litter-after-rerun=${f.litterAfterRerun} seed=${seed}`,
  );
  process.exitCode = f.violations.length === 0 ? 0 : 1;
}
