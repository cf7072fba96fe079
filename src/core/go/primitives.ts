/**
 * Go/Kubernetes parsing primitives the webhook rules depend on, reproduced with their error
 * texts: `intstr.GetScaledValueFromIntOrPercent`, blang `semver.ParseTolerant`, and
 * `net.ParseCIDR`. Pure functions; `undefined` means "valid".
 */
import { parse as semverParse, type SemVer } from 'semver';
import type { Json } from '../model.js';
import { isIPv4, isIPv6 } from './formats.js';
import { jsonString } from '../json.js';

const INT64_MAX = 9223372036854775807n;
const INT64_MIN = -9223372036854775808n;

/** Go `strconv.Atoi` error for `s`, or undefined when it parses. */
export function atoiError(s: string): string | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return `strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`;
  const n = BigInt(s);
  if (n > INT64_MAX || n < INT64_MIN) return `strconv.Atoi: parsing ${JSON.stringify(s)}: value out of range`;
  return undefined;
}

/**
 * `intstr.GetScaledValueFromIntOrPercent` error (without the caller's prefix): a JSON number is
 * an int (a fractional one cannot be decoded), a string must be `<int>%`.
 */
export function intOrPercentError(v: Json | undefined): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number')
    return Number.isInteger(v) ? undefined : 'invalid value for IntOrString: invalid type: neither int nor percentage';
  if (typeof v !== 'string') return 'invalid value for IntOrString: invalid type: neither int nor percentage';
  if (!v.endsWith('%')) return 'invalid value for IntOrString: invalid type: string is not a percentage';
  const err = atoiError(v.slice(0, -1));
  return err ? `invalid value for IntOrString: invalid value ${jsonString(v)}: ${err}` : undefined;
}

/** `IntOrString.String()`: the bad value the webhooks print. */
export const intOrStringText = (v: Json | undefined): string => (typeof v === 'string' ? v : jsonString(v ?? null));

/** blang `semver.ParseTolerant`: trims spaces and a leading `v`, drops leading zeros, pads `1.2` to `1.2.0`. */
export function parseTolerant(input: string): SemVer | undefined {
  let s = input.trim();
  if (s.startsWith('v')) s = s.slice(1);
  const parts = splitN(s, '.', 3).map((p) => {
    if (p.length <= 1) return p;
    let t = p.replace(/^0+/, '');
    if (t.length === 0 || !/^[0-9]/.test(t)) t = `0${t}`;
    return t;
  });
  if (parts.length < 3) {
    if (/[+-]/.test(parts[parts.length - 1] ?? '')) return undefined;
    while (parts.length < 3) parts.push('0');
  }
  return semverParse(parts.join('.'), { loose: false }) ?? undefined;
}

function splitN(s: string, sep: string, n: number): string[] {
  const out: string[] = [];
  let rest = s;
  while (out.length < n - 1) {
    const i = rest.indexOf(sep);
    if (i < 0) break;
    out.push(rest.slice(0, i));
    rest = rest.slice(i + sep.length);
  }
  out.push(rest);
  return out;
}

/** blang `Version.String()`: `major.minor.patch[-pre][+build]`. */
export function semverText(v: SemVer): string {
  let s = `${v.major}.${v.minor}.${v.patch}`;
  if (v.prerelease.length > 0) s += `-${v.prerelease.join('.')}`;
  if (v.build.length > 0) s += `+${v.build.join('.')}`;
  return s;
}

/**
 * CAPI `util/version/version.go` `Compare(a, b, WithBuildTags())`: -1, 0, 1 by semver precedence, then by build
 * identifiers (numbers before strings, longer wins); 2 when two string identifiers differ and no
 * order can be told.
 */
export function compareVersions(a: SemVer, b: SemVer): number {
  const c = a.compare(b);
  if (c !== 0) return c;
  // A numeric identifier is a bigint, any other a string.
  const ids = (v: SemVer): (bigint | string)[] => v.build.map((s) => (/^[0-9]+$/.test(s) ? BigInt(s) : s));
  const x = ids(a);
  const y = ids(b);
  for (const [i, p] of x.entries()) {
    const q = y[i];
    if (q === undefined) break;
    if (typeof p === 'bigint' && typeof q === 'bigint') {
      if (p !== q) return p < q ? -1 : 1;
    } else if (typeof p === 'bigint') return -1;
    else if (typeof q === 'bigint') return 1;
    else if (p !== q) return 2;
  }
  return x.length === y.length ? 0 : x.length < y.length ? -1 : 1;
}

/** Compares major.minor.patch only (CAPI `version.Compare(..., WithoutPreReleases())`). */
export function compareCore(a: SemVer, b: SemVer): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

/** `net.ParseCIDR` error text, or undefined when valid. */
export function cidrError(s: string): string | undefined {
  const bad = `invalid CIDR address: ${s}`;
  const slash = s.indexOf('/');
  if (slash < 0) return bad;
  const addr = s.slice(0, slash);
  const mask = s.slice(slash + 1);
  const bits = isIPv4(addr) ? 32 : isIPv6(addr) && !addr.includes('%') ? 128 : -1;
  if (bits < 0 || !/^[0-9]+$/.test(mask) || mask.length > 10 || Number(mask) > bits) return bad;
  return undefined;
}
