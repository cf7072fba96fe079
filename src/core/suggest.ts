/**
 * "Did you mean …?": the names closest to a mistyped one, for every message that names
 * something not found (variables, classes, Clusters, config fields, commands and options).
 * Deterministic: distance, then code-unit order of the candidate; no locale.
 */

/** Edit distance with adjacent transpositions (optimal string alignment): `mdoe` is one step from `mode`. */
/* eslint-disable @typescript-eslint/no-non-null-assertion -- every index read is within rows of b.length + 1 entries, filled before they are read */
export function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
    }
    [before, previous] = [previous, row];
  }
  return previous[b.length]!;
}
/* eslint-enable @typescript-eslint/no-non-null-assertion */

/**
 * How far a candidate may be from the word: a third of its length, at least 1 and at most 3 (as
 * git and kubectl suggest: a short word must be nearly right, a long one may have a few typos).
 */
const reach = (word: string): number => Math.max(1, Math.min(3, Math.floor(word.length / 3)));

/**
 * The candidates close enough to `word`, closest first (ties in code-unit order), at most
 * `limit`. A candidate that `word` begins (`expl` for `explain`, `v` for `version`) counts as
 * closer than any typo. Repeated candidates count once.
 */
export function closestMatches(word: string, candidates: Iterable<string>, limit: number): string[] {
  const scored: { candidate: string; distance: number }[] = [];
  const most = reach(word);
  for (const candidate of new Set(candidates)) {
    // The distance is at least the difference in length: a hostile 20 MiB word costs nothing.
    const distance =
      word !== '' && candidate.startsWith(word)
        ? 0.5
        : Math.abs(word.length - candidate.length) > most
          ? Infinity
          : editDistance(word, candidate);
    if (distance <= most) scored.push({ candidate, distance });
  }
  scored.sort(
    (x, y) => x.distance - y.distance || (x.candidate < y.candidate ? -1 : x.candidate > y.candidate ? 1 : 0),
  );
  return scored.slice(0, limit).map((s) => s.candidate);
}

/** The one closest candidate, if any is close enough. */
export const closest = (word: string, candidates: Iterable<string>): string | undefined =>
  closestMatches(word, candidates, 1)[0];

/** `did you mean "a"?`, `did you mean "a" or "b"?`, or '' when there is nothing to suggest. */
export function didYouMean(names: readonly string[], quote: (name: string) => string = (n) => `"${n}"`): string {
  if (names.length === 0) return '';
  const shown = names.map(quote);
  return `did you mean ${shown.length === 1 ? shown[0] : `${shown.slice(0, -1).join(', ')} or ${shown[shown.length - 1]}`}?`;
}
