#!/usr/bin/env node
// kpt at fleet size: a package of N Clusters (bench/fleet.mjs) rendered by the real
// `kpt fn render`, first and again (the re-render reads the package with its rendered/ files),
// and each run taken apart into its phases: kpt reading the package (`kpt fn source`, the
// ResourceList kpt hands the function), the function alone on that ResourceList, and kpt writing
// the function's output (`kpt fn sink` into an empty directory). The function runs with
// `reuse: true` (README "At fleet size"; BENCH_KPT_REUSE=false measures the default). `kpt alone` re-renders the
// package with a function that replays the output just measured: kpt's whole share of a re-render.
// Reports wall time, CPU time (user+system of the whole process tree: what a loaded machine
// distorts least), peak RSS and the one-minute load average at the end of each run, and the
// re-render/first-render ratios, and the same function by `kpt fn eval --exec` (no Kptfile
// pipeline), and the package with `rendered/` listed in its `.krmignore` (kpt neither reads the
// earlier output nor hands it to the function: every run renders from the Clusters alone; README
// "At fleet size"). First renders and re-renders through kpt are taken in turns,
// BENCH_KPT_PAIRS times (default 3), and their medians reported: the load of a shared machine
// changes from one minute to the next.
//
//   node bench/kpt.mjs [N...]      (default 2000 10000; BENCH_KEEP=1 keeps the packages)
//
// A size is skipped, with a note, when kpt's memory measured at a smaller size, scaled, would not
// fit in the memory free on this machine (kpt holds the whole package several times over).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { freemem, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { CLASS_FILE, clusterName, clusterObject } from './fleet.mjs';

const here = dirname(fileURLToPath(import.meta.url));
/** `reuse` of the function config (`BENCH_KPT_REUSE`, default true). */
const REUSE = process.env.BENCH_KPT_REUSE !== 'false';
/** First renders and re-renders through kpt, taken in turns (`BENCH_KPT_PAIRS`, default 3). */
const PAIRS = Math.max(1, Number(process.env.BENCH_KPT_PAIRS ?? 3));
const bin = join(here, '..', 'bin', 'render-clusterclass');
const TIME = '/usr/bin/time';

/** Runs argv under /usr/bin/time: wall s, cpu s (user+sys, children included), peak RSS MiB, load average after, and its stderr. */
export function timed(argv, { stdin, stdout, env, cwd } = {}) {
  const r = spawnSync(TIME, ['-f', '__TIME %e %U %S %M', ...argv], {
    input: stdin === undefined ? undefined : readFileSync(stdin),
    stdio: ['pipe', stdout === undefined ? 'ignore' : 'pipe', 'pipe'],
    maxBuffer: 1 << 30,
    env,
    cwd,
  });
  const stderr = r.stderr.toString();
  const m = /__TIME ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(stderr);
  if (r.status !== 0 || !m) throw new Error(`${argv.join(' ')} exited ${r.status}: ${stderr.slice(-2000)}`);
  if (stdout) writeFileSync(stdout, r.stdout);
  return {
    wall: Number(m[1]),
    cpu: Number(m[2]) + Number(m[3]),
    rssMiB: Number(m[4]) / 1024,
    load: loadavg()[0],
    stderr: stderr.slice(0, m.index),
  };
}

/** The run with the median CPU time. */
const median = (runs) => [...runs].sort((a, b) => a.cpu - b.cpu)[(runs.length - 1) >> 1];

function writePackage(dir, n, exec) {
  mkdirSync(join(dir, 'clusters'), { recursive: true });
  writeFileSync(
    join(dir, 'Kptfile'),
    `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: fleet\n  annotations:\n    config.kubernetes.io/local-config: "true"\npipeline:\n  mutators:\n    - exec: ${exec}\n      configMap:\n        mode: expand\n        reuse: "${REUSE}"\n`,
  );
  writeFileSync(join(dir, 'clusterclass.yaml'), readFileSync(CLASS_FILE));
  for (let i = 0; i < n; i++)
    writeFileSync(join(dir, 'clusters', `${clusterName(i)}.yaml`), YAML.stringify(clusterObject(i), { lineWidth: 0 }));
}

const FUNCTION_CONFIG = `functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: function-input\n    annotations:\n      config.kubernetes.io/local-config: "true"\n  data:\n    mode: expand\n    reuse: "${REUSE}"\n`;

/** kpt reading the package: `kpt fn source` (timed), plus the Kptfile's functionConfig, is the ResourceList the function gets. */
function kptRead(dir, file) {
  const read = timed(['kpt', 'fn', 'source', dir], { stdout: file });
  writeFileSync(file, `${readFileSync(file, 'utf8')}${FUNCTION_CONFIG}`);
  return read;
}

/** `pkg` as a copy of `from` whose Kptfile runs `exec` instead of the bin. */
function withFunction(from, pkg, exec) {
  rmSync(pkg, { recursive: true, force: true });
  cpSync(from, pkg, { recursive: true });
  writeFileSync(
    join(pkg, 'Kptfile'),
    readFileSync(join(pkg, 'Kptfile'), 'utf8').replace(`exec: ${bin}`, `exec: ${exec}`),
  );
}

/** kpt writing a function's output: `kpt fn sink` into an empty directory (timed). */
function kptWrite(output, dir) {
  rmSync(dir, { recursive: true, force: true });
  return timed(['kpt', 'fn', 'sink', dir], { stdin: output });
}

/** The function's output as the next run's input: the items, without the results (what kpt hands back, but for its styling). */
function asNextInput(output, file) {
  const text = readFileSync(output, 'utf8');
  const at = text.lastIndexOf('\nresults:\n');
  writeFileSync(file, at < 0 ? text : text.slice(0, at + 1));
}

export function kptBench(sizes = [2000, 10000], log = (s) => process.stderr.write(`[kpt bench] ${s}\n`)) {
  if (!existsSync(TIME) || spawnSync('kpt', ['version']).status !== 0)
    return { rows: [], notes: ['kpt or /usr/bin/time missing: kpt bench skipped'] };
  const work = mkdtempSync(join(tmpdir(), 'rcc-kpt-bench-'));
  const rows = [];
  const notes = [];
  // kpt's peak memory per Cluster, first and re-render: what kpt 1.0.0-beta.56 took at 2,000
  // Clusters (2.0 GiB and 7.4 GiB), raised by what this run measures.
  const perCluster = { first: 1.0 * 2 ** 20, again: 3.7 * 2 ** 20 };
  const fits = (what, n) => {
    const need = perCluster[what] * n * 1.2;
    if (need <= freemem() * 0.8) return true;
    notes.push(
      `${n} Clusters, kpt ${what === 'first' ? 'first render' : 're-render'}: not run — kpt would need ~${(need / 2 ** 30).toFixed(1)} GiB (its peak at a smaller package, scaled), ${(freemem() / 2 ** 30).toFixed(1)} GiB free`,
    );
    log(notes.at(-1));
    return false;
  };
  const show = (n, label, m) =>
    log(`${n}: ${label} ${m.wall} s, cpu ${m.cpu.toFixed(1)} s, ${m.rssMiB.toFixed(0)} MiB, load ${m.load.toFixed(1)}`);
  try {
    for (const n of sizes) {
      const fresh = join(work, `fleet-${n}`);
      writePackage(fresh, n, bin);
      const [pkg, first, again, out, sink] = ['pkg', 'first', 'again', 'out', 'sink'].map((f) =>
        join(work, `${f}-${n}`),
      );
      const row = { n };
      row.readFirst = kptRead(fresh, first);
      if (fits('first', n)) {
        // First render and re-render in turns, each on its own copy, so a change of load on the
        // shared machine weighs on both alike; the medians are reported.
        const [firsts, agains, evalFirsts, evalAgains, ignoredFirsts, ignoredAgains] = [[], [], [], [], [], []];
        const rendered = join(work, `rendered-${n}`);
        const renderedIgnored = join(work, `rendered-ignored-${n}`);
        for (let i = 0; i < PAIRS; i++) {
          rmSync(pkg, { recursive: true, force: true });
          cpSync(fresh, pkg, { recursive: true });
          firsts.push(timed(['kpt', 'fn', 'render', '--allow-exec', pkg]));
          perCluster.first = Math.max(perCluster.first, (firsts.at(-1).rssMiB * 2 ** 20) / n);
          show(n, `kpt first render #${i + 1}`, firsts.at(-1));
          if (i === 0) cpSync(pkg, rendered, { recursive: true });
          // rendered/ in .krmignore: first render, then a re-render of its result.
          for (const [from, runs, label] of [
            [fresh, ignoredFirsts, 'first'],
            [renderedIgnored, ignoredAgains, 're-render'],
          ]) {
            rmSync(pkg, { recursive: true, force: true });
            cpSync(from, pkg, { recursive: true });
            writeFileSync(join(pkg, '.krmignore'), 'rendered/\n');
            runs.push(timed(['kpt', 'fn', 'render', '--allow-exec', pkg]));
            show(n, `kpt fn render, rendered/ in .krmignore, ${label} #${i + 1}`, runs.at(-1));
            if (i === 0 && label === 'first') cpSync(pkg, renderedIgnored, { recursive: true });
          }
          // Only the last pair at a size whose re-render with rendered/ read would not fit.
          if (!fits('again', n)) break;
          rmSync(pkg, { recursive: true, force: true });
          cpSync(rendered, pkg, { recursive: true });
          agains.push(timed(['kpt', 'fn', 'render', '--allow-exec', pkg]));
          perCluster.again = Math.max(perCluster.again, (agains.at(-1).rssMiB * 2 ** 20) / n);
          show(n, `kpt re-render #${i + 1}`, agains.at(-1));
          // The same function by `kpt fn eval --exec` (no Kptfile pipeline), on the same packages.
          for (const [from, runs, label] of [
            [fresh, evalFirsts, 'first'],
            [rendered, evalAgains, 're-render'],
          ]) {
            rmSync(pkg, { recursive: true, force: true });
            cpSync(from, pkg, { recursive: true });
            runs.push(timed(['kpt', 'fn', 'eval', pkg, '--exec', bin, '--', 'mode=expand', `reuse=${REUSE}`]));
            show(n, `kpt fn eval, ${label} #${i + 1}`, runs.at(-1));
          }
        }
        row.kptFirst = median(firsts);
        row.ignoredFirst = median(ignoredFirsts);
        row.ignoredAgain = median(ignoredAgains);
        if (agains.length > 0) {
          row.kptAgain = median(agains);
          row.evalFirst = median(evalFirsts);
          row.evalAgain = median(evalAgains);
          row.readAgain = kptRead(rendered, again);
          // What kpt really hands the function on a re-render (with its per-run ids), and what the
          // function answers: taken from one more re-render, untimed, through a function that tees.
          const tee = join(work, `tee-${n}.sh`);
          writeFileSync(tee, `#!/bin/sh\ntee ${again} | ${process.execPath} ${bin} | tee ${out}\n`, { mode: 0o755 });
          withFunction(rendered, pkg, tee);
          timed(['kpt', 'fn', 'render', '--allow-exec', pkg]);
        }
      }
      row.fnFirst = timed([process.execPath, bin], { stdin: first, stdout: out });
      row.writeFirst = kptWrite(out, sink);
      if (!row.kptAgain) asNextInput(out, again);
      row.fnAgain = timed([process.execPath, bin], { stdin: again, stdout: out });
      row.writeAgain = kptWrite(out, sink);
      show(
        n,
        `function alone, again${row.kptAgain ? ' (on what kpt handed it)' : ' (its own output as input)'}`,
        row.fnAgain,
      );
      if (row.kptAgain) {
        // kpt's own work on the same re-render: a function that replays the output just measured.
        const replay = join(work, `replay-${n}.sh`);
        writeFileSync(replay, `#!/bin/sh\ncat > /dev/null\nexec cat ${out}\n`, { mode: 0o755 });
        withFunction(join(work, `rendered-${n}`), pkg, replay);
        row.kptAlone = timed(['kpt', 'fn', 'render', '--allow-exec', pkg]);
        show(n, 'kpt alone on the re-render', row.kptAlone);
      }
      rows.push(row);
      if (process.env.BENCH_KEEP !== '1')
        for (const f of [
          fresh,
          pkg,
          join(work, `rendered-${n}`),
          join(work, `rendered-ignored-${n}`),
          first,
          again,
          out,
          sink,
        ])
          rmSync(f, { recursive: true, force: true });
    }
  } finally {
    if (process.env.BENCH_KEEP === '1') log(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
  return { rows, notes };
}

export function kptReport({ rows, notes }) {
  const f = (m) =>
    `${m.wall.toFixed(1).padStart(7)} s ${m.cpu.toFixed(1).padStart(7)} s ${m.rssMiB.toFixed(0).padStart(7)} ${m.load.toFixed(1).padStart(5)}`;
  const lines = [
    '',
    `kpt at fleet size, reuse: ${REUSE} (wall, cpu = user+sys of the process tree, peak RSS MiB, load average after the run):`,
    'clusters  run                                 wall       cpu     RSS  load',
  ];
  const ratio = (a, b) =>
    a && b ? `   ratio wall ${(a.wall / b.wall).toFixed(2)}, cpu ${(a.cpu / b.cpu).toFixed(2)}` : '';
  for (const r of rows) {
    let first = true;
    const line = (label, m, extra = '') => {
      if (!m) return;
      lines.push(`${(first ? String(r.n) : '').padStart(8)}  ${label.padEnd(34)}${f(m)}${extra}`);
      first = false;
    };
    line(`kpt fn render, first${r.kptAgain ? ' (median)' : ''}`, r.kptFirst);
    line('  kpt reads the package', r.readFirst);
    line('  the function', r.fnFirst);
    line('  kpt writes the output', r.writeFirst);
    line('kpt fn render, re-render (median)', r.kptAgain, ratio(r.kptAgain, r.kptFirst));
    if (!r.kptAgain)
      lines.push(`${''.padStart(8)}  re-render without kpt (its memory): the function on its own output`);
    line('  kpt reads the package', r.readAgain, ratio(r.readAgain, r.readFirst));
    line('  the function', r.fnAgain, ratio(r.fnAgain, r.fnFirst));
    line('  kpt writes the output', r.writeAgain, ratio(r.writeAgain, r.writeFirst));
    line('kpt alone, re-render', r.kptAlone, "   (kpt's own work: a function replaying the output)");
    line('kpt fn eval --exec, first (median)', r.evalFirst);
    line('kpt fn eval --exec, re-render', r.evalAgain, ratio(r.evalAgain, r.evalFirst));
    line('rendered/ in .krmignore, first', r.ignoredFirst);
    line('rendered/ in .krmignore, re-render', r.ignoredAgain, ratio(r.ignoredAgain, r.ignoredFirst));
  }
  lines.push(...notes);
  const at = (n) => rows.find((r) => r.n === n);
  const two = at(2000) ?? rows[0];
  const cpuRatio = (a, b) => (a && b ? (a.cpu / b.cpu).toFixed(2) : 'n/a');
  const summary = two
    ? `kpt-rerender-ratio=${cpuRatio(two.kptAgain, two.kptFirst)} kpt-krmignore-rerender-ratio=${cpuRatio(two.ignoredAgain, two.ignoredFirst)} kpt-eval-rerender-ratio=${cpuRatio(two.evalAgain, two.evalFirst)} fn-rerender-ratio=${cpuRatio(two.fnAgain, two.fnFirst)} (cpu, ${two.n} Clusters)`
    : 'kpt-rerender-ratio=n/a';
  return { lines, summary };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const sizes = process.argv
    .slice(2)
    .map(Number)
    .filter((n) => n > 0);
  const report = kptReport(kptBench(sizes.length > 0 ? sizes : undefined));
  process.stdout.write(`${report.lines.join('\n')}\n${report.summary}\n`);
}
