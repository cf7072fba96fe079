/** sprig semver functions (Masterminds/semver v3): versions with methods, constraints. */
import { type GoFunc, type GoValue, GoInt, GoObject, goInt } from '../values.js';
import { fail, fn } from './util.js';

const versionRe =
  /^v?([0-9]+)(\.[0-9]+)?(\.[0-9]+)?(-([0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*))?(\+([0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*))?$/;

const U64_MAX = 0xffffffffffffffffn;

function parseU64(s: string): bigint {
  const v = BigInt(s);
  if (v > U64_MAX)
    fail(`Error parsing version segment: strconv.ParseUint: parsing ${JSON.stringify(s)}: value out of range`);
  return v;
}

function validatePre(p: string): void {
  for (const part of p.split('.')) {
    if (/^[0-9]+$/.test(part)) {
      if (part.length > 1 && part[0] === '0') fail('version segment starts with 0');
    } else if (!/^[0-9A-Za-z-]*$/.test(part)) fail('invalid prerelease string');
  }
}

export class SemverVersion extends GoObject {
  override readonly typeName: string;
  override readonly isPointer: boolean;
  constructor(
    readonly major: bigint,
    readonly minor: bigint,
    readonly patch: bigint,
    readonly pre: string,
    readonly metadata: string,
    readonly original: string,
    pointer = true,
  ) {
    super();
    this.isPointer = pointer;
    this.typeName = pointer ? '*semver.Version' : 'semver.Version';
  }
  override printFields(): [string, GoValue][] {
    const u = (v: bigint): GoInt => GoInt.of('uint64', v);
    return [
      ['major', u(this.major)],
      ['minor', u(this.minor)],
      ['patch', u(this.patch)],
      ['pre', this.pre],
      ['metadata', this.metadata],
      ['original', this.original],
    ];
  }
  static parse(v: string): SemverVersion {
    const m = versionRe.exec(v);
    if (!m) fail('invalid semantic version');
    const [, majorText = ''] = m;
    const major = parseU64(majorText);
    const minor = m[2] ? parseU64(m[2].slice(1)) : 0n;
    const patch = m[3] ? parseU64(m[3].slice(1)) : 0n;
    const pre = m[5] ?? '';
    const meta = m[8] ?? '';
    if (pre) validatePre(pre);
    if (meta && !meta.split('.').every((p) => /^[0-9A-Za-z-]*$/.test(p))) fail('invalid metadata string');
    return new SemverVersion(major, minor, patch, pre, meta, v);
  }
  override toString(): string {
    let s = `${this.major}.${this.minor}.${this.patch}`;
    if (this.pre) s += '-' + this.pre;
    if (this.metadata) s += '+' + this.metadata;
    return s;
  }
  override stringer(): string {
    return this.toString();
  }
  override fields(): [string, GoValue][] {
    return [];
  }
  vprefix(): string {
    return this.original.startsWith('v') ? 'v' : '';
  }
  with(p: Partial<Pick<SemverVersion, 'major' | 'minor' | 'patch' | 'pre' | 'metadata'>>): SemverVersion {
    const v = new SemverVersion(
      p.major ?? this.major,
      p.minor ?? this.minor,
      p.patch ?? this.patch,
      p.pre ?? this.pre,
      p.metadata ?? this.metadata,
      '',
    );
    const out = new SemverVersion(v.major, v.minor, v.patch, v.pre, v.metadata, this.vprefix() + v.toString(), false);
    return out;
  }
  compare(o: SemverVersion): number {
    for (const k of ['major', 'minor', 'patch'] as const) {
      if (this[k] !== o[k]) return this[k] < o[k] ? -1 : 1;
    }
    if (this.pre === '' && o.pre === '') return 0;
    if (this.pre === '') return 1;
    if (o.pre === '') return -1;
    return comparePrerelease(this.pre, o.pre);
  }
  override equals(o: GoObject): boolean {
    return o instanceof SemverVersion && this.compare(o) === 0 && this.original === o.original;
  }
  override method(name: string): GoFunc | undefined {
    // Methods with pointer receivers are not in the method set of a (non-addressable) Version value.
    if (!this.isPointer && ['Original', 'LessThan', 'GreaterThan', 'Equal', 'Compare'].includes(name)) return undefined;
    const u64 = (v: bigint): GoInt => GoInt.of('uint64', v);
    const other = (v: GoValue): SemverVersion => {
      if (!(v instanceof SemverVersion)) fail('invalid version');
      return v;
    };
    switch (name) {
      case 'Major':
        return fn(name, [], () => u64(this.major));
      case 'Minor':
        return fn(name, [], () => u64(this.minor));
      case 'Patch':
        return fn(name, [], () => u64(this.patch));
      case 'Prerelease':
        return fn(name, [], () => this.pre);
      case 'Metadata':
        return fn(name, [], () => this.metadata);
      case 'Original':
        return fn(name, [], () => this.original);
      case 'String':
        return fn(name, [], () => this.toString());
      case 'IncPatch':
        return fn(name, [], () =>
          this.pre
            ? this.with({ pre: '', metadata: '' })
            : this.with({ pre: '', metadata: '', patch: this.patch + 1n }),
        );
      case 'IncMinor':
        return fn(name, [], () => this.with({ pre: '', metadata: '', patch: 0n, minor: this.minor + 1n }));
      case 'IncMajor':
        return fn(name, [], () => this.with({ pre: '', metadata: '', patch: 0n, minor: 0n, major: this.major + 1n }));
      case 'SetPrerelease':
        return fn(name, ['string'], ([p]) => {
          if (p) validatePre(p as string);
          return this.with({ pre: p as string });
        });
      case 'SetMetadata':
        return fn(name, ['string'], ([p]) => this.with({ metadata: p as string }));
      case 'LessThan':
        return fn(name, ['any'], ([o]) => this.compare(other(o)) < 0);
      case 'GreaterThan':
        return fn(name, ['any'], ([o]) => this.compare(other(o)) > 0);
      case 'Equal':
        return fn(name, ['any'], ([o]) => this.compare(other(o)) === 0);
      case 'Compare':
        return fn(name, ['any'], ([o]) => goInt(this.compare(other(o))));
    }
    return undefined;
  }
}

function comparePrerelease(v: string, o: string): number {
  const sp = v.split('.');
  const op = o.split('.');
  const l = Math.max(sp.length, op.length);
  for (let i = 0; i < l; i++) {
    const d = comparePrePart(sp[i] ?? '', op[i] ?? '');
    if (d !== 0) return d;
  }
  return 0;
}

function comparePrePart(s: string, o: string): number {
  if (s === o) return 0;
  if (s === '') return o !== '' ? -1 : 1;
  if (o === '') return s !== '' ? 1 : -1;
  const isNum = (x: string): boolean => /^[0-9]+$/.test(x) && BigInt(x) <= U64_MAX;
  const on = isNum(o);
  const sn = isNum(s);
  if (!on && !sn) return s > o ? 1 : -1;
  if (!on) return -1;
  if (!sn) return 1;
  return BigInt(s) > BigInt(o) ? 1 : -1;
}

// --- constraints

const cv =
  'v?([0-9|x|X|\\*]+)(\\.[0-9|x|X|\\*]+)?(\\.[0-9|x|X|\\*]+)?(-([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?(\\+([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?';
const ops = '=||!=|>|<|>=|=>|<=|=<|~|~>|\\^';
const constraintRe = new RegExp(`^\\s*(${ops})\\s*(${cv})\\s*$`);
const rangeRe = new RegExp(`\\s*(${cv})\\s+-\\s+(${cv})\\s*`, 'g');
const findRe = new RegExp(`(${ops})\\s*(${cv})`, 'g');
const validRe = new RegExp(`^(\\s*(${ops})\\s*(${cv})\\s*)((?:\\s+|,\\s*)(${ops})\\s*(${cv})\\s*)*$`);

interface Constraint {
  con: SemverVersion;
  orig: string;
  op: string;
  minorDirty: boolean;
  patchDirty: boolean;
  dirty: boolean;
}

const isX = (x: string | undefined): boolean => x === 'x' || x === '*' || x === 'X';

function parseConstraint(c: string): Constraint {
  const m = constraintRe.exec(c);
  if (!m) fail(`improper constraint: ${c}`);
  const [, op = '', orig = ''] = m;
  let ver = orig;
  let minorDirty = false;
  let patchDirty = false;
  let dirty = false;
  const m3 = m[3] ?? '';
  const m4 = m[4] ?? '';
  const m5 = m[5] ?? '';
  const m6 = m[6] ?? '';
  if (isX(m3) || m3 === '') {
    ver = `0.0.0${m6}`;
    dirty = true;
  } else if (isX(m4.replace(/^\./, '')) || m4 === '') {
    minorDirty = true;
    dirty = true;
    ver = `${m3}.0.0${m6}`;
  } else if (isX(m5.replace(/^\./, '')) || m5 === '') {
    dirty = true;
    patchDirty = true;
    ver = `${m3}${m4}.0${m6}`;
  }
  let con: SemverVersion;
  try {
    con = SemverVersion.parse(ver);
  } catch {
    fail('constraint Parser Error');
  }
  return { con, orig, op, minorDirty, patchDirty, dirty };
}

function rewriteRange(i: string): string {
  let o = i;
  for (const m of i.matchAll(rangeRe)) {
    o = o.replace(m[0], `>= ${m[1]}, <= ${m[11]}`);
  }
  return o;
}

function parseConstraints(c: string): Constraint[][] {
  c = rewriteRange(c);
  return c.split('||').map((v) => {
    if (!validRe.test(v)) fail(`improper constraint: ${v}`);
    let cs = [...v.matchAll(findRe)].map((m) => m[0]);
    if (cs.length === 0) cs = [v];
    return cs.map(parseConstraint);
  });
}

/**
 * One constraint of an "and" group. semver v3.4 (CAPI's; constraints.go) decides on prereleases per
 * group: a prerelease version matches only if some constraint of the group names a prerelease.
 */
function check(v: SemverVersion, c: Constraint, includePre: boolean): boolean {
  const preBlocked = v.pre !== '' && !includePre;
  const cmp = v.compare(c.con);
  switch (c.op) {
    case '':
    case '=':
      if (preBlocked) return false;
      if (c.dirty) return tilde(v, c, includePre);
      return cmp === 0;
    case '!=':
      if (preBlocked) return false;
      if (c.dirty) {
        if (c.con.major !== v.major) return true;
        if (c.con.minor !== v.minor && !c.minorDirty) return true;
        if (c.minorDirty) return false;
        if (c.con.patch !== v.patch && !c.patchDirty) return true;
        if (c.patchDirty) {
          if (v.pre !== '' || c.con.pre !== '') return comparePrerelease(v.pre, c.con.pre) !== 0;
          return false;
        }
      }
      return cmp !== 0;
    case '>':
      if (preBlocked) return false;
      if (!c.dirty) return cmp === 1;
      if (v.major > c.con.major) return true;
      if (v.major < c.con.major) return false;
      if (c.minorDirty) return false;
      if (c.patchDirty) return v.minor > c.con.minor;
      return cmp === 1;
    case '<':
      if (preBlocked) return false;
      return cmp < 0;
    case '>=':
    case '=>':
      if (preBlocked) return false;
      return cmp >= 0;
    case '<=':
    case '=<':
      if (preBlocked) return false;
      if (!c.dirty) return cmp <= 0;
      if (v.major > c.con.major) return false;
      if (v.major === c.con.major && v.minor > c.con.minor && !c.minorDirty) return false;
      return true;
    case '~':
    case '~>':
      if (preBlocked) return false;
      return tilde(v, c, includePre);
    case '^': {
      if (preBlocked) return false;
      if (cmp < 0) return false;
      if (c.con.major > 0n || c.minorDirty) return v.major === c.con.major;
      if (c.con.major === 0n && v.major > 0n) return false;
      if (c.con.minor > 0n || c.patchDirty) return v.minor === c.con.minor;
      if (c.con.minor === 0n && v.minor > 0n) return false;
      return c.con.patch === v.patch;
    }
  }
  return false;
}

function tilde(v: SemverVersion, c: Constraint, includePre: boolean): boolean {
  if (v.pre !== '' && !includePre) return false;
  if (v.compare(c.con) < 0) return false;
  if (c.con.major === 0n && c.con.minor === 0n && c.con.patch === 0n && !c.minorDirty && !c.patchDirty) return true;
  if (v.major !== c.con.major) return false;
  if (v.minor !== c.con.minor && !c.minorDirty) return false;
  return true;
}

export function semverFuncs(): GoFunc[] {
  return [
    fn('semver', ['string'], ([v]) => SemverVersion.parse(v as string)),
    fn('semverCompare', ['string', 'string'], ([c, v]) => {
      const cs = parseConstraints(c as string);
      const ver = SemverVersion.parse(v as string);
      return cs.some((and) => {
        const includePre = and.some((con) => con.con.pre !== '');
        return and.every((con) => check(ver, con, includePre));
      });
    }),
  ];
}
