/**
 * `render PATH... -o DIR`: a directory that holds what this tool wrote there, safe to re-run in CI.
 *
 * - Rendered objects go to `DIR/<namespace>/<cluster>.yaml`, a provenance report to
 *   `DIR/<namespace>/<cluster>_provenance.yaml` (`_` is in no Cluster name, so no Cluster's file
 *   can be another's report); inputs only when asked (`--with-inputs`, at their path below the
 *   argument they came from). `outputPathProblems` refuses any two files of a run that would
 *   share a path (also on a case-insensitive filesystem), before anything is written.
 * - `DIR/.render-clusterclass-outputs` lists every file written, with its Cluster. DIR's listed
 *   files are never read as input, and files of Clusters that are gone are pruned — only regular
 *   files the list names, reached without links, never anything else in DIR.
 * - A file of a reusable render (pipeline/reuse.ts) is listed with its inputs mark and the SHA-256
 *   of its content as written. A re-run reuses a Cluster's files only when every one of them is a
 *   regular file with that content (`intactOutputs`): one edited by hand, truncated, replaced by a
 *   link or missing is rendered again. Reused files are not touched; their lines stay.
 * - Files the caller keeps (pipeline/keep.ts: a Cluster in the inputs that was not rendered; every
 *   file in a run that could not read all its inputs) stay untouched.
 * - Nothing is written outside DIR: no link below DIR is followed, new files are created
 *   exclusively in a staging directory and renamed into place (safefs.ts). A link or a
 *   non-directory in the way refuses the run before anything changes.
 * - A run killed at any point leaves every file complete (old or new content) and the list naming
 *   every file it wrote: the list is first written as old ∪ new, then files are renamed into
 *   place, then pruned, then the list is written as it ends. The next run sweeps the staging.
 * - A file whose content is unchanged is not touched (its mtime stays, so rsync, make and git
 *   see no change).
 */
import { createHash } from 'node:crypto';
import { join, relative, sep } from 'node:path';
import { isClusterFile } from '../pipeline/layout.js';
import type { EarlierFile } from '../pipeline/types.js';
import { SafeDir, UnsafePath, relativePathProblem, type LockedDir } from './safefs.js';

/** The list of files this tool wrote in an output directory (not YAML, so no applier reads it). */
export const OUTPUTS_LIST = '.render-clusterclass-outputs';
const HEADER =
  '# Files written by render-clusterclass (path<TAB>Cluster[<TAB>inputs<TAB>sha256]; "-" for copied inputs). Do not edit.\n';
const INPUTS = '-';

/** A line of the outputs list: whose file it is and, for a file of a reusable render, its inputs mark and content hash. */
export interface ListEntry {
  /** `<namespace>/<name>` of the Cluster, or `-` for a copied input. */
  owner: string;
  /** The mark of the render that wrote it (pipeline/reuse.ts `inputsMark`). */
  inputs?: string;
  /** The SHA-256 of its content as written, hex. */
  sha256?: string;
}

/** A file `-o DIR` holds after this run: new content, or the content of a reused render, left as it is. */
export type OutputFile = {
  /** Relative to the output directory, `/`-separated. */
  path: string;
  /** `<namespace>/<name>` of the Cluster, or undefined for a copied input. */
  cluster?: string;
} & (
  | {
      text: string;
      /** The mark of a reusable render (pipeline/reuse.ts), listed with the hash of `text`. */
      inputs?: string;
    }
  | { reused: Required<ListEntry> }
);

export interface OutputSummary<Reason extends string> {
  written: number;
  unchanged: number;
  /** Of the unchanged: files of reused renders, not rendered again. */
  reused: number;
  pruned: number;
  /** Earlier files left as they were, by the reason the caller's `keep` gave. */
  kept: Map<Reason, number>;
  /** Lines of the outputs list, or listed paths, that were ignored and why. */
  notes: string[];
}

/**
 * What the (committed, editable) outputs list can never make a run prune: this run's `inputs`
 * (paths relative to DIR), and, when DIR holds inputs (`--with-inputs` is refused then), any
 * line for a copied input.
 */
export interface ListGuard {
  inputs: ReadonlySet<string>;
  holdsInputs: boolean;
}

/** A mark as pipeline/reuse.ts `inputsMark` writes it, and a SHA-256 in hex. */
const MARK = /^[0-9a-f]{32}\/[1-9][0-9]{0,5}$/;
const SHA256 = /^[0-9a-f]{64}$/;

/**
 * The outputs list: path → entry; lines that cannot name a file of DIR are left out, with why. The
 * marks of a line are kept only when well-formed and on a Cluster's file (else its file is rendered
 * again); a list written before marks existed has none.
 */
function parseList(text: string, shown: string): { entries: Map<string, ListEntry>; notes: string[] } {
  const entries = new Map<string, ListEntry>();
  const notes: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (line === '' || line.startsWith('#')) return;
    const fields = line.split('\t');
    const [path = '', owner = '', inputs = '', sha256 = ''] = fields;
    const problem =
      (fields.length !== 2 && fields.length !== 4) || path === '' || owner === ''
        ? 'not "path<TAB>Cluster[<TAB>inputs<TAB>sha256]"'
        : (relativePathProblem(path) ?? notOwnersFile(path, owner));
    if (problem) notes.push(`${join(shown, OUTPUTS_LIST)}:${i + 1}: ignored: ${problem}`);
    else
      entries.set(
        path,
        owner !== INPUTS && MARK.test(inputs) && SHA256.test(sha256) ? { owner, inputs, sha256 } : { owner },
      );
  });
  return { entries, notes };
}

/**
 * Why a list line cannot be this tool's: the list is repository content, so a line naming a
 * Cluster must name one of that Cluster's files (pipeline/layout.ts). Otherwise a line could hide
 * a source file from the input walk and have it pruned with the Cluster it holds.
 */
const notOwnersFile = (path: string, owner: string): string | undefined =>
  owner === INPUTS || isClusterFile(path, owner) ? undefined : `not a file of Cluster ${owner}`;

const listText = (entries: ReadonlyMap<string, ListEntry>): string =>
  `${HEADER}${[...entries]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([p, e]) => `${[p, e.owner, ...(e.inputs && e.sha256 ? [e.inputs, e.sha256] : [])].join('\t')}\n`)
    .join('')}`;

const sha256Of = (text: string): string => createHash('sha256').update(text).digest('hex');

/** How paths are compared for collisions: as a case-insensitive, normalising filesystem (macOS) would. */
const pathKey = (path: string): string => path.normalize('NFC').toLowerCase();

/** The Cluster (`namespace/name`) of an outputs-list entry; undefined for a copied input. */
export const listedCluster = (entry: string): string | undefined => (entry === INPUTS ? undefined : entry);

/** Whose an output file is, as the outputs list says it. */
export const listedOwner = (f: OutputFile): string => f.cluster ?? INPUTS;

/** Who writes an output file, for messages. */
export const ownerOf = (f: OutputFile): string => (f.cluster === undefined ? 'a copied input' : `Cluster ${f.cluster}`);

/**
 * Why each of the files a run writes cannot be written (by index): a path that is not a clean
 * relative path, two files on one path (or a file where another needs a directory, also when
 * paths differ only in case, as they would on macOS), or a file that would replace one of the
 * run's inputs (`inputs`: their paths relative to the directory written).
 */
export function outputPathProblems(
  files: readonly { path: string; owner: string }[],
  inputs: ReadonlySet<string> = new Set(),
): Map<number, string> {
  const problems = new Map<number, string>();
  /** A file by its index and as messages name it. */
  type Writer = { index: number; shown: string };
  const byKey = new Map<string, Writer[]>();
  const dirs = new Map<string, Writer>();
  const inputKeys = new Set([...inputs].map(pathKey));
  files.forEach((f, index) => {
    const writer = { index, shown: `${f.owner} (${f.path})` };
    const problem = relativePathProblem(f.path);
    if (problem) return problems.set(index, `${writer.shown}: ${problem}`);
    const key = pathKey(f.path);
    if (inputKeys.has(key)) return problems.set(index, `${writer.shown} would replace an input of this run`);
    byKey.set(key, [...(byKey.get(key) ?? []), writer]);
    for (let d = key.lastIndexOf('/'); d > 0; d = key.lastIndexOf('/', d - 1))
      if (!dirs.has(key.slice(0, d))) dirs.set(key.slice(0, d), writer);
  });
  for (const [key, at] of byKey) {
    const dir = dirs.get(key);
    const sharing = dir === undefined ? at : [...at, dir];
    if (sharing.length < 2) continue;
    const who = sharing.map((w) => w.shown).join(' and ');
    for (const { index } of sharing) problems.set(index, `${who} would write the same path`);
  }
  return problems;
}

/** What DIR's outputs list names, path → entry, and DIR's real path (undefined: no DIR yet); UnsafePath when DIR or its list cannot be read safely. */
export async function listedOutputs(
  dir: string,
): Promise<{ root: string; entries: Map<string, ListEntry> } | undefined> {
  const root = await SafeDir.open(dir, { create: false, followNamed: true });
  if (!root) return undefined;
  return { root: root.abs, entries: parseList((await root.read(OUTPUTS_LIST)) ?? '', dir).entries };
}

/**
 * The files each Cluster's earlier render left in DIR, as `listed` names them, each with its mark
 * only when it is a regular file (reached without links) whose content has the hash the list
 * gives: a file edited, truncated, replaced or missing has none, so its Cluster is rendered again.
 */
export async function intactOutputs(
  dir: string,
  listed: ReadonlyMap<string, ListEntry>,
): Promise<Map<string, EarlierFile[]>> {
  const root = await SafeDir.open(dir, { create: false, followNamed: true });
  const byCluster = new Map<string, EarlierFile[]>();
  const files = [...listed].filter(([, e]) => listedCluster(e.owner) !== undefined);
  for (const [path, e] of files) {
    const text = e.inputs && root ? await root.readIfRegular(path) : undefined;
    const file: EarlierFile =
      text !== undefined && sha256Of(text) === e.sha256
        ? { path, inputs: e.inputs, objects: documents(text) }
        : { path, objects: 0 };
    byCluster.set(e.owner, [...(byCluster.get(e.owner) ?? []), file]);
  }
  return byCluster;
}

/** The documents of a file this tool wrote (output/write.ts `stringifyDocuments`: `---` lines between them, none inside). */
const documents = (text: string): number => (text === '' ? 0 : text.split('\n---\n').length);

/** Whether `path` is `dir` or below it (both absolute). */
export const within = (path: string, dir: string): boolean =>
  path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);

/** `abs` relative to `root`, `/`-separated. */
export const relativeTo = (root: string, abs: string): string => relative(root, abs).split(sep).join('/');

/**
 * Brings DIR to `files`. `keep` is asked about each listed file that `files` does not hold, with
 * its Cluster's `namespace/name` (undefined for a copied input), and says why that file stays
 * (pipeline/keep.ts); a file it gives no reason for is pruned, unless `guard` protects it.
 * Throws UnsafePath (nothing
 * changed) when a path is a link, DIR is in use by another run, or a file is in the way of a
 * directory.
 */
export async function writeOutputDir<Reason extends string>(
  dir: string,
  files: readonly OutputFile[],
  keep: (cluster: string | undefined) => Reason | undefined,
  guard: ListGuard = { inputs: new Set(), holdsInputs: false },
): Promise<OutputSummary<Reason>> {
  const bad = outputPathProblems(files.map((f) => ({ path: f.path, owner: ownerOf(f) })));
  if (bad.size > 0) throw new UnsafePath([...bad.values()][0]);
  const root = await SafeDir.openPresent(dir, { create: true, followNamed: true });
  const run = await root.lock();
  try {
    return await bringUpToDate(run, files, keep, guard);
  } finally {
    await run.release();
  }
}

async function bringUpToDate<Reason extends string>(
  run: LockedDir,
  files: readonly OutputFile[],
  keep: (cluster: string | undefined) => Reason | undefined,
  guard: ListGuard,
): Promise<OutputSummary<Reason>> {
  const root = run.dir;
  const listed = await root.read(OUTPUTS_LIST);
  const { entries: before, notes } = parseList(listed ?? '', root.shown);
  const summary: OutputSummary<Reason> = { written: 0, unchanged: 0, reused: 0, pruned: 0, kept: new Map(), notes };

  // First look, change nothing: every path is checked before the first write.
  const after = new Map<string, ListEntry>();
  const produced = new Set(files.map((f) => f.path));
  for (const [path, entry] of before) {
    const reason = produced.has(path) ? undefined : keep(listedCluster(entry.owner));
    if (reason === undefined) continue;
    after.set(path, entry);
    summary.kept.set(reason, (summary.kept.get(reason) ?? 0) + 1);
  }
  const changed: { path: string; text: string }[] = [];
  for (const f of files) {
    if ('reused' in f) {
      // Found intact before the render (intactOutputs); a change since shows as a hash mismatch next run.
      after.set(f.path, f.reused);
      summary.unchanged++;
      summary.reused++;
      continue;
    }
    after.set(
      f.path,
      f.inputs ? { owner: listedOwner(f), inputs: f.inputs, sha256: sha256Of(f.text) } : { owner: listedOwner(f) },
    );
    if ((await root.read(f.path)) === f.text) summary.unchanged++;
    else changed.push(f);
  }
  const pruned: string[] = [];
  for (const path of before.keys()) {
    if (after.has(path)) continue;
    const why = guard.inputs.has(path)
      ? 'an input of this run'
      : guard.holdsInputs && before.get(path)?.owner === INPUTS
        ? 'DIR holds inputs, so no copied input can be there'
        : undefined;
    if (why) {
      notes.push(`${root.shownPath(path)}: listed as written by this tool, but ${why}: not pruned, no longer listed`);
      continue;
    }
    const found = await root.probe(path);
    if (found.kind === 'file') pruned.push(path);
    else if (found.kind !== 'missing')
      notes.push(
        `${root.refusal(path, found) ?? root.shownPath(path)}: listed, but not pruned (only regular files are)`,
      );
  }

  await run.sweep();
  const staged = await mapLimited(changed, async (f) => ({ path: f.path, staged: await run.stage(f.text) }));
  // The list names every file this run may write before the first is renamed into place.
  const writeList = async (entries: ReadonlyMap<string, ListEntry>, current: string | undefined) => {
    const text = listText(entries);
    if (text !== current) await run.install(await run.stage(text), OUTPUTS_LIST);
    return text;
  };
  const during = await writeList(new Map([...before, ...after]), listed);
  for (const { path, staged: file } of staged) await run.install(file, path);
  summary.written = changed.length;
  for (const path of pruned) if (await run.remove(path)) summary.pruned++;
  await writeList(after, during);
  return summary;
}

/** `fn` over `items` with at most 32 at a time (thousands of open files at once would exhaust descriptors). */
async function mapLimited<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  // One iterator shared by the workers: each takes the next item.
  const queue = items.entries();
  const worker = async () => {
    for (const [i, item] of queue) out[i] = await fn(item);
  };
  await Promise.all(Array.from({ length: Math.min(32, items.length) }, worker));
  return out;
}
