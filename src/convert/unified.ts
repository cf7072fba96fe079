/**
 * Unified diffs of text files (the dry run of `convert`): Myers' O((N+M)D) line diff, hunks with
 * three lines of context, `--- a/<path>` / `+++ b/<path>` headers as git prints them, so the
 * output applies with `git apply` or `patch -p1`.
 */

type Edit = { kind: 'same' | 'del' | 'add'; line: string };

/** Line `i` of a text: the search and the walk back stay inside both texts. */
function lineAt(lines: readonly string[], i: number): string {
  // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- Myers' walk keeps 0 <= i < lines.length
  return lines[i]!;
}

/** The shortest edit script from `a` to `b` (Myers 1986, greedy forward search with a trace). */
function editScript(a: string[], b: string[]): Edit[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  let v = new Int32Array(2 * max + 3);
  // The furthest x on diagonal k (-max - 1 <= k <= max + 1: inside the array, zero-initialised).
  const xOn = (vd: Int32Array, k: number): number => vd[offset + k] ?? 0;
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice());
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && xOn(v, k - 1) < xOn(v, k + 1)) ? xOn(v, k + 1) : xOn(v, k - 1) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      next[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
    v = next;
  }
  // Walk the trace back from (n, m).
  const edits: Edit[] = [];
  let x = n;
  let y = m;
  for (const [d, vd] of [...trace.entries()].slice(1).reverse()) {
    const k = x - y;
    const down = k === -d || (k !== d && xOn(vd, k - 1) < xOn(vd, k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = xOn(vd, prevK);
    const prevY = prevX - prevK;
    for (; x > prevX && y > prevY; y--) edits.push({ kind: 'same', line: lineAt(a, --x) });
    if (down) edits.push({ kind: 'add', line: lineAt(b, --y) });
    else edits.push({ kind: 'del', line: lineAt(a, --x) });
  }
  for (; x > 0 && y > 0; y--) edits.push({ kind: 'same', line: lineAt(a, --x) });
  return edits.reverse();
}

/** A last line without a newline is marked (a line never contains one), so it differs from the same text with one. */
const UNTERMINATED = '\n';
const NO_NEWLINE = '\\ No newline at end of file';

function lines(text: string): string[] {
  if (text === '') return [];
  const parts = text.split('\n');
  if (text.endsWith('\n')) parts.pop();
  else parts[parts.length - 1] += UNTERMINATED;
  return parts;
}

/** The unified diff of two versions of a file; '' when they are equal. */
export function unifiedDiff(before: string, after: string, path: string, context = 3): string {
  if (before === after) return '';
  const edits = editScript(lines(before), lines(after));
  // Old/new line numbers (1-based) of every edit.
  let ai = 0;
  let bi = 0;
  const numbered = edits.map((e) => {
    const at = { ...e, a: ai, b: bi };
    if (e.kind !== 'add') ai++;
    if (e.kind !== 'del') bi++;
    return at;
  });
  const changed = numbered.map((e, i) => (e.kind === 'same' ? -1 : i)).filter((i) => i >= 0);
  // Changes at most twice the context apart share a hunk: [first, last] change of each.
  const spans: [number, number][] = [];
  for (const i of changed) {
    const span = spans.at(-1);
    if (span && i - span[1] <= 2 * context) span[1] = i;
    else spans.push([i, i]);
  }
  let out = `--- a/${path}\n+++ b/${path}\n`;
  for (const [first, last] of spans) {
    const start = Math.max(0, first - context);
    const stop = Math.min(numbered.length, last + context + 1);
    const hunk = numbered.slice(start, stop);
    const aCount = hunk.filter((e) => e.kind !== 'add').length;
    const bCount = hunk.filter((e) => e.kind !== 'del').length;
    // The hunk starts at the edit numbered `start` (a change is in it).
    const { a: aFrom, b: bFrom } = numbered[start] ?? { a: 0, b: 0 };
    const aStart = aCount === 0 ? aFrom : aFrom + 1;
    const bStart = bCount === 0 ? bFrom : bFrom + 1;
    out += `@@ -${aStart}${aCount === 1 ? '' : `,${aCount}`} +${bStart}${bCount === 1 ? '' : `,${bCount}`} @@\n`;
    for (const e of hunk) {
      const mark = e.kind === 'same' ? ' ' : e.kind === 'del' ? '-' : '+';
      out += e.line.endsWith(UNTERMINATED) ? `${mark}${e.line.slice(0, -1)}\n${NO_NEWLINE}\n` : `${mark}${e.line}\n`;
    }
  }
  return out;
}
