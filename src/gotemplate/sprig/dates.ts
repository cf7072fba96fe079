/** sprig date functions in the hermetic map: toDate, mustToDate, unixEpoch, duration, durationRound, ago, mustDateModify. */
import { type GoFunc, GoInt, GoObject, at } from '../values.js';
import { fail, fn } from './util.js';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** time.Time as seconds since the Unix epoch plus nanoseconds and a fixed zone offset. */
class GoTime extends GoObject {
  override readonly typeName = 'time.Time';
  constructor(
    readonly sec: bigint,
    readonly nsec: number,
    readonly offset: number,
    readonly zone: string,
  ) {
    super();
  }
  static zero(): GoTime {
    return new GoTime(-62135596800n, 0, 0, 'UTC');
  }
  parts(): { y: number; mo: number; d: number; h: number; mi: number; s: number; wd: number } {
    const local = Number(this.sec) + this.offset;
    const days = Math.floor(local / 86400);
    const rem = local - days * 86400;
    // civil from days (Howard Hinnant)
    const z = days + 719468;
    const era = Math.floor(z / 146097);
    const doe = z - era * 146097;
    const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
    const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
    const mp = Math.floor((5 * doy + 2) / 153);
    const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
    const mo = mp < 10 ? mp + 3 : mp - 9;
    const y = yoe + era * 400 + (mo <= 2 ? 1 : 0);
    const wd = ((days % 7) + 11) % 7;
    return { y, mo, d, h: Math.floor(rem / 3600), mi: Math.floor((rem % 3600) / 60), s: rem % 60, wd };
  }
  override stringer(): string {
    const p = this.parts();
    const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
    let s = `${pad(p.y, 4)}-${pad(p.mo)}-${pad(p.d)} ${pad(p.h)}:${pad(p.mi)}:${pad(p.s)}`;
    if (this.nsec) s += '.' + String(this.nsec).padStart(9, '0').replace(/0+$/, '');
    const off = Math.abs(this.offset);
    s += ` ${this.offset < 0 ? '-' : '+'}${pad(Math.floor(off / 3600))}${pad(Math.floor((off % 3600) / 60))} ${this.zone}`;
    return s;
  }
  rfc3339(): string {
    const p = this.parts();
    const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
    let s = `${pad(p.y, 4)}-${pad(p.mo)}-${pad(p.d)}T${pad(p.h)}:${pad(p.mi)}:${pad(p.s)}`;
    if (this.nsec) s += '.' + String(this.nsec).padStart(9, '0').replace(/0+$/, '');
    if (this.offset === 0) return s + 'Z';
    const off = Math.abs(this.offset);
    return s + `${this.offset < 0 ? '-' : '+'}${pad(Math.floor(off / 3600))}:${pad(Math.floor((off % 3600) / 60))}`;
  }
  override equals(o: GoObject): boolean {
    return o instanceof GoTime && o.sec === this.sec && o.nsec === this.nsec && o.offset === this.offset;
  }
  override method(name: string): GoFunc | undefined {
    const p = (): ReturnType<GoTime['parts']> => this.parts();
    switch (name) {
      case 'Unix':
        return fn(name, [], () => GoInt.of('int64', this.sec));
      case 'Year':
        return fn(name, [], () => GoInt.of('int', BigInt(p().y)));
      case 'Day':
        return fn(name, [], () => GoInt.of('int', BigInt(p().d)));
      case 'Hour':
        return fn(name, [], () => GoInt.of('int', BigInt(p().h)));
      case 'Minute':
        return fn(name, [], () => GoInt.of('int', BigInt(p().mi)));
      case 'Second':
        return fn(name, [], () => GoInt.of('int', BigInt(p().s)));
      case 'String':
        return fn(name, [], () => this.stringer());
      case 'IsZero':
        return fn(name, [], () => this.sec === -62135596800n && this.nsec === 0);
    }
    return undefined;
  }
}

function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

const STD_CHUNKS = [
  'January',
  'Jan',
  'Monday',
  'Mon',
  '2006',
  '-07:00:00',
  '-0700',
  '-07:00',
  '-07',
  'Z07:00:00',
  'Z0700',
  'Z07:00',
  'Z07',
  '002',
  '01',
  '02',
  '03',
  '04',
  '05',
  '06',
  '15',
  '_2',
  '1',
  '2',
  '3',
  '4',
  '5',
  'MST',
  'PM',
  'pm',
];

/** time.Parse with a Go layout (common layout elements; zone names other than UTC are not resolved). */
function parseTime(layout: string, value: string): GoTime {
  let y = 1,
    mo = 1,
    d = 1,
    h = 0,
    mi = 0,
    s = 0,
    ns = 0,
    pm: boolean | undefined,
    off: number | undefined;
  let zone = 'UTC';
  let li = 0;
  let vi = 0;
  // time.ParseError names the layout element that failed: the std chunk, or the literal text before the next one.
  let elem = '';
  const bad: () => never = () =>
    fail(
      `parsing time ${JSON.stringify(value)} as ${JSON.stringify(layout)}: cannot parse ${JSON.stringify(value.slice(vi))} as ${JSON.stringify(elem)}`,
    );
  const num = (min: number, max: number): number => {
    const m = new RegExp(`^\\d{${min},${max}}`).exec(value.slice(vi));
    if (!m) bad();
    vi += m[0].length;
    return parseInt(m[0], 10);
  };
  /** Go's lookup: index of the (case-insensitively) matching full or 3-letter name, consumed. */
  const lookupName = (full: readonly string[], long: boolean): number => {
    const names = long ? full : full.map((m) => m.slice(0, 3));
    const idx = names.findIndex((m) => value.slice(vi, vi + m.length).toLowerCase() === m.toLowerCase());
    const name = names[idx];
    if (name === undefined) bad();
    vi += name.length;
    return idx;
  };
  while (li < layout.length) {
    // fractional seconds: .000 / .999 / ,000
    const frac = /^[.,](0+|9+)/.exec(layout.slice(li));
    if (frac && /^\d/.test(layout[li - 1] ?? '') && layout.slice(li - 2, li) !== '') {
      const [layoutText, digits = ''] = frac;
      li += layoutText.length;
      if (value[vi] !== '.' && value[vi] !== ',') {
        if (digits[0] === '9') continue;
        bad();
      }
      vi++;
      const m = /^\d+/.exec(value.slice(vi));
      if (!m) bad();
      if (digits[0] === '0' && m[0].length !== digits.length) bad();
      ns = Math.round(parseInt(m[0].slice(0, 9).padEnd(9, '0'), 10));
      vi += m[0].length;
      continue;
    }
    const chunk = STD_CHUNKS.find((c) => layout.startsWith(c, li));
    if (!chunk) {
      if (value[vi] !== layout[li]) {
        let end = li + 1;
        while (end < layout.length && !STD_CHUNKS.some((c) => layout.startsWith(c, end))) end++;
        elem = layout.slice(li, end);
        bad();
      }
      li++;
      vi++;
      continue;
    }
    li += chunk.length;
    elem = chunk;
    switch (chunk) {
      case '2006':
        y = num(4, 4);
        break;
      case '06':
        y = num(2, 2);
        y += y >= 69 ? 1900 : 2000;
        break;
      case '01':
        mo = num(2, 2);
        break;
      case '1':
        mo = num(1, 2);
        break;
      case '02':
        d = num(2, 2);
        break;
      case '2':
        d = num(1, 2);
        break;
      case '_2':
        if (value[vi] === ' ') vi++;
        d = num(1, 2);
        break;
      case '002':
        num(3, 3);
        break;
      case '15':
        h = num(1, 2);
        break;
      case '03':
        h = num(2, 2);
        break;
      case '3':
        h = num(1, 2);
        break;
      case '04':
        mi = num(2, 2);
        break;
      case '4':
        mi = num(1, 2);
        break;
      case '05':
        s = num(2, 2);
        break;
      case '5':
        s = num(1, 2);
        break;
      case 'January':
      case 'Jan':
        mo = lookupName(MONTHS, chunk === 'January') + 1;
        break;
      case 'Monday':
      case 'Mon':
        lookupName(DAYS, chunk === 'Monday');
        break;
      case 'PM':
      case 'pm': {
        const t = value.slice(vi, vi + 2).toUpperCase();
        if (t !== 'AM' && t !== 'PM') bad();
        pm = t === 'PM';
        vi += 2;
        break;
      }
      case 'MST': {
        const m = /^[A-Z]{3,5}/.exec(value.slice(vi));
        if (!m) bad();
        zone = m[0];
        vi += zone.length;
        if (zone === 'UTC' || zone === 'GMT') off = 0;
        break;
      }
      default: {
        // zone offsets
        if (chunk.startsWith('Z') && value[vi] === 'Z') {
          vi++;
          off = 0;
          break;
        }
        const m = /^([+-])(\d\d)(?::?(\d\d))?(?::?(\d\d))?/.exec(value.slice(vi));
        if (!m) bad();
        const [text, sign, hours = '', minutes = '0', seconds = '0'] = m;
        vi += text.length;
        off =
          (sign === '-' ? -1 : 1) * (parseInt(hours, 10) * 3600 + parseInt(minutes, 10) * 60 + parseInt(seconds, 10));
        zone = '';
      }
    }
  }
  if (vi !== value.length)
    fail(`parsing time ${JSON.stringify(value)}: extra text: ${JSON.stringify(value.slice(vi))}`);
  if (pm !== undefined) {
    if (h > 12) bad();
    if (pm && h < 12) h += 12;
    if (!pm && h === 12) h = 0;
  }
  const dim = [31, (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  if (mo < 1 || mo > 12) fail(`parsing time ${JSON.stringify(value)}: month out of range`);
  if (d < 1 || d > at(dim, mo - 1)) fail(`parsing time ${JSON.stringify(value)}: day out of range`);
  if (h > 23 || mi > 59 || s > 59) fail(`parsing time ${JSON.stringify(value)}: hour/minute/second out of range`);
  const offset = off ?? 0;
  const local = BigInt(daysFromCivil(y, mo, d)) * 86400n + BigInt(h * 3600 + mi * 60 + s);
  if (zone === '' && offset === 0) zone = 'UTC';
  if (zone === '') {
    const a = Math.abs(offset);
    const pad = (n: number): string => String(n).padStart(2, '0');
    zone = `${offset < 0 ? '-' : '+'}${pad(Math.floor(a / 3600))}${pad(Math.floor((a % 3600) / 60))}`;
  }
  return new GoTime(local - BigInt(offset), ns, offset, zone);
}

/** time.Duration.String() */
function durationString(d: bigint): string {
  if (d === 0n) return '0s';
  const neg = d < 0n;
  const u = neg ? -d : d;
  let out: string;
  if (u < 1000000000n) {
    // sub-second
    let unit: string;
    let prec: number;
    if (u < 1000n) return (neg ? '-' : '') + u + 'ns';
    if (u < 1000000n) {
      unit = 'µs';
      prec = 3;
    } else {
      unit = 'ms';
      prec = 6;
    }
    const whole = u / 10n ** BigInt(prec);
    const frac = (u % 10n ** BigInt(prec)).toString().padStart(prec, '0').replace(/0+$/, '');
    out = whole.toString() + (frac ? '.' + frac : '') + unit;
  } else {
    const secs = u / 1000000000n;
    const frac = (u % 1000000000n).toString().padStart(9, '0').replace(/0+$/, '');
    const h = secs / 3600n;
    const m = (secs % 3600n) / 60n;
    const s = secs % 60n;
    out = (h > 0n ? h + 'h' : '') + (h > 0n || m > 0n ? m + 'm' : '') + s + (frac ? '.' + frac : '') + 's';
  }
  return (neg ? '-' : '') + out;
}

/** time.ParseDuration */
function parseDuration(s: string): bigint {
  const orig = s;
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') fail(`time: invalid duration ${JSON.stringify(orig)}`);
  const units: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, μs: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };
  let total = 0;
  const re = /^(\d*)(?:\.(\d*))?(ns|us|\u00b5s|\u03bcs|ms|s|m|h)/;
  while (s !== '') {
    const [text = '', whole = '', fraction = '', unitName = ''] = re.exec(s) ?? [];
    if (whole === '' && fraction === '') fail(`time: invalid duration ${JSON.stringify(orig)}`);
    const unit =
      units[unitName] ?? fail(`time: unknown unit ${JSON.stringify(unitName)} in duration ${JSON.stringify(orig)}`);
    total += parseFloat(`${whole || '0'}.${fraction || '0'}`) * unit;
    s = s.slice(text.length);
  }
  return BigInt(Math.round(neg ? -total : total));
}

/** Fixed "now" used by the deterministic ago/durationRound: 2024-01-01T00:00:00Z. */
const FIXED_NOW = 1704067200n;

export function dateFuncs(): GoFunc[] {
  const toDate = (layout: string, value: string): GoTime => parseTime(layout, value);
  return [
    fn('toDate', ['string', 'string'], ([f, s]) => {
      try {
        return toDate(f as string, s as string);
      } catch {
        return GoTime.zero();
      }
    }),
    fn('mustToDate', ['string', 'string'], ([f, s]) => toDate(f as string, s as string)),
    fn('unixEpoch', ['time'], ([t]) => (t as GoTime).sec.toString()),
    fn('duration', ['any'], ([v]) => {
      let n = 0n;
      if (typeof v === 'string') n = /^[+-]?\d+$/.test(v) ? BigInt.asIntN(64, BigInt(v)) : 0n;
      else if (v instanceof GoInt && v.kind === 'int64') n = v.v;
      return durationString(BigInt.asIntN(64, n * 1000000000n));
    }),
    fn('durationRound', ['any'], ([v], ctx) => {
      let d = 0n;
      if (typeof v === 'string') {
        try {
          d = parseDuration(v);
        } catch {
          d = 0n;
        }
      } else if (v instanceof GoInt && v.kind === 'int64') d = v.v;
      else if (v instanceof GoTime) {
        ctx.warn(
          'durationRound of a time depends on the current time; this renderer uses a fixed "now" (2024-01-01T00:00:00Z)',
        );
        d = (FIXED_NOW - v.sec) * 1000000000n;
      }
      let u = d < 0n ? -d : d;
      u = BigInt.asUintN(64, u);
      const hour = 3600n * 1000000000n;
      const table: [bigint, string][] = [
        [hour * 24n * 365n, 'y'],
        [hour * 24n * 30n, 'mo'],
        [hour * 24n, 'd'],
        [hour, 'h'],
        [60n * 1000000000n, 'm'],
        [1000000000n, 's'],
      ];
      for (const [unit, suffix] of table) if (u > unit) return (u / unit).toString() + suffix;
      return '0s';
    }),
    fn('ago', ['any'], ([v], ctx) => {
      ctx.warn('ago depends on the current time; this renderer uses a fixed "now" (2024-01-01T00:00:00Z)');
      let t = FIXED_NOW;
      if (v instanceof GoTime) t = v.sec;
      else if (v instanceof GoInt && (v.kind === 'int64' || v.kind === 'int')) t = v.v;
      return durationString((FIXED_NOW - t) * 1000000000n);
    }),
    ...['mustDateModify', 'must_date_modify'].map((n) =>
      fn(n, ['string', 'time'], ([f, t]) => {
        const d = parseDuration(f as string);
        const tt = t as GoTime;
        const total = BigInt(tt.nsec) + d;
        const sec = tt.sec + total / 1000000000n - (total % 1000000000n < 0n ? 1n : 0n);
        const ns = Number(((total % 1000000000n) + 1000000000n) % 1000000000n);
        return new GoTime(sec, ns, tt.offset, tt.zone);
      }),
    ),
  ];
}
