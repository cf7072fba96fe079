/** sprig numeric functions (numeric.go): int64 arithmetic via spf13/cast, decimal float ops. */
import { parseInt0 } from '../parser.js';
import { type GoFunc, type GoValue, GoInt, goInt, goInt64, makeSlice } from '../values.js';
import { sprint } from '../fmt.js';
import { seededRandom } from './strings.js';
import { fail, fn, toFloat64, toInt64 } from './util.js';

const i64 = (v: bigint): GoInt => goInt64(BigInt.asIntN(64, v));

/** shopspring/decimal subset: value = m * 10^e. */
interface Dec {
  m: bigint;
  e: number;
}

function decFromFloat(f: number): Dec {
  if (!Number.isFinite(f)) fail(`Cannot create a Decimal from ${Number.isNaN(f) ? 'NaN' : f > 0 ? '+Inf' : '-Inf'}`);
  if (f === 0) return { m: 0n, e: 0 };
  const s = f.toExponential(); // shortest round-trip digits
  const [mant, ex] = s.split('e') as [string, string];
  const neg = mant.startsWith('-');
  const digits = mant.replace('-', '').replace('.', '');
  const e = parseInt(ex, 10) - (digits.length - 1);
  const m = BigInt(digits);
  return { m: neg ? -m : m, e };
}

function align(a: Dec, b: Dec): [bigint, bigint, number] {
  const e = Math.min(a.e, b.e);
  return [a.m * 10n ** BigInt(a.e - e), b.m * 10n ** BigInt(b.e - e), e];
}

function decToFloat(d: Dec): number {
  if (d.m === 0n) return 0;
  return Number(`${d.m}e${d.e}`);
}

type DecOp = 'add' | 'sub' | 'mul' | 'div';
const decOps: Record<DecOp, (a: Dec, b: Dec) => Dec> = {
  add: (a, b) => {
    const [x, y, e] = align(a, b);
    return { m: x + y, e };
  },
  sub: (a, b) => {
    const [x, y, e] = align(a, b);
    return { m: x - y, e };
  },
  mul: (a, b) => ({ m: a.m * b.m, e: a.e + b.e }),
  div: (a, b) => {
    if (b.m === 0n) fail('decimal division by 0');
    // DivRound(b, 16): quotient rounded half away from zero to 16 decimal places.
    const prec = 16;
    // q = a/b * 10^prec as integer with rounding
    let num = a.m;
    let den = b.m;
    const shift = a.e - b.e + prec; // value = (num/den) * 10^(a.e-b.e)
    if (shift >= 0) num *= 10n ** BigInt(shift);
    else den *= 10n ** BigInt(-shift);
    const neg = num < 0n !== den < 0n;
    const an = num < 0n ? -num : num;
    const ad = den < 0n ? -den : den;
    let q = an / ad;
    const r = an % ad;
    if (r * 2n >= ad) q += 1n;
    return { m: neg ? -q : q, e: -prec };
  },
};

function decimalOp(op: DecOp, first: GoValue, rest: GoValue[]): number {
  let acc = decFromFloat(toFloat64(first));
  for (const x of rest) acc = decOps[op](acc, decFromFloat(toFloat64(x)));
  return decToFloat(acc);
}

function untilStep(start: bigint, stop: bigint, step: bigint, charge: (n: number) => void): bigint[] {
  const v: bigint[] = [];
  if (stop < start) {
    if (step >= 0n) return v;
    for (let i = start; i > stop; i += step) {
      v.push(i);
      if (v.length % 1024 === 0) charge(1024);
    }
    return v;
  }
  if (step <= 0n) return v;
  for (let i = start; i < stop; i += step) {
    v.push(i);
    if (v.length % 1024 === 0) charge(1024);
  }
  return v;
}

const intSlice = (v: bigint[]): GoValue =>
  makeSlice(
    v.map((x) => goInt(x)),
    'int',
  );

function goMathRound(a: GoValue, p: GoInt, rOpt: GoValue[]): number {
  const roundOn = rOpt.length > 0 ? (rOpt[0] as number) : 0.5;
  const val = toFloat64(a);
  const places = Number(p.v);
  const pow = Math.pow(10, places);
  const digit = pow * val;
  const div = digit - Math.trunc(digit);
  const r = div >= roundOn ? Math.ceil(digit) : Math.floor(digit);
  return r / pow;
}

export function numericFuncs(): GoFunc[] {
  return [
    fn('add1', ['any'], ([i]) => i64(toInt64(i) + 1n)),
    fn('add', [], (xs) => i64(xs.reduce<bigint>((a, b) => BigInt.asIntN(64, a + toInt64(b)), 0n)), 'any'),
    fn('sub', ['any', 'any'], ([a, b]) => i64(toInt64(a) - toInt64(b))),
    fn('div', ['any', 'any'], ([a, b]) => {
      const d = toInt64(b);
      if (d === 0n) fail('runtime error: integer divide by zero');
      return i64(toInt64(a) / d);
    }),
    fn('mod', ['any', 'any'], ([a, b]) => {
      const d = toInt64(b);
      if (d === 0n) fail('runtime error: integer divide by zero');
      return i64(toInt64(a) % d);
    }),
    fn(
      'mul',
      ['any'],
      ([a, ...v]) => i64(v.reduce<bigint>((acc, b) => BigInt.asIntN(64, acc * toInt64(b)), toInt64(a))),
      'any',
    ),
    ...['max', 'biggest'].map((n) =>
      fn(
        n,
        ['any'],
        ([a, ...v]) =>
          i64(
            v.reduce<bigint>((acc, b) => {
              const x = toInt64(b);
              return x > acc ? x : acc;
            }, toInt64(a)),
          ),
        'any',
      ),
    ),
    fn(
      'min',
      ['any'],
      ([a, ...v]) =>
        i64(
          v.reduce<bigint>((acc, b) => {
            const x = toInt64(b);
            return x < acc ? x : acc;
          }, toInt64(a)),
        ),
      'any',
    ),
    fn('maxf', ['any'], ([a, ...v]) => v.reduce<number>((acc, b) => goMax(acc, toFloat64(b)), toFloat64(a)), 'any'),
    fn('minf', ['any'], ([a, ...v]) => v.reduce<number>((acc, b) => goMin(acc, toFloat64(b)), toFloat64(a)), 'any'),
    fn('ceil', ['any'], ([a]) => Math.ceil(toFloat64(a))),
    fn('floor', ['any'], ([a]) => Math.floor(toFloat64(a))),
    fn('round', ['any', 'int'], ([a, p, ...r]) => goMathRound(a, p as GoInt, r), 'float64'),
    fn('int', ['any'], ([v]) => goInt(BigInt.asIntN(64, toInt64(v)))),
    fn('int64', ['any'], ([v]) => i64(toInt64(v))),
    fn('float64', ['any'], ([v]) => toFloat64(v)),
    fn('atoi', ['string'], ([s]) => {
      const str = s as string;
      // strconv.Atoi: base 10, optional sign, no underscores
      if (!/^[+-]?\d+$/.test(str)) return goInt(0);
      const v = BigInt(str);
      if (v > 0x7fffffffffffffffn || v < -0x8000000000000000n) return goInt(0);
      return goInt(v);
    }),
    fn(
      'seq',
      [],
      (ps, ctx) => {
        const p = ps.map((x) => (x as GoInt).v);
        let r: bigint[];
        const ch = (n: number): void => ctx.charge(n);
        switch (p.length) {
          case 0:
            return '';
          case 1: {
            const start = 1n;
            const [end = 0n] = p;
            const inc = end < start ? -1n : 1n;
            r = untilStep(start, end + inc, inc, ch);
            break;
          }
          case 2: {
            const [start = 0n, end = 0n] = p;
            const step = end < start ? -1n : 1n;
            r = untilStep(start, end + step, step, ch);
            break;
          }
          case 3: {
            const [start = 0n, step = 0n, end = 0n] = p;
            let inc = 1n;
            if (end < start) {
              inc = -1n;
              if (step > 0n) return '';
            }
            r = untilStep(start, end + inc, step, ch);
            break;
          }
          default:
            return '';
        }
        return r.join(' ');
      },
      'int',
    ),
    fn('until', ['int'], ([c], ctx) => {
      const count = (c as GoInt).v;
      return intSlice(untilStep(0n, count, count < 0n ? -1n : 1n, (n) => ctx.charge(n)));
    }),
    fn('untilStep', ['int', 'int', 'int'], ([a, b, s], ctx) =>
      intSlice(untilStep((a as GoInt).v, (b as GoInt).v, (s as GoInt).v, (n) => ctx.charge(n))),
    ),
    fn('toDecimal', ['any'], ([v]) => {
      const s = sprint([v ?? null]);
      // strconv.ParseInt(s, 8, 64)
      if (!/^[+-]?[0-7]+$/.test(s)) return goInt64(0);
      const r = parseInt0(s.replace(/^([+-]?)/, '$10o'));
      return goInt64(r ?? 0n);
    }),
    fn('add1f', ['any'], ([i]) => decimalOp('add', i, [goInt(1)])),
    fn('addf', [], (xs) => decimalOp('add', 0, xs), 'any'),
    fn('subf', ['any'], ([a, ...v]) => decimalOp('sub', a, v), 'any'),
    fn('mulf', ['any'], ([a, ...v]) => decimalOp('mul', a, v), 'any'),
    fn('divf', ['any'], ([a, ...v]) => decimalOp('div', a, v), 'any'),
    fn('randInt', ['int', 'int'], ([a, b], ctx) => {
      ctx.warn('randInt is random by nature; this renderer returns a deterministic value (seeded from its arguments)');
      const min = (a as GoInt).v;
      const max = (b as GoInt).v;
      const n = max - min;
      if (n <= 0n) fail('invalid argument to Intn');
      const rnd = seededRandom(`randInt\u0000${min}\u0000${max}`);
      const r = BigInt(Math.floor(rnd() * Number(n)));
      return goInt(r + min);
    }),
  ];
}

function goMax(a: number, b: number): number {
  if (a === Infinity || b === Infinity) return Infinity;
  if (Number.isNaN(a) || Number.isNaN(b)) return NaN;
  return Math.max(a, b);
}
function goMin(a: number, b: number): number {
  if (a === -Infinity || b === -Infinity) return -Infinity;
  if (Number.isNaN(a) || Number.isNaN(b)) return NaN;
  return Math.min(a, b);
}
