/**
 * Unified diffs of text files (the dry run of `convert`): Myers' O((N+M)D) line diff, hunks with
 * three lines of context, `--- a/<path>` / `+++ b/<path>` headers as git prints them, so the
 * output applies with `git apply` or `patch -p1`.
 */

type Edit = { kind: 'same' | 'del' | 'add'; line: string };

/** The shortest edit script from `a` to `b` (Myers 1986, greedy forward search with a trace). */
function editScript(a: string[], b: string[]): Edit[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice());
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
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
  for (let d = trace.length - 1; d > 0; d--) {
    const vd = trace[d]!;
    const k = x - y;
    const down = k === -d || (k !== d && vd[offset + k - 1]! < vd[offset + k + 1]!);
    const prevK = down ? k + 1 : k - 1;
    const prevX = vd[offset + prevK]!;
    const prevY = prevX - prevK;
    for (; x > prevX && y > prevY; y--) edits.push({ kind: 'same', line: a[--x]! });
    if (down) edits.push({ kind: 'add', line: b[--y]! });
    else edits.push({ kind: 'del', line: a[--x]! });
  }
  for (; x > 0 && y > 0; y--) edits.push({ kind: 'same', line: a[--x]! });
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
  let out = `--- a/${path}\n+++ b/${path}\n`;
  for (let h = 0; h < changed.length; ) {
    const start = Math.max(0, changed[h]! - context);
    let end = changed[h]!;
    while (h < changed.length && changed[h]! - end <= 2 * context) end = changed[h++]!;
    const stop = Math.min(numbered.length, end + context + 1);
    const hunk = numbered.slice(start, stop);
    const aCount = hunk.filter((e) => e.kind !== 'add').length;
    const bCount = hunk.filter((e) => e.kind !== 'del').length;
    const aStart = aCount === 0 ? hunk[0]!.a : hunk[0]!.a + 1;
    const bStart = bCount === 0 ? hunk[0]!.b : hunk[0]!.b + 1;
    out += `@@ -${aStart}${aCount === 1 ? '' : `,${aCount}`} +${bStart}${bCount === 1 ? '' : `,${bCount}`} @@\n`;
    for (const e of hunk) {
      const mark = e.kind === 'same' ? ' ' : e.kind === 'del' ? '-' : '+';
      out += e.line.endsWith(UNTERMINATED) ? `${mark}${e.line.slice(0, -1)}\n${NO_NEWLINE}\n` : `${mark}${e.line}\n`;
    }
  }
  return out;
}
