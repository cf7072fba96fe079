// The model-based test of issue 23 (scope 9): seeded random sequences of what a repository and a
// rendered directory go through, each step run through the real CLI (`bin/render-clusterclass
// render repo -o DIR`, a child process), each checked against a model of what the product
// promises. Used by test/e2e/model.property.test.ts (a fixed seed, a small sample) and by
// `npm run fuzz -- --model` (scripts/fuzz/run.mjs: a long campaign from any seed).
//
// A sequence starts from a healthy fleet rendered once, in one of three layouts (DIR beside the
// inputs, inside them, or the inputs' own directory: `render repo -o repo`), with or without
// provenance reports, and then applies commands: add, edit, break (a YAML syntax error, a typo
// hiding spec.topology, no topology, an unknown class), rename (to a name already taken: a
// duplicate identity; to a name the API server refuses; to `c1.provenance`, or `c1_provenance`
// which would be c1's report), copy and delete Clusters; add, edit, break (a syntax error, a
// schema the webhook refuses), rename and delete classes; add and remove links among the inputs
// (to a Secret outside, to a directory outside, self loops) and in DIR (beside the outputs, named
// like the tool's staging); put a link on a path the run writes (an output file, the outputs
// list, the lock); write hostile outputs-list lines (absolute, `..`, through a link, naming an
// input, the list or the lock); leave stale staging, temporary files and a dead run's lock; kill
// a run with SIGKILL or SIGTERM at a random point; run two at once. After each run:
//
//   - nothing outside DIR changed, and inside DIR nothing but the tool's own files (outputs, the
//     list, the lock, staging): every other entry of the workspace — the inputs as the test wrote
//     them, a sentinel tree outside, the links planted — is as it was before the run;
//   - every Cluster has, byte for byte, the files a fresh render of it alone writes (when it can
//     be rendered), else its last output; a Cluster absent from the inputs has none after a run
//     that could read every input (nothing orphaned), and keeps its last output otherwise;
//   - no lock, staging or temporary file is left (no litter), the outputs list names exactly
//     the output files, no output holds the Secret, and the exit code is 0 or 1 as the model says;
//   - a run refused because of a link on its path changes nothing at all;
//   - a killed run leaves each output file old or new, and SIGTERM leaves no litter; of two runs
//     at once, one renders and the other refuses saying the DIR is in use (or both render).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = process.env.RENDER_CLUSTERCLASS_BIN ?? join(root, 'bin', 'render-clusterclass');
const LIST = '.render-clusterclass-outputs';
const LOCK = '.render-clusterclass-lock';
const TEMP = '.render-clusterclass-tmp-';
const SECRET = 'hunter2-from-the-sentinel';
const NS = 'fleet';

/** Names a Cluster can have: four plain ones, one like c1's report, two the API server refuses (the second would be c1's report file). */
export const CLUSTER_NAMES = ['c0', 'c1', 'c2', 'c3', 'c1.provenance', 'Foo', 'c1_provenance'];
const VALID_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const FILE_KEYS = ['f0', 'f1', 'f2', 'f3', 'f4', 'f5'];
const CLASS_NAMES = ['fleet', 'fleet2', 'fleet3'];
/** What a Cluster's classRef can name: a class of the pool, or one that never exists. */
const CLASS_REFS = [...CLASS_NAMES, 'no-such-class'];
const CLUSTER_BREAKAGES = ['unparseable', 'topology-typo', 'no-topology'];
const CLASS_BREAKAGES = ['unparseable', 'invalid'];
const LAYOUTS = { beside: 'out', inside: 'repo/rendered', same: 'repo' };

const FLEET = YAML.parseAllDocuments(
  readFileSync(join(root, 'test', 'golden', 'plan', 'clusterclass.yaml'), 'utf8'),
).map((d) => d.toJS());
const TEMPLATES = FLEET.slice(1)
  .map((d) => YAML.stringify(d))
  .join('---\n');

// ---------------------------------------------------------------- the inputs as text

function clusterText(doc) {
  const cluster = {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Cluster',
    metadata: { name: doc.name, namespace: NS },
    spec: {
      topology: {
        classRef: { name: doc.classRef },
        version: 'v1.33.0',
        workers: { machineDeployments: [{ class: 'general', name: 'md-0', replicas: doc.replicas }] },
      },
    },
  };
  if (doc.breakage === 'no-topology') cluster.spec = {};
  const text = YAML.stringify(cluster);
  if (doc.breakage === 'topology-typo') return text.replace('  topology:', '  topolgy:');
  if (doc.breakage === 'unparseable') return `${text}  broken: [unclosed\n`;
  return text;
}

function classText(name, cls) {
  const doc = structuredClone(FLEET[0]);
  doc.metadata.name = name;
  const schema = doc.spec.variables[0].schema.openAPIV3Schema;
  schema.default = cls.variant === 0 ? 'registry.example.com' : 'mirror.example.com';
  if (cls.breakage === 'invalid') schema.type = 'strin';
  const text = YAML.stringify(doc);
  return cls.breakage === 'unparseable' ? `${text}  broken: [unclosed\n` : text;
}

/** Links among the inputs (at the top of repo/): where each points, and whether it could hold inputs (then nothing is pruned while it is there). */
const INPUT_LINKS = {
  'secret.yaml': { target: '../sentinel/secret.yaml', blocks: true },
  more: { target: '../sentinel', blocks: true },
  self: { target: '.', blocks: true },
  'loop.yaml': { target: 'loop.yaml', blocks: true },
  'notes.txt': { target: '../sentinel/secret.yaml', blocks: false },
};
/** Links in DIR beside the outputs, which a run must leave alone (absolute targets: DIR's depth varies). */
const DIR_LINKS = {
  notes: (ws) => join(ws, 'sentinel'),
  [`${TEMP}link`]: (ws) => join(ws, 'sentinel'),
  [`${NS}/loop`]: () => 'loop',
};

// ---------------------------------------------------------------- the model

/**
 * The model: the Cluster files (key → document), the classes (name → state), the links planted,
 * each Cluster's last output (name → path in DIR → text), and what a sequence was set up with.
 */
function initialModel(setup) {
  const files = new Map(FILE_KEYS.slice(0, 3).map((f, i) => [f, { name: `c${i}`, classRef: 'fleet', replicas: 1 }]));
  return {
    setup,
    files,
    classes: new Map([['fleet', { variant: 0 }]]),
    inputLinks: new Set(),
    dirLinks: new Set(),
    last: new Map(),
    steps: 0,
  };
}

const readable = (doc) => doc.breakage !== 'unparseable';

/** Whether a run cannot read every input: then nothing may be pruned. */
function unreadableRun(m) {
  const links =
    [...m.inputLinks].some((l) => INPUT_LINKS[l].blocks) ||
    (m.setup.layout === 'same' && [...m.dirLinks].some((l) => l === 'notes'));
  return (
    links ||
    [...m.files.values()].some((d) => !readable(d)) ||
    [...m.classes.values()].some((c) => c.breakage === 'unparseable')
  );
}

/** Cluster names among the documents that can be read, with how many documents have each. */
function identities(m) {
  const count = new Map();
  for (const d of m.files.values()) if (readable(d)) count.set(d.name, (count.get(d.name) ?? 0) + 1);
  return count;
}

/** Why a readable document cannot be rendered (undefined: it renders). */
function failure(m, doc, count) {
  if (!VALID_NAME.test(doc.name)) return 'invalid name';
  if (count.get(doc.name) > 1) return 'duplicate';
  if (doc.breakage) return doc.breakage;
  const cls = m.classes.get(doc.classRef);
  if (!cls) return 'unknown class';
  if (cls.breakage) return `class ${cls.breakage}`;
  return undefined;
}

/** The exit code a run must have: 1 when something fails, 0 when nothing does, undefined when the model does not say. */
function expectedCode(m) {
  const count = identities(m);
  let unsure = false;
  for (const d of m.files.values()) {
    if (!readable(d)) return 1;
    const why = failure(m, d, count);
    if (why === undefined) continue;
    // A Cluster without a topology that never had output is a plain pass-through.
    if (why === 'no-topology' && !m.last.has(d.name)) continue;
    // So is one with a name the API server refuses (not rendered, so its name is not checked).
    if (why === 'invalid name' && d.breakage === 'no-topology' && count.get(d.name) === 1) unsure = true;
    else return 1;
  }
  for (const c of m.classes.values()) if (c.breakage === 'unparseable') return 1;
  for (const c of m.classes.values()) if (c.breakage === 'invalid') unsure = true;
  return unsure ? undefined : 0;
}

/**
 * What DIR must hold after a completed run: name → its files. A Cluster that renders gets its
 * fresh render (`fresh(doc)`), one that is in the inputs but fails keeps its last output, one
 * absent from the inputs keeps it only when the run could not read every input.
 */
async function expectedOutputs(m, fresh) {
  const out = new Map();
  const count = identities(m);
  for (const [file, d] of m.files) {
    if (!readable(d) || count.get(d.name) === undefined) continue;
    if (failure(m, d, count) === undefined) out.set(d.name, await fresh(file, d));
  }
  const keep = unreadableRun(m);
  for (const [name, files] of m.last) if (!out.has(name) && (count.has(name) || keep)) out.set(name, files);
  return out;
}

// ---------------------------------------------------------------- the real workspace

/** Every entry below `dir`, links never followed: a file's mode and hash, a link's target, a directory. */
function tree(dir) {
  const out = new Map();
  const walk = (rel) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const path = rel ? `${rel}/${name}` : name;
      const st = lstatSync(join(dir, path));
      if (st.isSymbolicLink()) out.set(path, `-> ${readlinkSync(join(dir, path))}`);
      else if (st.isDirectory()) {
        out.set(path, '/');
        walk(path);
      } else
        out.set(
          path,
          `${(st.mode & 0o7777).toString(8)} ${createHash('sha256')
            .update(readFileSync(join(dir, path)))
            .digest('hex')}`,
        );
    }
  };
  if (existsSync(dir)) walk('');
  return out;
}

/** What a run may create, change or remove, for a DIR at `dirRel` in the workspace: its outputs, list, lock, staging. */
function classify(path, entry, dirRel) {
  if (path === dirRel) return 'dir';
  const inDir = dirRel === '' ? path : path.startsWith(`${dirRel}/`) ? path.slice(dirRel.length + 1) : undefined;
  if (inDir === undefined) return 'other';
  if (inDir === LIST) return 'list';
  if (inDir === LOCK) return 'litter';
  if (inDir.startsWith(TEMP) && !(inDir.indexOf('/') < 0 && entry.startsWith('->'))) return 'litter';
  if (inDir === NS) return 'dir';
  if (new RegExp(`^${NS}/[^/]+\\.yaml$`).test(inDir) && !entry.startsWith('->') && entry !== '/') return 'output';
  return 'other';
}

function split(ws, dirRel) {
  const parts = { other: new Map(), output: new Map(), litter: [], list: undefined };
  for (const [path, entry] of tree(ws)) {
    const kind = classify(path, entry, dirRel);
    if (kind === 'other') parts.other.set(path, entry);
    else if (kind === 'output')
      parts.output.set(path.slice(dirRel ? dirRel.length + 1 : 0), readFileSync(join(ws, path), 'utf8'));
    else if (kind === 'litter') parts.litter.push(path);
    else if (kind === 'list') parts.list = readFileSync(join(ws, path), 'utf8');
  }
  return parts;
}

/** The outputs list's lines as path<TAB>Cluster (without the reuse marks a line may carry after them). */
const listLines = (text) =>
  (text ?? '')
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.split('\t').slice(0, 2).join('\t'))
    .sort();

function diffMaps(a, b) {
  return [...new Set([...a.keys(), ...b.keys()])].filter((k) => a.get(k) !== b.get(k)).sort();
}

/** Runs the CLI; `onSpawn` gets the child (to kill it). */
function cli(args, cwd, onSpawn) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    onSpawn?.(child);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, ms: performance.now() - started }));
  });
}

/** Fresh renders of one Cluster alone (with its class and the templates), shared by every sequence of a process. */
export function freshRenderer(stats) {
  const cache = new Map();
  return async (setup, file, doc, cls) => {
    const key = JSON.stringify([setup.provenance, file, doc, cls]);
    if (!cache.has(key)) {
      cache.set(
        key,
        (async () => {
          stats.freshRenders++;
          const ws = mkdtempSync(join(tmpdir(), 'rcc-model-fresh-'));
          try {
            write(join(ws, 'repo', 'classes', 'templates.yaml'), TEMPLATES);
            write(join(ws, 'repo', 'classes', `${doc.classRef}.yaml`), classText(doc.classRef, cls));
            write(join(ws, 'repo', 'clusters', `${file}.yaml`), clusterText(doc));
            const r = await cli(renderArgs(setup, 'out'), ws);
            if (r.code !== 0)
              throw new Error(`a fresh render of ${doc.name} alone failed (exit ${r.code}): ${r.stderr}`);
            return new Map([...split(ws, 'out').output].filter(([p]) => p !== LIST));
          } finally {
            rmSync(ws, { recursive: true, force: true });
          }
        })(),
      );
    }
    return cache.get(key);
  };
}

function write(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

const renderArgs = (setup, dirRel) => [
  'render',
  'repo',
  '-o',
  dirRel,
  ...(setup.provenance ? ['--set', 'provenance=true'] : []),
];

/** Writes the model's inputs to repo/ (only what differs: the rest of the workspace is the run's to keep). */
function writeInputs(m, real) {
  const want = new Map([['classes/templates.yaml', TEMPLATES]]);
  for (const [name, c] of m.classes) want.set(`classes/${name}.yaml`, classText(name, c));
  for (const [file, d] of m.files) want.set(`clusters/${file}.yaml`, clusterText(d));
  for (const dir of ['classes', 'clusters']) {
    if (!existsSync(join(real.repo, dir))) continue;
    for (const f of readdirSync(join(real.repo, dir))) if (!want.has(`${dir}/${f}`)) rmSync(join(real.repo, dir, f));
  }
  for (const [path, text] of want) {
    const abs = join(real.repo, path);
    if (!existsSync(abs) || readFileSync(abs, 'utf8') !== text) write(abs, text);
  }
  for (const [name, link] of Object.entries(INPUT_LINKS)) {
    const abs = join(real.repo, name);
    const there = lstatOrUndefined(abs) !== undefined;
    if (m.inputLinks.has(name) && !there) symlinkSync(link.target, abs);
    if (!m.inputLinks.has(name) && there) rmSync(abs);
  }
}

const lstatOrUndefined = (p) => {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
};

// ---------------------------------------------------------------- one step

class Violation extends Error {}
const must = (ok, message) => {
  if (!ok) throw new Violation(message);
};

/** A run of `render repo -o DIR` on the model's inputs, then every check of a completed run. */
async function renderAndCheck(m, real, what) {
  writeInputs(m, real);
  const before = split(real.ws, real.dirRel);
  const r = await cli(renderArgs(m.setup, real.dirRel), real.ws);
  real.stats.runs++;
  real.lastMs = r.ms;
  await checkCompleted(m, real, before, r, what);
}

async function checkCompleted(m, real, before, r, what) {
  const expectCode = expectedCode(m);
  must(r.code === 0 || r.code === 1, `${what}: exit ${r.code ?? r.signal}, not 0 or 1: ${r.stderr}`);
  if (expectCode !== undefined)
    must(r.code === expectCode, `${what}: exit ${r.code}, the model says ${expectCode}: ${r.stderr}`);
  const after = split(real.ws, real.dirRel);
  const changed = diffMaps(before.other, after.other);
  must(
    changed.length === 0,
    `${what}: changed outside the run's own files (outside DIR, the inputs, links): ${changed.join(', ')}`,
  );
  const expected = await expectedOutputs(m, (file, d) => real.fresh(m.setup, file, d, m.classes.get(d.classRef)));
  const want = new Map([...expected.values()].flatMap((files) => [...files]));
  const wrong = diffMaps(want, after.output);
  must(
    wrong.length === 0,
    `${what}: output files not as the model says (fresh render, last output, or none): ${wrong.map((p) => `${p} (${!after.output.has(p) ? 'missing' : !want.has(p) ? 'orphaned' : 'other content'})`).join(', ')}\n${r.stderr}`,
  );
  must(after.litter.length === 0, `${what}: litter after a completed run: ${after.litter.join(', ')}`);
  const listed = [...expected].flatMap(([name, files]) => [...files.keys()].map((p) => `${p}\t${NS}/${name}`)).sort();
  // Beyond the outputs, only a run that prunes nothing may keep lines, and only safe ones it held.
  const held = new Set(
    unreadableRun(m)
      ? listLines(before.list).filter((l) => !/^\/|(^|\/)\.\.(\/|\t)|^\.render-clusterclass/.test(l))
      : [],
  );
  const now = listLines(after.list);
  const missing = listed.filter((l) => !now.includes(l));
  const extra = now.filter((l) => !listed.includes(l) && !held.has(l));
  must(
    missing.length + extra.length === 0,
    `${what}: the outputs list lacks ${JSON.stringify(missing)}, has besides ${JSON.stringify(extra)}`,
  );
  for (const [p, text] of after.output) must(!text.includes(SECRET), `${what}: ${p} holds the Secret a link points to`);
  m.last = expected;
  m.steps++;
}

// ---------------------------------------------------------------- the commands

/** A command on the `pick`-th of the items `among` gives (none: not applicable); `act` edits the model (and the workspace), returns what it did. */
function command(name, among, pick, act, detail = '') {
  let label = `${name} (not run)`;
  return {
    check: (m) => among(m).length > 0,
    async run(m, real) {
      const items = among(m);
      const item = items[pick % items.length];
      label = `${name}${detail}${item ? `: ${item}` : ''}`;
      real.stats.kinds.set(name, (real.stats.kinds.get(name) ?? 0) + 1);
      real.log.push(label);
      await act(m, real, item, label);
    },
    toString: () => label,
  };
}

/** A command that edits the model and then runs and checks. */
const edit = (name, among, pick, change, detail) =>
  command(
    name,
    among,
    pick,
    async (m, real, item, label) => {
      change(m, item, real);
      await renderAndCheck(m, real, label);
    },
    detail,
  );

const fileKeys = (m) => [...m.files.keys()];
const freeFiles = (m) => FILE_KEYS.filter((f) => !m.files.has(f));
const brokenFiles = (m) => [...m.files].filter(([, d]) => d.breakage).map(([f]) => f);
const classNames = (m) => [...m.classes.keys()];
const freeClasses = (m) => CLASS_NAMES.filter((c) => !m.classes.has(c));
const brokenClasses = (m) => [...m.classes].filter(([, c]) => c.breakage).map(([n]) => n);
const absentInputLinks = (m) => Object.keys(INPUT_LINKS).filter((l) => !m.inputLinks.has(l));
const absentDirLinks = (m) => Object.keys(DIR_LINKS).filter((l) => !m.dirLinks.has(l));
const always = () => [''];
/** Rendered output files a link can be put in place of. */
const outputPaths = (m) => [...m.last.values()].flatMap((files) => [...files.keys()]);

/**
 * Puts a link to the sentinel's victim on a path of DIR the run reads or writes (the user then
 * removes it). A run that reaches it refuses and changes nothing; one that neither reads nor
 * writes it (its Cluster is kept, not rendered) leaves the link as it is.
 */
async function linkOnPath(m, real, path, label) {
  const abs = join(real.dir, path);
  const target = join(real.ws, 'sentinel', 'victim.yaml');
  writeInputs(m, real);
  const unplanted = split(real.ws, real.dirRel);
  const saved = readFileSync(abs);
  rmSync(abs);
  symlinkSync(target, abs);
  const before = tree(real.ws);
  const r = await cli(renderArgs(m.setup, real.dirRel), real.ws);
  real.stats.runs++;
  const shown = relative(real.ws, abs);
  if (r.code === 1 && r.stderr.includes(`cannot write -o ${real.dirRel}: `)) {
    must(
      new RegExp(`: ${shown} is (a symbolic link|not a lock this tool wrote)`).test(r.stderr),
      `${label}: refused, but not naming the link: ${r.stderr}`,
    );
    const changed = diffMaps(before, tree(real.ws));
    must(changed.length === 0, `${label}: a refused run changed ${changed.join(', ')}`);
    real.stats.linkRefusals++;
    rmSync(abs);
    writeFileSync(abs, saved);
    return;
  }
  const expected = await expectedOutputs(m, (file, d) => real.fresh(m.setup, file, d, m.classes.get(d.classRef)));
  const owner = [...m.last].find(([, files]) => files.has(path))?.[0];
  must(
    owner !== undefined && expected.get(owner) === m.last.get(owner),
    `${label}: the run went on although it writes ${shown}, a link: exit ${r.code}: ${r.stderr}`,
  );
  must(
    lstatOrUndefined(abs)?.isSymbolicLink() && readlinkSync(abs) === target,
    `${label}: the link in place of ${shown} was replaced or removed`,
  );
  rmSync(abs);
  writeFileSync(abs, saved);
  await checkCompleted(m, real, unplanted, r, label);
}

/** Lines of the outputs list that point outside DIR, through a link, at an input, at the list or the lock. */
function hostileLines(real) {
  const fromDir = (p) => relative(real.dir, join(real.ws, p));
  const lines = [
    join(real.ws, 'sentinel', 'victim.yaml'),
    fromDir('sentinel/victim.yaml'),
    'notes/victim.yaml',
    LIST,
    LOCK,
    `${NS}/../../x.yaml`,
  ];
  // Lines naming inputs (`..` paths, or sources beside DIR's files when DIR is the inputs' directory).
  lines.push(fromDir('repo/clusters/f0.yaml'), fromDir('repo/classes/templates.yaml'));
  return `${lines.map((l) => `${l}\t${NS}/gone`).join('\n')}\n`;
}

/** What killed runs leave: a staging directory, a temporary file, a dead process's lock. */
async function staleLitter(real) {
  mkdirSync(join(real.dir, `${TEMP}dead12`, NS), { recursive: true });
  writeFileSync(join(real.dir, `${TEMP}dead12`, NS, 'c0.yaml'), 'half a file');
  writeFileSync(join(real.dir, `${TEMP}0badf00d`), 'a lock draft');
  const dead = await new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', '']);
    child.on('close', () => resolve(child.pid));
  });
  writeFileSync(join(real.dir, LOCK), `${JSON.stringify({ pid: dead, host: hostname() })}\n`);
}

/** A run on edited inputs killed at `fraction` of the last run's time; each output old or new, SIGTERM no litter; then the next run, checked in full. */
async function killedRun(m, real, signal, fraction, label) {
  const old = split(real.ws, real.dirRel);
  writeInputs(m, real);
  const before = split(real.ws, real.dirRel);
  const delay = Math.round(fraction * real.lastMs);
  let sent = false;
  const r = await cli(renderArgs(m.setup, real.dirRel), real.ws, (child) =>
    setTimeout(() => (sent = child.exitCode === null && child.signalCode === null && child.kill(signal)), delay),
  );
  real.stats.runs++;
  real.stats.kills++;
  if (sent && (r.signal !== null || r.code === 143)) real.stats.killsLanded++;
  const after = split(real.ws, real.dirRel);
  const changed = diffMaps(before.other, after.other);
  must(changed.length === 0, `${label} after ${delay} ms: changed outside the run's own files: ${changed.join(', ')}`);
  const expected = await expectedOutputs(m, (file, d) => real.fresh(m.setup, file, d, m.classes.get(d.classRef)));
  const want = new Map([...expected.values()].flatMap((files) => [...files]));
  for (const p of new Set([...after.output.keys(), ...old.output.keys(), ...want.keys()])) {
    const now = after.output.get(p);
    must(
      now === old.output.get(p) || now === want.get(p),
      `${label} after ${delay} ms: ${p} is neither its old nor its new content`,
    );
  }
  const listed = new Set(listLines(after.list).map((l) => l.slice(0, l.lastIndexOf('\t'))));
  for (const p of after.output.keys())
    must(listed.has(p), `${label} after ${delay} ms: ${p} is not in the outputs list`);
  if (signal === 'SIGTERM' && sent && r.code !== 0 && r.code !== 1)
    must(after.litter.length === 0, `${label} after ${delay} ms: SIGTERM left ${after.litter.join(', ')}`);
  if (!sent) await checkCompleted(m, real, before, r, `${label} (done before the kill)`);
  await renderAndCheck(m, real, `${label}: the next run`);
}

/** Two runs at once: one renders, the other renders too or refuses naming the DIR in use. */
async function twoRuns(m, real, label) {
  writeInputs(m, real);
  const before = split(real.ws, real.dirRel);
  const runs = await Promise.all([0, 1].map(() => cli(renderArgs(m.setup, real.dirRel), real.ws)));
  real.stats.runs += 2;
  const inUse = (r) => r.code === 1 && r.stderr.includes('is in use by another render-clusterclass run');
  const refused = runs.filter(inUse);
  must(refused.length < 2, `${label}: both runs refused: ${runs.map((r) => r.stderr).join(' | ')}`);
  real.stats.refusals += refused.length;
  const done = runs.filter((r) => !refused.includes(r));
  for (const r of done)
    must(
      r.code === done[0].code,
      `${label}: two runs that rendered exit differently: ${runs.map((x) => `${x.code} ${x.stderr}`).join(' | ')}`,
    );
  await checkCompleted(m, real, before, done[0], label);
}

/** The name of every command (what `stats.kinds` counts): a test checks its sample ran each. */
export const COMMAND_KINDS = [
  ...[
    'add Cluster',
    'set replicas',
    ...CLUSTER_BREAKAGES.map((b) => `break (${b})`),
    'fix',
    'set classRef',
    'rename Cluster',
    'copy Cluster file',
    'delete Cluster file',
  ],
  ...[
    'add class',
    'edit class',
    ...CLASS_BREAKAGES.map((b) => `break class (${b})`),
    'fix class',
    'rename class',
    'delete class',
  ],
  ...[
    'add input link',
    'remove input link',
    'add DIR link',
    'remove DIR link',
    'link on an output file',
    `link as ${LIST}`,
    `link as ${LOCK}`,
  ],
  ...[
    'hostile outputs-list lines',
    'stale staging, temp file and lock',
    'SIGKILL a run',
    'SIGTERM a run',
    'two runs at once',
  ],
];

/** Every command, as fast-check arbitraries. */
export function commandArbitraries(fc) {
  const pick = fc.nat();
  const of = (xs) => fc.constantFrom(...xs);
  return [
    fc
      .tuple(pick, of(CLUSTER_NAMES), of(CLASS_REFS))
      .map(([i, name, cls]) =>
        edit(
          'add Cluster',
          freeFiles,
          i,
          (m, f) => m.files.set(f, { name, classRef: cls, replicas: 1 }),
          ` ${name} of class ${cls}`,
        ),
      ),
    fc
      .tuple(pick, of([1, 2, 3]))
      .map(([i, n]) => edit('set replicas', fileKeys, i, (m, f) => (m.files.get(f).replicas = n), ` ${n}`)),
    ...CLUSTER_BREAKAGES.map((b) =>
      pick.map((i) => edit(`break (${b})`, fileKeys, i, (m, f) => (m.files.get(f).breakage = b))),
    ),
    // Three times, as "fix class" below (each applies only after a break), "remove … link" twice.
    ...[1, 2, 3].map(() => pick.map((i) => edit('fix', brokenFiles, i, (m, f) => delete m.files.get(f).breakage))),
    fc
      .tuple(pick, of(CLASS_REFS))
      .map(([i, c]) => edit('set classRef', fileKeys, i, (m, f) => (m.files.get(f).classRef = c), ` ${c}`)),
    fc
      .tuple(pick, of(CLUSTER_NAMES))
      .map(([i, n]) => edit('rename Cluster', fileKeys, i, (m, f) => (m.files.get(f).name = n), ` to ${n}`)),
    pick.map((i) =>
      edit('copy Cluster file', fileKeys, i, (m, f) =>
        m.files.set(freeFiles(m)[0] ?? f, structuredClone(m.files.get(f))),
      ),
    ),
    pick.map((i) => edit('delete Cluster file', fileKeys, i, (m, f) => m.files.delete(f))),
    pick.map((i) => edit('add class', freeClasses, i, (m, c) => m.classes.set(c, { variant: 0 }))),
    pick.map((i) => edit('edit class', classNames, i, (m, c) => (m.classes.get(c).variant ^= 1))),
    ...CLASS_BREAKAGES.map((b) =>
      pick.map((i) => edit(`break class (${b})`, classNames, i, (m, c) => (m.classes.get(c).breakage = b))),
    ),
    ...[1, 2, 3].map(() =>
      pick.map((i) => edit('fix class', brokenClasses, i, (m, c) => delete m.classes.get(c).breakage)),
    ),
    fc.tuple(pick, pick).map(([i, j]) =>
      edit('rename class', classNames, i, (m, c) => {
        const to = freeClasses(m)[j % Math.max(1, freeClasses(m).length)];
        if (to === undefined) return;
        m.classes.set(to, m.classes.get(c));
        m.classes.delete(c);
      }),
    ),
    pick.map((i) => edit('delete class', classNames, i, (m, c) => m.classes.delete(c))),
    pick.map((i) => edit('add input link', absentInputLinks, i, (m, l) => m.inputLinks.add(l))),
    ...[1, 2].map(() =>
      pick.map((i) =>
        edit(
          'remove input link',
          (m) => [...m.inputLinks],
          i,
          (m, l) => m.inputLinks.delete(l),
        ),
      ),
    ),
    pick.map((i) =>
      edit('add DIR link', absentDirLinks, i, (m, l, real) => {
        mkdirSync(dirname(join(real.dir, l)), { recursive: true });
        symlinkSync(DIR_LINKS[l](real.ws), join(real.dir, l));
        m.dirLinks.add(l);
      }),
    ),
    ...[1, 2].map(() =>
      pick.map((i) =>
        edit(
          'remove DIR link',
          (m) => [...m.dirLinks],
          i,
          (m, l, real) => {
            rmSync(join(real.dir, l));
            m.dirLinks.delete(l);
          },
        ),
      ),
    ),
    pick.map((i) =>
      command('link on an output file', outputPaths, i, (m, real, p, label) => linkOnPath(m, real, p, label)),
    ),
    // A file edited by hand is never reused (cli/outdir.ts intactOutputs): a Cluster rendered next
    // gets its fresh render back; one kept keeps the file as it is now.
    ...['append a line', 'truncate'].map((how) =>
      pick.map((i) =>
        command(`edit an output file by hand (${how})`, outputPaths, i, async (m, real, p, label) => {
          const [owner, files] = [...m.last].find(([, f]) => f.has(p));
          const text = how === 'truncate' ? files.get(p).slice(0, 20) : `${files.get(p)}# edited by hand\n`;
          writeFileSync(join(real.dir, p), text);
          // A copy: the files may be a fresh render's, shared by every sequence.
          m.last.set(owner, new Map(files).set(p, text));
          await renderAndCheck(m, real, label);
        }),
      ),
    ),
    ...[LIST, LOCK].map((p) =>
      fc.constant(
        command(`link as ${p}`, always, 0, async (m, real, _x, label) => {
          if (!existsSync(join(real.dir, LIST))) return;
          if (p === LOCK) writeFileSync(join(real.dir, LOCK), 'placeholder');
          await linkOnPath(m, real, p, label);
          if (p === LOCK) rmSync(join(real.dir, LOCK));
        }),
      ),
    ),
    fc.constant(
      command('hostile outputs-list lines', always, 0, async (m, real, _x, label) => {
        appendFileSync(join(real.dir, LIST), hostileLines(real));
        await renderAndCheck(m, real, label);
      }),
    ),
    fc.constant(
      command('stale staging, temp file and lock', always, 0, async (m, real, _x, label) => {
        await staleLitter(real);
        await renderAndCheck(m, real, label);
      }),
    ),
    ...['SIGKILL', 'SIGTERM'].map((signal) =>
      fc.tuple(pick, of([1, 2, 3]), fc.double({ min: 0, max: 1.2, noNaN: true })).map(([i, n, fraction]) =>
        command(
          `${signal} a run`,
          fileKeys,
          i,
          async (m, real, f, label) => {
            m.files.get(f).replicas = n;
            await killedRun(m, real, signal, fraction, label);
          },
          ` at ${fraction.toFixed(2)} of the last run's time, after set replicas ${n}`,
        ),
      ),
    ),
    fc.constant(command('two runs at once', always, 0, (m, real, _x, label) => twoRuns(m, real, label))),
  ];
}

/** One sequence's set-up: where DIR is, and whether provenance reports are written. */
export const setupArbitrary = (fc) =>
  fc.record({ layout: fc.constantFrom(...Object.keys(LAYOUTS)), provenance: fc.boolean() });

export function newStats() {
  return {
    sequences: 0,
    steps: 0,
    runs: 0,
    kills: 0,
    killsLanded: 0,
    refusals: 0,
    linkRefusals: 0,
    freshRenders: 0,
    violations: [],
    kinds: new Map(),
  };
}

/**
 * Runs sequence `seed` (its set-up and commands drawn by fast-check from that seed, at most
 * `maxCommands`); a violation is recorded in `stats.violations` with the seed and the steps to it.
 */
export async function runSequence(fc, seed, options) {
  const [[setup, cmds]] = fc.sample(
    fc.tuple(setupArbitrary(fc), fc.commands(commandArbitraries(fc), { maxCommands: options.maxCommands })),
    { seed, numRuns: 1 },
  );
  await runCommands(fc, seed, setup, cmds, options);
}

/**
 * A tour: every command once, in the order they are declared (each "remove" or "fix" after what
 * it undoes), drawn from `seed`, with DIR the inputs' own directory and provenance reports — so
 * that a sample of random sequences, however small, has run each command at least once.
 */
export async function runTour(fc, seed, options) {
  const cmds = commandArbitraries(fc).map((arbitrary) => fc.sample(arbitrary, { seed, numRuns: 1 })[0]);
  await runCommands(fc, seed, { layout: 'same', provenance: true }, cmds, options);
}

async function runCommands(fc, seed, setup, cmds, { stats, fresh }) {
  const ws = mkdtempSync(join(tmpdir(), 'rcc-model-'));
  const dirRel = LAYOUTS[setup.layout];
  const real = { ws, repo: join(ws, 'repo'), dir: join(ws, dirRel), dirRel, stats, fresh, log: [], lastMs: 500 };
  mkdirSync(join(ws, 'sentinel', 'sub'), { recursive: true });
  writeFileSync(
    join(ws, 'sentinel', 'secret.yaml'),
    `apiVersion: v1\nkind: Secret\nmetadata: {name: db, namespace: ${NS}}\nstringData: {password: ${SECRET}}\n`,
  );
  writeFileSync(join(ws, 'sentinel', 'victim.yaml'), 'precious\n');
  writeFileSync(join(ws, 'sentinel', 'sub', 'x.yaml'), 'precious too\n');
  const model = initialModel(setup);
  try {
    real.log.push(`render the healthy fleet (${setup.layout}, provenance ${setup.provenance})`);
    await renderAndCheck(model, real, real.log[0]);
    await fc.asyncModelRun(() => ({ model, real }), cmds);
  } catch (e) {
    if (!(e instanceof Violation)) throw e;
    stats.violations.push({ seed, steps: [...real.log], message: e.message });
  } finally {
    stats.sequences++;
    stats.steps += model.steps;
    rmSync(ws, { recursive: true, force: true });
  }
}

/** The figures as one line. */
export function summary(stats, seed, ms) {
  const kinds = [...stats.kinds]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, n]) => `${k} ×${n}`)
    .join(', ');
  return `model: ${stats.sequences} sequences from seed ${seed}, ${stats.steps} checked steps, ${stats.runs} runs (${stats.kills} killed, ${stats.killsLanded} of them before they ended; ${stats.refusals} refused as in use, ${stats.linkRefusals} for a link on their path), ${stats.freshRenders} fresh renders, ${stats.violations.length} violations, ${(ms / 1000).toFixed(1)} s\nmodel commands: ${kinds}`;
}
