/** sprig defaults/flow, reflection, path and URL functions. */
import path from 'node:path';
import { type GoFunc, type GoMap, deepEqual, hasKey, kindName, typeName } from '../values.js';
import { empty, fail, fn } from './util.js';
import { urlParse } from './url.js';

function goPathClean(p: string): string {
  if (p === '') return '.';
  const rooted = p[0] === '/';
  const parts = p.split('/');
  const out: string[] = [];
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!rooted) out.push('..');
      continue;
    }
    out.push(part);
  }
  const s = (rooted ? '/' : '') + out.join('/');
  return s === '' ? '.' : s;
}

function goPathBase(p: string): string {
  if (p === '') return '.';
  p = p.replace(/\/+$/, '');
  if (p === '') return '/';
  const i = p.lastIndexOf('/');
  return i >= 0 ? p.slice(i + 1) : p;
}

function goPathDir(p: string): string {
  const i = p.lastIndexOf('/');
  return goPathClean(p.slice(0, i + 1));
}

function goPathExt(p: string): string {
  for (let i = p.length - 1; i >= 0 && p[i] !== '/'; i--) if (p[i] === '.') return p.slice(i);
  return '';
}

function urlJoin(d: GoMap | null): string {
  const get = (k: string): string => {
    if (d === null || !hasKey(d, k)) return '';
    const v = d[k];
    if (typeof v !== 'string') {
      if (v === null || v === undefined) fail('reflect: call of reflect.Value.Type on zero Value');
      fail(`unable to parse ${k} key, must be of type string, but ${kindName(v)} found`);
    }
    return v;
  };
  const scheme = get('scheme');
  const host = get('host');
  const p = get('path');
  const query = get('query');
  const opaque = get('opaque');
  const fragment = get('fragment');
  const userinfo = get('userinfo');
  let s = '';
  if (scheme) s += scheme + ':';
  if (opaque) s += opaque;
  else {
    if (scheme || host || userinfo) {
      if (host || p || userinfo) s += '//';
      if (userinfo) s += userinfo + '@';
      s += host;
    }
    if (p && p[0] !== '/' && host) s += '/';
    s += encodeURI(p).replace(/%25/g, '%');
  }
  if (query) s += '?' + query;
  if (fragment) s += '#' + encodeURI(fragment);
  return s;
}

export function miscFuncs(): GoFunc[] {
  return [
    fn('default', ['any'], ([d, ...given]) => (given.length === 0 || empty(given[0]) ? d : given[0]), 'any'),
    fn('empty', ['any'], ([v]) => empty(v)),
    fn('coalesce', [], (vs) => vs.find((v) => !empty(v)) ?? null, 'any'),
    fn('all', [], (vs) => vs.every((v) => !empty(v)), 'any'),
    fn('any', [], (vs) => vs.some((v) => !empty(v)), 'any'),
    fn('ternary', ['any', 'any', 'bool'], ([t, f, c]) => (c ? t : f)),
    fn('fail', ['string'], ([m]) => fail(m as string)),
    fn('typeOf', ['any'], ([v]) => typeName(v ?? null)),
    fn('typeIs', ['string', 'any'], ([t, v]) => t === typeName(v ?? null)),
    fn('typeIsLike', ['string', 'any'], ([t, v]) => {
      const n = typeName(v ?? null);
      return t === n || `*${t as string}` === n;
    }),
    fn('kindOf', ['any'], ([v]) => kindName(v ?? null)),
    fn('kindIs', ['string', 'any'], ([t, v]) => t === kindName(v ?? null)),
    fn('deepEqual', ['any', 'any'], ([a, b]) => deepEqual(a ?? null, b ?? null)),
    fn('base', ['string'], ([p]) => goPathBase(p as string)),
    fn('dir', ['string'], ([p]) => goPathDir(p as string)),
    fn('clean', ['string'], ([p]) => goPathClean(p as string)),
    fn('ext', ['string'], ([p]) => goPathExt(p as string)),
    fn('isAbs', ['string'], ([p]) => (p as string).startsWith('/')),
    fn('osBase', ['string'], ([p]) => goPathBase(p as string)),
    fn('osClean', ['string'], ([p]) => goPathClean(p as string)),
    fn('osDir', ['string'], ([p]) => goPathDir(p as string)),
    fn('osExt', ['string'], ([p]) => goPathExt(p as string)),
    fn('osIsAbs', ['string'], ([p]) => path.posix.isAbsolute(p as string)),
    fn('urlParse', ['string'], ([s]) => urlParse(s as string)),
    fn('urlJoin', ['map'], ([d]) => urlJoin(d as GoMap | null)),
  ];
}
