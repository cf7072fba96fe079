/** sprig encoding/crypto functions: base64/32, JSON (encoding/json), hashes, derivePassword, AES. */
import { createCipheriv, createDecipheriv, createHash, createHmac, scryptSync } from 'node:crypto';
import { formatFloat } from '../fmt.js';
import {
  type GoFunc,
  type GoValue,
  GoComplex,
  GoInt,
  GoObject,
  makeMap,
  makeSlice,
  MAX_VALUE_TEXT,
  sortedKeys,
  ValueTooLarge,
  at,
  runeAt,
} from '../values.js';
import { SemverVersion } from './semver.js';
import { fail, fn } from './util.js';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** encoding/base64 StdEncoding.DecodeString with Go's error positions. */
function goBase64Decode(s: string): Buffer | string {
  const src = Buffer.from(s, 'latin1').length === s.length ? s : null;
  const bytes = Buffer.from(s, 'utf8');
  void src;
  const map = new Int16Array(256).fill(-1);
  for (let i = 0; i < 64; i++) map[B64.charCodeAt(i)] = i;
  const out: number[] = [];
  let si = 0;
  const err = (n: number): string => `illegal base64 data at input byte ${n}`;
  for (;;) {
    const dbuf: [number, number, number, number] = [0, 0, 0, 0];
    let dlen = 4;
    let j = 0;
    let trailing: string | null = null;
    for (; j < 4; j++) {
      if (si === bytes.length) {
        if (j === 0) return Buffer.from(out);
        return err(si - j);
      }
      const c = at(bytes, si++);
      const v = at(map, c);
      if (v >= 0) {
        dbuf[j] = v;
        continue;
      }
      if (c === 10 || c === 13) {
        j--;
        continue;
      }
      if (c !== 61) return err(si - 1);
      // padding
      if (j === 0 || j === 1) return err(si - 1);
      if (j === 2) {
        while (si < bytes.length && (bytes[si] === 10 || bytes[si] === 13)) si++;
        if (si === bytes.length) return err(bytes.length);
        if (bytes[si] !== 61) return err(si - 1);
        si++;
      }
      while (si < bytes.length && (bytes[si] === 10 || bytes[si] === 13)) si++;
      if (si < bytes.length) trailing = err(si);
      dlen = j;
      break;
    }
    const val = (dbuf[0] << 18) | (dbuf[1] << 12) | (dbuf[2] << 6) | dbuf[3];
    out.push(...[(val >> 16) & 255, (val >> 8) & 255, val & 255].slice(0, dlen - 1));
    if (trailing) return trailing;
    if (dlen < 4) return Buffer.from(out);
  }
}

function base32Encode(buf: Buffer): string {
  let out = '';
  for (let i = 0; i < buf.length; i += 5) {
    const chunk = buf.subarray(i, i + 5);
    let bits = 0n;
    for (let k = 0; k < 5; k++) bits = (bits << 8n) | BigInt(chunk[k] ?? 0);
    const nchars = Math.ceil((chunk.length * 8) / 5);
    for (let k = 0; k < 8; k++) {
      out += k < nchars ? B32[Number((bits >> BigInt(35 - 5 * k)) & 31n)] : '=';
    }
  }
  return out;
}

function base32Decode(s: string): Buffer | string {
  const bytes = Buffer.from(s, 'utf8').filter((b) => b !== 10 && b !== 13);
  const err = (n: number): string => `illegal base32 data at input byte ${n}`;
  if (bytes.length % 8 !== 0) return err(Math.floor(bytes.length / 8) * 8);
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i += 8) {
    let bits = 0n;
    let n = 0;
    let pad = false;
    for (let k = 0; k < 8; k++) {
      const c = at(bytes, i + k);
      if (c === 61) {
        pad = true;
        continue;
      }
      if (pad) return err(i + k);
      const v = B32.indexOf(String.fromCharCode(c));
      if (v < 0) return err(i + k);
      bits |= BigInt(v) << BigInt(35 - 5 * k);
      n++;
    }
    if (pad && i + 8 !== bytes.length) return err(i + 8);
    const nbytes = at([0, -1, 1, -1, 2, 3, -1, 4, 5], n);
    if (nbytes < 0) return err(i + n);
    for (let k = 0; k < nbytes; k++) out.push(Number((bits >> BigInt(32 - 8 * k)) & 255n));
  }
  return Buffer.from(out);
}

// --- encoding/json

function jsonString(s: string, escapeHTML: boolean): string {
  let out = '"';
  for (const ch of s) {
    const c = runeAt(ch);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c < 0x20) {
      if (c === 10) out += '\\n';
      else if (c === 13) out += '\\r';
      else if (c === 9) out += '\\t';
      else out += '\\u00' + c.toString(16).padStart(2, '0');
    } else if (escapeHTML && (c === 0x3c || c === 0x3e || c === 0x26)) {
      out += '\\u00' + c.toString(16).padStart(2, '0');
    } else if (c === 0x2028 || c === 0x2029) out += '\\u' + c.toString(16);
    else if (c >= 0xd800 && c <= 0xdfff) out += '\ufffd';
    else out += ch;
  }
  return out + '"';
}

function jsonFloat(f: number): string {
  if (!Number.isFinite(f)) throw new JsonError(`json: unsupported value: ${formatFloat(f, 'g', -1)}`);
  const abs = Math.abs(f);
  let fmt = 'f';
  if (abs !== 0 && (abs < 1e-6 || abs >= 1e21)) fmt = 'e';
  let s = formatFloat(f, fmt, -1);
  if (fmt === 'e') {
    const n = s.length;
    if (n >= 4 && s[n - 4] === 'e' && s[n - 3] === '-' && s[n - 2] === '0') s = s.slice(0, n - 2) + s.slice(n - 1);
  }
  return s;
}

class JsonError extends Error {}

/** encoding/json's Marshal of a template value, stopping past MAX_VALUE_TEXT bytes of output. */
function marshalJson(v: GoValue, escapeHTML: boolean, indent: string | null): string {
  let bytes = 0;
  const text = (s: string): string => {
    bytes += s.length;
    if (bytes > MAX_VALUE_TEXT)
      throw new ValueTooLarge(`encoding a value of more than ${MAX_VALUE_TEXT} bytes as JSON`);
    return s;
  };
  const marshal = (v: GoValue, depth: number): string => {
    if (v === null || v === undefined) return text('null');
    switch (typeof v) {
      case 'string':
        return text(jsonString(v, escapeHTML));
      case 'number':
        return text(jsonFloat(v));
      case 'boolean':
        return text(v ? 'true' : 'false');
    }
    if (v instanceof GoInt) return text(v.v.toString());
    if (v instanceof GoComplex) throw new JsonError('json: unsupported type: complex128');
    if (v instanceof SemverVersion) return text(jsonString(v.toString(), escapeHTML));
    if (v instanceof GoObject) {
      const s = v.stringer();
      if (v.typeName === 'time.Time' && s !== undefined)
        return text(jsonString((v as unknown as { rfc3339(): string }).rfc3339(), escapeHTML));
      const obj = makeMap();
      for (const [k, fv] of v.fields()) obj[k] = fv;
      return marshal(obj, depth);
    }
    const nl = indent === null ? '' : '\n' + indent.repeat(depth + 1);
    const end = indent === null ? '' : '\n' + indent.repeat(depth);
    if (Array.isArray(v)) {
      if (v.length === 0) return text('[]');
      return '[' + v.map((x) => text(nl) + marshal(x, depth + 1)).join(',') + text(end) + ']';
    }
    const m = v;
    const keys = sortedKeys(m);
    if (keys.length === 0) return text('{}');
    const sep = indent === null ? ':' : ': ';
    return (
      '{' +
      keys.map((k) => text(nl + jsonString(k, escapeHTML) + sep) + marshal(m[k], depth + 1)).join(',') +
      text(end) +
      '}'
    );
  };
  return marshal(v, 0);
}

function fromJsonValue(v: unknown): GoValue {
  if (Array.isArray(v)) return makeSlice(v.map(fromJsonValue));
  if (typeof v === 'number' && !Number.isFinite(v))
    throw new JsonError('json: cannot unmarshal number into Go value of type float64');
  if (v !== null && typeof v === 'object') {
    const m = makeMap();
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) m[k] = fromJsonValue(x);
    return m;
  }
  return v as GoValue;
}

function parseJson(s: string): GoValue {
  if (s.trim() === '') throw new JsonError('unexpected end of JSON input');
  try {
    return fromJsonValue(JSON.parse(s));
  } catch (e) {
    throw new JsonError((e as Error).message);
  }
}

// --- crypto

const PASSWORD_TEMPLATES: Record<string, string[]> = {
  maximum: ['anoxxxxxxxxxxxxxxxxx', 'axxxxxxxxxxxxxxxxxno'],
  long: [
    'CvcvnoCvcvCvcv',
    'CvcvCvcvnoCvcv',
    'CvcvCvcvCvcvno',
    'CvccnoCvcvCvcv',
    'CvccCvcvnoCvcv',
    'CvccCvcvCvcvno',
    'CvcvnoCvccCvcv',
    'CvcvCvccnoCvcv',
    'CvcvCvccCvcvno',
    'CvcvnoCvcvCvcc',
    'CvcvCvcvnoCvcc',
    'CvcvCvcvCvccno',
    'CvccnoCvccCvcv',
    'CvccCvccnoCvcv',
    'CvccCvccCvcvno',
    'CvcvnoCvccCvcc',
    'CvcvCvccnoCvcc',
    'CvcvCvccCvccno',
    'CvccnoCvcvCvcc',
    'CvccCvcvnoCvcc',
    'CvccCvcvCvccno',
  ],
  medium: ['CvcnoCvc', 'CvcCvcno'],
  short: ['Cvcn'],
  basic: ['aaanaaan', 'aannaaan', 'aaannaaa'],
  pin: ['nnnn'],
};
const TEMPLATE_CHARS: Record<string, string> = {
  V: 'AEIOU',
  C: 'BCDFGHJKLMNPQRSTVWXYZ',
  v: 'aeiou',
  c: 'bcdfghjklmnpqrstvwxyz',
  A: 'AEIOUBCDFGHJKLMNPQRSTVWXYZ',
  a: 'AEIOUaeiouBCDFGHJKLMNPQRSTVWXYZbcdfghjklmnpqrstvwxyz',
  n: '0123456789',
  o: "@&%?,=[]_:-+*$#!'^~;()/.",
  x: 'AEIOUaeiouBCDFGHJKLMNPQRSTVWXYZbcdfghjklmnpqrstvwxyz0123456789!@#$%^&*()',
};
const SEED = 'com.lyndir.masterpassword';

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

function derivePassword(counter: number, type: string, password: string, user: string, site: string): string {
  const templates = PASSWORD_TEMPLATES[type];
  if (!templates) return `cannot find password template ${type}`;
  const userB = Buffer.from(user, 'utf8');
  const salt = Buffer.concat([Buffer.from(SEED), u32(userB.length), userB]);
  const key = scryptSync(Buffer.from(password, 'utf8'), salt, 64, { N: 32768, r: 8, p: 2, maxmem: 256 * 1024 * 1024 });
  const siteB = Buffer.from(site, 'utf8');
  const msg = Buffer.concat([Buffer.from(SEED), u32(siteB.length), siteB, u32(counter)]);
  const seed = createHmac('sha256', key).update(msg).digest();
  const temp = at(templates, at(seed, 0) % templates.length);
  let out = '';
  for (let i = 0; i < temp.length; i++) {
    // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- each letter of PASSWORD_TEMPLATES names a class of TEMPLATE_CHARS
    const chars = TEMPLATE_CHARS[temp.charAt(i)]!;
    out += chars.charAt(at(seed, i + 1) % chars.length);
  }
  return out;
}

function aesKey(password: string): Buffer {
  const key = Buffer.alloc(32);
  Buffer.from(password, 'utf8').copy(key, 0, 0, 32);
  return key;
}

function adler32(buf: Buffer): number {
  let a = 1;
  let b = 0;
  for (const x of buf) {
    a = (a + x) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

const hash = (alg: string) => (s: GoValue) =>
  createHash(alg)
    .update(Buffer.from(s as string, 'utf8'))
    .digest('hex');

function unsupported(name: string, why: string): GoFunc {
  return fn(name, [], () => fail(`${name} is not supported by this renderer (${why})`), 'any');
}

export function encodingFuncs(): GoFunc[] {
  const wrapJson = (f: () => string, must: boolean): string => {
    try {
      return f();
    } catch (e) {
      if (e instanceof JsonError && !must) return '';
      throw e;
    }
  };
  return [
    fn('b64enc', ['string'], ([s]) => Buffer.from(s as string, 'utf8').toString('base64')),
    fn('b64dec', ['string'], ([s]) => {
      const r = goBase64Decode(s as string);
      return typeof r === 'string' ? r : r.toString('utf8');
    }),
    fn('b32enc', ['string'], ([s]) => base32Encode(Buffer.from(s as string, 'utf8'))),
    fn('b32dec', ['string'], ([s]) => {
      const r = base32Decode(s as string);
      return typeof r === 'string' ? r : r.toString('utf8');
    }),
    fn('sha1sum', ['string'], ([s]) => hash('sha1')(s)),
    fn('sha256sum', ['string'], ([s]) => hash('sha256')(s)),
    fn('sha512sum', ['string'], ([s]) => hash('sha512')(s)),
    fn('adler32sum', ['string'], ([s]) => String(adler32(Buffer.from(s as string, 'utf8')))),
    fn('toJson', ['any'], ([v]) => wrapJson(() => marshalJson(v, true, null), false)),
    fn('mustToJson', ['any'], ([v]) => wrapJson(() => marshalJson(v, true, null), true)),
    fn('toPrettyJson', ['any'], ([v]) => wrapJson(() => marshalJson(v, true, '  '), false)),
    fn('mustToPrettyJson', ['any'], ([v]) => wrapJson(() => marshalJson(v, true, '  '), true)),
    fn('toRawJson', ['any'], ([v]) => wrapJson(() => marshalJson(v, false, null), true)),
    fn('mustToRawJson', ['any'], ([v]) => wrapJson(() => marshalJson(v, false, null), true)),
    fn('fromJson', ['string'], ([s]) => {
      try {
        return parseJson(s as string);
      } catch {
        return null;
      }
    }),
    fn('mustFromJson', ['string'], ([s]) => parseJson(s as string)),
    fn('derivePassword', ['uint32', 'string', 'string', 'string', 'string'], ([c, t, p, u, s], ctx) => {
      ctx.charge(1000);
      return derivePassword(Number((c as GoInt).v), t as string, p as string, u as string, s as string);
    }),
    fn('decryptAES', ['string', 'string'], ([p, c]) => {
      if (c === '') return '';
      const crypt = goBase64Decode(c as string);
      if (typeof crypt === 'string') fail(crypt);
      // base64's DecodeString allocates DecodedLen(len(c)) bytes: that is the capacity Go reports.
      if (crypt.length < 16)
        fail(
          `runtime error: slice bounds out of range [:16] with capacity ${Math.floor((c as string).length / 4) * 3}`,
        );
      const body = crypt.subarray(16);
      if (body.length % 16 !== 0) fail('crypto/cipher: input not full blocks');
      const d = createDecipheriv('aes-256-cbc', aesKey(p as string), crypt.subarray(0, 16));
      d.setAutoPadding(false);
      const dec = Buffer.concat([d.update(body), d.final()]);
      if (dec.length === 0) fail('runtime error: index out of range [-1]');
      const pad = at(dec, dec.length - 1);
      if (pad > dec.length) fail(`runtime error: slice bounds out of range [:${dec.length - pad}]`);
      return dec.subarray(0, dec.length - pad).toString('utf8');
    }),
    fn('encryptAES', ['string', 'string'], ([p, t], ctx) => {
      ctx.warn('encryptAES uses a random IV; this renderer derives the IV from its inputs (deterministic)');
      if (t === '') return '';
      const content = Buffer.from(t as string, 'utf8');
      const padding = 16 - (content.length % 16);
      const padded = Buffer.concat([content, Buffer.alloc(padding, padding)]);
      const iv = createHash('sha256')
        .update(`${p as string}\u0000${t as string}`)
        .digest()
        .subarray(0, 16);
      const c = createCipheriv('aes-256-cbc', aesKey(p as string), iv);
      c.setAutoPadding(false);
      return Buffer.concat([iv, c.update(padded), c.final()]).toString('base64');
    }),
    fn('bcrypt', ['string'], (_a, ctx) => {
      ctx.warn('bcrypt is random by nature and not supported by this renderer');
      return fail('bcrypt is not supported by this renderer (random salt)');
    }),
    fn('htpasswd', ['string', 'string'], ([u], ctx) => {
      if ((u as string).includes(':')) return `invalid username: ${u as string}`;
      ctx.warn('htpasswd is random by nature and not supported by this renderer');
      return fail('htpasswd is not supported by this renderer (random bcrypt salt)');
    }),
    unsupported('genPrivateKey', 'random key generation'),
    unsupported('genCA', 'random key generation'),
    unsupported('genCAWithKey', 'random serial numbers'),
    unsupported('genSelfSignedCert', 'random key generation'),
    unsupported('genSelfSignedCertWithKey', 'random serial numbers'),
    unsupported('genSignedCert', 'random key generation'),
    unsupported('genSignedCertWithKey', 'random serial numbers'),
    unsupported('buildCustomCert', 'certificate objects are not implemented'),
  ];
}
