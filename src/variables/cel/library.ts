/**
 * The CEL function environment for `x-kubernetes-validations`: @bufbuild/cel's standard
 * library and `strings` extension, plus the parts of the Kubernetes CEL libraries
 * (k8s.io/apiserver/pkg/cel/library) implemented here. Functions Kubernetes offers but this
 * module does not implement are listed in `KUBERNETES_ONLY_FUNCTIONS`: rules using them are
 * reported as "not evaluated" warnings, never silently passed. Names in neither set are compile
 * errors, as in the API server ("undeclared reference").
 */
import {
  celEnv,
  celFunc,
  celMethod,
  CelScalar,
  listType,
  type CelEnv,
  type CelFunc,
  type CelList,
  type CelValue,
} from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { RE2JS } from 're2js';
import semver from 'semver';
import { isIPv4, isIPv6, isQuantity } from '../../core/go/formats.js';

const { BOOL, INT, STRING, DYN } = CelScalar;
const LIST = listType(DYN);

function compareCel(a: CelValue, b: CelValue): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if ((typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint')) {
    const x = Number(a);
    const y = Number(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  throw new Error('no such overload');
}

const celEquals = (a: CelValue, b: CelValue): boolean => {
  if ((typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint'))
    return Number(a) === Number(b);
  return a === b;
};

function toArray(l: CelList): CelValue[] {
  return [...l];
}

/** k8s `lists` library. */
const listsLib: CelFunc[] = [
  celMethod('isSorted', LIST, [], BOOL, function (this: CelList) {
    const a = toArray(this);
    for (let i = 1; i < a.length; i++) if (compareCel(a[i - 1] as CelValue, a[i] as CelValue) > 0) return false;
    return true;
  }),
  celMethod('sum', LIST, [], DYN, function (this: CelList) {
    const a = toArray(this);
    if (a.length === 0) return 0n;
    if (a.every((x) => typeof x === 'bigint')) return a.reduce((s, x) => s + x, 0n);
    if (a.every((x) => typeof x === 'number')) return a.reduce((s, x) => s + x, 0);
    throw new Error('no such overload');
  }),
  celMethod('min', LIST, [], DYN, function (this: CelList) {
    const a = toArray(this);
    if (a.length === 0) throw new Error('min called on empty list');
    return a.reduce((m, x) => (compareCel(x, m) < 0 ? x : m));
  }),
  celMethod('max', LIST, [], DYN, function (this: CelList) {
    const a = toArray(this);
    if (a.length === 0) throw new Error('max called on empty list');
    return a.reduce((m, x) => (compareCel(x, m) > 0 ? x : m));
  }),
  celMethod('indexOf', LIST, [DYN], INT, function (this: CelList, v: CelValue) {
    const a = toArray(this);
    return BigInt(a.findIndex((x) => celEquals(x, v)));
  }),
  celMethod('lastIndexOf', LIST, [DYN], INT, function (this: CelList, v: CelValue) {
    const a = toArray(this);
    for (let i = a.length - 1; i >= 0; i--) if (celEquals(a[i] as CelValue, v)) return BigInt(i);
    return -1n;
  }),
];

function findAll(s: string, pattern: string, limit: number): string[] {
  const m = RE2JS.compile(pattern).matcher(s);
  const out: string[] = [];
  while ((limit < 0 || out.length < limit) && m.find()) out.push(m.group() ?? '');
  return out;
}

/** k8s `regex` library. */
const regexLib: CelFunc[] = [
  celMethod('find', STRING, [STRING], STRING, function (this: string, p: string) {
    return findAll(this, p, 1)[0] ?? '';
  }),
  celMethod('findAll', STRING, [STRING], listType(STRING), function (this: string, p: string) {
    return findAll(this, p, -1);
  }),
  celMethod('findAll', STRING, [STRING, INT], listType(STRING), function (this: string, p: string, n: bigint) {
    return findAll(this, p, Number(n));
  }),
];

/** k8s `url` library: `isURL` only (url() values need an opaque CEL type). Mirrors url.ParseRequestURI. */
function isURL(s: string): boolean {
  // eslint-disable-next-line no-control-regex -- Go rejects control characters, so the pattern names them
  if (s === '' || /[\u0000-\u0020\u007f]/.test(s)) return false;
  if (s.startsWith('/')) return true;
  return /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(s);
}

/** Kubernetes' IP parsing rejects IPv4 with leading zeros and IPv6 zones, like isIPv4/isIPv6. */
function isCIDRString(s: string): boolean {
  const [ip, bits, ...rest] = s.split('/');
  if (rest.length > 0 || ip === undefined || bits === undefined || !/^[0-9]{1,3}$/.test(bits)) return false;
  if (isIPv4(ip)) return Number(bits) <= 32;
  if (isIPv6(ip)) return Number(bits) <= 128;
  return false;
}

const predicateLib: CelFunc[] = [
  celFunc('isURL', [STRING], BOOL, isURL),
  celFunc('isIP', [STRING], BOOL, (s: string) => isIPv4(s) || isIPv6(s)),
  celFunc('isCIDR', [STRING], BOOL, isCIDRString),
  celFunc('isQuantity', [STRING], BOOL, isQuantity),
  // k8s semver library: strict SemVer 2.0 (no "v" prefix) unless normalize is requested.
  celFunc('isSemver', [STRING], BOOL, (s: string) => semver.valid(s, { loose: false }) === s),
  celFunc('isSemver', [STRING, BOOL], BOOL, (s: string, normalize: boolean) => {
    const v = normalize ? normalizeSemver(s) : s;
    return semver.valid(v, { loose: false }) === v;
  }),
];

/** k8s semver normalisation: optional `v` prefix, missing minor/patch, leading zeros. */
function normalizeSemver(s: string): string {
  const m = /^v?([0-9]+)(?:\.([0-9]+))?(?:\.([0-9]+))?(.*)$/.exec(s);
  if (!m) return s;
  const num = (x: string | undefined) => String(Number(x ?? '0'));
  return `${num(m[1])}.${num(m[2])}.${num(m[3])}${m[4] ?? ''}`;
}

/** cel-go `strings` extension functions @bufbuild/cel lacks. */
const stringsExtra: CelFunc[] = [
  celMethod('reverse', STRING, [], STRING, function (this: string) {
    return [...this].reverse().join('');
  }),
];

const SUPPORTED_FUNCTIONS_LIST: readonly CelFunc[] = [...listsLib, ...regexLib, ...predicateLib, ...stringsExtra];

/** Function and method names that resolve in this environment. */
export const SUPPORTED_FUNCTIONS: ReadonlySet<string> = new Set([
  // CEL standard library as implemented by @bufbuild/cel
  'size',
  'contains',
  'startsWith',
  'endsWith',
  'matches',
  'int',
  'uint',
  'double',
  'string',
  'bytes',
  'bool',
  'duration',
  'timestamp',
  'dyn',
  'type',
  'getFullYear',
  'getMonth',
  'getDayOfYear',
  'getDayOfMonth',
  'getDate',
  'getDayOfWeek',
  'getHours',
  'getMinutes',
  'getSeconds',
  'getMilliseconds',
  // strings extension (@bufbuild/cel/ext)
  'charAt',
  'format',
  'indexOf',
  'join',
  'lastIndexOf',
  'lowerAscii',
  'replace',
  'split',
  'substring',
  'trim',
  'upperAscii',
  ...SUPPORTED_FUNCTIONS_LIST.map((f) => f.name),
]);

/** Kubernetes CEL library functions not implemented here (rules using them are skipped with a warning). */
export const KUBERNETES_ONLY_FUNCTIONS: ReadonlySet<string> = new Set([
  'url',
  'getScheme',
  'getHost',
  'getHostname',
  'getPort',
  'getEscapedPath',
  'getQuery',
  'quantity',
  'sign',
  'isGreaterThan',
  'isLessThan',
  'compareTo',
  'add',
  'sub',
  'asInteger',
  'asApproximateFloat',
  'isInteger',
  'ip',
  'family',
  'isUnspecified',
  'isLoopback',
  'isLinkLocalMulticast',
  'isLinkLocalUnicast',
  'isGlobalUnicast',
  'isCanonical',
  'cidr',
  'containsIP',
  'containsCIDR',
  'masked',
  'prefixLength',
  'semver',
  'major',
  'minor',
  'patch',
  'validate',
  'named',
  'quote',
  'ceil',
  'floor',
  'round',
  'trunc',
  'abs',
  'greatest',
  'least',
  'isInf',
  'isNaN',
  'isFinite',
  'bitAnd',
  'bitOr',
  'bitXor',
  'bitNot',
  'bitShiftLeft',
  'bitShiftRight',
  'sqrt',
  'encode',
  'decode',
  'of',
  'none',
  'ofNonZeroValue',
  'hasValue',
  'value',
  'orValue',
  'or',
  'optMap',
  'optFlatMap',
  'equivalent',
  'intersects',
  'transformList',
  'transformMap',
  'transformMapEntry',
  'sortBy',
  'sort',
  'distinct',
  'flatten',
  'range',
  'first',
  'last',
  'slice',
  'zip',
  'getTimezone',
  'typeOf',
  'authorizer',
  'path',
  'group',
  'resource',
  'check',
  'allowed',
  'reason',
  'errored',
  'error',
  'serviceAccount',
  'subresource',
  'namespace',
  'name',
  'fieldSelector',
  'labelSelector',
]);

/** Receiver identifiers that name a Kubernetes/cel-go function namespace (`sets.contains(...)`). */
export const KUBERNETES_NAMESPACES: ReadonlySet<string> = new Set([
  'sets',
  'strings',
  'math',
  'base64',
  'optional',
  'format',
  'lists',
]);

/** Type identifiers usable in expressions (`type(x) == string`). */
export const TYPE_IDENTIFIERS: ReadonlySet<string> = new Set([
  'bool',
  'bytes',
  'double',
  'duration',
  'dyn',
  'int',
  'list',
  'map',
  'null_type',
  'string',
  'timestamp',
  'type',
  'uint',
]);

/** One environment per compiled class (environments are immutable; building one is not free). */
export function newCelEnv(): CelEnv {
  return celEnv({ funcs: [...strings, ...SUPPORTED_FUNCTIONS_LIST] });
}
