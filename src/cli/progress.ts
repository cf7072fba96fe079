/**
 * What a person at a terminal sees while a render runs and when it ends: a progress line once the
 * work takes more than a second, and a one-line summary. Neither is ever written to a pipe or a
 * file (CI logs and kpt read stderr), nor without a clock (tests).
 */
import type { CliIO } from './io.js';
import type { Result } from '../core/result.js';

const SHOW_AFTER_MS = 1000;
const EVERY_MS = 100;

export interface Progress {
  tick: (done: number, total: number) => void;
  /** Clears the progress line, if one was shown. */
  end(): void;
}

export function progress(io: CliIO, label: string): Progress {
  const now = io.now;
  if (!now || !io.tty?.stderr) return { tick: () => undefined, end: () => undefined };
  let shownAt: number | undefined;
  return {
    tick(done, total) {
      const t = now();
      if (t < SHOW_AFTER_MS || (shownAt !== undefined && t - shownAt < EVERY_MS)) return;
      shownAt = t;
      io.stderr(`\r\x1b[K${label} ${done}/${total}…`);
    },
    end() {
      if (shownAt !== undefined) io.stderr('\r\x1b[K');
    },
  };
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `<head>: 1 error, 2 warnings in 0.84 s` (the time only with a clock). */
export function summaryLine(head: string, results: readonly Result[], io: CliIO): string {
  const count = (s: Result['severity']) => results.filter((r) => r.severity === s).length;
  const time = io.now ? ` in ${(io.now() / 1000).toFixed(2)} s` : '';
  return `${head}: ${plural(count('error'), 'error')}, ${plural(count('warning'), 'warning')}${time}\n`;
}
