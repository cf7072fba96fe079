/** The progress line and summary a person at a terminal sees (cli/progress.ts), with a fake clock. */
import { describe, expect, it } from 'vitest';
import { progress, summaryLine } from '../../src/cli/progress.js';
import type { Result } from '../../src/core/result.js';
import { fakeIO } from '../helpers/io.js';

function terminal(times: number[]) {
  const io = fakeIO();
  let i = 0;
  return Object.assign(io, {
    tty: { stdin: true, stdout: true, stderr: true },
    now: () => times[Math.min(i++, times.length - 1)]!,
  });
}

describe('progress on a terminal', () => {
  it('shows nothing during the first second, then at most every 100 ms, and clears its line', () => {
    const io = terminal([200, 900, 1000, 1050, 1200]);
    const p = progress(io, 'rendering Clusters');
    for (let done = 0; done < 5; done++) p.tick(done, 5);
    p.end();
    expect(io.err).toBe('\r\x1b[Krendering Clusters 2/5…\r\x1b[Krendering Clusters 4/5…\r\x1b[K');
  });

  it('never writes to a pipe, nor without a clock', () => {
    const pipe = Object.assign(fakeIO(), { now: () => 5000 });
    const noClock = Object.assign(fakeIO(), { tty: { stdin: true, stdout: true, stderr: true } });
    for (const io of [pipe, noClock]) {
      const p = progress(io, 'x');
      p.tick(1, 2);
      p.end();
      expect(io.err).toBe('');
    }
  });

  it('summarises errors and warnings, with the time when there is a clock', () => {
    const results: Result[] = [
      { severity: 'warning', message: 'w' },
      { severity: 'error', message: 'e' },
      { severity: 'warning', message: 'w' },
      { severity: 'info', message: 'i' },
    ];
    expect(summaryLine('rendered 3 of 4 Clusters', results, Object.assign(fakeIO(), { now: () => 1234 }))).toBe(
      'rendered 3 of 4 Clusters: 1 error, 2 warnings in 1.23 s\n',
    );
    expect(summaryLine('validated 1 Cluster', [], fakeIO())).toBe('validated 1 Cluster: 0 errors, 0 warnings\n');
  });
});
