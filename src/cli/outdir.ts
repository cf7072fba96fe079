/**
 * `render PATH... -o DIR`: a directory that holds what this tool wrote there, safe to re-run in CI.
 *
 * - Rendered objects go to `DIR/<namespace>/<cluster>.yaml` (and `.provenance.yaml`); inputs only
 *   when asked (`--with-inputs`, at their path below the argument they came from).
 * - `DIR/.render-clusterclass-outputs` lists every file written, with its Cluster. It makes the
 *   directory recognisable: it is never read as input, and files of Clusters that are gone are
 *   pruned from it — only files it lists, never anything else in DIR.
 * - Files the caller keeps (pipeline/keep.ts: a Cluster in the inputs that was not rendered; every
 *   file in a run that could not read all its inputs) stay untouched.
 * - New content is written to a temporary directory inside DIR, then renamed into place, so no
 *   reader ever sees half a file; a file whose content is unchanged is not touched (its mtime
 *   stays, so rsync, make and git see no change).
 */
import { mkdir, mkdtemp, readFile, rename, rm, rmdir, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';

/** The list of files this tool wrote in an output directory (not YAML, so no applier reads it). */
export const OUTPUTS_LIST = '.render-clusterclass-outputs';
const HEADER = '# Files written by render-clusterclass (path<TAB>Cluster; "-" for copied inputs). Do not edit.\n';
const INPUTS = '-';

export interface OutputFile {
  /** Relative to the output directory, `/`-separated. */
  path: string;
  /** `<namespace>/<name>` of the Cluster, or undefined for a copied input. */
  cluster?: string;
  text: string;
}

export interface OutputSummary<Reason extends string> {
  written: number;
  unchanged: number;
  pruned: number;
  /** Earlier files left as they were, by the reason the caller's `keep` gave. */
  kept: Map<Reason, number>;
}

function parseList(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const tab = line.lastIndexOf('\t');
    if (tab > 0) out.set(line.slice(0, tab), line.slice(tab + 1));
  }
  return out;
}

const readList = async (root: string) => parseList(await readFile(join(root, OUTPUTS_LIST), 'utf8').catch(() => ''));

/** The Clusters (`namespace/name`) whose files DIR's list names: the Clusters an earlier run wrote there. */
export async function listedClusters(dir: string): Promise<Set<string>> {
  return new Set([...(await readList(resolve(dir))).values()].filter((c) => c !== INPUTS));
}

/**
 * Brings DIR to `files`. `keep` is asked about each listed file that `files` does not hold, with
 * its Cluster's `namespace/name` (undefined for a copied input), and says why that file stays
 * (pipeline/keep.ts); a file it gives no reason for is pruned.
 */
export async function writeOutputDir<Reason extends string>(dir: string, files: readonly OutputFile[], keep: (cluster: string | undefined) => Reason | undefined): Promise<OutputSummary<Reason>> {
  const root = resolve(dir);
  const inside = (path: string) => {
    const target = resolve(root, path);
    return target.startsWith(root + sep) && !path.split('/').includes(OUTPUTS_LIST) ? target : undefined;
  };
  await mkdir(root, { recursive: true });
  const before = await readList(root);
  const after = new Map<string, string>();
  const summary: OutputSummary<Reason> = { written: 0, unchanged: 0, pruned: 0, kept: new Map() };
  const produced = new Set(files.map((f) => f.path));
  for (const [path, cluster] of before) {
    const reason = produced.has(path) ? undefined : keep(cluster === INPUTS ? undefined : cluster);
    if (reason === undefined) continue;
    after.set(path, cluster);
    summary.kept.set(reason, (summary.kept.get(reason) ?? 0) + 1);
  }
  const changed: { target: string; text: string }[] = [];
  for (const f of files) {
    const target = inside(f.path);
    if (!target || after.has(f.path)) continue;
    after.set(f.path, f.cluster ?? INPUTS);
    if ((await readFile(target, 'utf8').catch(() => undefined)) === f.text) summary.unchanged++;
    else changed.push({ target, text: f.text });
  }
  const pruned = [...before.keys()].filter((p) => !after.has(p)).flatMap((p) => inside(p) ?? []);
  const list = `${HEADER}${[...after].sort(([a], [b]) => (a < b ? -1 : 1)).map(([p, c]) => `${p}\t${c}\n`).join('')}`;
  const listChanged = (await readFile(join(root, OUTPUTS_LIST), 'utf8').catch(() => undefined)) !== list;
  if (listChanged) changed.push({ target: join(root, OUTPUTS_LIST), text: list });

  // Every new file is complete on disk before the first one is renamed into place.
  const staging = await mkdtemp(join(root, '.render-clusterclass-tmp-'));
  try {
    const staged = await Promise.all(
      changed.map(async (c, i) => {
        const file = join(staging, String(i));
        await writeFile(file, c.text);
        return { file, target: c.target };
      }),
    );
    for (const s of staged) {
      await mkdir(dirname(s.target), { recursive: true });
      await rename(s.file, s.target);
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  summary.written = changed.length - (listChanged ? 1 : 0);
  for (const target of pruned) {
    await unlink(target).catch(() => undefined);
    summary.pruned++;
    // Remove directories the pruning emptied (a namespace with no Cluster left), up to DIR.
    for (let d = dirname(target); d.startsWith(root + sep); d = dirname(d)) {
      if (!(await rmdir(d).then(() => true, () => false))) break;
    }
  }
  return summary;
}
