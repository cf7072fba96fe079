#!/usr/bin/env node
// Peak memory and CPU of one render in each shape a fleet comes in (issue 27: "≤ 1 GiB at 10,000
// Clusters in each shape"), at each size:
//   krm-one-class     one ResourceList on stdin (kpt's shape), every Cluster of one class
//   krm-per-class     one ResourceList on stdin, a class per 50 Clusters (200 classes at 10,000)
//   render-o          `render repo -o out` over a directory of one file per Cluster plus the class
// Reports wall time, CPU (user+sys) and peak RSS of each, and how peak RSS grows with size.
//
//   node bench/shapes.mjs [N...]      (default 1000 10000; BENCH_KEEP=1 keeps the inputs)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { fleetFiles, fleetResourceList } from './fleet.mjs';
import { timed } from './kpt.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, '..', 'bin', 'render-clusterclass');
// The 10,000-Cluster ResourceList is over the default 8 MiB input limit (src/krm/read.ts).
const env = { ...process.env, RENDER_CLUSTERCLASS_MAX_INPUT_BYTES: String(1 << 30) };

/** The repository `render -o` reads: the class file and one file per Cluster, as written by hand. */
function writeRepository(dir, n) {
  const byPath = new Map();
  for (const { path, object } of fleetFiles(n)) byPath.set(path, [...(byPath.get(path) ?? []), object]);
  for (const [path, objects] of byPath) {
    mkdirSync(dirname(join(dir, 'repo', path)), { recursive: true });
    writeFileSync(join(dir, 'repo', path), objects.map((o) => YAML.stringify(o, { lineWidth: 0 })).join('---\n'));
  }
}

const SHAPES = [
  {
    name: 'krm-one-class',
    prepare: (dir, n) => writeFileSync(join(dir, 'rl.yaml'), fleetResourceList(n)),
    run: (dir) => timed([process.execPath, bin], { stdin: join(dir, 'rl.yaml'), env }),
  },
  {
    name: 'krm-per-class',
    prepare: (dir, n) => writeFileSync(join(dir, 'rl-classes.yaml'), fleetResourceList(n, {}, { perClass: true })),
    run: (dir) => timed([process.execPath, bin], { stdin: join(dir, 'rl-classes.yaml'), env }),
  },
  {
    name: 'render-o',
    prepare: writeRepository,
    run: (dir) => {
      rmSync(join(dir, 'out'), { recursive: true, force: true });
      return timed([process.execPath, bin, 'render', 'repo', '-o', 'out'], { cwd: dir, env });
    },
  },
];

export function shapesBench(sizes = [1000, 10000], log = (s) => process.stderr.write(`[shapes bench] ${s}\n`)) {
  const rows = [];
  for (const n of sizes) {
    const dir = mkdtempSync(join(tmpdir(), `render-clusterclass-shapes-${n}-`));
    try {
      for (const shape of SHAPES) {
        shape.prepare(dir, n);
        const m = shape.run(dir);
        log(`${n} ${shape.name}: ${m.wall} s, cpu ${m.cpu.toFixed(1)} s, ${m.rssMiB.toFixed(0)} MiB`);
        rows.push({ n, shape: shape.name, ...m });
      }
    } finally {
      if (process.env.BENCH_KEEP === '1') log(`kept ${dir}`);
      else rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
}

export function shapesReport(rows) {
  const lines = [
    '',
    'Peak memory by input shape (one run each; wall, cpu = user+sys, peak RSS MiB):',
    'clusters  shape              wall       cpu     RSS',
  ];
  for (const r of rows)
    lines.push(
      `${String(r.n).padStart(8)}  ${r.shape.padEnd(16)} ${r.wall.toFixed(1).padStart(6)} s ${r.cpu.toFixed(1).padStart(7)} s ${r.rssMiB.toFixed(0).padStart(7)}`,
    );
  const largest = Math.max(...rows.map((r) => r.n));
  const smallest = Math.min(...rows.map((r) => r.n));
  const at = (n, shape) => rows.find((r) => r.n === n && r.shape === shape);
  const parts = SHAPES.map(({ name }) => {
    const big = at(largest, name);
    const small = at(smallest, name);
    const growth = small && big && smallest < largest ? `,${(big.rssMiB / small.rssMiB).toFixed(2)}x` : '';
    return `${name}=${big ? big.rssMiB.toFixed(0) : 'n/a'}${growth}`;
  });
  return {
    lines,
    summary: `shapes-peak-rss-mib(${largest}${smallest < largest ? `,vs ${smallest}` : ''}): ${parts.join(' ')}`,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const sizes = process.argv.slice(2).map(Number);
  const { lines, summary } = shapesReport(shapesBench(sizes.length ? sizes : undefined));
  process.stdout.write(`${[...lines, summary].join('\n')}\n`);
}
