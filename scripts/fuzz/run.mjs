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
//
// --model: the model-based campaign of issue 23 instead (scripts/fuzz/model.mjs): --sequences N
// (default 2000) seeded sequences of repository and DIR operations, each step through the real
// CLI, from --seed S (default random; sequence i uses seed S+i, so one is replayed with
// `--model --seed <seed> --sequences 1 --workers 1`), at most --max-commands C (default 10) each,
// on --workers W (default: CPU count). Ends with the figures and `model: … 0 violations`, or each violation with its steps.
import { randomInt } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};

const modelMode = isMainThread ? process.argv.includes('--model') : workerData.model === true;

if (modelMode) await (isMainThread ? modelCampaign() : modelWorker());
else if (isMainThread) {
  const total = arg('cases', 100_000);
  const seed = arg('seed', randomInt(1, 2 ** 31 - total));
  process.stderr.write(
    `fuzz: ${total} cases from seed ${seed} (replay one with --seed <seed> --cases 1 --workers 1)\n`,
  );
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
      const worker = new Worker(fileURLToPath(import.meta.url), {
        workerData: { seed, total, index: w, stride: workers },
      });
      pool.push(worker);
      worker.on('message', (m) => {
        if (m.type === 'progress') {
          done += m.count;
          if (m.slowest.ms > slowest.ms) slowest = m.slowest;
          if (done - lastReport >= 1000 || done === total) {
            lastReport = done;
            const s = (Date.now() - start) / 1000;
            process.stderr.write(
              `fuzz: ${done}/${total} cases, ${failures.length} violations, ${(done / s).toFixed(1)} cases/s\n`,
            );
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
    console.log(
      `fuzz: ${done} cases, ${failures.length} invariant violations (${secs} s); failing seeds: ${failures.map((f) => f.seed).join(', ')}`,
    );
    for (const f of failures.filter((x) => String(x.seed).startsWith('budget:')))
      console.log(`${f.seed}: ${f.violations.join('; ')}`);
    process.exitCode = 1;
  } else {
    const early =
      done < total
        ? ` (stopped by --time-limit after ${secs} s; ${(done / Number(secs)).toFixed(1)} cases/s)`
        : ` (${secs} s)`;
    console.log(
      `fuzz: ${done} cases, 0 invariant violations${early}; slowest case ${slowest.ms.toFixed(0)} ms (seed ${slowest.seed})`,
    );
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

/** --model, main thread: shares sequences among workers, prints progress, the figures and every violation. */
async function modelCampaign() {
  const { summary, newStats } = await import('./model.mjs');
  const sequences = arg('sequences', 2000);
  const seed = arg('seed', randomInt(1, 2 ** 31 - sequences));
  const workers = Math.max(1, Math.min(arg('workers', availableParallelism()), sequences));
  const options = { maxCommands: arg('max-commands', 10) };
  process.stderr.write(
    `model: ${sequences} sequences from seed ${seed} on ${workers} workers (replay one with --model --seed <seed> --sequences 1 --workers 1)\n`,
  );
  const stats = newStats();
  const start = Date.now();
  await Promise.all(
    Array.from({ length: workers }, (_, index) => {
      const worker = new Worker(fileURLToPath(import.meta.url), {
        workerData: { model: true, seed, sequences, index, stride: workers, options },
      });
      return new Promise((resolve) => {
        worker.on('message', (m) => {
          if (m.type === 'violation')
            process.stderr.write(
              `model: seed ${m.violation.seed}: VIOLATION\n  ${m.violation.steps.join('\n  ')}\n  ${m.violation.message}\n`,
            );
          if (m.type !== 'done') return;
          for (const key of [
            'sequences',
            'steps',
            'runs',
            'kills',
            'killsLanded',
            'refusals',
            'linkRefusals',
            'freshRenders',
          ])
            stats[key] += m.stats[key];
          stats.violations.push(...m.stats.violations);
          for (const [k, n] of m.stats.kinds) stats.kinds.set(k, (stats.kinds.get(k) ?? 0) + n);
        });
        worker.on(
          'message',
          (m) =>
            m.type === 'progress' &&
            process.stderr.write(
              `model: worker ${index}: ${m.done} sequences, ${m.violations} violations, ${((Date.now() - start) / 1000).toFixed(0)} s\n`,
            ),
        );
        worker.on('error', (e) => {
          stats.violations.push({ seed: -1, steps: [], message: `worker crashed: ${e.stack ?? e}` });
          resolve();
        });
        worker.on('exit', resolve);
      });
    }),
  );
  console.log(summary(stats, seed, Date.now() - start));
  for (const v of stats.violations)
    console.log(`violation, seed ${v.seed}:\n  ${v.steps.join('\n  ')}\n  ${v.message}`);
  process.exitCode = stats.violations.length === 0 ? 0 : 1;
}

/** --model, a worker: sequences seed+index, seed+index+stride, … */
async function modelWorker() {
  const fc = (await import('fast-check')).default;
  const { runSequence, newStats, freshRenderer } = await import('./model.mjs');
  const { seed, sequences, index, stride, options } = workerData;
  const stats = newStats();
  const fresh = freshRenderer(stats);
  for (let i = index; i < sequences; i += stride) {
    const found = stats.violations.length;
    await runSequence(fc, seed + i, { ...options, stats, fresh });
    for (const violation of stats.violations.slice(found)) parentPort.postMessage({ type: 'violation', violation });
    if (stats.sequences % 50 === 0)
      parentPort.postMessage({ type: 'progress', done: stats.sequences, violations: stats.violations.length });
  }
  parentPort.postMessage({ type: 'done', stats });
}
