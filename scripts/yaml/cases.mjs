// Plain scalars for the differential test against Kubernetes' YAML decoder (k8s-yaml-oracle):
// a hand list (the oracle README's table, the issue's examples, resolve.go's edge cases) and a
// seeded generator. Plain ESM, shared by test/yaml/ and scripts/yaml/oracle-campaign.mjs.
//
// Every scalar is a valid plain scalar in block context, and in flow context unless `isFlowSafe`
// says otherwise (no comment or document markers, no flow indicators up front): what is tested is
// how its text resolves, not YAML syntax.
import { prng } from '../prng.mjs';

/** The oracle README's table, the issue's examples, and resolve.go / strconv edge cases. */
export const HAND_LIST = [
  // ../shared/tools/k8s-yaml-oracle/README.md
  'e1000',
  '1:20',
  '12:30:00',
  'yes',
  'on',
  'y',
  '0x1F',
  '1_000',
  '0o12',
  '012',
  '0b101',
  '1e3',
  '1E3',
  '.5',
  '+1',
  '1.',
  '2026-01-01',
  '~',
  'Null',
  '.inf',
  '-.inf',
  '.nan',
  '1e400',
  '9007199254740993',
  '3.14159265358979',
  // issue 12 (writing): strings Kubernetes reads back as something else
  'null',
  'Yes',
  'YES',
  'On',
  'ON',
  'Y',
  'n',
  'N',
  'no',
  'No',
  'NO',
  'off',
  'Off',
  'OFF',
  'true',
  'True',
  'TRUE',
  'false',
  'False',
  'FALSE',
  'NULL',
  // the Proxmox NIC models of a real enum, and base-60 look-alikes
  'virtio',
  'rtl8139',
  'vmxnet3',
  'e1000e',
  'E1000',
  '190:20:30.15',
  '-1:20',
  '+1:20',
  '1:60',
  '1_0:20',
  // words only by their exact spelling
  'yES',
  'tRUE',
  'nULL',
  'oN',
  'oFF',
  'NaN',
  'Inf',
  'inf',
  '+inf',
  '-Infinity',
  'infinity',
  '.Inf',
  '.INF',
  '+.inf',
  '+.INF',
  '-.Inf',
  '.NaN',
  '.NAN',
  '.nAn',
  '<<',
  // strconv.ParseInt/ParseUint base 0, after resolve.go removes every underscore
  '0',
  '-0',
  '+0',
  '00',
  '07',
  '08',
  '09',
  '0777',
  '0o777',
  '0O17',
  '0o8',
  '0x',
  '0xg',
  '0X1f',
  '0x_1F',
  '0_x1F',
  '0b',
  '0b2',
  '0B101',
  '0b_101',
  '0b-101',
  '0b+1',
  '-0b101',
  '-0b-1',
  '1__0',
  '1_',
  '_1',
  '-_1',
  '+_1',
  '+',
  '--1',
  '+-1',
  '0x1p-2',
  '1_e5',
  // int64 / uint64 / float64 boundaries
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775808',
  '-9223372036854775809',
  '18446744073709551615',
  '18446744073709551616',
  '0x7FFFFFFFFFFFFFFF',
  '0x8000000000000000',
  '0xFFFFFFFFFFFFFFFF',
  '0x10000000000000000',
  '-0x8000000000000000',
  '-0x8000000000000001',
  '01777777777777777777777',
  '02000000000000000000000',
  '9007199254740992',
  '9007199254740994',
  '-9007199254740993',
  '1.7976931348623157e308',
  '1.7976931348623159e308',
  '1.8e308',
  '-1.8e308',
  '4.9e-324',
  '2e-324',
  '1e-400',
  '.5e400',
  '.5e-400',
  '123456789012345678901234567890',
  '0.1',
  '-0.0',
  '+0.0',
  '1e21',
  '1e-7',
  '1.5e-7',
  '100000000000000000000',
  // float syntax: resolve.go's yamlStyleFloat, and strconv.ParseFloat for a leading dot
  '1.e5',
  '.e5',
  '1e',
  '1e+',
  'e5',
  'E5',
  '1.5.5',
  '1e5.5',
  '.5_0',
  '._5',
  '.5_',
  '.5__0',
  '.5e1_0',
  '.5e_1',
  '.5e+_1',
  '1_0.5',
  '1e1_0',
  '0.',
  '-.5',
  '+.5e+5',
  '.',
  '..',
  '.5.',
  // map keys: ints in decimal, floats as float32 %g, booleans as true/false
  '1.0',
  '1e6',
  '1000000',
  '12345678.0',
  '0.000012345',
  '123456.7',
  '1e39',
  '-1e39',
  '16777217',
  '0.1e1',
  '3.4028235e38',
  '1e-45',
  '1e-46',
  // timestamps (strings either way; quoted when written, as go-yaml v2 quotes them)
  '2001-12-14t21:59:43.10-05:00',
  '2001-12-14T21:59:43Z',
  '2001-1-2',
  '2001-13-01',
  '2001-02-29',
  '2000-02-29',
  '2001-12-14T24:00:00Z',
  '2001-12-14 21:59:43.10',
  '2001-12-14T21:59:43,5',
  '2001-12-14T21:59:43',
  '20011-1-1',
  '2001-001-01',
  '12:30',
  '1:2:3:4',
  // anything else is a string
  'v1.30.0',
  'v1.36.0+rke2r1',
  '1.30',
  '1.30.0',
  '0.0.0.0',
  '10.0.0.0/8',
  'a:b',
  'http://x',
  '-x',
  '+x',
  '~x',
  'x~',
  'é',
  '日本',
  '0e0',
  'ee',
  'Ox1',
  'o12',
];

const WORDS = ['y', 'yes', 'n', 'no', 'true', 'false', 'on', 'off', 'null', '~', '.nan', '.inf', '+.inf', '-.inf'];
const BOUNDARIES = [
  '9007199254740992',
  '9223372036854775807',
  '18446744073709551615',
  '1.7976931348623157e308',
  '4.9e-324',
  '16777216',
  '3.4028234e38',
];

/** `count` random plain scalars for `seed`, biased towards the texts where resolvers differ. */
export function randomScalars(seed, count) {
  const r = prng(seed);
  const int = (n) => Math.floor(r() * n);
  const pick = (s) => s[int(s.length)];
  const chars = (alphabet, min, max) => {
    let s = '';
    for (let i = min + int(max - min + 1); i > 0; i--) s += pick(alphabet);
    return s;
  };
  const sign = () => pick(['', '', '', '-', '+']);
  const underscored = (digits) => (r() < 0.2 ? digits.replace(/(?<=.)(?=.)/g, () => (r() < 0.15 ? '_' : '')) : digits);
  const randomCase = (s) =>
    [...s].map((c) => (r() < 0.3 ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c)).join('');
  const generators = [
    // decimal numbers: sign, digits (leading zeros, underscores), fraction, exponent
    () => {
      const mantissa =
        r() < 0.15
          ? `.${chars('0123456789', 1, 6)}`
          : `${chars('0123456789', 1, r() < 0.2 ? 24 : 8)}${r() < 0.4 ? `.${chars('0123456789', 0, 6)}` : ''}`;
      const exponent =
        r() < 0.3 ? `${pick(['e', 'E'])}${pick(['', '+', '-'])}${chars('0123456789', r() < 0.1 ? 0 : 1, 3)}` : '';
      return sign() + underscored(mantissa + exponent);
    },
    // base prefixes, valid and not, up to beyond 64 bits
    () =>
      `${sign()}0${pick(['x', 'X', 'o', 'O', 'b', 'B'])}${underscored(chars(pick(['01', '01234567', '0123456789abcdefABCDEF', '0123456789xg']), 0, r() < 0.2 ? 22 : 8))}`,
    // leading-zero octal-looking integers
    () => sign() + underscored(`0${chars('0123456789', 1, 12)}`),
    // the words of resolve.go's table, in random case and with near misses
    () => {
      const w = randomCase(pick(WORDS));
      return r() < 0.15 ? w + pick(['s', '1', '.', 'x']) : w;
    },
    // dates, times, zones and base-60 look-alikes
    () => {
      const n = (max) => String(int(max)).padStart(r() < 0.5 ? 2 : 1, '0');
      const date = `${chars('0123456789', 4, 4)}-${n(14)}-${n(33)}`;
      const time = `${n(26)}:${n(62)}:${n(62)}${r() < 0.3 ? `${pick(['.', ','])}${chars('0123456789', 1, 4)}` : ''}`;
      switch (int(4)) {
        case 0:
          return date;
        case 1:
          return `${date}${pick(['T', 't'])}${time}${pick(['Z', '', `+${n(15)}:${n(60)}`, `-${n(15)}:30`])}`;
        case 2:
          return `${date} ${time}`.replace(' ', r() < 0.5 ? ' ' : 'T');
        default:
          return `${sign()}${chars('0123456789', 1, 3)}${r() < 0.2 ? '_' : ''}:${n(70)}${r() < 0.5 ? `:${n(70)}` : ''}${r() < 0.3 ? `.${chars('0123456789', 0, 3)}` : ''}`;
      }
    },
    // short texts from resolve.go's alphabet
    () => chars('0123456789+-._eExXoObBnNaAfFiItTyY~:', 1, 7),
    // boundaries: neighbours of 2^53, 2^63, 2^64, float64 and float32 limits
    () => {
      const b = pick(BOUNDARIES);
      if (b.includes('e')) return sign() + b.replace(/\d(?=e)/, (d) => String((Number(d) + int(3)) % 10));
      const v = BigInt(b) + BigInt(int(5) - 2);
      return sign() + (r() < 0.3 ? `0x${v.toString(16)}` : String(v));
    },
    // doubles in every magnitude, printed as JavaScript prints them (float keys, exponent forms)
    () => {
      const x = (r() - 0.5) * 10 ** (int(80) - 40);
      return pick([String(x), x.toPrecision(1 + int(17)), x.toExponential(int(10)), Math.fround(x).toString()]);
    },
    // other words
    () =>
      pick(['v', 'x', 'é', 'ü1', 'a1', 'Z9', 'node', 'e', 'E', 'x1e3', 'nan', 'inf']) +
      (r() < 0.5 ? chars('0123456789.', 0, 3) : ''),
  ];
  const out = [];
  while (out.length < count) {
    const s = pick(generators)();
    if (isSafePlain(s)) out.push(s);
  }
  return out;
}

/**
 * Plain in every block position of the test: not empty, no YAML indicator up front, no document
 * marker, single inner spaces only, no `: `, ` #` or trailing `:` (what is tested is resolution,
 * not syntax). Scalars with a comma are tested in block positions only (`isFlowSafe`).
 */
export function isSafePlain(s) {
  return (
    s !== '' &&
    !/^[-?:,](?:$|\s)/.test(s) &&
    !/^(?:---|\.\.\.)/.test(s) &&
    !/[\t\n\r[\]{}#&*!|>'"%@`]|^ | $|  |: /.test(s) &&
    !/:$/.test(s)
  );
}

/** go-yaml v2 (YAML 1.1) also refuses a leading `:` in flow context, where the yaml package (YAML 1.2) takes it. */
export const isFlowSafe = (s) => !s.includes(',') && !s.startsWith(':');

/** The sample CI runs from recorded oracle answers (test/golden/yaml/): the hand list and these seeded scalars. */
export const CI_SAMPLE = { seed: 20261123, scalars: 400 };
/** The full campaign the live test runs against the binary (YAML_ORACLE_SEED / YAML_ORACLE_SCALARS change it). */
export const LIVE_CAMPAIGN = { seed: 20261123, scalars: 20000 };
