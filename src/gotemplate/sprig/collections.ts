/** sprig list and dict functions (list.go, dict.go). */
import {
  type GoFunc,
  type GoMap,
  type GoValue,
  GoInt,
  deepEqual,
  hasKey,
  isMap,
  makeMap,
  makeSlice,
  nodeBudget,
  sliceElemType,
  sortedKeys,
  typeName,
} from '../values.js';
import { empty, fail, fn, kindForError, mustName, strvals, toInt64 } from './util.js';

function listOp<T>(name: string, v: GoValue, f: (l: GoValue[]) => T, verb: string): T {
  const k = kindForError(v);
  if (!Array.isArray(v)) fail(`Cannot ${verb} ${k}`);
  void name;
  return f(v);
}

function must(name: string, verb: string, f: (l: GoValue[], args: GoValue[]) => GoValue): GoFunc[] {
  const mk = (n: string): GoFunc => fn(n, ['any'], ([l, ...rest]) => listOp(n, l, (arr) => f(arr, rest), verb));
  return [mk(name), mk(mustName(name))];
}

function nilSlice(): GoValue {
  // Go's nil []interface{} prints as [] and is empty.
  return makeSlice([]);
}

function deepCopy(v: GoValue, visit = nodeBudget('copying')): GoValue {
  visit();
  if (Array.isArray(v))
    return makeSlice(
      v.map((x) => deepCopy(x, visit)),
      sliceElemType(v),
    );
  if (isMap(v)) {
    const out = makeMap();
    for (const k of Object.keys(v)) out[k] = deepCopy(v[k], visit);
    return out;
  }
  return v;
}

/** mergo-style deep merge of src into dst (maps in place). */
function mergeInto(dst: GoMap, src: GoMap, overwrite: boolean, visit = nodeBudget('merging')): void {
  for (const k of Object.keys(src)) {
    visit();
    const sv = src[k];
    const exists = hasKey(dst, k);
    const dv = dst[k];
    if (sv === null || sv === undefined) {
      if (overwrite) dst[k] = null;
      continue;
    }
    if (isMap(sv) && exists && isMap(dv)) {
      mergeInto(dv, sv, overwrite, visit);
      continue;
    }
    if ((isMap(sv) || Array.isArray(sv)) && exists && !empty(dv) && !overwrite) continue;
    if (overwrite || !exists || empty(dv)) dst[k] = sv;
  }
}

function toInt(v: GoValue): number {
  return Number(BigInt.asIntN(64, toInt64(v)));
}

export function collectionFuncs(): GoFunc[] {
  const list = (args: GoValue[]): GoValue => makeSlice([...args]);
  return [
    fn('list', [], list, 'any'),
    fn('tuple', [], list, 'any'),
    ...['append', 'push', 'mustAppend', 'mustPush'].map((n) =>
      fn(n, ['any', 'any'], ([l, v]) => listOp(n, l, (a) => makeSlice([...a, v]), 'push on type')),
    ),
    ...['prepend', 'mustPrepend'].map((n) =>
      fn(n, ['any', 'any'], ([l, v]) => listOp(n, l, (a) => makeSlice([v, ...a]), 'prepend on type')),
    ),
    ...['chunk', 'mustChunk'].map((n) =>
      fn(n, ['int', 'any'], ([size, l], ctx) =>
        listOp(
          n,
          l,
          (a) => {
            const sz = Number((size as GoInt).v);
            const len = a.length;
            const cs = Math.floor((len - 1) / sz) + 1;
            if (!Number.isFinite(cs) || cs < 0) fail('runtime error: makeslice: len out of range');
            ctx.charge(cs);
            const out: GoValue[] = [];
            for (let i = 0; i < cs; i++) {
              let clen = sz;
              if (i === cs - 1) {
                clen = Math.floor(len % sz);
                if (clen === 0) clen = sz;
              }
              if (clen < 0) fail('runtime error: makeslice: len out of range');
              const c: GoValue[] = [];
              for (let j = 0; j < clen; j++) {
                const ix = i * sz + j;
                if (ix >= len || ix < 0) fail(`runtime error: index out of range [${ix}] with length ${len}`);
                c.push(a[ix]);
              }
              out.push(makeSlice(c));
            }
            return makeSlice(out, '[]interface {}');
          },
          'chunk type',
        ),
      ),
    ),
    ...must('last', 'find last on type', (a) => (a.length === 0 ? null : a[a.length - 1])),
    ...must('first', 'find first on type', (a) => (a.length === 0 ? null : a[0])),
    ...must('rest', 'find rest on type', (a) => (a.length === 0 ? nilSlice() : makeSlice(a.slice(1)))),
    ...must('initial', 'find initial on type', (a) => (a.length === 0 ? nilSlice() : makeSlice(a.slice(0, -1)))),
    ...must('reverse', 'find reverse on type', (a) => makeSlice([...a].reverse())),
    ...must('compact', 'compact on type', (a) => makeSlice(a.filter((x) => !empty(x)))),
    ...must('uniq', 'find uniq on type', (a) => {
      const out: GoValue[] = [];
      for (const x of a) if (!out.some((y) => deepEqual(x, y))) out.push(x);
      return makeSlice(out);
    }),
    ...['without', 'mustWithout'].map((n) =>
      fn(
        n,
        ['any'],
        ([l, ...omit]) =>
          listOp(n, l, (a) => makeSlice(a.filter((x) => !omit.some((o) => deepEqual(x, o)))), 'find without on type'),
        'any',
      ),
    ),
    ...['has', 'mustHas'].map((n) =>
      fn(n, ['any', 'any'], ([needle, hay]) => {
        if (hay === null || hay === undefined) return false;
        return listOp(n, hay, (a) => a.some((x) => deepEqual(needle, x)), 'find has on type');
      }),
    ),
    ...['slice', 'mustSlice'].map((n) =>
      fn(
        n,
        ['any'],
        ([l, ...idx]) => {
          const k = kindForError(l);
          if (!Array.isArray(l)) fail(`list should be type of slice or array but ${k}`);
          const a = l;
          if (a.length === 0) return null;
          const start = idx.length > 0 ? toInt(idx[0]) : 0;
          const end = idx.length < 2 ? a.length : toInt(idx[1]);
          if (start < 0 || end < start || end > a.length) {
            fail('reflect.Value.Slice: slice index out of bounds');
          }
          return makeSlice(a.slice(start, end), sliceElemType(a));
        },
        'any',
      ),
    ),
    fn(
      'concat',
      [],
      (lists) => {
        const res: GoValue[] = [];
        for (const l of lists) {
          const k = kindForError(l);
          if (!Array.isArray(l)) fail(`Cannot concat type ${k} as list`);
          for (const x of l) res.push(x);
        }
        return makeSlice(res);
      },
      'any',
    ),
    // dicts
    fn(
      'dict',
      [],
      (v, ctx) => {
        const d = makeMap();
        const keys = strvals(
          v.filter((_, i) => i % 2 === 0),
          ctx,
        );
        keys.forEach((key, j) => (d[key] = 2 * j + 1 >= v.length ? '' : v[2 * j + 1]));
        return d;
      },
      'any',
    ),
    fn('get', ['map', 'string'], ([d, k]) => {
      const m = d as GoMap | null;
      return m && hasKey(m, k as string) ? m[k as string] : '';
    }),
    fn('set', ['map', 'string', 'any'], ([d, k, v]) => {
      if (d === null) fail('assignment to entry in nil map');
      (d as GoMap)[k as string] = v;
      return d;
    }),
    fn('unset', ['map', 'string'], ([d, k]) => {
      if (d !== null) delete (d as GoMap)[k as string];
      return d;
    }),
    fn('hasKey', ['map', 'string'], ([d, k]) => d !== null && hasKey(d as GoMap, k as string)),
    fn(
      'pluck',
      ['string'],
      ([k, ...ds]) => {
        const out: GoValue[] = [];
        for (const d of ds) if (d !== null && hasKey(d as GoMap, k as string)) out.push((d as GoMap)[k as string]);
        return makeSlice(out);
      },
      'map',
    ),
    fn(
      'keys',
      [],
      (ds) => {
        const out: string[] = [];
        for (const d of ds) if (d !== null) out.push(...sortedKeys(d as GoMap));
        return makeSlice(out, 'string');
      },
      'map',
    ),
    fn(
      'pick',
      ['map'],
      ([d, ...ks]) => {
        const res = makeMap();
        for (const k of ks)
          if (d !== null && hasKey(d as GoMap, k as string)) res[k as string] = (d as GoMap)[k as string];
        return res;
      },
      'string',
    ),
    fn(
      'omit',
      ['map'],
      ([d, ...ks]) => {
        const res = makeMap();
        if (d !== null) for (const k of Object.keys(d as GoMap)) if (!ks.includes(k)) res[k] = (d as GoMap)[k];
        return res;
      },
      'string',
    ),
    ...[
      ['merge', false, false],
      ['mustMerge', false, true],
      ['mergeOverwrite', true, false],
      ['mustMergeOverwrite', true, true],
    ].map(([n, ow]) =>
      fn(
        n as string,
        ['map'],
        ([dst, ...srcs]) => {
          let d = dst as GoMap | null;
          for (const s of srcs) {
            if (s === null) continue;
            if (d === null) d = makeMap();
            mergeInto(d, s as GoMap, ow as boolean);
          }
          return d ?? makeMap();
        },
        'map',
      ),
    ),
    fn('values', ['map'], ([d]) => {
      const out: GoValue[] = [];
      if (d !== null) for (const k of sortedKeys(d as GoMap)) out.push((d as GoMap)[k]);
      return makeSlice(out);
    }),
    fn('deepCopy', ['any'], ([v]) =>
      v === null || v === undefined ? fail('reflect: call of reflect.Value.Type on zero Value') : deepCopy(v),
    ),
    fn('mustDeepCopy', ['any'], ([v]) =>
      v === null || v === undefined ? fail('reflect: call of reflect.Value.Type on zero Value') : deepCopy(v),
    ),
    fn(
      'dig',
      [],
      (ps) => {
        if (ps.length < 3) fail('dig needs at least three arguments');
        let dict = ps[ps.length - 1];
        const def = ps[ps.length - 2];
        if (!isMap(dict))
          fail(`interface conversion: interface {} is ${dict === null ? 'nil' : 'not'} map[string]interface {}`);
        const ks = ps.slice(0, -2).map((k) => {
          if (typeof k !== 'string') fail('interface conversion: interface {} is not string');
          return k;
        });
        for (const [i, k] of ks.entries()) {
          const m: GoMap = dict;
          if (!hasKey(m, k)) return def;
          const step = m[k];
          if (i === ks.length - 1) return step;
          if (!isMap(step))
            fail(
              `interface conversion: interface {} is ${step === null ? 'nil' : typeName(step)}, not map[string]interface {}`,
            );
          dict = step;
        }
        return def;
      },
      'any',
    ),
  ];
}
