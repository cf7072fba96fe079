#!/usr/bin/env node
// `npm run bench`: render time against the YAML I/O floor, cold start, scaling to 10,000 Clusters,
// peak memory and Go-template throughput, side by side in one run. See bench/README.md.
//
// Build first (npm run build, or at least npx tsc -p tsconfig.build.json). Options (env):
//   BENCH_QUICK=1          sizes 1/100/1,000 only, fewer repetitions (a smoke run, ~1 minute)
//   BENCH_RUNS_1000=5      repetitions at 1,000 Clusters (render and floor each)
//   BENCH_RUNS_10000=3     repetitions at 10,000 Clusters
//   BENCH_KEEP=1           keep the temporary directory (inputs, outputs, precomputed floor data)
//   BENCH_RENDERER=bin|dist  force bin/render-clusterclass (bundle) or dist/cli/main.js
//   BENCH_KPT_SIZES=2000,10000  fleet sizes through the real kpt (bench/kpt.mjs); 0 skips it
//   BENCH_REUSE_O_SIZES=2000,10000  fleet sizes of `render -o DIR` run again (bench/reuse-o.mjs); 0 skips it
//   BENCH_SHAPES_SIZES=1000,10000  fleet sizes of the peak-memory shapes (bench/shapes.mjs); 0 skips them
//   BENCH_PLAN_SIZES=2000  fleet sizes of `plan` against one render (bench/plan.mjs); 0 skips it
//   BENCH_HOSTILE=0        skip timing the hostile corpus (bench/hostile.mjs)
//   BENCH_KUSTOMIZE=0      skip kustomize at fleet size (bench/kustomize.mjs; ~30 minutes)
//   BENCH_AB=REV           A/B: build git revision REV in a temporary worktree and run its bin in
//                          turn with this checkout's for the cold start and every render with a
//                          floor (1/100/1,000 Clusters), reporting both and their ratio
// The last line printed is `render-ratio=<x> cold-start-ratio=<y> scaling=<z> peak-rss-mib=<m>
// kpt-rerender-ratio=<k> fn-rerender-ratio=<f> reuse-o-rerender-ratio=<r> plan-render-ratio=<p> hostile-max-wall-s=<h> ...
// kustomize-plugin-exponent=<e> ...`.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { coldFloorCommand } from './cold-floor.mjs';
import { fleetResourceList } from './fleet.mjs';
import { hostileBench, hostileReport } from './hostile.mjs';
import { kptBench, kptReport } from './kpt.mjs';
import { reuseOBench, reuseOReport } from './reuse-o.mjs';
import { shapesBench, shapesReport } from './shapes.mjs';
import { planBench, planReport } from './plan.mjs';
import { kustomizeBench, kustomizeReport } from './kustomize.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const env = process.env;
const QUICK = env.BENCH_QUICK === '1';
const RUNS = {
  coldStart: QUICK ? 5 : 15,
  1: QUICK ? 3 : 7,
  100: QUICK ? 3 : 5,
  1000: Number(env.BENCH_RUNS_1000 ?? (QUICK ? 1 : 5)),
  10000: Number(env.BENCH_RUNS_10000 ?? 3),
};
const SIZES = QUICK ? [1, 100, 1000] : [1, 100, 1000, 10000];
const TIME_BIN = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const startedAt = performance.now();
// The renderer refuses inputs over 8 MiB by default (src/krm/read.ts); the 10,000-Cluster
// ResourceList is ~18 MiB, so the bench raises the limit for its children.
// NODE_EXTRA_CA_CERTS (set on some CI machines) makes every Node process read a CA bundle at start,
// ~120 ms that neither the renderer nor `node -e 0` needs: the children run without it.
const { NODE_EXTRA_CA_CERTS: _caCerts, ...inheritedEnv } = env;
const CHILD_ENV = { ...inheritedEnv, RENDER_CLUSTERCLASS_MAX_INPUT_BYTES: String(1 << 30) };
const loadAtStart = loadavg()[0];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmtMs = (ms) =>
  ms >= 10000 ? `${(ms / 1000).toFixed(1)} s` : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`;
const log = (s) =>
  process.stderr.write(`[bench ${((performance.now() - startedAt) / 1000).toFixed(0).padStart(3)}s] ${s}\n`);

// ---- the renderer under test -------------------------------------------------------------------
function rendererCommand() {
  const bundle = join(root, 'dist', 'render-clusterclass.cjs');
  const viaBin = [process.execPath, join(root, 'bin', 'render-clusterclass')];
  const viaDist = [process.execPath, join(here, 'dist-main.mjs')];
  if (env.BENCH_RENDERER === 'bin') return { cmd: viaBin, label: 'bin/render-clusterclass' };
  if (env.BENCH_RENDERER === 'dist') return { cmd: viaDist, label: 'dist/cli/main.js (unbundled)' };
  if (!existsSync(join(root, 'dist', 'cli', 'main.js'))) {
    throw new Error('dist/ is missing: run `npm run build` (or npx tsc -p tsconfig.build.json) first');
  }
  // The bin runs the esbuild bundle with a V8 code cache when the build made one.
  if (existsSync(bundle)) return { cmd: viaBin, label: 'bin/render-clusterclass (bundle + code cache)' };
  return { cmd: viaDist, label: 'dist/cli/main.js (unbundled: no dist/render-clusterclass.cjs)' };
}

/**
 * The baseline of an A/B run: REV checked out in a worktree under `work` (this checkout's
 * node_modules linked in) and built as `npm run build` does; its bin, like the renderer's.
 */
function baselineCommand(rev, work) {
  const dir = join(work, 'baseline');
  execFileSync('git', ['-C', root, 'worktree', 'add', '--detach', dir, rev], { stdio: 'ignore' });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  execFileSync('npm', ['run', 'build'], { cwd: dir, stdio: 'ignore' });
  const sha = execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD']).toString().trim();
  return {
    cmd: [process.execPath, join(dir, 'bin', 'render-clusterclass')],
    label: `${rev} (${sha})`,
    remove: () => execFileSync('git', ['-C', root, 'worktree', 'remove', '--force', dir]),
  };
}

/**
 * bash's `time` reports the child's user and system CPU to the millisecond (/usr/bin/time rounds
 * to 10 ms, a sixth of `node -e 0`).
 */
const CPU_TIMED = ['bash', '-c', 'TIMEFORMAT="__CPU_S=%3U+%3S"; time "$@"', 'bash'];

/**
 * Runs argv with stdin from a file and stdout to a file; wall time in ms, max RSS in KiB, with
 * `measureCpu` the CPU time (user+sys, every thread) in ms.
 */
function run(argv, { stdin, stdout = '/dev/null', measureRss = false, measureCpu = false }) {
  const inFd = openSync(stdin ?? '/dev/null', 'r');
  const outFd = openSync(stdout, 'w');
  const full = measureCpu
    ? [...CPU_TIMED, ...argv]
    : measureRss && TIME_BIN
      ? [TIME_BIN, '-f', '__RSS_KB=%M', ...argv]
      : argv;
  try {
    const t0 = performance.now();
    const r = spawnSync(full[0], full.slice(1), { stdio: [inFd, outFd, 'pipe'], maxBuffer: 64 << 20, env: CHILD_ENV });
    const ms = performance.now() - t0;
    const stderr = r.stderr?.toString('utf8') ?? '';
    const rss = /__RSS_KB=(\d+)/.exec(stderr);
    const cpu = /__CPU_S=([\d.]+)\+([\d.]+)/.exec(stderr);
    if (r.status !== 0) throw new Error(`${argv.join(' ')} exited ${r.status ?? r.signal}: ${stderr.slice(0, 2000)}`);
    return {
      ms,
      cpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : undefined,
      rssKiB: rss ? Number(rss[1]) : undefined,
      stderr: stderr.replace(/__RSS_KB=\d+\n?/, '').replace(/__CPU_S=\S+\n?/, ''),
    };
  } finally {
    closeSync(inFd);
    closeSync(outFd);
  }
}

/** Peak RSS without /usr/bin/time: a wrapper that runs the renderer in-process and reports maxRSS. */
function rssViaResourceUsage(argv, stdin) {
  const wrapper = `process.on('exit', () => process.stderr.write('__RSS_KB=' + process.resourceUsage().maxRSS + '\\n'));
    process.argv = [process.argv[0], ${JSON.stringify(argv[1])}, ...process.argv.slice(1)];
    await import(${JSON.stringify(pathToFileURL(argv[1]).href)});`;
  return run([process.execPath, '--input-type=module', '-e', wrapper], { stdin }).stderr.match(/__RSS_KB=(\d+)/)?.[1];
}

const sha = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

// ---- main --------------------------------------------------------------------------------------
const renderer = rendererCommand();
const work = mkdtempSync(join(tmpdir(), 'render-clusterclass-bench-'));
const rows = [];
const figures = {};
log(`renderer: ${renderer.label}; work dir ${work}`);
let baseline;

try {
  if (env.BENCH_AB) {
    baseline = baselineCommand(env.BENCH_AB, work);
    log(`A/B baseline: ${baseline.label}`);
  }
  // Inputs: one kpt-shaped ResourceList per fleet size.
  const input = {};
  for (const n of SIZES) {
    input[n] = join(work, `input-${n}.yaml`);
    writeFileSync(input[n], fleetResourceList(n));
    log(`fleet ${n}: ${(statSync(input[n]).size / 1048576).toFixed(1)} MiB input`);
  }

  // Cold start: whole process for the 1-Cluster input vs `node -e 0` and vs the cold floor (the
  // ResourceList read and written, nothing rendered: bench/cold-floor.mjs), interleaved. The target
  // is CPU (user+sys of every thread: V8 compiles and collects garbage on others); wall is reported too.
  const cold = { node: [], render: [], floor: [], baseline: [] };
  const coldRun = (argv, stdin) => run(argv, { stdin, measureCpu: true });
  const coldRendered = join(work, 'cold-rendered.yaml');
  run(renderer.cmd, { stdin: input[1], stdout: coldRendered });
  const coldFloor = await coldFloorCommand(work, input[1], coldRendered);
  run(coldFloor, { stdin: input[1], stdout: join(work, 'cold-floor.yaml') });
  figures.coldFloorIdentical = sha(coldRendered) === sha(join(work, 'cold-floor.yaml'));
  coldRun([process.execPath, '-e', '0']);
  coldRun(renderer.cmd, input[1]);
  if (baseline) coldRun(baseline.cmd, input[1]);
  for (let i = 0; i < RUNS.coldStart; i++) {
    cold.node.push(coldRun([process.execPath, '-e', '0']));
    cold.render.push(coldRun(renderer.cmd, input[1]));
    cold.floor.push(coldRun(coldFloor, input[1]));
    if (baseline) cold.baseline.push(coldRun(baseline.cmd, input[1]));
  }
  const coldFigures = (runs) => ({ cpuMs: median(runs.map((r) => r.cpuMs)), ms: median(runs.map((r) => r.ms)) });
  figures.node = coldFigures(cold.node);
  figures.cold = coldFigures(cold.render);
  figures.coldFloor = coldFigures(cold.floor);
  if (baseline) figures.baselineCold = coldFigures(cold.baseline);
  log(
    `cold start: render ${fmtMs(figures.cold.cpuMs)} CPU, ${fmtMs(figures.cold.ms)} wall; floor ${fmtMs(figures.coldFloor.cpuMs)} CPU; node -e 0 ${fmtMs(figures.node.cpuMs)} CPU, ${fmtMs(figures.node.ms)} wall`,
  );

  // Render vs floor at each size: one reference render (saved, fed to the floor), then render and
  // floor runs interleaved so drift on the noisy machine hits both alike.
  const BUDGET_MS = Number(env.BENCH_BUDGET_S ?? 570) * 1000;
  for (const n of SIZES) {
    // Sizes with a floor: one reference render saved to a file (the floor's precomputed output and
    // the byte-identity check), not counted. Without a floor the first run is an ordinary run.
    const withFloor = n <= 1000;
    const ref = join(work, `rendered-${n}.yaml`);
    const first = run(renderer.cmd, { stdin: input[n], stdout: withFloor ? ref : '/dev/null', measureRss: true });
    const row = {
      n,
      outMiB: undefined,
      render: withFloor ? [] : [first.ms],
      baseline: [],
      floor: [],
      floorPhases: [],
      rss: [first.rssKiB],
    };
    let pre;
    if (withFloor) {
      row.outMiB = statSync(ref).size / 1048576;
      pre = join(work, `floor-${n}.json`);
      run([process.execPath, join(here, 'floor.mjs'), '--prepare', input[n], ref], { stdout: pre });
      const check = join(work, `floor-${n}.yaml`);
      run([process.execPath, join(here, 'floor.mjs'), pre], { stdin: input[n], stdout: check });
      row.identical = sha(check) === sha(ref);
      rmSync(check);
      rmSync(ref);
    }
    log(
      `fleet ${n}: first render ${fmtMs(first.ms)}${withFloor ? `, ${row.outMiB.toFixed(1)} MiB output, floor output ${row.identical ? 'byte-identical' : 'DIFFERS'}` : ''}`,
    );
    let runs = RUNS[n];
    for (let i = row.render.length; i < runs; i++) {
      // Keep the whole bench inside its budget: drop repetitions that would not fit (reported).
      const est = median([first.ms, ...row.render]) * (withFloor ? 1.5 : 1);
      if (i >= 1 && performance.now() - startedAt + est > BUDGET_MS) {
        log(`fleet ${n}: stopping after ${i} runs to stay within ${BUDGET_MS / 1000} s`);
        runs = i;
        break;
      }
      const r = run(renderer.cmd, { stdin: input[n], measureRss: true });
      row.render.push(r.ms);
      row.rss.push(r.rssKiB);
      if (baseline && withFloor) row.baseline.push(run(baseline.cmd, { stdin: input[n] }).ms);
      if (withFloor) {
        const f = run([process.execPath, join(here, 'floor.mjs'), pre], { stdin: input[n] });
        const load = Number(/floor-load-ms=([\d.]+)/.exec(f.stderr)?.[1] ?? 0);
        row.floor.push(f.ms - load);
        row.floorPhases.push(f.stderr.trim().split('\n')[0]);
      }
      log(
        `fleet ${n}: run ${i + 1}/${runs} render ${fmtMs(r.ms)}${withFloor ? ` floor ${fmtMs(row.floor.at(-1))}` : ''}`,
      );
    }
    if (row.rss.some((x) => x === undefined)) row.rss = [Number(rssViaResourceUsage(renderer.cmd, input[n]))];
    rows.push(row);
  }

  // Go-template evaluations per second (bench/gotemplate.mjs when present, else measured here).
  const TPL = '{{ .builtin.cluster.name }}-{{ .builtin.controlPlane.version }}-{{ .region }}';
  let evals;
  if (existsSync(join(here, 'gotemplate.mjs'))) {
    const g = await import('./gotemplate.mjs');
    const samples = [1, 2, 3].map(() =>
      g.measureEvalsPerSecond(g.TEMPLATES?.['three-actions'] ?? TPL, g.DATA, { durationMs: 1000 }),
    );
    evals = { value: median(samples), source: 'bench/gotemplate.mjs measureEvalsPerSecond' };
  } else {
    const { parseTemplate, executeTemplate } = await import('../dist/gotemplate/index.js');
    const parsed = parseTemplate(TPL, { name: 'tpl', functions: 'sprig-hermetic' });
    if (!parsed.ok) throw new Error(parsed.error);
    const data = {
      builtin: { cluster: { name: 'my-cluster' }, controlPlane: { version: 'v1.34.2' } },
      region: 'eu-west-1',
    };
    for (let i = 0; i < 5000; i++) executeTemplate(parsed.template, data);
    const samples = [1, 2, 3].map(() => {
      let k = 0;
      const t0 = performance.now();
      while (performance.now() - t0 < 1000) for (let i = 0; i < 1000; i++, k++) executeTemplate(parsed.template, data);
      return Math.round(k / ((performance.now() - t0) / 1000));
    });
    evals = { value: median(samples), source: 'dist/gotemplate (measured by bench/run.mjs)' };
  }
  figures.evals = evals;

  // ---- report --------------------------------------------------------------------------------
  const byN = Object.fromEntries(rows.map((r) => [r.n, r]));
  const med = (r) => median(r.render);
  const ratio = (r) => (r.floor.length ? med(r) / median(r.floor) : undefined);
  const out = [];
  const f2 = (v) => (v === undefined ? 'n/a' : v.toFixed(2));
  out.push('');
  out.push(
    `render-clusterclass bench — node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model?.trim() ?? '?'}), renderer: ${renderer.label}`,
  );
  out.push(
    `load average (1 min): ${loadAtStart.toFixed(2)} at start, ${loadavg()[0].toFixed(2)} at end — above ~1 other processes shared the 2 cores`,
  );
  out.push('');
  out.push('clusters  runs  output MiB  render (median)  floor (median)  ratio  ms/cluster  peak RSS MiB');
  for (const r of rows) {
    const fl = r.floor.length ? fmtMs(median(r.floor)) : '—';
    const rt = ratio(r);
    const rss = Math.max(...r.rss.filter((x) => x !== undefined)) / 1024;
    out.push(
      `${String(r.n).padStart(8)}  ${String(r.render.length).padStart(4)}  ${(r.outMiB === undefined ? '—' : r.outMiB.toFixed(1)).padStart(10)}  ${fmtMs(med(r)).padStart(15)}  ${fl.padStart(14)}  ${rt ? rt.toFixed(2).padStart(5) : '    —'}  ${(med(r) / r.n).toFixed(2).padStart(10)}  ${rss.toFixed(0).padStart(12)}`,
    );
  }
  const floorNote = rows
    .filter((r) => r.identical !== undefined)
    .map((r) => `${r.n}: ${r.identical ? 'identical' : 'DIFFERS'}`)
    .join(', ');
  out.push(`floor output vs render output (bytes): ${floorNote}`);
  const p1000 = byN[1000]?.floorPhases?.[0];
  if (p1000) out.push(`floor phases at 1,000 (ms, first run): ${p1000.replace('floor-phases ', '')}`);
  out.push('');
  const coldRatio = figures.cold.cpuMs / figures.node.cpuMs;
  out.push(
    `cold start (1 Cluster, whole process, median of ${RUNS.coldStart}): CPU ${fmtMs(figures.cold.cpuMs)} vs node -e 0 ${fmtMs(figures.node.cpuMs)} (${f2(coldRatio)}); wall ${fmtMs(figures.cold.ms)} vs ${fmtMs(figures.node.ms)} (${f2(figures.cold.ms / figures.node.ms)})`,
  );
  const coldFloorRatio = figures.coldFloor.cpuMs / figures.node.cpuMs;
  out.push(
    `cold-start floor (the same ResourceList read and written with \`yaml\`, nothing rendered; output ${figures.coldFloorIdentical ? 'byte-identical' : 'DIFFERS'}): CPU ${fmtMs(figures.coldFloor.cpuMs)} (${f2(coldFloorRatio)} of node -e 0); render / floor ${f2(figures.cold.cpuMs / figures.coldFloor.cpuMs)}`,
  );
  if (baseline) {
    out.push(`A/B against ${baseline.label}, run in turn (baseline / this checkout, median; ratio this/baseline):`);
    const b = figures.baselineCold;
    out.push(
      `  cold start CPU: ${fmtMs(b.cpuMs)} / ${fmtMs(figures.cold.cpuMs)} (${f2(figures.cold.cpuMs / b.cpuMs)}); wall ${fmtMs(b.ms)} / ${fmtMs(figures.cold.ms)} (${f2(figures.cold.ms / b.ms)})`,
    );
    for (const r of rows.filter((row) => row.baseline.length)) {
      const floor = median(r.floor);
      out.push(
        `  render @${r.n}: ${fmtMs(median(r.baseline))} / ${fmtMs(med(r))} (${(med(r) / median(r.baseline)).toFixed(2)}); render/floor ${(median(r.baseline) / floor).toFixed(2)} / ${(med(r) / floor).toFixed(2)}`,
      );
    }
  }
  out.push(`go-template evals/s ('${TPL}'): ${evals.value.toLocaleString('en-US')} (${evals.source})`);
  const renderRatio = ratio(byN[1000]);
  const scaling = byN[10000] ? med(byN[10000]) / med(byN[1000]) : undefined;
  const peakMiB = byN[10000] ? Math.max(...byN[10000].rss) / 1024 : undefined;
  const target = (name, v, max) =>
    `${name.padEnd(26)} ${v === undefined ? 'n/a' : v.toFixed(2).padStart(8)}  target <= ${max}  ${v === undefined ? 'NOT MEASURED' : v <= max ? 'met' : 'NOT MET'}`;
  out.push('');
  out.push('targets:');
  out.push(target('render ratio @1,000', renderRatio, 1.3));
  out.push(target('cold-start ratio (CPU)', coldRatio, 2));
  out.push(target('  its floor (CPU)', coldFloorRatio, 2));
  out.push(target('scaling 10,000/1,000', scaling, 10.5));
  out.push(target('peak RSS MiB @10,000', peakMiB, 1024));
  out.push(`gotemplate-evals-per-second=${evals.value}`);
  // kpt at fleet size and the hostile corpus's times (run last: the 10,000-Cluster kpt case is the heaviest).
  /** Fleet sizes from a comma-separated setting (`0` runs none), or the defaults. */
  const sizes = (setting, quick, full) =>
    (setting ?? (QUICK ? quick : full))
      .split(',')
      .map(Number)
      .filter((n) => n > 0);
  /** A part run at the given sizes, or its summary saying it was not. */
  const atSizes = (list, runPart, skipped) => (list.length > 0 ? runPart(list) : { lines: [], summary: skipped });
  const kpt = atSizes(
    sizes(env.BENCH_KPT_SIZES, '200', '2000,10000'),
    (list) => kptReport(kptBench(list, log)),
    'kpt-rerender-ratio=n/a',
  );
  const reuseO = atSizes(
    sizes(env.BENCH_REUSE_O_SIZES, '200', '2000,10000'),
    (list) => reuseOReport(reuseOBench(list, log)),
    'reuse-o-rerender-ratio=n/a',
  );
  const shapes = atSizes(
    sizes(env.BENCH_SHAPES_SIZES, '1000', '1000,10000'),
    (list) => shapesReport(shapesBench(list, log)),
    'shapes-peak-rss-mib=n/a',
  );
  const plan = atSizes(
    sizes(env.BENCH_PLAN_SIZES, '200', '2000'),
    (list) => planReport(planBench(list, log)),
    'plan-render-ratio=n/a',
  );
  const hostile =
    env.BENCH_HOSTILE === '0' ? { lines: [], summary: 'hostile-max-wall-s=n/a' } : hostileReport(hostileBench(log));
  const kustomize =
    env.BENCH_KUSTOMIZE === '0'
      ? { lines: [], summary: 'kustomize-plugin-exponent=n/a' }
      : kustomizeReport(kustomizeBench(QUICK ? { plugin: [100, 200], rendered: [200], render: [] } : undefined, log));
  out.push(
    ...kpt.lines,
    ...reuseO.lines,
    ...shapes.lines,
    ...plan.lines,
    ...hostile.lines,
    ...kustomize.lines,
    '',
    `(bench wall time ${((performance.now() - startedAt) / 1000).toFixed(0)} s)`,
  );
  out.push(
    `render-ratio=${f2(renderRatio)} cold-start-ratio=${f2(coldRatio)} cold-floor-ratio=${f2(coldFloorRatio)} scaling=${f2(scaling)} peak-rss-mib=${peakMiB === undefined ? 'n/a' : peakMiB.toFixed(0)} ${kpt.summary} ${reuseO.summary} ${shapes.summary} ${plan.summary} ${hostile.summary} ${kustomize.summary}`,
  );
  process.stdout.write(out.join('\n') + '\n');
} finally {
  baseline?.remove();
  if (env.BENCH_KEEP === '1') log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
