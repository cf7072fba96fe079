#!/usr/bin/env node
// kpt at fleet size: a package of N Clusters (bench/fleet.mjs) rendered by the real
// `kpt fn render`, first and again (the re-render reads the package with its rendered/ files),
// and the function alone on the ResourceLists kpt builds for those two runs. Reports wall time,
// CPU time (user+system of the whole process tree: what a loaded machine does not distort) and
// peak RSS, and the re-render/first-render ratios. `kpt alone` replays the function's saved
// output, so it is kpt's own work for the same package.
//
//   node bench/kpt.mjs [N...]      (default 2000 10000; BENCH_KEEP=1 keeps the packages)
//
// A size is skipped, with a note, when kpt's memory measured at a smaller size, scaled, would not
// fit in the memory free on this machine (kpt holds the whole package several times over).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { freemem, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { CLASS_FILE, clusterName, clusterObject } from './fleet.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, '..', 'bin', 'render-clusterclass');
const TIME = '/usr/bin/time';

/** Runs argv under /usr/bin/time: wall s, cpu s (user+sys, children included), peak RSS MiB. */
function timed(argv, { cwd, stdin, stdout } = {}) {
  const r = spawnSync(TIME, ['-f', '__TIME %e %U %S %M', ...argv], {
    cwd,
    input: stdin === undefined ? undefined : readFileSync(stdin),
    stdio: ['pipe', stdout === undefined ? 'ignore' : 'pipe', 'pipe'],
    maxBuffer: 1 << 30,
  });
  const stderr = r.stderr.toString();
  const m = /__TIME ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(stderr);
  if (r.status !== 0 || !m) throw new Error(`${argv.join(' ')} exited ${r.status}: ${stderr.slice(-2000)}`);
  if (stdout) writeFileSync(stdout, r.stdout);
  return { wall: Number(m[1]), cpu: Number(m[2]) + Number(m[3]), rssMiB: Number(m[4]) / 1024 };
}

function writePackage(dir, n, exec) {
  mkdirSync(join(dir, 'clusters'), { recursive: true });
  writeFileSync(join(dir, 'Kptfile'), `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: fleet\n  annotations:\n    config.kubernetes.io/local-config: "true"\npipeline:\n  mutators:\n    - exec: ${exec}\n      configMap:\n        mode: expand\n`);
  writeFileSync(join(dir, 'clusterclass.yaml'), readFileSync(CLASS_FILE));
  for (let i = 0; i < n; i++) writeFileSync(join(dir, 'clusters', `${clusterName(i)}.yaml`), YAML.stringify(clusterObject(i), { lineWidth: 0 }));
}

/** The ResourceList kpt gives the function for a package (kpt fn source, plus the Kptfile's functionConfig). */
function kptInput(dir, file) {
  const r = spawnSync('kpt', ['fn', 'source', dir], { maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(r.stderr.toString());
  writeFileSync(file, `${r.stdout.toString()}functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: function-input\n    annotations:\n      config.kubernetes.io/local-config: "true"\n  data:\n    mode: expand\n`);
}

/** The function's output as the next run's input: the items, without the results (what kpt hands back, but for its styling). */
function asNextInput(output, file) {
  const text = readFileSync(output, 'utf8');
  const at = text.lastIndexOf('\nresults:\n');
  writeFileSync(file, at < 0 ? text : text.slice(0, at + 1));
}

export function kptBench(sizes = [2000, 10000], log = (s) => process.stderr.write(`[kpt bench] ${s}\n`)) {
  if (!existsSync(TIME) || spawnSync('kpt', ['version']).status !== 0) return { rows: [], notes: ['kpt or /usr/bin/time missing: kpt bench skipped'] };
  const work = mkdtempSync(join(tmpdir(), 'rcc-kpt-bench-'));
  const rows = [];
  const notes = [];
  // kpt's peak memory per Cluster, first and re-render: what kpt 1.0.0-beta.56 took at 2,000
  // Clusters (1.9 GiB and 6.2 GiB), raised by what this run measures.
  const perCluster = { first: 1.0 * 2 ** 20, again: 3.2 * 2 ** 20 };
  const fits = (what, n) => {
    const need = perCluster[what] * n * 1.2;
    if (need <= freemem() * 0.8) return true;
    notes.push(`${n} Clusters, kpt ${what === 'first' ? 'first render' : 're-render'}: not run — kpt would need ~${(need / 2 ** 30).toFixed(1)} GiB (its peak at a smaller package, scaled), ${(freemem() / 2 ** 30).toFixed(1)} GiB free`);
    log(notes.at(-1));
    return false;
  };
  try {
    for (const n of sizes) {
      const pkg = join(work, `fleet-${n}`);
      writePackage(pkg, n, bin);
      const first = join(work, `first-${n}.yaml`);
      const again = join(work, `again-${n}.yaml`);
      const out = join(work, `out-${n}.yaml`);
      kptInput(pkg, first);
      const row = { n };
      if (fits('first', n)) {
        row.kptFirst = timed(['kpt', 'fn', 'render', '--allow-exec', pkg]);
        perCluster.first = Math.max(perCluster.first, (row.kptFirst.rssMiB * 2 ** 20) / n);
        log(`${n}: kpt first render ${row.kptFirst.wall} s, cpu ${row.kptFirst.cpu.toFixed(1)} s, ${row.kptFirst.rssMiB.toFixed(0)} MiB`);
        if (fits('again', n)) {
          kptInput(pkg, again);
          row.kptAgain = timed(['kpt', 'fn', 'render', '--allow-exec', pkg]);
          perCluster.again = Math.max(perCluster.again, (row.kptAgain.rssMiB * 2 ** 20) / n);
          log(`${n}: kpt re-render ${row.kptAgain.wall} s, cpu ${row.kptAgain.cpu.toFixed(1)} s, ${row.kptAgain.rssMiB.toFixed(0)} MiB`);
        }
      }
      row.fnFirst = timed([process.execPath, bin], { stdin: first, stdout: out });
      if (!row.kptAgain) asNextInput(out, again);
      row.fnAgain = timed([process.execPath, bin], { stdin: again, stdout: out });
      log(`${n}: function alone first ${row.fnFirst.wall} s / again ${row.fnAgain.wall} s${row.kptAgain ? '' : ' (again: its own output as input)'}`);
      if (row.kptAgain) {
        // kpt's own work on the same re-render: a function that replays the output just measured.
        const replay = join(work, `replay-${n}.sh`);
        writeFileSync(replay, `#!/bin/sh\ncat > /dev/null\nexec cat ${out}\n`, { mode: 0o755 });
        writeFileSync(join(pkg, 'Kptfile'), readFileSync(join(pkg, 'Kptfile'), 'utf8').replace(`exec: ${bin}`, `exec: ${replay}`));
        row.kptAlone = timed(['kpt', 'fn', 'render', '--allow-exec', pkg]);
        log(`${n}: kpt alone on the re-render ${row.kptAlone.wall} s, cpu ${row.kptAlone.cpu.toFixed(1)} s`);
      }
      rows.push(row);
      if (process.env.BENCH_KEEP !== '1') for (const f of [pkg, first, again, out]) rmSync(f, { recursive: true, force: true });
    }
  } finally {
    if (process.env.BENCH_KEEP === '1') log(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
  return { rows, notes };
}

export function kptReport({ rows, notes }) {
  const f = (m) => `${m.wall.toFixed(1).padStart(7)} s ${m.cpu.toFixed(1).padStart(7)} s ${m.rssMiB.toFixed(0).padStart(7)}`;
  const lines = ['', 'kpt at fleet size (wall, cpu = user+sys of the process tree, peak RSS MiB):', 'clusters  run                        wall       cpu     RSS'];
  const ratio = (a, b) => (a && b ? `   ratio wall ${(a.wall / b.wall).toFixed(2)}, cpu ${(a.cpu / b.cpu).toFixed(2)}` : '');
  for (const r of rows) {
    const line = (label, m, extra = '') => m && lines.push(`${(label.startsWith('kpt fn render, first') ? String(r.n) : '').padStart(8)}  ${label.padEnd(25)}${f(m)}${extra}`);
    line('kpt fn render, first', r.kptFirst);
    line('kpt fn render, re-render', r.kptAgain, ratio(r.kptAgain, r.kptFirst));
    line('kpt alone, re-render', r.kptAlone, "   (kpt's own work: a function replaying the output)");
    lines.push(`${(r.kptFirst ? '' : String(r.n)).padStart(8)}  ${'function alone, first'.padEnd(25)}${f(r.fnFirst)}`);
    line('function alone, again', r.fnAgain, ratio(r.fnAgain, r.fnFirst));
  }
  lines.push(...notes);
  const at = (n) => rows.find((r) => r.n === n);
  const two = at(2000) ?? rows[0];
  const cpuRatio = (a, b) => (a && b ? (a.cpu / b.cpu).toFixed(2) : 'n/a');
  const summary = two ? `kpt-rerender-ratio=${cpuRatio(two.kptAgain, two.kptFirst)} fn-rerender-ratio=${cpuRatio(two.fnAgain, two.fnFirst)} (cpu, ${two.n} Clusters)` : 'kpt-rerender-ratio=n/a';
  return { lines, summary };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
  const report = kptReport(kptBench(sizes.length > 0 ? sizes : undefined));
  process.stdout.write(`${report.lines.join('\n')}\n${report.summary}\n`);
}
