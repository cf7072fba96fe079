#!/usr/bin/env node
// `render PATH -o DIR` at fleet size, run again: a repository of N Clusters (bench/fleet.mjs, one
// file each) rendered into an empty DIR, then again with nothing changed (every Cluster's files
// reused: pipeline/reuse.ts, cli/outdir.ts), again with one Cluster changed, and again with
// nothing changed but `--no-reuse` (what every re-run cost before reuse). Reports wall time, CPU
// time (user+system: what a machine shared with other jobs distorts least) and peak RSS of each,
// and their CPU ratios to the first render.
//
//   node bench/reuse-o.mjs [N...]      (default 2000 10000; BENCH_KEEP=1 keeps the repositories)
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { CLASS_FILE, clusterName, clusterObject } from './fleet.mjs';
import { timed } from './kpt.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, '..', 'bin', 'render-clusterclass');

function writeRepository(dir, n) {
  mkdirSync(join(dir, 'repo', 'clusters'), { recursive: true });
  writeFileSync(join(dir, 'repo', 'clusterclass.yaml'), readFileSync(CLASS_FILE));
  for (let i = 0; i < n; i++) writeCluster(dir, i, false);
}

function writeCluster(dir, i, edited) {
  const c = clusterObject(i);
  if (edited) c.metadata.labels = { ...c.metadata.labels, 'bench.example.com/edited': 'true' };
  writeFileSync(join(dir, 'repo', 'clusters', `${clusterName(i)}.yaml`), YAML.stringify(c, { lineWidth: 0 }));
}

const render = (dir, ...extra) => timed([process.execPath, bin, 'render', 'repo', '-o', 'out', ...extra], { cwd: dir });

export function reuseOBench(sizes = [2000, 10000], log = (s) => process.stderr.write(`[reuse-o bench] ${s}\n`)) {
  const rows = [];
  for (const n of sizes) {
    const dir = mkdtempSync(join(tmpdir(), `render-clusterclass-reuse-o-${n}-`));
    try {
      writeRepository(dir, n);
      const row = { n };
      // Each run's summary line is checked: a run that reused nothing cannot pass for one that did.
      const step = (name, measure, summary) => {
        const m = measure();
        if (!m.stderr.includes(summary))
          throw new Error(`${n} Clusters, ${name}: expected "${summary}" in ${m.stderr}`);
        row[name] = m;
        log(`${n}: ${name} ${m.wall} s, cpu ${m.cpu.toFixed(1)} s, ${m.rssMiB.toFixed(0)} MiB`);
      };
      step('first', () => render(dir), `${n} written, 0 unchanged`);
      step('unchanged', () => render(dir), `0 written, ${n} unchanged (${n} reused: inputs unchanged)`);
      writeCluster(dir, 0, true);
      step('oneChanged', () => render(dir), `1 written, ${n - 1} unchanged (${n - 1} reused: inputs unchanged)`);
      step('noReuse', () => render(dir, '--no-reuse'), `0 written, ${n} unchanged, `);
      rows.push(row);
    } finally {
      if (process.env.BENCH_KEEP === '1') log(`kept ${dir}`);
      else rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
}

export function reuseOReport(rows) {
  const fmt = (m) =>
    `${m.wall.toFixed(1).padStart(7)} s ${m.cpu.toFixed(1).padStart(7)} s ${m.rssMiB.toFixed(0).padStart(7)}`;
  const lines = [
    '',
    'render -o DIR run again (wall, cpu = user+sys, peak RSS MiB; cpu ratio to the first render):',
    'clusters  run                                   wall       cpu     RSS   ratio',
  ];
  for (const r of rows) {
    const line = (label, m) =>
      `${String(r.n).padStart(8)}  ${label.padEnd(34)} ${fmt(m)}  ${(m.cpu / r.first.cpu).toFixed(2).padStart(6)}`;
    lines.push(
      line('first render (empty DIR)', r.first),
      line('unchanged (every Cluster reused)', r.unchanged),
      line('one Cluster changed', r.oneChanged),
      line('unchanged, --no-reuse', r.noReuse),
    );
  }
  const biggest = rows.at(-1);
  const ratio = (m) => (biggest ? (m.cpu / biggest.first.cpu).toFixed(2) : 'n/a');
  const summary = biggest
    ? `reuse-o-rerender-ratio=${ratio(biggest.unchanged)} reuse-o-one-changed-ratio=${ratio(biggest.oneChanged)} (cpu, ${biggest.n} Clusters)`
    : 'reuse-o-rerender-ratio=n/a';
  return { lines, summary };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const sizes = process.argv.slice(2).map(Number);
  const { lines, summary } = reuseOReport(reuseOBench(sizes.length ? sizes : undefined));
  process.stdout.write(`${[...lines, summary].join('\n')}\n`);
}
