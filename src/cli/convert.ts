/**
 * `render-clusterclass convert PATH... [-o DIR | --in-place] [--to v1beta2]`: moves a
 * ClusterClass estate from v1beta1 to v1beta2 (src/convert). Without -o or --in-place it is a dry
 * run that prints a unified diff.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { formatResults } from '../krm/write.js';
import { convertSources, unifiedDiff, type ConvertedFile } from '../convert/index.js';
import { collectFiles, type FoundFile } from './inputs.js';
import { ExitCode, type CliIO } from './io.js';
import { parseArgs, type ArgSpec } from './args.js';

const ARGS: ArgSpec = { flags: { output: 'string', o: 'string', 'in-place': 'boolean', to: 'string', help: 'boolean' } };

export const CONVERT_HELP = `Usage: render-clusterclass convert PATH... [-o DIR | --in-place] [--to v1beta2]

Converts the cluster.x-k8s.io ClusterClasses and Clusters and the kubeadm templates
(KubeadmConfigTemplate, KubeadmControlPlaneTemplate) under PATH from v1beta1 to v1beta2 as
Cluster API's conversion does, rewrites the class patches for the converted templates, keeps
comments, key order and layout, and proves the result: both versions are rendered and every
rendered object of every Cluster is compared.

Without -o or --in-place, prints the change as a unified diff (nothing is written).

Options:
  -o, --output DIR   write every input file, converted, under DIR (same relative paths)
  --in-place         rewrite the files that change (each atomically: temporary file, rename)
  --to VERSION       the target version: v1beta2 (the only one)
Results go to stderr: what was rewritten, what could not be converted (and why, with a
suggested rewrite), and per Cluster "equivalent" or each rendered difference.
Nothing is written when a rendered object differs.
Exit codes: 0 converted and equivalent, 1 a patch that cannot be converted, a rendered
difference or unreadable input, 2 internal failure, 3 bad arguments.
`;

/** Writes `text` to `path` through a temporary file in the same directory, then renames it over. */
async function writeAtomically(path: string, text: string): Promise<void> {
  const tmp = `${path}.render-clusterclass-${process.pid}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, path);
}

async function writeOutput(files: { abs: string; rel: string }[], converted: ConvertedFile[], outDir: string | undefined): Promise<number> {
  let written = 0;
  for (let i = 0; i < files.length; i++) {
    const c = converted[i]!;
    if (outDir !== undefined) {
      const root = resolve(outDir);
      const target = resolve(root, files[i]!.rel);
      if (!target.startsWith(root + sep)) continue;
      await mkdir(dirname(target), { recursive: true });
      await writeAtomically(target, c.after);
      written++;
    } else if (c.after !== c.before) {
      await writeAtomically(files[i]!.abs, c.after);
      written++;
    }
  }
  return written;
}

export async function runConvertCommand(args: string[], io: CliIO): Promise<number> {
  const parsed = parseArgs(args, ARGS);
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
  if (parsed.positional.includes('-')) return fail('convert reads files, not stdin (use the KRM function with mode: convert for a stream)');

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
  const written = await writeOutput(files, outcome.files, outDir);
  io.stderr(`render-clusterclass convert: ${changed.length} of ${files.length} files converted, ${written} written${outDir ? ` to ${outDir}` : ''}\n`);
  return outcome.code;
}
