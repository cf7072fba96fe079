/**
 * `render-clusterclass convert PATH... [-o DIR | --in-place] [--to v1beta2]`: moves a
 * ClusterClass estate from v1beta1 to v1beta2 (src/convert). Without -o or --in-place it is a dry
 * run that prints a unified diff.
 */
import { lstat, readFile, realpath } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { formatResults } from '../output/write.js';
import { convertSources, unifiedDiff, type ConvertedFile } from '../convert/index.js';
import { collectFiles, type FoundFile } from './inputs.js';
import { outputPathProblems, relativeTo, within } from './outdir.js';
import { SafeDir, UnsafePath, type FileOwner, type LockedDir } from './safefs.js';
import { ExitCode, type CliIO } from './io.js';
import { parseArgs } from './args.js';
import { COMMANDS } from './commands.js';

export const CONVERT_HELP = `Usage: render-clusterclass convert PATH... [-o DIR | --in-place] [--to v1beta2]

Converts the cluster.x-k8s.io ClusterClasses and Clusters and the kubeadm templates
(KubeadmConfigTemplate, KubeadmControlPlaneTemplate) under PATH from v1beta1 to v1beta2 as
Cluster API's conversion does, rewrites the class patches for the converted templates, keeps
comments, key order and layout, and proves the result: both versions are rendered and every
rendered object of every Cluster is compared.

Without -o or --in-place, prints the change as a unified diff (nothing is written).

Options:
  -o, --output DIR   write every input file, converted, under DIR (same relative paths below
                     the PATH it came from; two inputs on one path are refused)
  --in-place         rewrite the files that change (each atomically: temporary file, rename),
                     keeping mode and owner; a symbolic link or a file with hard links is
                     refused
  --to VERSION       the target version: v1beta2 (the only one)
Results go to stderr: what was rewritten, what could not be converted (and why, with a
suggested rewrite), and per Cluster "equivalent" or each rendered difference.
Nothing is written when a rendered object differs.
Exit codes: 0 converted and equivalent, 1 a patch that cannot be converted, a rendered
difference or unreadable input, 2 internal failure, 3 bad arguments.
`;

/** An input file with what it converts to. */
interface Conversion {
  file: FoundFile;
  converted: ConvertedFile;
}

/** Each input file with its conversion. */
const withConversions = (files: readonly FoundFile[], converted: readonly ConvertedFile[]): Conversion[] =>
  files.map((file, i) => {
    // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- convertSources converts every source, in order
    return { file, converted: converted[i]! };
  });

interface Replacement {
  name: string;
  text: string;
  owner?: FileOwner;
}

/**
 * Replaces files of several directories: each directory locked (in a stable order), every target
 * checked (no link, nothing but a regular file) before the first write, each file whose text
 * changes created exclusively in the directory's staging and renamed into place (safefs.ts);
 * how many were written.
 */
async function replaceFiles(dirs: ReadonlyMap<SafeDir, readonly Replacement[]>): Promise<number> {
  const locked: LockedDir[] = [];
  try {
    for (const dir of [...dirs.keys()].sort((a, b) => (a.abs < b.abs ? -1 : 1))) locked.push(await dir.lock());
    const changed = new Map<SafeDir, Replacement[]>();
    for (const [dir, files] of dirs) {
      for (const f of files)
        if ((await dir.read(f.name)) !== f.text) changed.set(dir, [...(changed.get(dir) ?? []), f]);
    }
    for (const run of locked) {
      await run.sweep();
      for (const f of changed.get(run.dir) ?? []) await run.install(await run.stage(f.text, f.owner), f.name);
    }
    return [...changed.values()].reduce((n, files) => n + files.length, 0);
  } finally {
    for (const run of locked) await run.release();
  }
}

/**
 * \`--in-place\`: each changed file replaced by one with the same mode and owner. A file that is a
 * symbolic link or has other hard links is refused before anything is written: a rename would
 * cut the link, the other names keeping the old text.
 */
async function inPlaceReplacements(conversions: readonly Conversion[]): Promise<Map<SafeDir, Replacement[]>> {
  // By real directory (two spellings of one directory share its lock), opened as first typed.
  const dirs = new Map<string, { shown: string; replacements: Replacement[] }>();
  for (const { file, converted: c } of conversions) {
    if (c.after === c.before) continue;
    const { abs, path } = file;
    const st = await lstat(abs);
    if (st.isSymbolicLink())
      throw new UnsafePath(
        `${path} is a symbolic link: convert the file it points to (${await realpath(abs)}) instead`,
      );
    if (!st.isFile()) throw new UnsafePath(`${path} is not a regular file`);
    if (st.nlink > 1)
      throw new UnsafePath(
        `${path} has ${st.nlink} hard links: replacing it would leave the other names with the old text; convert a copy (-o) instead`,
      );
    const uid = process.getuid?.();
    if (uid !== undefined && uid !== 0 && uid !== st.uid)
      throw new UnsafePath(
        `${path} belongs to uid ${st.uid}: converted in place it would become yours; run as its owner, or convert a copy (-o)`,
      );
    const real = await realpath(dirname(abs));
    const dir = dirs.get(real) ?? { shown: dirname(path), replacements: [] };
    dir.replacements.push({ name: basename(abs), text: c.after, owner: { mode: st.mode, uid: st.uid, gid: st.gid } });
    dirs.set(real, dir);
  }
  const out = new Map<SafeDir, Replacement[]>();
  for (const { shown, replacements } of dirs.values())
    out.set(await SafeDir.openPresent(shown, { create: false, followNamed: true }), replacements);
  return out;
}

/**
 * \`-o DIR\`: every input at its path below the argument it came from; two inputs on one path, a
 * path that would replace an input, or a link in DIR are refused before anything is written.
 */
async function copyReplacements(
  conversions: readonly Conversion[],
  outDir: string,
): Promise<Map<SafeDir, Replacement[]>> {
  const existing = await SafeDir.open(outDir, { create: false, followNamed: true });
  const inputs = new Set<string>();
  const files = conversions.map((c) => c.file);
  if (existing) {
    for (const f of files) {
      const real = await realpath(f.abs);
      if (within(real, existing.abs)) inputs.add(relativeTo(existing.abs, real));
    }
  }
  const problems = outputPathProblems(
    files.map((f) => ({ path: f.rel, owner: f.path })),
    inputs,
  );
  const [problem] = problems.values();
  if (problem !== undefined) throw new UnsafePath(`${problem} below ${outDir}`);
  const dir = existing ?? (await SafeDir.openPresent(outDir, { create: true, followNamed: true }));
  return new Map([[dir, conversions.map(({ file, converted }) => ({ name: file.rel, text: converted.after }))]]);
}

export async function runConvertCommand(args: string[], io: CliIO): Promise<number> {
  const parsed = parseArgs(args, COMMANDS.convert);
  const fail = (message: string) => {
    io.stderr(`render-clusterclass convert: ${message}\n${CONVERT_HELP}`);
    return ExitCode.functionConfig;
  };
  if (!parsed.ok) return fail(parsed.message);
  if (parsed.flags.help) {
    await io.stdout(CONVERT_HELP);
    return ExitCode.ok;
  }
  const outDir = (parsed.flags.output ?? parsed.flags.o) as string | undefined;
  const inPlace = parsed.flags['in-place'] === true;
  const to = (parsed.flags.to as string | undefined) ?? 'v1beta2';
  if (to !== 'v1beta2') return fail(`--to ${to}: only v1beta2 is supported`);
  if (outDir !== undefined && inPlace) return fail('-o and --in-place exclude each other');
  if (parsed.positional.length === 0) return fail('no PATH given');
  if (parsed.positional.includes('-'))
    return fail('convert reads files, not stdin (use the KRM function with mode: convert for a stream)');

  let files: FoundFile[];
  try {
    const found = await collectFiles(parsed.positional);
    files = found.files;
    io.stderr(formatResults(found.links, 'warning'));
  } catch (e) {
    io.stderr(`render-clusterclass convert: ${(e as Error).message}\n`);
    return ExitCode.errorResults;
  }
  const sources = await Promise.all(files.map(async (f) => ({ path: f.rel, text: await readFile(f.abs, 'utf8') })));
  const outcome = convertSources(sources);
  io.stderr(formatResults(outcome.results, 'info'));
  if (!outcome.proof) return outcome.code;
  const changed = outcome.files.filter((f) => f.after !== f.before);
  if (outDir === undefined && !inPlace) {
    for (const f of changed) await io.stdout(unifiedDiff(f.before, f.after, f.path));
    io.stderr(`render-clusterclass convert: dry run: ${changed.length} of ${files.length} files would change\n`);
    return outcome.code;
  }
  if (outcome.proof && !outcome.proof.equivalent) {
    io.stderr('render-clusterclass convert: nothing written: the converted inputs do not render the same\n');
    return outcome.code;
  }
  let written: number;
  try {
    const conversions = withConversions(files, outcome.files);
    const writes =
      outDir === undefined ? await inPlaceReplacements(conversions) : await copyReplacements(conversions, outDir);
    written = await replaceFiles(writes);
  } catch (e) {
    if (!(e instanceof UnsafePath) && !(e as { code?: string }).code) throw e;
    io.stderr(`render-clusterclass convert: cannot write: ${(e as Error).message}\n`);
    return ExitCode.errorResults;
  }
  io.stderr(
    `render-clusterclass convert: ${changed.length} of ${files.length} files converted, ${written} written${outDir ? ` to ${outDir}` : ''}\n`,
  );
  return outcome.code;
}
