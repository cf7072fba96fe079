// The differential campaign against Kubernetes' YAML decoder: every scalar is read by us in every
// position (block and flow, value and key, a Cluster's variables, Go-template output, a pass-through
// item of the KRM function) and written by us (as a string value, list item and key, and as the
// value we read), and each result is compared with what k8s-yaml-oracle (sigs.k8s.io/yaml
// YAMLToJSON over go-yaml v2) says. Plain ESM: test/yaml/ runs it on src/ (with the binary, or
// with the recorded answers of test/golden/yaml/), scripts/yaml/oracle-campaign.mjs on dist/.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { isFlowSafe } from './cases.mjs';

/** The YAML texts that hold the scalar `s` in each reading position (flow ones when `s` can be in flow). */
export function readingTexts(s) {
  const texts = {
    blockValue: `v: ${s}\n`,
    blockKey: `${s}: v\n`,
    document: `${s}\n`,
    variables: `kind: Cluster\nspec:\n  topology:\n    variables:\n    - name: a\n      value: ${s}\n    - name: b\n      value:\n        ${s}: ${s}\n`,
  };
  if (isFlowSafe(s)) {
    texts.flow = `{v: ${s}, w: [${s}]}\n`;
    texts.flowKey = `{${s}: v}\n`;
    texts.variables += `    - {name: c, value: {${s}: [${s}]}}\n`;
  }
  return texts;
}

/** Pass-through items holding `s` as a value, a list item and a key, in block style and (where it can be) in flow style. */
function passThroughItems(s, i) {
  const block = `- apiVersion: v1\n  kind: K\n  metadata:\n    name: b${i}\n  v: ${s}\n  w:\n  - ${s}\n  k:\n    ${s}: k\n`;
  return isFlowSafe(s)
    ? `${block}- {apiVersion: v1, kind: K, metadata: {name: f${i}}, v: ${s}, w: [${s}], k: {${s}: k}}\n`
    : block;
}

/** A KRM function input holding the pass-through items of these scalars. */
export const passThroughList = (scalars) =>
  `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${scalars.map(passThroughItems).join('')}`;

/** Scalars per pass-through ResourceList (one run of the KRM function). */
const BATCH = 100;

/**
 * One oracle answer line (`-batch -all -types`, one document): `{value, type}` with the JSON text
 * exactly as Go wrote it (int64 digits kept) and, for a text `v: X`, the Go type of X; or `{error}`.
 */
export function parseAnswer(line) {
  const typed = /,"t":"([^"]*)"\}\]$/.exec(line);
  if (line.startsWith('[{"v":') && typed) return { value: line.slice(6, typed.index), type: typed[1] };
  const parsed = JSON.parse(line);
  if (parsed.length === 1 && typeof parsed[0].err === 'string') return { error: parsed[0].err };
  throw new Error(`unexpected oracle answer: ${line}`);
}

/** The real decoder: answers for many texts in one run. */
export function binaryOracle(path) {
  return (texts) => {
    const input = texts.map((t) => JSON.stringify(t)).join('\n') + '\n';
    const r = spawnSync(path, ['-batch', '-all', '-types'], { input, maxBuffer: 1 << 30 });
    if (r.status !== 0) throw new Error(`k8s-yaml-oracle failed: ${r.stderr}`);
    const lines = r.stdout.toString('utf8').split('\n').slice(0, texts.length);
    if (lines.length !== texts.length)
      throw new Error(`k8s-yaml-oracle gave ${lines.length} answers for ${texts.length} texts`);
    return lines;
  };
}

/** The reader's error result for an object Kubernetes cannot convert (it is passed through, not used). */
const REFUSED = /Kubernetes cannot read this object/;
const NUMBER = '\u0000';

/** JSON text → value, each number kept as its text (`{"\u0000": "9007199254740993"}`), so int64 digits survive. */
export function parseLossless(text) {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end - 1;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      let j = i + 1;
      while (j < text.length && /[-+.eE0-9]/.test(text[j])) j++;
      out += `{"\\u0000":"${text.slice(i, j)}"}`;
      i = j - 1;
    } else out += c;
  }
  return JSON.parse(out);
}

function stringEnd(text, start) {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  throw new Error(`unterminated string in ${text}`);
}

const worst = (a, b) => (a === 'exact' ? b : a);
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * A JSON number as the API server stores it (apimachinery util/json `convertNumber`): an int64
 * where the text parses as one (a number within ±(2^53 - 1), else a bigint), else a float64.
 */
function storedNumber(t) {
  if (!/^-?\d+$/.test(t) || t === '-0') return Number(t);
  const n = BigInt(t);
  if (n < INT64_MIN || n > INT64_MAX) return Number(t);
  return Number.isSafeInteger(Number(n)) ? Number(n) : n;
}

/**
 * The oracle's value (parseLossless) against ours: `exact` (every number the value the API server
 * stores from the oracle's JSON, int64s to the last digit) or `different`. Go writes an int in all
 * its digits and a float64 in its shortest digits (2^63 as 9223372036854776000); the API server
 * reads either back as an int64 where it fits, else as a float64 (so a uint64 beyond int64 too).
 */
export function compareJson(oracle, ours) {
  if (oracle !== null && typeof oracle === 'object' && !Array.isArray(oracle) && NUMBER in oracle) {
    const stored = storedNumber(oracle[NUMBER]);
    return typeof ours === typeof stored && Object.is(stored, ours) ? 'exact' : 'different';
  }
  if (Array.isArray(oracle)) {
    if (!Array.isArray(ours) || ours.length !== oracle.length) return 'different';
    return oracle.reduce((r, o, i) => worst(r, compareJson(o, ours[i])), 'exact');
  }
  if (oracle !== null && typeof oracle === 'object') {
    if (ours === null || typeof ours !== 'object' || Array.isArray(ours)) return 'different';
    const keys = Object.keys(oracle);
    if (keys.length !== Object.keys(ours).length || !keys.every((k) => Object.prototype.hasOwnProperty.call(ours, k)))
      return 'different';
    return keys.reduce((r, k) => worst(r, compareJson(oracle[k], ours[k])), 'exact');
  }
  return oracle === ours ? 'exact' : 'different';
}

/**
 * Runs the campaign. `product` holds our functions (src/ or dist/): readYamlStream,
 * parseTemplateOutput, emitYaml, goMarshal, and `krmFunction(text) → Promise<{code, out}>`.
 * `oracle(texts) → answer lines`. Returns counts and the disagreements (empty when all agree).
 * A comparison is `exact` (same value) or `bothReject`.
 */
export async function runCampaign({ scalars, product, oracle }) {
  const { readYamlStream, parseTemplateOutput, emitYaml, goMarshal, krmFunction } = product;
  const counts = { scalars: scalars.length, comparisons: 0, exact: 0, bothReject: 0 };
  const disagreements = [];
  const MISSING = 'no recorded oracle answer for this text (regenerate: npm run yaml:goldens)';

  const compare = (where, s, answer, ours) => {
    counts.comparisons++;
    if (answer.missing) disagreements.push({ where, scalar: s, problem: MISSING });
    else if (answer.error !== undefined) {
      if (!ours.ok) counts.bothReject++;
      else disagreements.push({ where, scalar: s, oracle: `rejects: ${answer.error}`, ours: goMarshal(ours.value) });
    } else if (!ours.ok) disagreements.push({ where, scalar: s, oracle: answer.value, ours: `rejects: ${ours.error}` });
    else {
      const verdict = compareJson(parseLossless(answer.value), ours.value);
      if (verdict === 'exact') counts.exact++;
      else disagreements.push({ where, scalar: s, oracle: answer.value, ours: goMarshal(ours.value) });
    }
  };
  const stream = (text) => {
    const r = readYamlStream(text, 'input.yaml');
    if (!r.ok) return { ok: false, error: r.message };
    const refused = r.results.find((x) => REFUSED.test(x.message));
    if (refused) return { ok: false, error: refused.message };
    return { ok: true, value: r.items[0]?.value ?? null };
  };
  const template = (text) => {
    const r = parseTemplateOutput(text);
    return r.ok ? { ok: true, value: r.value } : { ok: false, error: r.error };
  };

  // Round 1: reading, in every position.
  const perScalar = scalars.map((s) => ({ s, texts: readingTexts(s) }));
  const round1 = ask(
    oracle,
    perScalar.flatMap(({ texts }) => Object.values(texts)),
  );
  const writes = [];
  const passing = [];
  const refused = [];
  for (const { s, texts } of perScalar) {
    const ours = {};
    for (const [position, text] of Object.entries(texts)) {
      const answer = round1(text);
      if (position !== 'document') compare(`read ${position}`, s, answer, (ours[position] = stream(text)));
      if (position !== 'variables') compare(`template output ${position}`, s, answer, template(text));
    }
    // Writing: the string as a value, a list item and a key, and the value we read, as we emit them.
    const strings = { value: s, list: [s] };
    writes.push(
      { s, meant: strings, text: emitYaml(strings) },
      { s, meant: { [s]: 'key' }, text: emitYaml({ [s]: 'key' }) },
    );
    if (ours.blockValue.ok) writes.push({ s, meant: ours.blockValue.value, text: emitYaml(ours.blockValue.value) });
    // Pass-through items hold the scalar in the positions just read: batched where Kubernetes takes them.
    const positions = ['blockValue', 'blockKey', 'flow', 'flowKey'].filter((p) => texts[p] !== undefined);
    (positions.every((p) => round1(texts[p]).value !== undefined) ? passing : refused).push(s);
  }

  // The KRM function on the pass-through items: batches Kubernetes takes, one list per scalar it refuses.
  const runs = [];
  for (let i = 0; i < passing.length; i += BATCH) {
    const batch = passing.slice(i, i + BATCH);
    const input = passThroughList(batch);
    runs.push({ scalars: batch, input, fn: await krmFunction(input) });
  }
  for (const s of refused) {
    const input = passThroughList([s]);
    runs.push({ scalars: [s], input, fn: await krmFunction(input) });
  }

  // Round 2: what we wrote, and the pass-through lists before and after the function, read back by the oracle.
  const round2 = ask(oracle, [
    ...writes.map((w) => w.text),
    ...runs.flatMap((r) => [r.input, ...(r.fn.code === 0 ? [r.fn.out] : [])]),
  ]);
  for (const w of writes) {
    const answer = round2(w.text);
    compare('write (emitted, read back)', w.s, answer, { ok: true, value: w.meant }, answer.type);
  }
  for (const { scalars: batch, input, fn } of runs) {
    const before = round2(input);
    const after = fn.code === 0 ? round2(fn.out) : { error: `exit code ${fn.code}: ${fn.out}` };
    const itemsBefore = before.value === undefined ? undefined : parseLossless(before.value).items;
    const itemsAfter = after.value === undefined ? undefined : parseLossless(after.value).items;
    batch.forEach((s, i) => {
      // The scalar's own text is kept, in block and flow items (the list around it is the writer's layout).
      if (fn.code === 0) {
        counts.comparisons++;
        const block = `\n    v: ${s}\n    w:\n      - ${s}\n    k:\n      ${s}: k\n`;
        const flow = `v: ${s}, w: [ ${s} ], k: { ${s}: k } }\n`;
        if (fn.out.includes(block) && (!isFlowSafe(s) || fn.out.includes(flow))) counts.exact++;
        else
          disagreements.push({
            where: 'pass-through bytes',
            scalar: s,
            problem: 'the KRM function did not keep the text of the scalar',
          });
      }
      counts.comparisons++;
      // Items of scalar i: the block one, then the flow one where there is one.
      const mine = (items) => items?.filter((item) => item.metadata.name.slice(1) === String(i));
      if (before.missing || after.missing) disagreements.push({ where: 'pass-through', scalar: s, problem: MISSING });
      else if (before.error !== undefined && fn.code !== 0) counts.bothReject++;
      else if (itemsBefore && itemsAfter && JSON.stringify(mine(itemsBefore)) === JSON.stringify(mine(itemsAfter)))
        counts.exact++;
      else
        disagreements.push({
          where: 'pass-through (KRM function output read back)',
          scalar: s,
          oracle: JSON.stringify(mine(itemsBefore)) ?? `rejects: ${before.error}`,
          ours: JSON.stringify(mine(itemsAfter)) ?? after.error,
        });
    });
  }
  return { counts, disagreements };
}

/** Asks the oracle about distinct texts in one run; the answer for a text, `{missing}` when it has none. */
function ask(oracle, texts) {
  const index = new Map();
  for (const t of texts) if (!index.has(t)) index.set(t, index.size);
  const lines = oracle([...index.keys()]);
  return (text) => {
    const line = lines[index.get(text)];
    return line === undefined ? { missing: true } : parseAnswer(line);
  };
}

/** Recorded answers are keyed by their text, or by its SHA-256 when long (the pass-through lists). */
export const goldenKey = (text) =>
  text.length <= 300 ? text : `sha256:${createHash('sha256').update(text).digest('hex')}`;

/** An oracle that answers from recorded `[key, answer line]` JSON lines. */
export function recordedOracle(jsonl) {
  const answers = new Map();
  for (const line of jsonl.split('\n')) {
    if (line.trim() === '') continue;
    const [key, answer] = JSON.parse(line);
    answers.set(key, answer);
  }
  return (texts) => texts.map((t) => answers.get(goldenKey(t)));
}
