/** A small, strict argument parser: `--flag value`, `--flag=value`, `-o value`, repeatable lists. */
export interface ArgSpec {
  flags: Record<string, 'string' | 'boolean' | 'list'>;
}

export type ParsedArgs =
  | { ok: true; positional: string[]; flags: Record<string, string | boolean | string[]> }
  | { ok: false; message: string };

/** Edit distance with adjacent transpositions (optimal string alignment), for "did you mean". */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i]!;
      row[j] = Math.min(d[i - 1]![j]! + 1, row[j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** The closest candidate to a mistyped word (as git and kubectl suggest), if one is close enough. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = c.startsWith(word) && word.length >= 2 ? 0.5 : distance(word, c);
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return bestDistance <= Math.max(1, Math.min(3, Math.floor(word.length / 3))) ? best : undefined;
}

const spelling = (name: string) => (name.length === 1 ? `-${name}` : `--${name}`);

export function parseArgs(args: readonly string[], spec: ArgSpec): ParsedArgs {
  const positional: string[] = [];
  const flags = Object.create(null) as Record<string, string | boolean | string[]>;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positional.push(arg);
      continue;
    }
    const body = arg.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = eq >= 0 ? body.slice(0, eq) : body;
    const typed = eq >= 0 ? arg.slice(0, arg.indexOf('=')) : arg;
    const type = Object.prototype.hasOwnProperty.call(spec.flags, name) ? spec.flags[name] : undefined;
    if (!type) {
      const guess = closest(name, Object.keys(spec.flags).filter((f) => f.length > 1));
      return { ok: false, message: `unknown option ${typed}${guess ? `; did you mean ${spelling(guess)}?` : ''}` };
    }
    if (type === 'boolean') {
      flags[name] = eq >= 0 ? body.slice(eq + 1) !== 'false' : true;
      continue;
    }
    const value: string | undefined = eq >= 0 ? body.slice(eq + 1) : args[++i];
    if (value === undefined) return { ok: false, message: `option ${typed} needs a value` };
    if (type === 'list') flags[name] = [...((flags[name] as string[] | undefined) ?? []), value];
    else flags[name] = value;
  }
  return { ok: true, positional, flags };
}
