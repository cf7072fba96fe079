#!/usr/bin/env node
// Time and memory of the hostile corpus (test/hostile/cases.json) through the built CLI, against
// the targets of the security issue: every case under 10 s and 1.5 GiB. The test suite checks the
// behaviour and the memory bound of each case; wall time is measured here, where a loaded machine
// shows up as a slower figure instead of a failing test.
//
//   node bench/hostile.mjs        (prints the slowest cases and a summary line)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generators } from '../test/hostile/huge.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const corpus = join(here, '..', 'test', 'hostile');
const bin = join(here, '..', 'bin', 'render-clusterclass');
const TIME = '/usr/bin/time';
export const TARGETS = { wallS: 10, rssMiB: 1536 };

function measure(args, stdin, env) {
  const argv = existsSync(TIME)
    ? [TIME, '-f', '__TIME %e %M', process.execPath, bin, ...args]
    : [process.execPath, bin, ...args];
  const started = performance.now();
  const r = spawnSync(argv[0], argv.slice(1), {
    input: stdin,
    env: { ...process.env, NODE_OPTIONS: '', ...env },
    maxBuffer: 1 << 30,
  });
  const m = /__TIME ([\d.]+) (\d+)/.exec(r.stderr?.toString() ?? '');
  return {
    wallS: m ? Number(m[1]) : (performance.now() - started) / 1000,
    rssMiB: m ? Number(m[2]) / 1024 : undefined,
  };
}

export function hostileBench(log = (s) => process.stderr.write(`[hostile bench] ${s}\n`)) {
  const cases = JSON.parse(readFileSync(join(corpus, 'cases.json'), 'utf8'));
  const work = mkdtempSync(join(tmpdir(), 'rcc-hostile-bench-'));
  const runs = [];
  try {
    for (const c of cases) {
      const text = c.generator ? generators[c.generator]() : readFileSync(join(corpus, c.file));
      let m;
      if (c.kind === 'krm') m = measure([], text, c.env);
      else {
        const file = join(work, `${c.id}.yaml`);
        writeFileSync(file, text);
        m = measure(['render', file, '--format', 'resourcelist'], '', c.env);
      }
      runs.push({ id: c.id, ...m });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  runs.sort((a, b) => b.wallS - a.wallS);
  const over = runs.filter((r) => r.wallS > TARGETS.wallS || (r.rssMiB ?? 0) > TARGETS.rssMiB);
  log(`${runs.length} cases, slowest ${runs[0]?.id} ${runs[0]?.wallS.toFixed(1)} s`);
  return { runs, over };
}

export function hostileReport({ runs, over }) {
  const lines = [
    '',
    `hostile corpus (${runs.length} cases, one run each; load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores): slowest five`,
  ];
  for (const r of runs.slice(0, 5))
    lines.push(
      `  ${r.id.padEnd(48)} ${r.wallS.toFixed(1).padStart(6)} s ${r.rssMiB === undefined ? '' : `${r.rssMiB.toFixed(0).padStart(6)} MiB`}`,
    );
  const maxRss = Math.max(0, ...runs.map((r) => r.rssMiB ?? 0));
  lines.push(
    `  over ${TARGETS.wallS} s or ${TARGETS.rssMiB} MiB: ${over.length === 0 ? 'none' : over.map((r) => r.id).join(', ')}`,
  );
  return {
    lines,
    summary: `hostile-max-wall-s=${runs[0]?.wallS.toFixed(1) ?? 'n/a'} hostile-max-rss-mib=${maxRss.toFixed(0)} hostile-over-target=${over.length}`,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const report = hostileReport(hostileBench());
  process.stdout.write(`${report.lines.join('\n')}\n${report.summary}\n`);
}
