/**
 * Go's fmt package (Sprint, Sprintln, Sprintf) and strconv float/quote formatting for the value model.
 */
import {
  GoComplex,
  GoInt,
  GoObject,
  type GoMap,
  type GoValue,
  sortedKeys,
  typeName,
  sliceElemType,
  mapElemType,
  MAX_VALUE_TEXT,
  ValueTooLarge,
  at,
  runeAt,
} from './values.js';
import { PRINTABLE_RANGES } from './unicode-print.js';

// ---------------------------------------------------------------------------------------------
// strconv: floats

interface Digits {
  d: string; // decimal digits without leading/trailing zeros ('' for zero)
  dp: number; // decimal point position
}

const f64 = new DataView(new ArrayBuffer(8));

/** Exact decimal expansion of a positive finite double. */
function exactDigits(x: number): Digits {
  f64.setFloat64(0, x);
  const hi = f64.getUint32(0);
  const lo = f64.getUint32(4);
  const expBits = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (expBits === 0) e = -1074;
  else {
    mant |= 1n << 52n;
    e = expBits - 1075;
  }
  if (mant === 0n) return { d: '', dp: 0 };
  let s: string;
  let dp: number;
  if (e >= 0) {
    s = (mant << BigInt(e)).toString();
    dp = s.length;
  } else {
    s = (mant * 5n ** BigInt(-e)).toString();
    dp = s.length + e;
  }
  return { d: s.replace(/0+$/, ''), dp };
}

/** Shortest digits that round-trip (JS and Go agree on these). */
function shortestDigits(x: number): Digits {
  if (x === 0) return { d: '', dp: 0 };
  const s = x.toExponential();
  const ei = s.indexOf('e');
  const mant = s.slice(0, ei).replace('.', '');
  const exp = parseInt(s.slice(ei + 1), 10);
  return { d: mant.replace(/0+$/, ''), dp: exp + 1 };
}

/** Rounds to nd digits, half to even on exact ties (strconv's decimal.Round). */
function roundDigits(a: Digits, nd: number): Digits {
  if (nd < 0 || nd >= a.d.length) return a;
  const c = a.d.charCodeAt(nd);
  let up: boolean;
  if (c === 53 /* '5' */ && nd + 1 === a.d.length) {
    up = nd > 0 && (a.d.charCodeAt(nd - 1) - 48) % 2 === 1;
  } else up = c >= 53;
  if (!up) return { d: a.d.slice(0, nd).replace(/0+$/, ''), dp: a.dp };
  let i = nd - 1;
  while (i >= 0 && a.d[i] === '9') i--;
  if (i < 0) return { d: '1', dp: a.dp + 1 };
  return { d: a.d.slice(0, i) + String.fromCharCode(a.d.charCodeAt(i) + 1), dp: a.dp };
}

function digitAt(a: Digits, i: number): string {
  return i >= 0 && i < a.d.length ? a.d.charAt(i) : '0';
}

function fmtE(neg: boolean, a: Digits, prec: number, fmt: string): string {
  let s = neg ? '-' : '';
  s += a.d.length === 0 ? '0' : a.d[0];
  if (prec > 0) {
    s += '.';
    for (let i = 1; i <= prec; i++) s += digitAt(a, i);
  }
  s += fmt;
  let exp = a.dp - 1;
  if (a.d.length === 0) exp = 0;
  s += exp < 0 ? '-' : '+';
  exp = Math.abs(exp);
  s += exp < 10 ? '0' + exp : String(exp);
  return s;
}

function fmtF(neg: boolean, a: Digits, prec: number): string {
  let s = neg ? '-' : '';
  if (a.dp > 0) {
    for (let i = 0; i < a.dp; i++) s += digitAt(a, i);
  } else s += '0';
  if (prec > 0) {
    s += '.';
    for (let i = 1; i <= prec; i++) s += digitAt(a, a.dp + i - 1);
  }
  return s;
}

/** strconv.FormatFloat(x, fmt, prec, 64) for fmt in e E f F g G (and b/x approximations). */
export function formatFloat(x: number, fmt: string, prec: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '+Inf';
  if (x === -Infinity) return '-Inf';
  const neg = x < 0 || Object.is(x, -0);
  const ax = Math.abs(x);
  if (fmt === 'x' || fmt === 'X') return formatHexFloat(x, fmt, prec);
  if (fmt === 'b') return formatBinaryFloat(x);
  const shortest = prec < 0;
  let digs: Digits;
  if (shortest) {
    digs = shortestDigits(ax);
    switch (fmt) {
      case 'e':
      case 'E':
        prec = Math.max(digs.d.length - 1, 0);
        break;
      case 'f':
      case 'F':
        prec = Math.max(digs.d.length - digs.dp, 0);
        break;
      case 'g':
      case 'G':
        prec = digs.d.length;
        break;
    }
  } else {
    digs = exactDigits(ax);
    switch (fmt) {
      case 'e':
      case 'E':
        digs = roundDigits(digs, 1 + prec);
        break;
      case 'f':
      case 'F':
        digs = roundDigits(digs, digs.dp + prec);
        break;
      case 'g':
      case 'G':
        if (prec === 0) prec = 1;
        digs = roundDigits(digs, prec);
        break;
    }
  }
  switch (fmt) {
    case 'e':
    case 'E':
      return fmtE(neg, digs, prec, fmt);
    case 'f':
    case 'F':
      return fmtF(neg, digs, prec);
    default: {
      // g, G
      let eprec = prec;
      if (eprec > digs.d.length && digs.d.length >= digs.dp) eprec = digs.d.length;
      if (shortest) eprec = 6;
      const exp = digs.dp - 1;
      const nd = digs.d.length;
      if (exp < -4 || exp >= eprec) {
        if (prec > nd) prec = nd;
        return fmtE(neg, digs, prec - 1, fmt === 'g' ? 'e' : 'E');
      }
      if (prec > digs.dp) prec = nd;
      return fmtF(neg, digs, Math.max(prec - digs.dp, 0));
    }
  }
}

function floatBits(x: number): { neg: boolean; mant: bigint; exp: number } {
  f64.setFloat64(0, x);
  const hi = f64.getUint32(0);
  const lo = f64.getUint32(4);
  const neg = hi >>> 31 === 1;
  const expBits = (hi >>> 20) & 0x7ff;
  const mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  return { neg, mant, exp: expBits };
}

function formatBinaryFloat(x: number): string {
  const { neg, mant, exp } = floatBits(x);
  let m = mant;
  let e = exp;
  if (e === 0) e = 1;
  else m |= 1n << 52n;
  e -= 1075;
  return (neg ? '-' : '') + m.toString() + 'p' + (e >= 0 ? '+' : '') + e;
}

function formatHexFloat(x: number, fmt: string, prec: number): string {
  const { neg, mant, exp } = floatBits(x);
  let m = mant;
  let e: number;
  if (exp === 0) {
    if (m === 0n) {
      e = 0;
    } else {
      e = -1022;
      while (m < 1n << 52n) {
        m <<= 1n;
        e--;
      }
    }
  } else {
    m |= 1n << 52n;
    e = exp - 1023;
  }
  // m has 53 bits: 1.xxxxx (52 fraction bits = 13 hex digits)
  let frac = m & ((1n << 52n) - 1n);
  let lead = m === 0n ? 0n : 1n;
  let hexd = frac.toString(16).padStart(13, '0');
  if (prec >= 0 && prec < 13) {
    const shift = BigInt((13 - prec) * 4);
    let q = frac >> shift;
    const rem = frac & ((1n << shift) - 1n);
    const half = 1n << (shift - 1n);
    if (rem > half || (rem === half && (q & 1n) === 1n)) q++;
    if (q >> BigInt(prec * 4) !== 0n) {
      q = 0n;
      lead++;
      if (lead === 2n) {
        lead = 1n;
        e++;
      }
    }
    frac = q;
    hexd = prec === 0 ? '' : frac.toString(16).padStart(prec, '0');
  } else {
    hexd = hexd.replace(/0+$/, '');
    if (prec > 13) hexd = hexd.padEnd(prec, '0');
  }
  let s = (neg ? '-' : '') + '0x' + lead.toString() + (hexd ? '.' + hexd : '') + 'p' + (e >= 0 ? '+' : '-');
  const ae = Math.abs(e);
  s += ae < 10 ? '0' + ae : String(ae);
  return fmt === 'X' ? s.toUpperCase() : s;
}

// ---------------------------------------------------------------------------------------------
// strconv: quoting

/** First and last rune of each printable range above ASCII (decoded on first use). */
let printable: { first: Uint32Array; last: Uint32Array } | undefined;

function printableRanges(): { first: Uint32Array; last: Uint32Array } {
  if (printable) return printable;
  const parts = PRINTABLE_RANGES.split(',');
  const first = new Uint32Array(parts.length);
  const last = new Uint32Array(parts.length);
  let prev = 0;
  parts.forEach((p, i) => {
    const [gap, len] = p.split('.') as [string, string];
    first[i] = prev + parseInt(gap, 36);
    last[i] = prev = first[i] + parseInt(len, 36);
  });
  return (printable = { first, last });
}

/** Go's `unicode.IsPrint` (= `strconv.IsPrint`): letters, marks, numbers, punctuation, symbols, ASCII space. */
export function isPrint(cp: number): boolean {
  if (cp < 0x80) return cp >= 0x20 && cp < 0x7f;
  const { first, last } = printableRanges();
  let lo = 0;
  let hi = first.length - 1;
  /* eslint-disable @typescript-eslint/no-non-null-assertion -- 0 <= lo <= mid <= hi < the length of both tables */
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < first[mid]!) hi = mid - 1;
    else if (cp > last[mid]!) lo = mid + 1;
    else return true;
  }
  /* eslint-enable @typescript-eslint/no-non-null-assertion */
  return false;
}

/**
 * strconv's appendQuotedWith. A lone UTF-16 surrogate cannot occur in a Go string: with
 * `surrogateAsFFFD` it is treated as U+FFFD, which it becomes when the output is UTF-8 encoded
 * (printable, so kept as is; `\ufffd` when ASCII-only); without, it is escaped as `\udxxx`.
 */
function quoteWith(s: string, q: string, ascii: boolean, surrogateAsFFFD = true): string {
  let out = q;
  for (const ch of s) {
    let cp = runeAt(ch);
    if (surrogateAsFFFD && cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    if (ch === q || ch === '\\') {
      out += '\\' + ch;
      continue;
    }
    if (ascii ? cp < 0x80 && isPrint(cp) : isPrint(cp)) {
      out += ch;
      continue;
    }
    switch (cp) {
      case 7:
        out += '\\a';
        continue;
      case 8:
        out += '\\b';
        continue;
      case 12:
        out += '\\f';
        continue;
      case 10:
        out += '\\n';
        continue;
      case 13:
        out += '\\r';
        continue;
      case 9:
        out += '\\t';
        continue;
      case 11:
        out += '\\v';
        continue;
    }
    if (cp < 0x20 || cp === 0x7f) out += '\\x' + cp.toString(16).padStart(2, '0');
    else if (cp < 0x10000) out += '\\u' + cp.toString(16).padStart(4, '0');
    else out += '\\U' + cp.toString(16).padStart(8, '0');
  }
  return out + q;
}

/** strconv.Quote */
export function quote(s: string): string {
  return quoteWith(s, '"', false);
}
/**
 * strconv.Quote (`%q`) for the texts of CAPI/Kubernetes error messages (patches, variables):
 * `quote`, except that a lone surrogate is escaped (`\ud800`) instead of kept.
 */
export function goQuote(s: string): string {
  return quoteWith(s, '"', false, false);
}
function quoteToASCII(s: string): string {
  return quoteWith(s, '"', true);
}
function quoteRune(cp: number, ascii = false): string {
  if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) || cp < 0) cp = 0xfffd;
  return quoteWith(String.fromCodePoint(cp), "'", ascii);
}

/** strconv.CanBackquote: no backquote, BOM or control character other than tab. */
export function canBackquote(s: string): boolean {
  for (const ch of s) {
    const cp = runeAt(ch);
    if (cp === 0xfeff) return false;
    if (cp === 0x60) return false;
    if (cp < 0x20 && cp !== 9) return false;
    if (cp === 0x7f) return false;
  }
  return true;
}

function utf8Bytes(s: string): Uint8Array {
  return Buffer.from(s, 'utf8');
}

/** Number of UTF-8 bytes in a JS string. */
export function byteLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

function runeCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

// ---------------------------------------------------------------------------------------------
// fmt

class Printer {
  buf = '';
  // flags
  plus = false;
  minus = false;
  sharp = false;
  space = false;
  zero = false;
  plusV = false;
  sharpV = false;
  wid = 0;
  widPresent = false;
  prec = 0;
  precPresent = false;
  erroring = false;
  reordered = false;
  goodArgNum = true;
  /** The argument currently being printed (for badVerb), or NONE. */
  arg: GoValue | typeof NONE = NONE;

  clearFlags(): void {
    this.plus = this.minus = this.sharp = this.space = this.zero = false;
    this.plusV = this.sharpV = false;
    this.wid = 0;
    this.widPresent = false;
    this.prec = 0;
    this.precPresent = false;
  }

  writePadding(n: number): void {
    if (n <= 0) return;
    this.buf += (this.zero ? '0' : ' ').repeat(n);
  }

  pad(s: string): void {
    if (!this.widPresent || this.wid === 0) {
      this.buf += s;
      return;
    }
    const width = this.wid - runeCount(s);
    if (!this.minus) {
      this.writePadding(width);
      this.buf += s;
    } else {
      this.buf += s;
      const z = this.zero;
      this.zero = false;
      this.writePadding(width);
      this.zero = z;
    }
  }

  fmtBoolean(v: boolean): void {
    this.pad(v ? 'true' : 'false');
  }

  fmtInteger(v: bigint, base: number, verb: string, upper: boolean): void {
    const negative = v < 0n;
    const u = negative ? -v : v;
    let prec = 0;
    if (this.precPresent) {
      prec = this.prec;
      if (prec === 0 && u === 0n) {
        const z = this.zero;
        this.zero = false;
        this.writePadding(this.wid);
        this.zero = z;
        return;
      }
    } else if (this.zero && this.widPresent) {
      prec = this.wid;
      if (negative || this.plus || this.space) prec--;
    }
    let digits = u.toString(base);
    if (upper) digits = digits.toUpperCase();
    if (digits.length < prec) digits = '0'.repeat(prec - digits.length) + digits;
    if (this.sharp) {
      if (base === 2) digits = '0b' + digits;
      else if (base === 8) {
        if (digits[0] !== '0') digits = '0' + digits;
      } else if (base === 16) digits = (upper ? '0X' : '0x') + digits;
    }
    if (verb === 'O') digits = '0o' + digits;
    if (negative) digits = '-' + digits;
    else if (this.plus) digits = '+' + digits;
    else if (this.space) digits = ' ' + digits;
    const z = this.zero;
    this.zero = false;
    this.pad(digits);
    this.zero = z;
  }

  fmtUnicode(u: bigint): void {
    let s = 'U+' + u.toString(16).toUpperCase().padStart(4, '0');
    if (this.precPresent && this.prec > 4) {
      s = 'U+' + u.toString(16).toUpperCase().padStart(this.prec, '0');
    }
    if (this.sharp && u >= 0n && u <= 0x10ffffn && isPrint(Number(u))) {
      s += " '" + String.fromCodePoint(Number(u)) + "'";
    }
    const z = this.zero;
    this.zero = false;
    this.pad(s);
    this.zero = z;
  }

  fmtC(u: bigint): void {
    let cp = u > 0x10ffffn || u < 0n ? 0xfffd : Number(u);
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    this.pad(String.fromCodePoint(cp));
  }

  fmtQc(u: bigint): void {
    const cp = u > 0x10ffffn || u < 0n ? 0xfffd : Number(u);
    if (this.sharp && cp < 0x110000 && canBackquote(String.fromCodePoint(cp)) && isPrint(cp) && cp !== 0x27) {
      this.pad("'" + String.fromCodePoint(cp) + "'");
      return;
    }
    this.pad(quoteRune(cp, this.plus));
  }

  truncate(s: string): string {
    if (this.precPresent) {
      let n = this.prec;
      let i = 0;
      for (const ch of s) {
        n--;
        if (n < 0) return s.slice(0, i);
        i += ch.length;
      }
    }
    return s;
  }

  fmtS(s: string): void {
    this.pad(this.truncate(s));
  }

  fmtSx(s: string, upper: boolean): void {
    const bytes = utf8Bytes(s);
    let length = bytes.length;
    if (this.precPresent && this.prec < length) length = this.prec;
    const hex = upper ? '0123456789ABCDEF' : '0123456789abcdef';
    let out = '';
    if (length <= 0) {
      // Go prints padding only
      this.pad('');
      return;
    }
    if (this.sharp && !this.space) out += upper ? '0X' : '0x';
    for (let i = 0; i < length; i++) {
      if (this.space && i > 0) out += ' ';
      if (this.space && this.sharp) out += upper ? '0X' : '0x';
      const b = at(bytes, i);
      out += hex.charAt(b >> 4) + hex.charAt(b & 15);
    }
    this.pad(out);
  }

  fmtQ(s: string): void {
    s = this.truncate(s);
    if (this.sharp && canBackquote(s)) {
      this.pad('`' + s + '`');
      return;
    }
    this.pad(this.plus ? quoteToASCII(s) : quote(s));
  }

  fmtFloat(v: number, verb: string, prec: number): void {
    if (this.precPresent) prec = this.prec;
    let num = formatFloat(v, verb, prec);
    if (num[0] !== '-' && num[0] !== '+') num = '+' + num;
    if (this.space && num[0] === '+' && !this.plus) num = ' ' + num.slice(1);
    if (num[1] === 'I' || num[1] === 'N') {
      const z = this.zero;
      this.zero = false;
      if (num[1] === 'N' && !this.space && !this.plus) num = num.slice(1);
      this.pad(num);
      this.zero = z;
      return;
    }
    if (this.sharp && verb !== 'b') {
      num = sharpFloat(num, verb, prec, this.precPresent ? this.prec : -1);
    }
    if (this.plus || num[0] !== '+') {
      if (this.zero && this.widPresent && this.wid > num.length) {
        this.buf += num[0];
        this.writePadding(this.wid - num.length);
        this.buf += num.slice(1);
        return;
      }
      this.pad(num);
      return;
    }
    this.pad(num.slice(1));
  }

  // --- pp level

  badVerb(verb: string, v: GoValue | typeof NONE): void {
    this.erroring = true;
    this.buf += '%!' + verb + '(';
    if (v !== NONE && v !== null && v !== undefined) {
      this.buf += typeName(v) + '=';
      this.printArg(v, 'v');
    } else {
      this.buf += '<nil>';
    }
    this.buf += ')';
    this.erroring = false;
  }

  fmtBool(v: boolean, verb: string): void {
    if (verb === 't' || verb === 'v') this.fmtBoolean(v);
    else this.badVerb(verb, v);
  }

  fmtIntegerVerb(v: GoInt, verb: string): void {
    const signed = v.signed;
    switch (verb) {
      case 'v':
        if (this.sharpV && !signed) {
          this.sharp = true;
          this.fmtInteger(v.v, 16, 'v', false);
          this.sharp = false;
        } else this.fmtInteger(v.v, 10, verb, false);
        return;
      case 'd':
        this.fmtInteger(v.v, 10, verb, false);
        return;
      case 'b':
        this.fmtInteger(v.v, 2, verb, false);
        return;
      case 'o':
      case 'O':
        this.fmtInteger(v.v, 8, verb, false);
        return;
      case 'x':
        this.fmtInteger(v.v, 16, verb, false);
        return;
      case 'X':
        this.fmtInteger(v.v, 16, verb, true);
        return;
      case 'c':
        this.fmtC(BigInt.asUintN(64, v.v));
        return;
      case 'q':
        this.fmtQc(BigInt.asUintN(64, v.v));
        return;
      case 'U':
        this.fmtUnicode(BigInt.asUintN(64, v.v));
        return;
      default:
        this.badVerb(verb, v);
    }
  }

  fmtFloatVerb(v: number, verb: string): void {
    switch (verb) {
      case 'v':
        this.fmtFloat(v, 'g', -1);
        return;
      case 'b':
      case 'g':
      case 'G':
      case 'x':
      case 'X':
        this.fmtFloat(v, verb, -1);
        return;
      case 'f':
      case 'e':
      case 'E':
        this.fmtFloat(v, verb, 6);
        return;
      case 'F':
        this.fmtFloat(v, 'f', 6);
        return;
      default:
        this.badVerb(verb, v);
    }
  }

  fmtComplex(v: GoComplex, verb: string): void {
    switch (verb) {
      case 'v':
      case 'b':
      case 'g':
      case 'G':
      case 'x':
      case 'X':
      case 'f':
      case 'F':
      case 'e':
      case 'E': {
        const oldPlus = this.plus;
        this.buf += '(';
        this.fmtFloatVerb(v.re, verb);
        this.plus = true;
        this.fmtFloatVerb(v.im, verb);
        this.buf += 'i)';
        this.plus = oldPlus;
        return;
      }
      default:
        this.badVerb(verb, v);
    }
  }

  fmtStringVerb(v: string, verb: string): void {
    switch (verb) {
      case 'v':
        if (this.sharpV) this.fmtQ(v);
        else this.fmtS(v);
        return;
      case 's':
        this.fmtS(v);
        return;
      case 'x':
        this.fmtSx(v, false);
        return;
      case 'X':
        this.fmtSx(v, true);
        return;
      case 'q':
        this.fmtQ(v);
        return;
      default:
        this.badVerb(verb, v);
    }
  }

  handleMethods(v: GoValue, verb: string): boolean {
    if (this.erroring) return false;
    if (!(v instanceof GoObject)) return false;
    if (this.sharpV) return false;
    switch (verb) {
      case 'v':
      case 's':
      case 'x':
      case 'X':
      case 'q': {
        const s = v.stringer();
        if (s === undefined) return false;
        this.fmtStringVerb(s, verb);
        return true;
      }
    }
    return false;
  }

  printArg(arg: GoValue, verb: string): void {
    this.arg = arg;
    if (arg === null || arg === undefined) {
      if (verb === 'T' || verb === 'v') this.pad('<nil>');
      else this.badVerb(verb, arg);
      return;
    }
    if (verb === 'T') {
      this.fmtS(typeName(arg));
      return;
    }
    if (verb === 'p') {
      this.badVerb(verb, arg);
      return;
    }
    if (this.fmtBasic(arg, verb)) return;
    if (this.handleMethods(arg, verb)) return;
    this.printValue(arg, verb, 0);
  }

  /** Prints a value of a basic kind (bool, float, string, integer, complex); false for others. */
  fmtBasic(v: GoValue, verb: string): boolean {
    switch (typeof v) {
      case 'boolean':
        this.fmtBool(v, verb);
        return true;
      case 'number':
        this.fmtFloatVerb(v, verb);
        return true;
      case 'string':
        this.fmtStringVerb(v, verb);
        return true;
    }
    if (v instanceof GoInt) this.fmtIntegerVerb(v, verb);
    else if (v instanceof GoComplex) this.fmtComplex(v, verb);
    else return false;
    return true;
  }

  printValue(v: GoValue, verb: string, depth: number): void {
    if (this.buf.length > MAX_VALUE_TEXT)
      throw new ValueTooLarge(`printing a value of more than ${MAX_VALUE_TEXT} bytes`);
    if (depth > 0 && v !== undefined && v !== null) {
      this.arg = v;
      if (this.handleMethods(v, verb)) return;
    }
    if (v === undefined) {
      if (depth === 0) this.buf += '<invalid reflect.Value>';
      else if (verb === 'v') this.buf += '<nil>';
      else this.badVerb(verb, NONE);
      return;
    }
    if (v === null) {
      // A nil interface element.
      this.buf += this.sharpV ? 'interface {}(nil)' : '<nil>';
      return;
    }
    if (this.fmtBasic(v, verb)) return;
    if (v instanceof GoObject) {
      if (v.isPointer && depth === 0) this.buf += '&';
      if (this.sharpV) this.buf += v.typeName.replace(/^\*/, '');
      this.buf += '{';
      let i = 0;
      for (const [name, fv] of v.printFields()) {
        if (i++ > 0) this.buf += this.sharpV ? ', ' : ' ';
        if (this.plusV || this.sharpV) this.buf += name + ':';
        this.printValue(fv, verb, depth + 1);
      }
      this.buf += '}';
      return;
    }
    if (Array.isArray(v)) {
      const elem = sliceElemType(v);
      if (elem === 'uint8' && (verb === 's' || verb === 'q' || verb === 'x' || verb === 'X')) {
        const s = Buffer.from((v as GoInt[]).map((b) => Number(b.v))).toString('utf8');
        this.fmtStringVerb(s, verb);
        return;
      }
      if (this.sharpV) {
        this.buf += typeName(v) + '{';
        for (let i = 0; i < v.length; i++) {
          if (i > 0) this.buf += ', ';
          this.printValue(v[i], verb, depth + 1);
        }
        this.buf += '}';
        return;
      }
      this.buf += '[';
      for (let i = 0; i < v.length; i++) {
        if (i > 0) this.buf += ' ';
        this.printValue(v[i], verb, depth + 1);
      }
      this.buf += ']';
      return;
    }
    const m = v as GoMap;
    if (this.sharpV) this.buf += typeName(m) + '{';
    else this.buf += 'map[';
    const keys = sortedKeys(m);
    let first = true;
    for (const key of keys) {
      if (!first) this.buf += this.sharpV ? ', ' : ' ';
      first = false;
      this.printValue(key, verb, depth + 1);
      this.buf += ':';
      this.printValue(m[key], verb, depth + 1);
    }
    this.buf += this.sharpV ? '}' : ']';
    void mapElemType;
  }

  doPrint(args: GoValue[]): void {
    let prevString = false;
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      const isString = typeof a === 'string';
      if (i > 0 && !isString && !prevString) this.buf += ' ';
      this.printArg(a, 'v');
      prevString = isString;
    }
  }

  doPrintln(args: GoValue[]): void {
    for (let i = 0; i < args.length; i++) {
      if (i > 0) this.buf += ' ';
      this.printArg(args[i], 'v');
    }
    this.buf += '\n';
  }

  doPrintf(format: string, a: GoValue[]): void {
    const end = format.length;
    let argNum = 0;
    let afterIndex: boolean;
    this.reordered = false;
    let i = 0;
    formatLoop: while (i < end) {
      this.goodArgNum = true;
      const lasti = i;
      while (i < end && format[i] !== '%') i++;
      if (i > lasti) this.buf += format.slice(lasti, i);
      if (i >= end) break;
      i++;
      this.clearFlags();
      simple: for (; i < end; i++) {
        const c = format.charAt(i);
        switch (c) {
          case '#':
            this.sharp = true;
            break;
          case '0':
            this.zero = !this.minus;
            break;
          case '+':
            this.plus = true;
            break;
          case '-':
            this.minus = true;
            this.zero = false;
            break;
          case ' ':
            this.space = true;
            break;
          default:
            if (c >= 'a' && c <= 'z' && argNum < a.length) {
              if (c === 'v') {
                this.sharpV = this.sharp;
                this.sharp = false;
                this.plusV = this.plus;
                this.plus = false;
              }
              this.printArg(a[argNum], c);
              argNum++;
              i++;
              continue formatLoop;
            }
            break simple;
        }
      }
      [argNum, i, afterIndex] = this.argNumber(argNum, format, i, a.length);
      if (i < end && format[i] === '*') {
        i++;
        [this.wid, this.widPresent, argNum] = intFromArg(a, argNum);
        if (!this.widPresent) this.buf += '%!(BADWIDTH)';
        if (this.wid < 0) {
          this.wid = -this.wid;
          this.minus = true;
          this.zero = false;
        }
        afterIndex = false;
      } else {
        [this.wid, this.widPresent, i] = parsenum(format, i, end);
        if (afterIndex && this.widPresent) this.goodArgNum = false;
      }
      if (i + 1 < end && format[i] === '.') {
        i++;
        if (afterIndex) this.goodArgNum = false;
        [argNum, i, afterIndex] = this.argNumber(argNum, format, i, a.length);
        if (i < end && format[i] === '*') {
          i++;
          [this.prec, this.precPresent, argNum] = intFromArg(a, argNum);
          if (this.prec < 0) {
            this.prec = 0;
            this.precPresent = false;
          }
          if (!this.precPresent) this.buf += '%!(BADPREC)';
          afterIndex = false;
        } else {
          [this.prec, this.precPresent, i] = parsenum(format, i, end);
          if (!this.precPresent) {
            this.prec = 0;
            this.precPresent = true;
          }
        }
      }
      if (!afterIndex) [argNum, i] = this.argNumber(argNum, format, i, a.length);
      if (i >= end) {
        this.buf += '%!(NOVERB)';
        break;
      }
      const verb = String.fromCodePoint(runeAt(format, i));
      i += verb.length;
      if (verb === '%') this.buf += '%';
      else if (!this.goodArgNum) this.buf += '%!' + verb + '(BADINDEX)';
      else if (argNum >= a.length) this.buf += '%!' + verb + '(MISSING)';
      else {
        if (verb === 'v') {
          this.sharpV = this.sharp;
          this.sharp = false;
          this.plusV = this.plus;
          this.plus = false;
        }
        if (verb === 'w') {
          this.badVerb(verb, a[argNum]);
        } else this.printArg(a[argNum], verb);
        argNum++;
      }
    }
    if (!this.reordered && argNum < a.length) {
      this.clearFlags();
      this.buf += '%!(EXTRA ';
      for (let k = argNum; k < a.length; k++) {
        if (k > argNum) this.buf += ', ';
        const arg = a[k];
        if (arg === null || arg === undefined) this.buf += '<nil>';
        else {
          this.buf += typeName(arg) + '=';
          this.printArg(arg, 'v');
        }
      }
      this.buf += ')';
    }
  }

  argNumber(argNum: number, format: string, i: number, numArgs: number): [number, number, boolean] {
    if (format.length <= i || format[i] !== '[') return [argNum, i, false];
    this.reordered = true;
    const [index, wid, ok] = parseArgNumber(format.slice(i));
    if (ok && index >= 0 && index < numArgs) return [index, i + wid, true];
    this.goodArgNum = false;
    return [argNum, i + wid, ok];
  }
}

const NONE: unique symbol = Symbol('none');

function tooLarge(x: number): boolean {
  return x > 1e6 || x < -1e6;
}

function parsenum(s: string, start: number, end: number): [number, boolean, number] {
  if (start >= end) return [0, false, end];
  let num = 0;
  let isnum = false;
  let i = start;
  for (; i < end && s.charAt(i) >= '0' && s.charAt(i) <= '9'; i++) {
    if (tooLarge(num)) return [0, false, end];
    num = num * 10 + (s.charCodeAt(i) - 48);
    isnum = true;
  }
  return [num, isnum, i];
}

function parseArgNumber(format: string): [number, number, boolean] {
  if (format.length < 3) return [0, 1, false];
  for (let i = 1; i < format.length; i++) {
    if (format[i] === ']') {
      const [width, ok, newi] = parsenum(format, 1, i);
      if (!ok || newi !== i) return [0, i + 1, false];
      return [width - 1, i + 1, true];
    }
  }
  return [0, 1, false];
}

function intFromArg(a: GoValue[], argNum: number): [number, boolean, number] {
  let num = 0;
  let isInt = false;
  let newArgNum = argNum;
  if (argNum < a.length) {
    const v = a[argNum];
    if (v instanceof GoInt) {
      if (v.v >= -(1n << 63n) && v.v < 1n << 63n) {
        num = Number(v.v);
        isInt = true;
      }
    }
    newArgNum = argNum + 1;
    if (tooLarge(num)) {
      num = 0;
      isInt = false;
    }
  }
  return [num, isInt, newArgNum];
}

/** %#e etc.: keep the decimal point and trailing zeros (fmt's sharp float handling). */
function sharpFloat(num: string, verb: string, prec: number, explicitPrec: number): string {
  let digits: number;
  switch (verb) {
    case 'v':
    case 'g':
    case 'G':
    case 'x':
      digits = prec;
      if (digits === -1) digits = 6;
      break;
    default:
      digits = -1;
  }
  void explicitPrec;
  let tail = '';
  let body = num;
  const ei = verb === 'x' || verb === 'X' ? body.search(/[pP]/) : body.search(/[eEpP]/);
  if (ei >= 0) {
    tail = body.slice(ei);
    body = body.slice(0, ei);
  }
  let sawNonzero = false;
  let hasDot = false;
  for (let i = 1; i < body.length; i++) {
    const c = body.charAt(i);
    if (c === '.') hasDot = true;
    else {
      if (c !== '0') sawNonzero = true;
      if (sawNonzero) digits--;
    }
  }
  if (!hasDot) {
    if (body.length === 2 && body[1] === '0') digits--;
    body += '.';
  }
  while (digits > 0) {
    body += '0';
    digits--;
  }
  return body + tail;
}

export function sprint(args: GoValue[]): string {
  const p = new Printer();
  p.doPrint(args);
  return p.buf;
}

export function sprintln(args: GoValue[]): string {
  const p = new Printer();
  p.doPrintln(args);
  return p.buf;
}

export function sprintf(format: string, args: GoValue[]): string {
  const p = new Printer();
  p.doPrintf(format, args);
  return p.buf;
}

/** fmt.Sprint of a single value (%v), with fast paths for the common cases. */
export function formatValue(v: GoValue): string {
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
      if (Number.isInteger(v) && Math.abs(v) < 1e6 && !Object.is(v, -0)) return String(v);
      return formatFloat(v, 'g', -1);
    case 'boolean':
      return v ? 'true' : 'false';
  }
  if (v instanceof GoInt) return v.v.toString();
  return sprint([v]);
}
