#!/usr/bin/env node
// `plan` at fleet size against one render of the same fleet: N Clusters (bench/fleet.mjs, one
// stream file) whose class's general worker template gets a mount (every Cluster's md-general
// rolls), planned against the unchanged fleet; the same with an upgrade preview on top
// (`--to-capi-version 1.15`: a third render, of the head on the target release); and every
// Cluster's version one patch up (sequencing holds the workers back: a third render, of the step
// the next apply takes). Reports the CPU
// time (user+system of the process: what a shared machine distorts least) of each, taken in turns
// BENCH_PLAN_RUNS times (default 3), medians, and their ratios to the render.
//
//   node bench/plan.mjs [N...]      (default 2000; BENCH_KEEP=1 keeps the fleets)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fleetStream } from './fleet.mjs';
import { timed } from './kpt.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, '..', 'bin', 'render-clusterclass');
const RUNS = Number(process.env.BENCH_PLAN_RUNS ?? 3);
const WORKER =
  'kind: DevMachineTemplate\nmetadata:\n  name: fleet-worker\n  namespace: fleet\nspec:\n  template:\n    spec:\n      backend:\n        docker: {}';
const MOUNTED = WORKER.replace('docker: {}', 'docker: {extraMounts: [{containerPath: /data, hostPath: /data}]}');

function fleet(dir, text) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'fleet.yaml'), text);
  return dir;
}

/** The run with the median CPU time. */
const median = (runs) => [...runs].sort((a, b) => a.cpu - b.cpu)[(runs.length - 1) >> 1];

export function planBench(sizes = [2000], log = (s) => process.stderr.write(`[plan bench] ${s}\n`)) {
  const rows = [];
  for (const n of sizes) {
    const dir = mkdtempSync(join(tmpdir(), `render-clusterclass-plan-${n}-`));
    try {
      const text = fleetStream(n);
      if (!text.includes(WORKER)) throw new Error('bench/fleet-class.yaml no longer has the worker template');
      const base = fleet(join(dir, 'base'), text);
      const head = fleet(join(dir, 'head'), text.replace(WORKER, MOUNTED));
      const bumped = fleet(
        join(dir, 'bump'),
        text.replace(/version: v(\d+)\.(\d+)\.(\d+)\n/g, (_m, a, b, c) => `version: v${a}.${b}.${Number(c) + 1}\n`),
      );
      const node = (...args) => [process.execPath, bin, ...args];
      // `plan` exits 1 when something changes; timed() wants 0, so its exit code is checked here.
      const commands = {
        render: node('render', head, '--format', 'manifests'),
        plan: [
          '/bin/sh',
          '-c',
          '"$@"; test $? -eq 1',
          'plan',
          ...node('plan', '--base', base, head, '--format', 'json'),
        ],
        planUpgrade: [
          '/bin/sh',
          '-c',
          '"$@"; test $? -eq 1',
          'plan',
          ...node('plan', '--base', base, head, '--to-capi-version', '1.15', '--format', 'json'),
        ],
        planBump: [
          '/bin/sh',
          '-c',
          '"$@"; test $? -eq 1',
          'plan',
          ...node('plan', '--base', base, bumped, '--format', 'json'),
        ],
      };
      const runs = { render: [], plan: [], planUpgrade: [], planBump: [] };
      for (let i = 0; i < RUNS; i++)
        for (const [name, argv] of Object.entries(commands)) {
          const m = timed(argv, { cwd: dir });
          runs[name].push(m);
          log(
            `${n}: ${name} ${m.wall} s, cpu ${m.cpu.toFixed(1)} s, ${m.rssMiB.toFixed(0)} MiB, load ${m.load.toFixed(1)}`,
          );
        }
      rows.push({
        n,
        render: median(runs.render),
        plan: median(runs.plan),
        planUpgrade: median(runs.planUpgrade),
        planBump: median(runs.planBump),
      });
    } finally {
      if (process.env.BENCH_KEEP === '1') log(`kept ${dir}`);
      else rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
}

export function planReport(rows) {
  const lines = [
    '',
    'plan of a class change that rolls every Cluster vs one render of the fleet (CPU, median):',
    '| Clusters | render | plan --base | ratio (target ≤ 2.2) | plan --base --to-capi-version 1.15 | ratio | plan of a version bump | ratio |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const cell = (r, m) => `${m.cpu.toFixed(1)} s | ${(m.cpu / r.render.cpu).toFixed(2)}`;
  for (const r of rows)
    lines.push(
      `| ${r.n} | ${r.render.cpu.toFixed(1)} s | ${cell(r, r.plan)} | ${cell(r, r.planUpgrade)} | ${cell(r, r.planBump)} |`,
    );
  const last = rows[rows.length - 1];
  const ratio = last ? (last.plan.cpu / last.render.cpu).toFixed(2) : 'n/a';
  const upgrade = last ? (last.planUpgrade.cpu / last.render.cpu).toFixed(2) : 'n/a';
  const bump = last ? (last.planBump.cpu / last.render.cpu).toFixed(2) : 'n/a';
  return {
    lines,
    summary: `plan-render-ratio=${ratio} plan-upgrade-render-ratio=${upgrade} plan-bump-render-ratio=${bump}`,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const sizes = process.argv.slice(2).map(Number);
  const report = planReport(planBench(sizes.length > 0 ? sizes : undefined));
  console.log([...report.lines, report.summary].join('\n'));
}
