/**
 * `.krmignore`, as kpt reads it (kyaml's `ignoreFilesMatcher` over monochromegane/go-gitignore):
 *
 * - one file at the top of the package and at the top of each subpackage (a directory with a
 *   Kptfile); each covers only its own package's files (a parent's pattern can still ignore a
 *   whole subpackage directory: kpt does, whatever kyaml's comment says);
 * - a line is a pattern (spaces trimmed; empty lines and `#` comments skipped); `!` makes it an
 *   exception, and an exception wins over every ignore pattern, wherever it is in the file;
 * - `/x` is anchored at the package top and matches a path of exactly its components; `x/y`
 *   without a leading slash matches the last components of a path at any depth (so `sub/a.yaml`
 *   matches `x/sub/a.yaml` too, unlike git); a trailing `/` matches directories only;
 * - `*`, `?` and `[...]` never cross a `/`; `**` is one component like `*`.
 *
 * Each rule here was checked against kpt 1.0.0-beta.56 (`kpt fn source`): test/cli/krmignore.test.ts.
 */

export const KRMIGNORE = '.krmignore';

interface Pattern {
  exception: boolean;
  anchored: boolean;
  dirOnly: boolean;
  parts: RegExp[];
}

/** One path component of a pattern as a regular expression. */
function componentRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob.charAt(i);
    if (ch === '*') {
      while (glob[i + 1] === '*') i++;
      re += '[^/]*';
    } else if (ch === '?') re += '[^/]';
    else if (ch === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close < 0) re += '\\[';
      else {
        const body = glob.slice(i + 1, close).replace(/\\/g, '\\\\');
        re += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
        i = close;
      }
    } else re += ch.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

function parsePattern(line: string): Pattern | undefined {
  const exception = line.startsWith('!');
  const body = exception ? line.slice(1) : line;
  const anchored = body.startsWith('/');
  const dirOnly = body.endsWith('/');
  const parts = body.split('/').filter((p) => p !== '');
  if (parts.length === 0) return undefined;
  return { exception, anchored, dirOnly, parts: parts.map(componentRegExp) };
}

function matches(p: Pattern, components: readonly string[], isDir: boolean): boolean {
  if (p.dirOnly && !isDir) return false;
  const k = p.parts.length;
  if (p.anchored ? components.length !== k : components.length < k) return false;
  const tail = components.slice(components.length - k);
  return tail.every((component, i) => p.parts[i]?.test(component));
}

/** The rules of one `.krmignore` file. */
export interface IgnoreRules {
  /** Whether a path (relative to the package top, `/`-separated) is ignored. */
  ignores(path: string, isDir: boolean): boolean;
}

export const NO_RULES: IgnoreRules = { ignores: () => false };

export function parseKrmignore(text: string): IgnoreRules {
  const patterns = text
    .split('\n')
    .map((l) => l.replace(/\r$/, '').trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .flatMap((l) => parsePattern(l) ?? []);
  if (patterns.length === 0) return NO_RULES;
  return {
    ignores(path, isDir) {
      const components = path.split('/').filter((c) => c !== '');
      const hit = (exception: boolean) =>
        patterns.some((p) => p.exception === exception && matches(p, components, isDir));
      return !hit(true) && hit(false);
    },
  };
}
