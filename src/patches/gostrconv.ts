/**
 * The few Go `strconv` behaviours the patch engine's error texts and index parsing depend on.
 * CAPI's messages embed `%q`-quoted strings and `strconv.Atoi` errors verbatim, so matching them
 * needs Go's exact rules (sign handling, no underscores, int64 range), not JS `parseInt`.
 */

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

/** Characters Go's `unicode.IsPrint` rejects (other than ASCII space): categories C and Z. */
const NON_PRINTABLE = /[\p{C}\p{Z}]/u;

/** Go `strconv.Quote` (what `%q` prints for a string), close enough for messages. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    switch (ch) {
      case '\x07': out += '\\a'; continue;
      case '\b': out += '\\b'; continue;
      case '\f': out += '\\f'; continue;
      case '\n': out += '\\n'; continue;
      case '\r': out += '\\r'; continue;
      case '\t': out += '\\t'; continue;
      case '\v': out += '\\v'; continue;
      case '\\': out += '\\\\'; continue;
      case '"': out += '\\"'; continue;
    }
    if (ch !== ' ' && NON_PRINTABLE.test(ch)) {
      const cp = ch.codePointAt(0)!;
      if (cp < 0x80) out += `\\x${cp.toString(16).padStart(2, '0')}`;
      else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, '0')}`;
      else out += `\\U${cp.toString(16).padStart(8, '0')}`;
      continue;
    }
    out += ch;
  }
  return out + '"';
}
