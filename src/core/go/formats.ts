/**
 * The string formats the Kubernetes CRD validator checks (kube-openapi `strfmt` default registry,
 * restricted by `StripUnsupportedFormatsPostProcess`; CAPI api/core/v1beta2/clusterclass_types.go). Every other
 * format name is ignored, exactly like the API server does. Checkers avoid backtracking regular
 * expressions on user input: they are hand-written or use RE2 (re2js).
 */
import { RE2JS } from 're2js';

type Check = (s: string) => boolean;

/** An RE2 check, compiled on its first use: compiling every format's pattern cost a fifth of a cold start. */
const re2 = (pattern: string, flags = 0): Check => {
  let re: RE2JS | undefined;
  return (s) => (re ??= RE2JS.compile(pattern, flags)).test(s);
};

const HEX = /^[0-9a-fA-F]+$/;

export function isIPv4(s: string): boolean {
  const parts = s.split('.');
  if (parts.length !== 4) return false;
  return parts.every((p) => /^(0|[1-9][0-9]{0,2})$/.test(p) && Number(p) <= 255);
}

export function isIPv6(s: string): boolean {
  if (!s.includes(':')) return false;
  let head = s;
  let groupsNeeded = 8;
  // An embedded IPv4 tail counts as two groups.
  const lastColon = s.lastIndexOf(':');
  const tail = s.slice(lastColon + 1);
  if (tail.includes('.')) {
    if (!isIPv4(tail)) return false;
    head = s.slice(0, lastColon + 1) + '0';
    groupsNeeded = 7;
  }
  const dbl = head.indexOf('::');
  if (dbl !== head.lastIndexOf('::')) return false;
  const validGroup = (g: string) => g.length >= 1 && g.length <= 4 && HEX.test(g);
  if (dbl === -1) {
    const groups = head.split(':');
    return groups.length === groupsNeeded && groups.every(validGroup);
  }
  const left = head.slice(0, dbl);
  const right = head.slice(dbl + 2);
  const lg = left === '' ? [] : left.split(':');
  const rg = right === '' ? [] : right.split(':');
  if (![...lg, ...rg].every(validGroup)) return false;
  return lg.length + rg.length < groupsNeeded;
}

function isCIDR(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const ip = s.slice(0, slash);
  const bits = s.slice(slash + 1);
  if (!/^[0-9]{1,3}$/.test(bits)) return false;
  const max = isIPv4(ip) ? 32 : isIPv6(ip) ? 128 : -1;
  return max >= 0 && Number(bits) <= max;
}

function isMAC(s: string): boolean {
  // net.ParseMAC: 6, 8 or 20 octets, `:`/`-` separated pairs or `.` separated quads.
  const sepPairs = /^[0-9a-fA-F]{2}([:-])[0-9a-fA-F]{2}(?:\1[0-9a-fA-F]{2})*$/;
  if (sepPairs.test(s)) {
    const n = (s.length + 1) / 3;
    return n === 6 || n === 8 || n === 20;
  }
  if (/^[0-9a-fA-F]{4}(?:\.[0-9a-fA-F]{4})*$/.test(s)) {
    const n = ((s.length + 1) / 5) * 2;
    return n === 6 || n === 8 || n === 20;
  }
  return false;
}

function isURI(s: string): boolean {
  // url.ParseRequestURI: absolute URI or absolute path; no spaces or control characters.
  // eslint-disable-next-line no-control-regex -- Go rejects control characters, so the pattern names them
  if (s === '' || /[\s\u0000-\u001f\u007f]/.test(s)) return false;
  if (s.startsWith('/')) return true;
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):(.*)$/.exec(s);
  return m !== null;
}

function isEmail(s: string): boolean {
  const at = s.lastIndexOf('@');
  if (at <= 0 || at === s.length - 1) return false;
  const local = s.slice(0, at);
  const domain = s.slice(at + 1);
  return (
    /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+$/.test(local) &&
    !local.startsWith('.') &&
    !local.endsWith('.') &&
    /^[A-Za-z0-9.-]+$/.test(domain) &&
    !domain.startsWith('.') &&
    !domain.endsWith('.')
  );
}

const hostnameRE = re2(
  String.raw`^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$`,
);
const isHostname: Check = (s) => s.length <= 255 && hostnameRE(s);

const uuidRE = (v: string) => re2(`^(?i)[0-9a-f]{8}-?[0-9a-f]{4}-?${v}-?[0-9a-f]{12}$`);
const isUUID = uuidRE('[0-9a-f]{4}-?[0-9a-f]{4}');
const isUUID3 = uuidRE('3[0-9a-f]{3}-?[0-9a-f]{4}');
const isUUID4 = uuidRE('4[0-9a-f]{3}-?[89ab][0-9a-f]{3}');
const isUUID5 = uuidRE('5[0-9a-f]{3}-?[89ab][0-9a-f]{3}');

function isISBN10(raw: string): boolean {
  const s = raw.replace(/[\s-]/g, '');
  if (!/^[0-9]{9}[0-9X]$/.test(s)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (i + 1) * Number(s[i]);
  sum += s[9] === 'X' ? 100 : 10 * Number(s[9]);
  return sum % 11 === 0;
}
function isISBN13(raw: string): boolean {
  const s = raw.replace(/[\s-]/g, '');
  if (!/^[0-9]{13}$/.test(s)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(s[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10 === Number(s[12]);
}

const creditCardRE = re2(
  String.raw`^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$`,
);
const isCreditCard: Check = (s) => creditCardRE(s.replace(/[ -]/g, ''));
const isSSN = re2(String.raw`^\d{3}[- ]?\d{2}[- ]?\d{4}$`);
const isHexColor = re2(`^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`);
const byteRange = String.raw`\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*`;
const isRGBColor = re2(`^rgb\\(${byteRange},${byteRange},${byteRange}\\)$`);

function isBase64(s: string): boolean {
  if (s.length % 4 !== 0) return false;
  return /^[A-Za-z0-9+/]*={0,2}$/.test(s);
}

function isValidDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const days = [31, (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return d <= (days[m - 1] as number);
}

function isDate(s: string): boolean {
  const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(s);
  return m !== null && isValidDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

function isDateTime(s: string): boolean {
  const m =
    /^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt ]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})?$/.exec(
      s,
    );
  if (!m) return false;
  if (!isValidDate(Number(m[1]), Number(m[2]), Number(m[3]))) return false;
  return Number(m[4]) < 24 && Number(m[5]) < 60 && Number(m[6]) < 61;
}

const DURATION_UNITS = new Set([
  'ns',
  'us',
  'µs',
  'ms',
  's',
  'm',
  'h',
  'd',
  'w',
  'sec',
  'secs',
  'second',
  'seconds',
  'min',
  'mins',
  'minute',
  'minutes',
  'hr',
  'hrs',
  'hour',
  'hours',
  'day',
  'days',
  'wk',
  'wks',
  'week',
  'weeks',
  'nanosecond',
  'nanoseconds',
  'microsecond',
  'microseconds',
  'millisecond',
  'milliseconds',
]);
function isDuration(s: string): boolean {
  // Go time.ParseDuration syntax, or strfmt's "<n> <unit>" sequences.
  if (/^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|\u00b5s|ms|s|m|h))+$/.test(s) || s === '0') return true;
  const parts = s.trim().match(/\d+\s*[A-Za-z\u00b5]+/g);
  if (!parts || parts.join('').replace(/\s/g, '') !== s.replace(/\s/g, '')) return false;
  return parts.every((p) => DURATION_UNITS.has((/[A-Za-z\u00b5]+$/.exec(p) as RegExpExecArray)[0]));
}

/** `resource.ParseQuantity`. */
export function isQuantity(s: string): boolean {
  const m = /^([+-]?)([0-9]*)(\.[0-9]*)?(.*)$/.exec(s);
  if (!m) return false;
  const digits = (m[2] ?? '') + (m[3] ?? '').slice(1);
  if (digits.length === 0) return false;
  const suffix = m[4] ?? '';
  if (['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E'].includes(suffix))
    return true;
  return /^[eE][+-]?[0-9]+$/.test(suffix);
}

const FORMATS: ReadonlyMap<string, Check> = new Map<string, Check>([
  ['bsonobjectid', (s) => s.length === 24 && HEX.test(s)],
  ['uri', isURI],
  ['email', isEmail],
  ['hostname', isHostname],
  ['ipv4', (s) => isIPv4(s)],
  ['ipv6', (s) => isIPv6(s)],
  ['cidr', isCIDR],
  ['mac', isMAC],
  ['uuid', isUUID],
  ['uuid3', isUUID3],
  ['uuid4', isUUID4],
  ['uuid5', isUUID5],
  ['isbn', (s) => isISBN10(s) || isISBN13(s)],
  ['isbn10', isISBN10],
  ['isbn13', isISBN13],
  ['creditcard', isCreditCard],
  ['ssn', isSSN],
  ['hexcolor', isHexColor],
  ['rgbcolor', isRGBColor],
  ['byte', isBase64],
  ['password', () => true],
  ['date', isDate],
  ['duration', isDuration],
  ['datetime', isDateTime],
  ['quantity', isQuantity],
]);

/** Normalised format name (`date-time` → `datetime`), or undefined when the API server ignores it. */
export function checkedFormatName(format: string): string | undefined {
  const f = format === 'date-time' ? 'datetime' : format;
  return FORMATS.has(f) ? f : undefined;
}

export function formatChecker(format: string): Check | undefined {
  const f = checkedFormatName(format);
  return f === undefined ? undefined : FORMATS.get(f);
}

export const formatNames = (): string[] => [...FORMATS.keys()];
