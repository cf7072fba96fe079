/**
 * sprig `urlParse`: Go's `net/url.Parse` (net/url/url.go: `Parse`, `parse`, `getScheme`,
 * `parseAuthority`, `parseHost`, `unescape`, `shouldEscape`), reproduced with its errors, so a
 * template fails exactly where CAPI's fails (`http://[::1` → `missing ']' in host`). Strings are
 * handled as UTF-8 bytes, as Go does; escapes that decode to invalid UTF-8 become U+FFFD.
 */
import { quote } from '../fmt.js';
import { type GoMap, at, makeMap } from '../values.js';
import { fail } from './util.js';

type Mode = 'path' | 'host' | 'zone' | 'userPassword' | 'fragment';

const isAlnum = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);
const isHex = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
const unhex = (c: number) => (c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x61 + 10);
const ch = (s: string) => s.charCodeAt(0);

/** `shouldEscape` for the modes Parse uses. */
function shouldEscape(c: number, mode: Mode): boolean {
  if (isAlnum(c)) return false;
  if ((mode === 'host' || mode === 'zone') && `!$&'()*+,;=:[]<>"`.includes(String.fromCharCode(c))) return false;
  const s = String.fromCharCode(c);
  if ('-_.~'.includes(s)) return false;
  if ('$&+,/:;=?@'.includes(s)) {
    if (mode === 'path') return s === '?';
    if (mode === 'userPassword') return '@/?:'.includes(s);
    if (mode === 'fragment') return false;
  }
  if (mode === 'fragment' && '!()*'.includes(s)) return false;
  return true;
}

class UrlError extends Error {}

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder('utf-8');

/** `unescape`: %XX decoding with Go's validity rules per mode. */
function unescape(s: string, mode: Mode): string {
  const b = utf8.encode(s);
  const text = (from: number, to: number) => fromUtf8.decode(b.subarray(from, Math.min(to, b.length)));
  const out: number[] = [];
  for (let i = 0; i < b.length;) {
    const c = at(b, i);
    if (c === 0x25) {
      const hi = b[i + 1];
      const lo = b[i + 2];
      if (hi === undefined || lo === undefined || !isHex(hi) || !isHex(lo))
        throw new UrlError(`invalid URL escape ${quote(text(i, i + 3))}`);
      const seq = text(i, i + 3);
      if (mode === 'host' && unhex(hi) < 8 && seq !== '%25') throw new UrlError(`invalid URL escape ${quote(seq)}`);
      const v = (unhex(hi) << 4) | unhex(lo);
      if (mode === 'zone' && seq !== '%25' && v !== 0x20 && shouldEscape(v, 'host'))
        throw new UrlError(`invalid URL escape ${quote(seq)}`);
      out.push(v);
      i += 3;
      continue;
    }
    if ((mode === 'host' || mode === 'zone') && c < 0x80 && shouldEscape(c, mode))
      throw new UrlError(`invalid character ${quote(String.fromCharCode(c))} in host name`);
    out.push(c);
    i++;
  }
  return fromUtf8.decode(Uint8Array.from(out));
}

/** `escape` (for `Userinfo.String`). */
function escape(s: string, mode: Mode): string {
  let out = '';
  for (const c of utf8.encode(s))
    out += shouldEscape(c, mode) ? `%${c.toString(16).toUpperCase().padStart(2, '0')}` : String.fromCharCode(c);
  return out;
}

function validOptionalPort(port: string): boolean {
  return port === '' || (port[0] === ':' && /^[0-9]*$/.test(port.slice(1)));
}

function parseHost(scheme: string, host: string): string {
  if (host.startsWith('[')) {
    const i = host.lastIndexOf(']');
    if (i < 0) throw new UrlError("missing ']' in host");
    const colonPort = host.slice(i + 1);
    if (!validOptionalPort(colonPort)) throw new UrlError(`invalid port ${quote(colonPort)} after host`);
    const zone = host.slice(0, i).indexOf('%25');
    if (zone >= 0)
      return (
        unescape(host.slice(0, zone), 'host') + unescape(host.slice(zone, i), 'zone') + unescape(host.slice(i), 'host')
      );
  } else if (host.includes(':')) {
    // Go 1.26 (GODEBUG urlstrictcolons=1, the default of a `go 1.26` main module such as CAPI
    // v1.14's): an http(s) host has at most one colon. Go 1.25 (CAPI v1.12, v1.13) took the last colon
    // for every scheme, so `http://h:80:80/` parsed there (net/url/url.go, parseHost).
    const i = scheme === 'http' || scheme === 'https' ? host.indexOf(':') : host.lastIndexOf(':');
    if (!validOptionalPort(host.slice(i))) throw new UrlError(`invalid port ${quote(host.slice(i))} after host`);
  }
  return unescape(host, 'host');
}

const USERINFO_OK = /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/;

function parseAuthority(scheme: string, authority: string): { userinfo: string; host: string } {
  const i = authority.lastIndexOf('@');
  const host = parseHost(scheme, i < 0 ? authority : authority.slice(i + 1));
  if (i < 0) return { userinfo: '', host };
  const raw = authority.slice(0, i);
  if (!USERINFO_OK.test(raw)) throw new UrlError('net/url: invalid userinfo');
  const colon = raw.indexOf(':');
  if (colon < 0) return { userinfo: escape(unescape(raw, 'userPassword'), 'userPassword'), host };
  const user = escape(unescape(raw.slice(0, colon), 'userPassword'), 'userPassword');
  const password = escape(unescape(raw.slice(colon + 1), 'userPassword'), 'userPassword');
  return { userinfo: `${user}:${password}`, host };
}

/** `getScheme`: the scheme and the rest, or "missing protocol scheme". */
function getScheme(raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a)) continue;
    if ((c >= 0x30 && c <= 0x39) || c === ch('+') || c === ch('-') || c === ch('.')) {
      if (i === 0) return ['', raw];
      continue;
    }
    if (c === ch(':')) {
      if (i === 0) throw new UrlError('missing protocol scheme');
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ['', raw];
  }
  return ['', raw];
}

interface ParsedUrl {
  scheme: string;
  host: string;
  path: string;
  query: string;
  opaque: string;
  userinfo: string;
}

/** `parse(rawURL, viaRequest=false)`. */
function parse(raw: string): ParsedUrl {
  // eslint-disable-next-line no-control-regex -- Go rejects control characters, so the pattern names them
  if (/[\x00-\x1f\x7f]/.test(raw)) throw new UrlError('net/url: invalid control character in URL');
  const url: ParsedUrl = { scheme: '', host: '', path: '', query: '', opaque: '', userinfo: '' };
  if (raw === '*') return { ...url, path: '*' };
  let [scheme, rest] = getScheme(raw);
  url.scheme = scheme.toLowerCase();
  const q = rest.indexOf('?');
  if (q >= 0) {
    url.query = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  if (!rest.startsWith('/')) {
    if (url.scheme !== '') return { ...url, opaque: rest };
    const slash = rest.indexOf('/');
    if ((slash < 0 ? rest : rest.slice(0, slash)).includes(':'))
      throw new UrlError('first path segment in URL cannot contain colon');
  }
  if ((url.scheme !== '' || !rest.startsWith('///')) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    const slash = authority.indexOf('/');
    rest = slash >= 0 ? authority.slice(slash) : '';
    if (slash >= 0) authority = authority.slice(0, slash);
    Object.assign(url, parseAuthority(url.scheme, authority));
  }
  url.path = unescape(rest, 'path');
  return url;
}

/** `URL.Hostname()`: the host without its port and IPv6 brackets. */
function hostname(host: string): string {
  let h = host;
  const colon = h.lastIndexOf(':');
  if (colon >= 0 && validOptionalPort(h.slice(colon))) h = h.slice(0, colon);
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  return h;
}

/** sprig `urlParse`: the URL's parts, or the template error Go reports. */
export function urlParse(raw: string): GoMap {
  const hash = raw.indexOf('#');
  const withoutFragment = hash >= 0 ? raw.slice(0, hash) : raw;
  let url: ParsedUrl;
  let fragment = '';
  try {
    url = parse(withoutFragment);
  } catch (e) {
    if (e instanceof UrlError) fail(`unable to parse url: parse ${quote(withoutFragment)}: ${e.message}`);
    throw e;
  }
  try {
    if (hash >= 0) fragment = unescape(raw.slice(hash + 1), 'fragment');
  } catch (e) {
    if (e instanceof UrlError) fail(`unable to parse url: parse ${quote(raw)}: ${e.message}`);
    throw e;
  }
  const d = makeMap();
  d['scheme'] = url.scheme;
  d['host'] = url.host;
  d['hostname'] = hostname(url.host);
  d['path'] = url.path;
  d['query'] = url.query;
  d['opaque'] = url.opaque;
  d['fragment'] = fragment;
  d['userinfo'] = url.userinfo;
  return d;
}
