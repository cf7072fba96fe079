/**
 * The few Go `strconv` behaviours the patch engine's error texts and index parsing depend on.
 * CAPI's messages embed `%q`-quoted strings and `strconv.Atoi` errors verbatim, so matching them
 * needs Go's exact rules (sign handling, no underscores, int64 range), not JS `parseInt`.
 * `%q` itself is the template engine's `goQuote` (src/gotemplate/fmt.ts).
 */
import { goQuote } from '../../gotemplate/fmt.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

export type AtoiResult = { ok: true; value: bigint } | { ok: false; error: string };

/**
 * Go `strconv.Atoi` on a 64-bit platform: optional `+`/`-`, then at least one ASCII digit,
 * nothing else; result must fit int64. BigInt keeps huge indexes exact for error messages.
 */
export function goAtoi(s: string): AtoiResult {
  const m = /^[+-]?[0-9]+$/.exec(s);
  if (!m) return { ok: false, error: `strconv.Atoi: parsing ${goQuote(s)}: invalid syntax` };
  const value = BigInt(s.startsWith('+') ? s.slice(1) : s);
  if (value < INT64_MIN || value > INT64_MAX) {
    return { ok: false, error: `strconv.Atoi: parsing ${goQuote(s)}: value out of range` };
  }
  return { ok: true, value };
}
