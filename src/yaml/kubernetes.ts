/**
 * YAML values as Kubernetes reads them. kubectl, the API server's clients and Cluster API turn YAML
 * into JSON with sigs.k8s.io/yaml `YAMLToJSON`: go-yaml **v2** decodes the text (its own scalar
 * resolution, gopkg.in/yaml.v2 resolve.go: neither YAML 1.2 nor the `yaml` package's YAML 1.1
 * schema), then the values are converted to JSON (yaml.go `convertToJSONableObject`, then
 * `json.Marshal`). This module is that rule, in one place, for reading and for writing:
 *
 * - `resolvePlain` / `resolveTagged`: what go-yaml v2 makes of a scalar (its Go type and value).
 * - `KUBERNETES_YAML`: the `yaml` package options whose schema resolves with those functions, so
 *   every document the renderer reads (inputs, template output) holds Kubernetes' values; and whose
 *   writer quotes the strings go-yaml v2's own writer quotes (`writesPlain`), and writes plain
 *   scalars of input documents as they were written (`0x1F` stays `0x1F`).
 * - `scalarJson` / `unsupportedValue` / `mapKeyJson`: the JSON conversion (non-finite values and
 *   null keys refused, map keys written as ghodss/sigs.k8s.io yaml write them).
 * - `yamlNumber`: numbers written so that go-yaml v2 reads back the same value.
 *
 * Differential tests against the real decoder: test/yaml/ (see scripts/yaml/).
 */
import { Scalar, Schema, type CollectionTag, type ScalarTag, type Tags } from 'yaml';
import { stringTag, stringifyString } from 'yaml/util';
import type { Json } from '../core/model.js';
import { jsonInteger, jsonNumber } from '../core/json.js';

/** A scalar as go-yaml v2 decodes it into `interface{}` (timestamps stay their text). */
type GoScalar =
  | { type: 'string'; value: string }
  | { type: 'int' | 'uint64'; value: bigint }
  | { type: 'float64'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'null'; value: null };

/** A document Kubernetes would reject while converting it (the message says what and where). */
export class KubernetesYamlError extends Error {}

const TAG = 'tag:yaml.org,2002:';
const str = (value: string): GoScalar => ({ type: 'string', value });
const float = (value: number): GoScalar => ({ type: 'float64', value });
const NULL: GoScalar = { type: 'null', value: null };

/** resolve.go `resolveMap`: the words looked up before anything else. */
const WORDS = new Map<string, GoScalar>();
for (const [value, words] of [
  [{ type: 'bool', value: true }, 'y Y yes Yes YES true True TRUE on On ON'],
  [{ type: 'bool', value: false }, 'n N no No NO false False FALSE off Off OFF'],
  [NULL, '~ null Null NULL'],
  [float(NaN), '.nan .NaN .NAN'],
  [float(Infinity), '.inf .Inf .INF +.inf +.Inf +.INF'],
  [float(-Infinity), '-.inf -.Inf -.INF'],
] as [GoScalar, string][]) {
  for (const w of words.split(' ')) WORDS.set(w, value);
}
WORDS.set('', NULL);

/**
 * resolve.go `resolveTable`: the first byte decides whether a plain scalar can be anything but a
 * string (`S` sign, `D` digit, `M` a word of the table, `.` a float). `<<` is not in it: merge
 * keys are recognised by their text (decode.go `isMerge`), and `<<` as a value is a string.
 */
function hint(s: string): string | undefined {
  const c = s[0];
  if (c === undefined) return 'N';
  if (c === '+' || c === '-') return 'S';
  if (c >= '0' && c <= '9') return 'D';
  if (c === '.') return '.';
  return 'yYnNtTfFoO~'.includes(c) ? 'M' : undefined;
}

const MAX_UINT64 = (1n << 64n) - 1n;
const INT64_CUTOFF = 1n << 63n;

/** strconv.ParseUint(s, base, 64); base 0 reads the 0x/0o/0b/0 prefixes. Underscores are gone already. */
function parseUint(s: string, base: number): bigint | undefined {
  if (s === '') return undefined;
  let b = base;
  let digits = s;
  if (base === 0) {
    b = 10;
    if (s[0] === '0') {
      const p = s.length >= 3 ? s.charAt(1).toLowerCase() : '';
      b = p === 'b' ? 2 : p === 'x' ? 16 : 8;
      digits = p === 'b' || p === 'o' || p === 'x' ? s.slice(2) : s.slice(1);
    }
  }
  let n = 0n;
  const radix = BigInt(b);
  for (const ch of digits) {
    const c = ch.toLowerCase();
    const d = c >= '0' && c <= '9' ? c.charCodeAt(0) - 48 : c >= 'a' && c <= 'z' ? c.charCodeAt(0) - 87 : 99;
    if (d >= b) return undefined;
    n = n * radix + BigInt(d);
    if (n > MAX_UINT64) return undefined;
  }
  return n;
}

/** strconv.ParseInt(s, base, 64). */
function parseInt64(s: string, base: number): bigint | undefined {
  const neg = s[0] === '-';
  const u = parseUint(neg || s[0] === '+' ? s.slice(1) : s, base);
  if (u === undefined || u > (neg ? INT64_CUTOFF : INT64_CUTOFF - 1n)) return undefined;
  return neg ? -u : u;
}

/** resolve.go `yamlStyleFloat`, tried on the text without underscores. */
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
/**
 * strconv.ParseFloat's syntax for a text starting with `.` (resolve.go tries it as written):
 * digits, an optional exponent, underscores only between digits (strconv `underscoreOK`).
 */
const GO_FLOAT_FROM_DOT = /^\.[0-9]+(_[0-9]+)*([eE][-+]?[0-9]+(_[0-9]+)*)?$/;

/** A decimal float as ParseFloat reads it; out of range (±Inf) is an error there, so undefined. */
function finiteFloat(text: string): number | undefined {
  const f = Number(text.replaceAll('_', ''));
  return Number.isFinite(f) ? f : undefined;
}

/** The number forms of resolve.go (hint `D`/`S`), or undefined when the text is a string. */
function resolveNumber(s: string): GoScalar | undefined {
  const plain = s.replaceAll('_', '');
  const i = parseInt64(plain, 0);
  if (i !== undefined) return { type: 'int', value: i };
  const u = parseUint(plain, 0);
  if (u !== undefined) return { type: 'uint64', value: u };
  if (YAML_STYLE_FLOAT.test(plain)) {
    const f = finiteFloat(plain);
    if (f !== undefined) return float(f);
  }
  // resolve.go's own 0b fallback, which takes a sign after the prefix ("0b-101" is -5).
  if (plain.startsWith('0b')) {
    const b = parseInt64(plain.slice(2), 2);
    if (b !== undefined) return { type: 'int', value: b };
    const ub = parseUint(plain.slice(2), 2);
    if (ub !== undefined) return { type: 'uint64', value: ub };
  } else if (plain.startsWith('-0b')) {
    const b = parseInt64(`-${plain.slice(3)}`, 2);
    if (b !== undefined) return { type: 'int', value: b };
  }
  return undefined;
}

/** resolve.go `resolve("", text)` for a plain scalar. */
function resolvePlain(s: string): GoScalar {
  const h = hint(s);
  if (h === undefined) return str(s);
  const word = WORDS.get(s);
  if (word) return word;
  if (h === '.') {
    const f = GO_FLOAT_FROM_DOT.test(s) ? finiteFloat(s) : undefined;
    return f === undefined ? str(s) : float(f);
  }
  // A timestamp (`2026-01-01`) is kept as its text when decoded into interface{}; it is never a number either.
  return (h === 'D' || h === 'S' ? resolveNumber(s) : undefined) ?? str(s);
}

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const TIMESTAMP =
  /^(\d{4})-(\d\d?)-(\d\d?)(?:(?:[Tt](\d\d?):(\d\d?):(\d\d?)(?:[.,]\d+)?(?:Z|[+-]\d\d:\d\d))|(?: (\d\d?):(\d\d?):(\d\d?)(?:[.,]\d+)?))?$/;

/** resolve.go `parseTimestamp`: the four layouts it gives Go's time.Parse, with its range checks. */
function isTimestamp(s: string): boolean {
  const m = TIMESTAMP.exec(s);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const monthDays = DAYS[month - 1];
  if (monthDays === undefined || day < 1 || day > (month === 2 && !leap ? 28 : monthDays)) return false;
  const [h, min, sec] = [Number(m[4] ?? m[7]), Number(m[5] ?? m[8]), Number(m[6] ?? m[9])];
  return Number.isNaN(h) || (h < 24 && min < 60 && sec < 60);
}

/** encode.go `base60float`: what YAML 1.1 readers take for a sexagesimal number (go-yaml v2 reads a string). */
const BASE_60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

/**
 * Whether a string may be written as a plain scalar: exactly where Kubernetes' own YAML writer
 * (sigs.k8s.io/yaml `Marshal` → go-yaml v2 encode.go `stringv`) writes it plain. go-yaml v2 must
 * resolve the text to !!str, so Kubernetes reads it back as this same string (`yes`, `0x1F`, `012`,
 * `1_000`, `1e3`, `~`, `null` are quoted); timestamps and base-60 forms (`2026-01-01`, `1:20`),
 * which Kubernetes reads as strings but other YAML 1.1 readers would not, are quoted as well.
 */
export function writesPlain(s: string): boolean {
  const h = hint(s);
  // Most strings (names, labels) are decided by their first character or the table of words.
  if (h === undefined || WORDS.has(s)) return h === undefined;
  return h === 'M' || (resolvePlain(s).type === 'string' && !isTimestamp(s) && !BASE_60_FLOAT.test(s));
}

const SHORT = (tag: string): string => (tag.startsWith(TAG) ? `!!${tag.slice(TAG.length)}` : tag);
const GO_TYPE_TAG: Record<GoScalar['type'], string> = {
  string: 'str',
  int: 'int',
  uint64: 'int',
  float64: 'float',
  bool: 'bool',
  null: 'null',
};

/**
 * resolve.go `resolve(tag, text)` for an explicitly tagged scalar (`!!int "12"`), or a
 * KubernetesYamlError with go-yaml's message when the text is not of that type.
 */
function resolveTagged(tag: string, s: string): GoScalar {
  const name = tag.startsWith(TAG) ? tag.slice(TAG.length) : undefined;
  if (name === 'binary') return str(decodeBinary(s));
  if (
    name === 'str' ||
    (name !== 'int' && name !== 'float' && name !== 'bool' && name !== 'null' && name !== 'timestamp')
  ) {
    return str(s); // !!str, and tags go-yaml cannot resolve: the text as it is
  }
  if (name === 'timestamp' && isTimestamp(s)) return str(s);
  const r = resolvePlain(s);
  if (GO_TYPE_TAG[r.type] === name) return r;
  if (name === 'float' && r.type === 'int') return float(Number(r.value));
  throw new KubernetesYamlError(`yaml: cannot decode !!${GO_TYPE_TAG[r.type]} \`${s}\` as a ${SHORT(tag)}`);
}

/** decode.go: !!binary is base64 (encoding/base64 StdEncoding, line breaks ignored) decoded to a Go string. */
function decodeBinary(s: string): string {
  const b64 = s.replace(/[\r\n]/g, '');
  if (b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]={0,2})?$/.test(b64) || /={3}/.test(b64)) {
    throw new KubernetesYamlError('yaml: !!binary value contains invalid base64 data');
  }
  return goUtf8(Buffer.from(b64, 'base64'));
}

/** Bytes as a Go string turned into JSON: each byte that starts no valid UTF-8 sequence becomes U+FFFD. */
/* eslint-disable @typescript-eslint/no-non-null-assertion -- every index read is below bytes.length */
function goUtf8(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]!;
    const n = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    let cp = n === 1 ? b : n === 2 ? b & 0x1f : n === 3 ? b & 0x0f : b & 0x07;
    let ok = n > 0 && i + n <= bytes.length;
    for (let k = 1; ok && k < n; k++) {
      const c = bytes[i + k]!;
      ok = (c & 0xc0) === 0x80;
      cp = (cp << 6) | (c & 0x3f);
    }
    ok &&= n < 3 || (n === 3 ? cp >= 0x800 && (cp < 0xd800 || cp > 0xdfff) : cp >= 0x10000 && cp <= 0x10ffff);
    out += ok ? String.fromCodePoint(cp) : '\uFFFD';
    i += ok ? n : 1;
  }
  return out;
}
/* eslint-enable @typescript-eslint/no-non-null-assertion */

/** The value a go-yaml v2 scalar has in the `yaml` package's document (integers beyond ±(2^53 - 1) as bigint). */
function nodeValue(s: GoScalar): unknown {
  if (s.type !== 'int' && s.type !== 'uint64') return s.value;
  const n = Number(s.value);
  return Number.isSafeInteger(n) ? n : s.value;
}

const sameValue = (a: unknown, b: unknown): boolean => a === b || (Number.isNaN(a) && Number.isNaN(b));

/** The Go scalar of a parsed node: plain text resolves, quoted and block text is a string, tags decide. */
function goScalarOf(node: Scalar): GoScalar {
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a parsed scalar holds a string, number, boolean or bigint
  const source = typeof node.source === 'string' ? node.source : String(node.value ?? '');
  if (node.tag && node.tag !== '!') return resolveTagged(node.tag, source);
  return node.type === Scalar.PLAIN || node.type === undefined ? resolvePlain(source) : str(source);
}

/**
 * A scalar node's JSON value: what `json.Marshal` makes of the Go value, as the API server stores
 * it (`jsonInteger`, `jsonNumber`): an int64 beyond ±2^53 (a bigint in the node) stays exact, a
 * uint64 beyond int64 becomes a float64, and a whole float64 within int64 an int64. NaN and ±Inf are kept here (a map key may be `.inf`);
 * `unsupportedValue` rejects them as values.
 */
export function scalarJson(node: Scalar): Json {
  const v = node.value;
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return jsonInteger(v);
  if (typeof v === 'number') return jsonNumber(v);
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- any other value the yaml library puts in a scalar, as its text
  return String(v);
}

/** json.Marshal's error for a value JSON cannot hold (NaN, ±Inf): Kubernetes rejects the document. */
export function unsupportedValue(v: Json): string | undefined {
  if (typeof v !== 'number' || Number.isFinite(v)) return undefined;
  return `json: unsupported value: ${Number.isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf'}`;
}

/**
 * A map key as sigs.k8s.io/yaml writes it into JSON (yaml.go `convertToJSONableObject`): ints in
 * decimal, floats as float32 `%g` (`1e6` → `1e+06`, `.inf` → `.inf`), booleans as true/false;
 * null and uint64 keys are rejected.
 */
export function mapKeyJson(node: Scalar | null): string {
  if (typeof node?.value === 'string') return node.value; // strings, timestamps and !!binary: the Go string
  const s = node === null ? NULL : goScalarOf(node);
  switch (s.type) {
    case 'string':
      return s.value;
    case 'int':
      return String(s.value);
    case 'bool':
      return String(s.value);
    case 'float64':
      return formatFloat32(s.value);
    case 'null':
      return unsupportedKey('<nil>');
    case 'uint64':
      return unsupportedKey('uint64');
  }
}

function unsupportedKey(type: string): never {
  throw new KubernetesYamlError(`Unsupported map key of type: ${type}`);
}

/** Go's strconv.FormatFloat(f, 'g', -1, 32), with go-yaml's names for the non-finite values. */
function formatFloat32(x: number): string {
  const f = Math.fround(x);
  if (Number.isNaN(f)) return '.nan';
  if (!Number.isFinite(f)) return f > 0 ? '.inf' : '-.inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const neg = f < 0;
  const [digits, dp] = shortestFloat32(Math.abs(f));
  const exp = dp - 1;
  let body: string;
  if (exp < -4 || exp >= 6) {
    const e = Math.abs(exp);
    body = `${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}e${exp < 0 ? '-' : '+'}${e < 10 ? `0${e}` : e}`;
  } else if (dp <= 0) {
    body = `0.${'0'.repeat(-dp)}${digits}`;
  } else if (dp >= digits.length) {
    body = digits + '0'.repeat(dp - digits.length);
  } else {
    body = `${digits.slice(0, dp)}.${digits.slice(dp)}`;
  }
  return neg ? `-${body}` : body;
}

/**
 * The shortest decimal digits that read back as the same float32, and the decimal point position
 * (value = 0.digits × 10^dp), as strconv's shortest formatting (ftoaryu.go) picks them: the fewest
 * digits within the float's rounding interval (its ends included when the mantissa is even), then
 * the candidate closest to the value, a tie going to the even digit. Exact arithmetic: with at most
 * nine digits a candidate can lie within a double's rounding error of the interval's ends.
 */
function shortestFloat32(f: number): [string, number] {
  const bits = new DataView(new Float32Array([f]).buffer).getUint32(0, true);
  const biased = (bits >>> 23) & 0xff;
  const fraction = bits & 0x7fffff;
  const mantissa = BigInt(biased === 0 ? fraction : fraction | 0x800000);
  const exp2 = (biased === 0 ? 1 : biased) - 150; // f = mantissa × 2^exp2
  // In quarter units of 2^exp2: f is 4m, the interval [4m - below, 4m + 2] (below is 1 at a power of two).
  const below = fraction === 0 && biased > 1 ? 1n : 2n;
  const inclusive = mantissa % 2n === 0n;
  for (let p = 1; p <= 9; p++) {
    const [mant, e] = f.toExponential(p - 1).split('e') as [string, string];
    const scale = Number(e) - (p - 1); // candidate = d × 10^scale
    // candidate / 2^(exp2-2) = d × num / den, exactly
    const num = 10n ** BigInt(Math.max(scale, 0)) * 2n ** BigInt(Math.max(2 - exp2, 0));
    const den = 10n ** BigInt(Math.max(-scale, 0)) * 2n ** BigInt(Math.max(exp2 - 2, 0));
    const centre = 4n * mantissa * den;
    let best: { d: bigint; dist: bigint } | undefined;
    for (const step of [-1n, 0n, 1n]) {
      const d = BigInt(mant.replace('.', '')) + step;
      const offset = d * num - centre;
      const limit = (offset < 0n ? below : 2n) * den;
      const dist = offset < 0n ? -offset : offset;
      if (d <= 0n || dist > limit || (dist === limit && !inclusive)) continue;
      if (!best || dist < best.dist || (dist === best.dist && d % 2n === 0n)) best = { d, dist };
    }
    if (best) {
      const text = String(best.d);
      // A carry (9.99 → 10.0) adds a digit; it is then one more, trailing, zero.
      return [text.replace(/0+$/, '') || '0', text.length + scale];
    }
  }
  throw new Error(`no float32 digits for ${f}`);
}

/**
 * A number as we write it, so that the API server stores the same value: as `json.Marshal` writes
 * a float64, in its shortest digits (a whole number held as a JS number is a float64 beyond int64
 * here, `jsonNumber`: -2^63 - 1024 as -9223372036854776000, which is beyond int64 again), and
 * `-0` as `-0.0`, because `-0` reads back as the integer 0.
 */
export function yamlNumber(n: number): string {
  return Object.is(n, -0) ? '-0.0' : String(n);
}

/** A scalar node read from input whose value is still what its text says: written as it was. */
function unchangedSource(node: Scalar): string | undefined {
  if (typeof node.source !== 'string') return undefined;
  try {
    const resolved = node.tag
      ? resolveTagged(node.tag, node.source)
      : node.type === Scalar.PLAIN
        ? resolvePlain(node.source)
        : undefined;
    return resolved && sameValue(nodeValue(resolved), node.value) ? node.source : undefined;
  } catch {
    return undefined;
  }
}

type Stringify = NonNullable<ScalarTag['stringify']>;

/** Writes a kept input scalar as it was written, anything else with `write`. */
const keepingSource =
  (write: Stringify): Stringify =>
  (item, ctx, onComment, onChompKeep) => {
    const node = item;
    const source = unchangedSource(node);
    if (source === undefined) return write(item, ctx, onComment, onChompKeep);
    // Explicitly tagged scalars keep their quoting style; plain ones are their text.
    return node.tag ? stringifyString({ ...node, value: source }, ctx, onComment, onChompKeep) : source;
  };

const explicit =
  (name: string): ((s: string) => unknown) =>
  (s) =>
    nodeValue(resolveTagged(TAG + name, s));

/**
 * The only tag used for implicit resolution: plain scalars go-yaml v2 resolves to something other
 * than !!str, or that its writer quotes (`writesPlain`), resolved by resolve.go's rules. Its test
 * is also what the writer checks before writing a string plain (yaml's stringifyString quotes a
 * string that a default tag's test accepts). The test is code, not a regular expression; the
 * `yaml` package only calls its `test` method.
 */
const goYamlImplicit: ScalarTag = {
  tag: 'tag:render-clusterclass,2026:go-yaml-v2-implicit',
  default: true,
  test: Object.assign(/(?:)/, { test: (s: string) => !writesPlain(s) }),
  resolve: (s) => nodeValue(resolvePlain(s)),
};

const numberText: Stringify = (item) => {
  const v = item.value;
  return typeof v === 'number' ? yamlNumber(v) : String(v);
};

/**
 * Tags for writing values and for explicitly tagged scalars. They have no `test`, so implicit
 * resolution never picks them; `default` keeps the writer from printing their tag.
 */
const goYamlTags: ScalarTag[] = (
  [
    {
      tag: `${TAG}str`,
      identify: (v) => typeof v === 'string',
      resolve: (s) => s,
      // A plain input string stays plain even where we would quote it (`1:20`, a timestamp).
      // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- the yaml library's string tag has a stringify
      stringify: keepingSource(stringTag.stringify!),
    },
    {
      tag: `${TAG}null`,
      identify: (v) => v === null || v === undefined,
      resolve: explicit('null'),
      stringify: keepingSource(() => 'null'),
    },
    {
      tag: `${TAG}bool`,
      identify: (v) => typeof v === 'boolean',
      resolve: explicit('bool'),
      stringify: keepingSource((item) => String(item.value)),
    },
    {
      tag: `${TAG}int`,
      identify: (v) => typeof v === 'bigint' || Number.isInteger(v),
      resolve: explicit('int'),
      stringify: keepingSource(numberText),
    },
    {
      tag: `${TAG}float`,
      identify: (v) => typeof v === 'number',
      resolve: explicit('float'),
      stringify: keepingSource(numberText),
    },
    { tag: `${TAG}binary`, resolve: explicit('binary'), stringify: keepingSource((item) => String(item.value)) },
    { tag: `${TAG}timestamp`, resolve: explicit('timestamp'), stringify: keepingSource((item) => String(item.value)) },
  ] as ScalarTag[]
).map((t) => ({ ...t, default: true }));

/** The YAML 1.1 tag list with its scalar tags replaced by go-yaml v2's (collections and `<<` stay). */
function customTags(tags: Tags): Tags {
  const collections = tags.filter(
    (t): t is CollectionTag => typeof t === 'object' && 'collection' in t && t.collection !== undefined,
  );
  // The merge key `<<` as parsed (a symbol); the string "<<" is written quoted, not as a merge.
  const merge = tags
    .filter((t): t is ScalarTag => typeof t === 'object' && t.tag === `${TAG}merge`)
    .map((t) => ({ ...t, identify: (v: unknown) => typeof v === 'symbol' }));
  return [...collections, goYamlImplicit, ...goYamlTags, ...merge];
}

/**
 * `yaml` package options for reading and writing YAML as Kubernetes does (spread into parse and
 * stringify options). One schema instance for every document: building it per document was most
 * of the garbage of writing thousands of objects.
 */
export const KUBERNETES_YAML = {
  version: '1.1',
  schema: new Schema({ schema: 'yaml-1.1', customTags, resolveKnownTags: false }),
} as const;
