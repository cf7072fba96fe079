/**
 * Go time.Duration parsing and printing: v1beta1 APIs carry durations as strings (`2m30s`),
 * v1beta2 as whole seconds; contract-v1beta1 control planes get Go's `Duration.String()` form.
 */
const UNIT_NS: Record<string, number> = {
  ns: 1,
  us: 1e3,
  µs: 1e3,
  μs: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

/** Parses a Go duration string into nanoseconds; undefined when invalid. */
export function parseGoDuration(text: string): number | undefined {
  let s = text;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') return undefined;
  let total = 0;
  const re = /^(\d*\.?\d*)(ns|us|\u00b5s|\u03bcs|ms|s|m|h)/;
  while (s.length > 0) {
    const [whole, amount, unit] = re.exec(s) ?? [];
    const unitNs = unit === undefined ? undefined : UNIT_NS[unit];
    if (whole === undefined || amount === '' || amount === '.' || unitNs === undefined) return undefined;
    total += Number(amount) * unitNs;
    s = s.slice(whole.length);
  }
  return sign * total;
}

const MAX_INT32 = 2 ** 31 - 1;

/** v1beta1 → v1beta2 conversion: seconds truncated toward zero, capped at int32 max. */
export function durationToSeconds(text: string): number | undefined {
  const ns = parseGoDuration(text);
  if (ns === undefined) return undefined;
  return Math.min(Math.trunc(ns / 1e9), MAX_INT32);
}

/** Go's time.Duration.String() for a whole number of seconds: 90 → `1m30s`, 0 → `0s`. */
export function formatGoDuration(seconds: number): string {
  if (seconds === 0) return '0s';
  const neg = seconds < 0;
  let rest = Math.abs(seconds);
  const h = Math.floor(rest / 3600);
  rest -= h * 3600;
  const m = Math.floor(rest / 60);
  const s = rest - m * 60;
  let out = `${s}s`;
  if (h > 0 || m > 0) out = `${m}m${out}`;
  if (h > 0) out = `${h}h${out}`;
  return neg ? `-${out}` : out;
}
