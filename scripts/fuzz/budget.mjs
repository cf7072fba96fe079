// The resource budget of hostile shapes (issue #13): each shape runs through the real CLI
// (bin/render-clusterclass, built) on its own, under /usr/bin/time, and must keep the KRM contract
// (core.mjs contractProblems) within 10 s and 1 GiB of peak RSS on this machine. The time budget
// is CPU time (user + system): the machine is shared by other jobs, and wall time there measures
// the queue for the two cores as much as the work (both are printed).
// `npm run fuzz` runs it before the random cases; `node scripts/fuzz/budget.mjs` runs it alone.
// Shapes are the generators of test/hostile/huge.mjs. Prints one line per shape and returns the
// violations.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contractProblems, listItems } from './core.mjs';
import { generators } from '../../test/hostile/huge.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TIME = '/usr/bin/time';
const MAX_MS = 10_000;
const MAX_RSS_KIB = 1024 * 1024;

/** Shape → the exit code it must give (the contract decides the rest). */
export const SHAPES = {
  re2Patterns: 1, // RE2 pattern, items.pattern, additionalProperties.pattern over 200 values of 5,000 characters
  inlinePatches10k: 1, // refused by the CRD's cap
  jsonPatches10k: 1,
  templateDoubling: 1, // the value budget stops toJson
  deepBlockNextToBase: 1, // 2,000 levels of block mapping: one clean line
  aliases100k: 0, // harmless aliasing is not refused
  aliasBomb: 1, // an error result for its item
  functionConfig20m: 3,
  functionConfig20kKeys: 3,
  items10kJson: 0, // JSON in, 10,000 pass-through items
  items10k: 0,
};

export function runBudget(log = (line) => process.stderr.write(`${line}\n`)) {
  if (!existsSync(join(root, 'dist', 'render-clusterclass.cjs')))
    throw new Error('dist/ is missing: run `npm run build` first');
  const measured = existsSync(TIME);
  if (!measured) log(`budget: SKIPPED peak RSS and CPU time (${TIME} not found; wall time instead)`);
  const dir = mkdtempSync(join(tmpdir(), 'rcc-budget-'));
  const violations = [];
  log(
    `budget: ${Object.keys(SHAPES).length} hostile shapes, one at a time; load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores`,
  );
  try {
    for (const [shape, exit] of Object.entries(SHAPES)) {
      const input = generators[shape]();
      const rssFile = join(dir, 'rss');
      const argv = [process.execPath, join(root, 'bin', 'render-clusterclass')];
      const start = performance.now();
      const r = spawnSync(
        measured ? TIME : argv[0],
        measured ? ['-f', '%M %U %S', '-o', rssFile, ...argv] : argv.slice(1),
        {
          input,
          maxBuffer: 1 << 30,
          env: { ...process.env, NODE_OPTIONS: '' },
        },
      );
      const wallMs = performance.now() - start;
      const [rssKiB, user, system] = measured
        ? readFileSync(rssFile, 'utf8').trim().split('\n').pop().split(' ').map(Number)
        : [];
      const ms = measured ? (user + system) * 1000 : wallMs;
      const [stdout, stderr] = [r.stdout.toString('utf8'), r.stderr.toString('utf8')];
      const problems = contractProblems(r.status, stdout, stderr, stdout === '' ? undefined : listItems(input));
      if (r.status !== exit) problems.push(`exit ${r.status}, expected ${exit}: ${stderr.slice(0, 300)}`);
      if (ms > MAX_MS)
        problems.push(`${(ms / 1000).toFixed(1)} s ${measured ? 'CPU' : 'wall'}, the budget is ${MAX_MS / 1000} s`);
      if (rssKiB !== undefined && rssKiB > MAX_RSS_KIB)
        problems.push(`${(rssKiB / 1024).toFixed(0)} MiB peak RSS, the budget is 1 GiB`);
      const seconds = (t) => `${(t / 1000).toFixed(2).padStart(6)} s`;
      const figures = `${(input.length / 1048576).toFixed(1).padStart(5)} MiB in  ${measured ? `${seconds(ms)} CPU` : '   n/a CPU'}  ${seconds(wallMs)} wall  ${rssKiB === undefined ? '   n/a' : String(Math.round(rssKiB / 1024)).padStart(6)} MiB RSS  exit ${r.status}`;
      log(
        `budget: ${shape.padEnd(22)} ${figures}${problems.length ? `  VIOLATION: ${problems.join('; ').slice(0, 500)}` : ''}`,
      );
      if (problems.length > 0) violations.push({ seed: `budget:${shape}`, violations: problems });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return violations;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const violations = runBudget();
  console.log(`budget: ${Object.keys(SHAPES).length} shapes, ${violations.length} violations`);
  if (violations.length > 0) process.exitCode = 1;
}
