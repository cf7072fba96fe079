/** sprig regex functions with Go RE2 semantics (via re2js). */
import { RE2JS } from 're2js';
import { canBackquote, sprintf } from '../fmt.js';
import { type GoFunc, type GoInt, makeSlice } from '../values.js';
import { fail, fn, mustName } from './util.js';

/** Byte offsets of a match: start and end of the whole match, then of each group (-1 when unset). */
type Match = [number, number, ...number[]];

interface RE2 {
  findAllSubmatchIndex(s: string, n: number): Match[] | null;
  numberOfCapturingGroups(): number;
  namedGroups?: Record<string, number>;
}

const cache = new Map<string, RE2 | string>();

function compile(pattern: string): RE2 | string {
  let r = cache.get(pattern);
  if (r === undefined) {
    try {
      r = (RE2JS.compile(pattern) as unknown as { re2Input: RE2 }).re2Input;
    } catch (e) {
      r = (e as Error).message;
    }
    if (cache.size > 500) cache.clear();
    cache.set(pattern, r);
  }
  return r;
}

/** regexp's quote: backquoted when strconv.CanBackquote allows it, else strconv.Quote. */
function quoteExpr(s: string): string {
  return canBackquote(s) ? `\`${s}\`` : sprintf('%q', [s]);
}

function mustCompile(pattern: string): RE2 {
  const r = compile(pattern);
  if (typeof r === 'string') fail(`regexp: Compile(${quoteExpr(pattern)}): ${r}`);
  return r;
}

function findAll(re: RE2, s: string, n: number): Match[] {
  return re.findAllSubmatchIndex(s, n) ?? [];
}

/** Go's Regexp.Expand template syntax: $1, ${1}, $name, ${name}, $$. */
function expand(template: string, re: RE2, src: string, m: Match): string {
  let out = '';
  const names = re.namedGroups ?? {};
  const group = (name: string): string => {
    const idx = /^\d+$/.test(name) ? parseInt(name, 10) : names[name];
    if (idx === undefined) return '';
    const start = m[2 * idx];
    const end = m[2 * idx + 1];
    return start !== undefined && end !== undefined && start >= 0 ? src.slice(start, end) : '';
  };
  let i = 0;
  while (i < template.length) {
    const d = template.indexOf('$', i);
    if (d < 0) {
      out += template.slice(i);
      break;
    }
    out += template.slice(i, d);
    i = d + 1;
    if (template[i] === '$') {
      out += '$';
      i++;
      continue;
    }
    let name: string | undefined;
    if (template[i] === '{') {
      const close = template.indexOf('}', i);
      const cand = close < 0 ? '' : template.slice(i + 1, close);
      if (close >= 0 && /^[\p{L}\p{Nd}_]+$/u.test(cand)) {
        name = cand;
        i = close + 1;
      }
    } else {
      const mm = /^[\p{L}\p{Nd}_]+/u.exec(template.slice(i));
      if (mm) {
        name = mm[0];
        i += name.length;
      }
    }
    if (name === undefined) {
      out += '$';
      continue;
    }
    out += group(name);
  }
  return out;
}

function replaceAll(re: RE2, src: string, repl: (m: Match) => string): string {
  const ms = findAll(re, src, -1);
  let out = '';
  let last = 0;
  for (const m of ms) {
    out += src.slice(last, m[0]) + repl(m);
    last = m[1];
  }
  return out + src.slice(last);
}

function split(re: RE2, pattern: string, s: string, n: number): string[] | null {
  if (n === 0) return null;
  if (pattern.length > 0 && s.length === 0) return [''];
  const matches = findAll(re, s, n);
  const out: string[] = [];
  let beg = 0;
  let end = 0;
  for (const m of matches) {
    if (n > 0 && out.length === n - 1) break;
    end = m[0];
    if (m[1] !== 0) out.push(s.slice(beg, end));
    beg = m[1];
  }
  if (end !== s.length) out.push(s.slice(beg));
  return out;
}

function quoteMeta(s: string): string {
  return s.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
}

const strs = (v: string[] | null): ReturnType<typeof makeSlice> => makeSlice(v ?? [], 'string');

export function regexFuncs(): GoFunc[] {
  const n = (v: unknown): number => Number((v as GoInt).v);
  const pair = (name: string, impl: (re: RE2, args: string[], raw: unknown[]) => unknown): GoFunc[] =>
    [fn(name, [], () => 0), fn(mustName(name), [], () => 0)].map((f, i) => ({
      ...f,
      fn: (args) => {
        const pattern = args[0] as string;
        const re = i === 0 ? mustCompile(pattern) : compile(pattern);
        if (typeof re === 'string') fail(`error parsing regexp: ${re.replace(/^error parsing regexp: /, '')}`);
        return impl(
          re,
          args.map((a) => a as string),
          args,
        ) as never;
      },
    }));
  const out: GoFunc[] = [];
  const add = (
    name: string,
    params: GoFunc['params'],
    impl: (re: RE2, a: string[], raw: unknown[]) => unknown,
  ): void => {
    for (const f of pair(name, impl)) out.push({ ...f, params });
  };
  // The executor checked each call's arguments against `params`: the defaults never apply.
  add('regexFindAll', ['string', 'string', 'int'], (re, [, s = ''], raw) =>
    strs(findAll(re, s, n(raw[2])).map((m) => s.slice(m[0], m[1]))),
  );
  add('regexFind', ['string', 'string'], (re, [, s = '']) => {
    const m = findAll(re, s, 1)[0];
    return m ? s.slice(m[0], m[1]) : '';
  });
  add('regexReplaceAll', ['string', 'string', 'string'], (re, [, s = '', r = '']) =>
    replaceAll(re, s, (m) => expand(r, re, s, m)),
  );
  add('regexReplaceAllLiteral', ['string', 'string', 'string'], (re, [, s = '', r = '']) => replaceAll(re, s, () => r));
  add('regexSplit', ['string', 'string', 'int'], (re, [p = '', s = ''], raw) => strs(split(re, p, s, n(raw[2]))));
  // regexMatch ignores compile errors (returns false); mustRegexMatch reports them.
  out.push(
    fn('regexMatch', ['string', 'string'], ([p, s]) => {
      const re = compile(p as string);
      if (typeof re === 'string') return false;
      return findAll(re, s as string, 1).length > 0;
    }),
    fn('mustRegexMatch', ['string', 'string'], ([p, s]) => {
      const re = compile(p as string);
      if (typeof re === 'string') fail(re);
      return findAll(re, s as string, 1).length > 0;
    }),
    fn('regexQuoteMeta', ['string'], ([s]) => quoteMeta(s as string)),
  );
  return out;
}
