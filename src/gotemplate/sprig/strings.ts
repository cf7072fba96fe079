/** sprig string functions (strings.go, goutils, xstrings) with Go's byte/rune semantics. */
import { byteLength, quote as goQuote, sprint } from '../fmt.js';
import {
  type CallContext,
  type GoFunc,
  type GoValue,
  GoInt,
  at,
  makeMap,
  makeSlice,
  cmpStrings,
  runeAt,
} from '../values.js';
import { byteSlice, bytesOf, fail, fn, isAscii, strval, strvals, toNum } from './util.js';

const isSpaceRune = (cp: number): boolean =>
  (cp >= 9 && cp <= 13) ||
  cp === 32 ||
  cp === 0x85 ||
  cp === 0xa0 ||
  cp === 0x1680 ||
  (cp >= 0x2000 && cp <= 0x200a) ||
  cp === 0x2028 ||
  cp === 0x2029 ||
  cp === 0x202f ||
  cp === 0x205f ||
  cp === 0x3000;

const reUpper = /^\p{Lu}$/u;
const reLower = /^\p{Ll}$/u;
const reTitle = /^\p{Lt}$/u;
const reLetter = /^\p{L}$/u;
const reDigit = /^\p{Nd}$/u;
const reNumber = /^\p{N}$/u;
const rePunct = /^\p{P}$/u;
const reCJK = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]$/u;

function runeUpper(c: string): string {
  const u = c.toUpperCase();
  return [...u].length === 1 ? u : c;
}
function runeLower(c: string): string {
  const l = c.toLowerCase();
  return [...l].length === 1 ? l : c;
}
function runeTitle(c: string): string {
  // unicode.ToTitle: for most letters equal to ToUpper; the digraphs have dedicated title forms.
  const special: Record<string, string> = {
    Ǆ: 'ǅ',
    ǅ: 'ǅ',
    ǆ: 'ǅ',
    Ǉ: 'ǈ',
    ǈ: 'ǈ',
    ǉ: 'ǈ',
    Ǌ: 'ǋ',
    ǋ: 'ǋ',
    ǌ: 'ǋ',
    Ǳ: 'ǲ',
    ǲ: 'ǲ',
    ǳ: 'ǲ',
  };
  return special[c] ?? runeUpper(c);
}

function goToUpper(s: string): string {
  if (isAscii(s)) return s.toUpperCase();
  let out = '';
  for (const c of s) out += runeUpper(c);
  return out;
}
function goToLower(s: string): string {
  if (isAscii(s)) return s.toLowerCase();
  let out = '';
  for (const c of s) out += runeLower(c);
  return out;
}

function trimSpace(s: string): string {
  const cps = [...s];
  let a = 0;
  let b = cps.length;
  while (a < b && isSpaceRune(runeAt(at(cps, a)))) a++;
  while (b > a && isSpaceRune(runeAt(at(cps, b - 1)))) b--;
  return cps.slice(a, b).join('');
}

function trimCutset(s: string, cutset: string): string {
  const set = new Set([...cutset]);
  const cps = [...s];
  let a = 0;
  let b = cps.length;
  while (a < b && set.has(at(cps, a))) a++;
  while (b > a && set.has(at(cps, b - 1))) b--;
  return cps.slice(a, b).join('');
}

function isSeparator(c: string): boolean {
  const cp = runeAt(c);
  if (cp <= 0x7f) {
    if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_') return false;
    return true;
  }
  if (reLetter.test(c) || reDigit.test(c)) return false;
  return isSpaceRune(cp);
}

function title(s: string): string {
  let prev = ' ';
  let out = '';
  for (const c of s) {
    out += isSeparator(prev) ? runeTitle(c) : c;
    prev = c;
  }
  return out;
}

function untitle(s: string): string {
  if (s === '') return s;
  let next = true;
  let out = '';
  for (const c of s) {
    if (isSpaceRune(runeAt(c))) {
      next = true;
      out += c;
    } else if (next) {
      out += runeLower(c);
      next = false;
    } else out += c;
  }
  return out;
}

function swapcase(s: string): string {
  let out = '';
  for (const c of s) {
    if (reUpper.test(c) || reTitle.test(c)) out += runeLower(c);
    else if (reLower.test(c)) out += runeUpper(c);
    else out += c;
  }
  return out;
}

/** Byte-wise rune reinterpretation used by goutils' Initials/DeleteWhiteSpace. */
function byteRunes(s: string): number[] {
  return [...bytesOf(s)];
}

function initials(s: string): string {
  if (s === '') return s;
  let out = '';
  let gap = true;
  for (const b of byteRunes(s)) {
    if (isSpaceRune(b)) gap = true;
    else if (gap) {
      out += String.fromCharCode(b);
      gap = false;
    }
  }
  return out;
}

function nospace(s: string): string {
  if (s === '') return s;
  const bytes = byteRunes(s);
  let out = '';
  let count = 0;
  for (const b of bytes) {
    if (!isSpaceRune(b)) {
      out += String.fromCharCode(b);
      count++;
    }
  }
  return count === bytes.length ? s : out;
}

function abbreviateFull(str: string, offset: number, maxWidth: number): string {
  if (str === '') return '';
  if (maxWidth < 4) return '';
  const len = byteLength(str);
  if (len <= maxWidth) return str;
  if (offset > len) offset = len;
  if (len - offset < maxWidth - 3) offset = len - (maxWidth - 3);
  const marker = '...';
  if (offset <= 4) return byteSlice(str, 0, maxWidth - 3) + marker;
  if (maxWidth < 7) return '';
  if (offset + maxWidth - 3 < len) return marker + abbreviateFull(byteSlice(str, offset), 0, maxWidth - 3);
  return marker + byteSlice(str, len - (maxWidth - 3));
}

function wrapCustom(str: string, wrapLength: number, newLine: string, wrapLong: boolean): string {
  if (str === '') return '';
  if (newLine === '') newLine = '\n';
  if (wrapLength < 1) wrapLength = 1;
  const s = bytesOf(str);
  const nl = bytesOf(newLine);
  const len = s.length;
  let offset = 0;
  const out: Buffer[] = [];
  while (len - offset > wrapLength) {
    if (s[offset] === 0x20) {
      offset++;
      continue;
    }
    const end = Math.min(wrapLength + offset + 1, len);
    const seg = s.subarray(offset, end);
    const sp = seg.lastIndexOf(0x20) + offset;
    if (sp >= offset) {
      out.push(s.subarray(offset, sp), nl);
      offset = sp + 1;
    } else if (wrapLong) {
      out.push(s.subarray(offset, wrapLength + offset), nl);
      offset += wrapLength;
    } else {
      const e = wrapLength + offset;
      const idx = s.subarray(e).indexOf(0x20);
      if (idx === -1) {
        out.push(s.subarray(offset));
        offset = len;
      } else {
        const at = idx + e;
        out.push(s.subarray(offset, at), nl);
        offset = at + 1;
      }
    }
  }
  out.push(s.subarray(offset));
  return Buffer.concat(out).toString('utf8');
}

// --- xstrings (v1.3.x) case conversions

const isConnector = (c: string): boolean => c === '-' || c === '_' || isSpaceRune(runeAt(c));
const isAlphabet = (c: string): boolean => reLetter.test(c) && !reCJK.test(c);

const enum W {
  Invalid,
  Number,
  Upper,
  Alphabet,
  Connector,
  Punct,
  Other,
}

function nextWord(s: string[], start: number): [W, number, number] {
  // returns [type, wordStart, wordEnd]; remaining starts at wordEnd
  if (start >= s.length) return [W.Invalid, start, start];
  const r = at(s, start);
  let i = start + 1;
  if (isConnector(r)) {
    while (i < s.length && isConnector(at(s, i))) i++;
    return [W.Connector, start, i];
  }
  if (rePunct.test(r)) {
    while (i < s.length && rePunct.test(at(s, i))) i++;
    return [W.Punct, start, i];
  }
  if (reUpper.test(r)) {
    if (i >= s.length) return [W.Upper, start, i];
    const r1 = at(s, i);
    if (reUpper.test(r1)) {
      i++;
      while (i < s.length && reUpper.test(at(s, i))) i++;
      if (i < s.length && isAlphabet(at(s, i))) i--;
    } else if (isAlphabet(r1)) {
      i++;
      while (i < s.length && isAlphabet(at(s, i)) && !reUpper.test(at(s, i))) i++;
    }
    return [W.Upper, start, i];
  }
  if (isAlphabet(r)) {
    while (i < s.length && isAlphabet(at(s, i)) && !reUpper.test(at(s, i))) i++;
    return [W.Alphabet, start, i];
  }
  if (reNumber.test(r)) {
    while (i < s.length && reNumber.test(at(s, i))) i++;
    return [W.Number, start, i];
  }
  while (i < s.length) {
    const c = at(s, i);
    if (isConnector(c) || isAlphabet(c) || reNumber.test(c) || rePunct.test(c)) break;
    i++;
  }
  return [W.Other, start, i];
}

function lowerWord(out: string[], wt: W, word: string[], connector: string): void {
  if (wt !== W.Upper && wt !== W.Connector) {
    out.push(...word);
    return;
  }
  for (const c of word) {
    if (isConnector(c)) out.push(connector);
    else if (reUpper.test(c)) out.push(runeLower(c));
    else out.push(c);
  }
}

function camelToLower(str: string, connector: string): string {
  if (str === '') return '';
  const s = [...str];
  const out: string[] = [];
  let [wt, ws, we] = nextWord(s, 0);
  const cur = (): W => wt;
  const word = (): string[] => s.slice(ws, we);
  const advance = (): void => {
    [wt, ws, we] = nextWord(s, we);
  };
  while (we < s.length) {
    if (wt !== W.Connector) lowerWord(out, wt, word(), connector);
    const prev = wt;
    const last = word();
    advance();
    switch (prev) {
      case W.Number:
        while (wt === W.Alphabet || wt === W.Number) {
          lowerWord(out, wt, word(), connector);
          advance();
        }
        if (wt !== W.Invalid && wt !== W.Punct && wt !== W.Connector) out.push(connector);
        break;
      case W.Connector:
        lowerWord(out, prev, last, connector);
        break;
      case W.Punct:
        break;
      default: {
        if (wt !== W.Number) {
          if (wt !== W.Connector && wt !== W.Punct) out.push(connector);
          break;
        }
        if (we >= s.length) break;
        const lastNum = word();
        advance();
        if (cur() !== W.Alphabet) {
          lowerWord(out, W.Number, lastNum, connector);
          if (cur() !== W.Connector && cur() !== W.Punct) out.push(connector);
          break;
        }
        out.push(connector);
        lowerWord(out, W.Number, lastNum, connector);
        while (cur() === W.Alphabet || cur() === W.Number) {
          lowerWord(out, wt, word(), connector);
          advance();
        }
        if (cur() !== W.Invalid && cur() !== W.Connector && cur() !== W.Punct) out.push(connector);
      }
    }
  }
  lowerWord(out, wt, word(), connector);
  return out.join('');
}

function toCamelCase(str: string): string {
  if (str === '') return '';
  const s = [...str];
  let out = '';
  let i = 0;
  let r0 = '';
  for (; i < s.length;) {
    r0 = at(s, i++);
    if (!isConnector(r0)) {
      r0 = runeUpper(r0);
      break;
    }
    out += r0;
  }
  if (i >= s.length) return out + r0;
  while (i < s.length) {
    const r1 = r0;
    r0 = at(s, i++);
    if (isConnector(r0) && isConnector(r1)) {
      out += r1;
      continue;
    }
    if (isConnector(r1)) r0 = runeUpper(r0);
    else {
      r0 = runeLower(r0);
      out += r1;
    }
  }
  return out + r0;
}

/** A deterministic stand-in for math/rand, seeded from a string (FNV-1a + xorshift). */
export function seededRandom(seed: string): () => number {
  let h = 0x811c9dc5;
  for (const b of bytesOf(seed)) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  let x = h || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x100000000;
  };
}

function checkSize(ctx: CallContext, n: number): void {
  if (n > ctx.maxBytes) fail(`result of ${n} bytes exceeds the output limit of ${ctx.maxBytes} bytes`);
}

function goSplit(s: string, sep: string, n: number): string[] {
  if (n === 0) return [];
  if (sep === '') {
    const cps = [...s];
    if (n < 0 || n >= cps.length) return cps;
    return [...cps.slice(0, n - 1), cps.slice(n - 1).join('')];
  }
  const parts = s.split(sep);
  if (n < 0 || parts.length <= n) return parts;
  return [...parts.slice(0, n - 1), parts.slice(n - 1).join(sep)];
}

/** sprig's strslice. */
function strslice(v: GoValue, ctx: CallContext): string[] {
  if (Array.isArray(v))
    return strvals(
      v.filter((x) => x !== null && x !== undefined),
      ctx,
    );
  if (v === null || v === undefined) return [];
  return [strval(v)];
}

const present = (args: GoValue[]) => args.filter((a) => a !== null && a !== undefined);

export function stringFuncs(): GoFunc[] {
  const s1 = (name: string, f: (s: string) => string): GoFunc => fn(name, ['string'], ([s]) => f(s as string));
  return [
    fn('hello', [], () => 'Hello!'),
    fn('abbrev', ['int', 'string'], ([w, s]) => {
      const width = toNum(w as GoInt);
      return width < 4 ? s : abbreviateFull(s as string, 0, width);
    }),
    fn('abbrevboth', ['int', 'int', 'string'], ([l, r, s]) => {
      const left = toNum(l as GoInt);
      const right = toNum(r as GoInt);
      if (right < 4 || (left > 0 && right < 7)) return s;
      return abbreviateFull(s as string, left, right);
    }),
    fn('trunc', ['int', 'string'], ([c, sv]) => {
      const n = toNum(c as GoInt);
      const s = sv as string;
      const len = byteLength(s);
      if (n < 0 && len + n > 0) return byteSlice(s, len + n);
      if (n >= 0 && len > n) return byteSlice(s, 0, n);
      return s;
    }),
    s1('trim', trimSpace),
    s1('upper', goToUpper),
    s1('lower', goToLower),
    s1('title', title),
    s1('untitle', untitle),
    fn('substr', ['int', 'int', 'string'], ([a, b, sv]) => {
      const start = toNum(a as GoInt);
      const end = toNum(b as GoInt);
      const s = sv as string;
      if (start < 0) return byteSlice(s, 0, end);
      if (end < 0 || end > byteLength(s)) return byteSlice(s, start);
      return byteSlice(s, start, end);
    }),
    fn('repeat', ['int', 'string'], ([c, s], ctx) => {
      const n = toNum(c as GoInt);
      if (n < 0) fail('strings: negative Repeat count');
      checkSize(ctx, n * (s as string).length);
      ctx.charge(Math.floor((n * (s as string).length) / 64));
      return (s as string).repeat(n);
    }),
    fn('trimall', ['string', 'string'], ([a, b]) => trimCutset(b as string, a as string)),
    fn('trimAll', ['string', 'string'], ([a, b]) => trimCutset(b as string, a as string)),
    fn('trimSuffix', ['string', 'string'], ([a, b]) => {
      const s = b as string;
      return a !== '' && s.endsWith(a as string) ? s.slice(0, s.length - (a as string).length) : s;
    }),
    fn('trimPrefix', ['string', 'string'], ([a, b]) => {
      const s = b as string;
      return s.startsWith(a as string) ? s.slice((a as string).length) : s;
    }),
    s1('nospace', nospace),
    s1('initials', initials),
    s1('swapcase', swapcase),
    fn('shuffle', ['string'], ([sv], ctx) => {
      ctx.warn('shuffle is random by nature; this renderer shuffles deterministically (seeded from its input)');
      const cps = [...(sv as string)];
      const rnd = seededRandom('shuffle\u0000' + (sv as string));
      for (let i = cps.length - 1; i > 0; i--) {
        const j = Math.floor(rnd() * (i + 1));
        const swapped = at(cps, i);
        cps[i] = at(cps, j);
        cps[j] = swapped;
      }
      return cps.join('');
    }),
    s1('snakecase', (s) => camelToLower(s, '_')),
    s1('camelcase', toCamelCase),
    s1('kebabcase', (s) => camelToLower(s, '-')),
    fn('wrap', ['int', 'string'], ([l, s]) => wrapCustom(s as string, toNum(l as GoInt), '', false)),
    fn('wrapWith', ['int', 'string', 'string'], ([l, sep, s]) =>
      wrapCustom(s as string, toNum(l as GoInt), sep as string, true),
    ),
    fn('contains', ['string', 'string'], ([a, b]) => (b as string).includes(a as string)),
    fn('hasPrefix', ['string', 'string'], ([a, b]) => (b as string).startsWith(a as string)),
    fn('hasSuffix', ['string', 'string'], ([a, b]) => (b as string).endsWith(a as string)),
    fn('quote', [], (args, ctx) => strvals(present(args), ctx).map(goQuote).join(' '), 'any'),
    fn(
      'squote',
      [],
      (args, ctx) =>
        strvals(present(args), ctx, (a) => sprint([a]))
          .map((s) => `'${s}'`)
          .join(' '),
      'any',
    ),
    fn('cat', [], (args, ctx) => strvals(present(args), ctx, (a) => sprint([a])).join(' '), 'any'),
    fn('indent', ['int', 'string'], ([n, s], ctx) => indent(toNum(n as GoInt), s as string, ctx)),
    fn('nindent', ['int', 'string'], ([n, s], ctx) => '\n' + indent(toNum(n as GoInt), s as string, ctx)),
    fn('replace', ['string', 'string', 'string'], ([o, n, s], ctx) => {
      const old = o as string;
      const src = s as string;
      if (old === '') {
        // strings.Replace with empty old inserts `new` around every rune
        const cps = [...src];
        checkSize(ctx, src.length + (cps.length + 1) * (n as string).length);
        return (n as string) + cps.join(n as string) + (cps.length > 0 ? (n as string) : '');
      }
      const r = src.split(old).join(n as string);
      checkSize(ctx, r.length);
      return r;
    }),
    fn('plural', ['string', 'string', 'int'], ([one, many, c]) => ((c as GoInt).v === 1n ? one : many)),
    fn('toString', ['any'], ([v]) => strval(v)),
    fn('split', ['string', 'string'], ([sep, s]) => {
      const m = makeMap('string');
      goSplit(s as string, sep as string, -1).forEach((p, i) => (m['_' + i] = p));
      return m;
    }),
    fn('splitList', ['string', 'string'], ([sep, s]) => makeSlice(goSplit(s as string, sep as string, -1), 'string')),
    fn('splitn', ['string', 'int', 'string'], ([sep, n, s]) => {
      const m = makeMap('string');
      goSplit(s as string, sep as string, toNum(n as GoInt)).forEach((p, i) => (m['_' + i] = p));
      return m;
    }),
    fn('toStrings', ['any'], ([v], ctx) => makeSlice(strslice(v, ctx), 'string')),
    fn('join', ['string', 'any'], ([sep, v], ctx) => strslice(v, ctx).join(sep as string)),
    fn('sortAlpha', ['any'], ([v], ctx) => {
      if (Array.isArray(v)) return makeSlice(strslice(v, ctx).sort(cmpStrings), 'string');
      return makeSlice([strval(v)], 'string');
    }),
  ];
}

function indent(n: number, s: string, ctx: CallContext): string {
  if (n < 0) fail('strings: negative Repeat count');
  const pad = ' '.repeat(Math.min(n, ctx.maxBytes + 1));
  checkSize(ctx, s.length + n * (1 + (s.match(/\n/g)?.length ?? 0)));
  return pad + s.split('\n').join('\n' + pad);
}
