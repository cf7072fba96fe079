#!/usr/bin/env node
// Long fuzz run over the built function (dist/): `npm run build && node scripts/fuzz/run.mjs`.
// Options: --cases N (default 100000), --seed S (first seed; default a new random one each run, so
// every run explores new inputs — the test suite's sample uses a fixed seed), --workers W (default:
// CPU count), --time-limit SECONDS (stop early, reporting how many cases ran). Case i uses seed S+i,
// so a failure is replayed with `--seed <failing seed> --cases 1 --workers 1`. The run also reports
// its slowest case (wall time, with its seed): time is measured here, not asserted in tests.
// First the hostile shapes of budget.mjs run through the real CLI one at a time (time and peak
// RSS within budget; --no-budget skips them). Prints progress on stderr and a final line
// `fuzz: N cases, 0 invariant violations`, or exits 1 with the failing seed(s) and violations.
import { randomInt } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};

if (isMainThread) {
  const total = arg('cases', 100_000);
  const seed = arg('seed', randomInt(1, 2 ** 31 - total));
  process.stderr.write(`fuzz: ${total} cases from seed ${seed} (replay one with --seed <seed> --cases 1 --workers 1)\n`);
  let slowest = { ms: 0, seed: 0 };
  const workers = Math.max(1, Math.min(arg('workers', availableParallelism()), total));
  const timeLimit = arg('time-limit', Infinity) * 1000;
  let done = 0;
  let lastReport = 0;
  const failures = process.argv.includes('--no-budget') ? [] : (await import('./budget.mjs')).runBudget();
  const start = Date.now();
  const pool = [];
  let finished = 0;
  const stopAll = () => pool.forEach((w) => w.postMessage('stop'));
  await new Promise((resolveAll) => {
    for (let w = 0; w < workers; w++) {
      const worker = new Worker(fileURLToPath(import.meta.url), { workerData: { seed, total, index: w, stride: workers } });
      pool.push(worker);
      worker.on('message', (m) => {
        if (m.type === 'progress') {
          done += m.count;
          if (m.slowest.ms > slowest.ms) slowest = m.slowest;
          if (done - lastReport >= 1000 || done === total) {
            lastReport = done;
            const s = (Date.now() - start) / 1000;
            process.stderr.write(`fuzz: ${done}/${total} cases, ${failures.length} violations, ${(done / s).toFixed(1)} cases/s\n`);
          }
          if (Date.now() - start > timeLimit) stopAll();
        } else if (m.type === 'violation') {
          failures.push(m);
          process.stderr.write(`fuzz: seed ${m.seed}: ${m.violations.join('; ').slice(0, 2000)}\n`);
          if (failures.length >= 10) stopAll();
        }
      });
      worker.on('error', (e) => {
        failures.push({ seed: -1, violations: [`worker crashed: ${e.stack ?? e}`] });
        if (++finished === workers) resolveAll();
      });
      worker.on('exit', () => {
        if (++finished === workers) resolveAll();
      });
    }
  });
  const secs = ((Date.now() - start) / 1000).toFixed(1);
  if (failures.length > 0) {
    console.log(`fuzz: ${done} cases, ${failures.length} invariant violations (${secs} s); failing seeds: ${failures.map((f) => f.seed).join(', ')}`);
    for (const f of failures.filter((x) => String(x.seed).startsWith('budget:'))) console.log(`${f.seed}: ${f.violations.join('; ')}`);
    process.exitCode = 1;
  } else {
    const early = done < total ? ` (stopped by --time-limit after ${secs} s; ${(done / Number(secs)).toFixed(1)} cases/s)` : ` (${secs} s)`;
    console.log(`fuzz: ${done} cases, 0 invariant violations${early}; slowest case ${slowest.ms.toFixed(0)} ms (seed ${slowest.seed})`);
  }
} else {
  const fc = (await import('fast-check')).default;
  const { arbitraries, render, checkInput } = await import('./core.mjs');
  const { runFunction } = await import('../../dist/cli/render.js');
  const { input } = arbitraries(fc);
  const { seed, total, index, stride } = workerData;
  let stop = false;
  parentPort.on('message', (m) => {
    if (m === 'stop') stop = true;
  });
  let pending = 0;
  let slowest = { ms: 0, seed: 0 };
  for (let i = index; i < total && !stop; i += stride) {
    const s = seed + i;
    const [generated] = fc.sample(input, { seed: s, numRuns: 1 });
    const started = performance.now();
    const violations = await checkInput(runFunction, render(generated));
    const ms = performance.now() - started;
    if (ms > slowest.ms) slowest = { ms, seed: s };
    if (violations.length > 0) parentPort.postMessage({ type: 'violation', seed: s, violations });
    if (++pending === 50) {
      parentPort.postMessage({ type: 'progress', count: pending, slowest });
      pending = 0;
      await new Promise((r) => setImmediate(r)); // let a "stop" message in
    }
  }
  if (pending) parentPort.postMessage({ type: 'progress', count: pending, slowest });
  process.exit(0);
}
