/**
 * `js` and `%q` decide what to escape with Go's unicode.IsPrint, from a table generated from the
 * template oracle (scripts/gotemplate/gen-unicode-print.mjs), not from Node's Unicode version.
 * With the oracle built (.cache/gotmpl-oracle, npm run oracle:gotmpl), every code point is checked
 * against Go itself; without it the goldens of test/golden/gotemplate/fidelity.jsonl still pin the
 * known corners, and oracle-version.test.ts that the table and goldens come from the same Go.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isPrint } from '../../src/gotemplate/fmt.js';
// @ts-expect-error: a plain .mjs script without types
import { printableRanges } from '../../scripts/gotemplate/gen-unicode-print.mjs';
import { gotmplOracle as ORACLE } from '../../scripts/oracle/gotmpl-oracle.mjs';

const haveOracle = existsSync(ORACLE);
if (!haveOracle)
  console.warn(
    `SKIPPED: ${ORACLE} is not built (npm run oracle:gotmpl); isPrint was not compared with Go for every code point`,
  );

describe('isPrint = Go unicode.IsPrint', () => {
  it('ASCII: space to tilde', () => {
    expect([...Array(128).keys()].filter(isPrint)).toEqual([...Array(95).keys()].map((i) => i + 0x20));
  });

  it.skipIf(!haveOracle)('agrees with the oracle on every code point above ASCII (surrogates excluded)', () => {
    const ranges: [number, number][] = printableRanges(ORACLE);
    const go = new Set<number>();
    for (const [a, b] of ranges) for (let cp = a; cp <= b; cp++) go.add(cp);
    const disagree: string[] = [];
    for (let cp = 0x80; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      if (isPrint(cp) !== go.has(cp)) disagree.push(cp.toString(16));
    }
    expect(disagree.slice(0, 20)).toEqual([]);
  });
});
