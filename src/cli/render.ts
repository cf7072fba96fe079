/**
 * The two front-ends of the renderer core: the KRM function (ResourceList on stdin → stdout) and
 * `render PATH...` over files and directories (CI, Flux, Argo CD). Both run `runPipeline`.
 */
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { Json, JsonObject } from '../api/model.js';
import { isObject } from '../api/json.js';
import { applySettings, parseFunctionConfig, type ConfigOutcome, type RenderConfig } from '../krm/config.js';
import { hasErrors, type Result } from '../krm/result.js';
import { readResourceList, readYamlStream, refOf, type InputItem, type ResourceListInput } from '../krm/read.js';
import { formatResults, newResourceListDocument, outputFiles, resourceListWriter, stringifyDocuments, toManifest, writeResourceList } from '../krm/write.js';
import { renderPipeline, runPipeline, type PipelineSummary } from '../pipeline/run.js';
import { materializeBase } from './base.js';
import { ExitCode, type CliIO } from './io.js';
import { parseArgs, type ArgSpec } from './args.js';
import { prepareExtensions } from './extensions.js';

function exitCodeFor(results: readonly Result[], config: RenderConfig): number {
  if (hasErrors(results)) return ExitCode.errorResults;
  if (config.failOn === 'warning' && results.some((r) => r.severity === 'warning')) return ExitCode.errorResults;
  return ExitCode.ok;
}

/**
 * Refuses to print an output that lost input items (kpt would delete their files): every input
 * item must be kept, or be a previous output being replaced, or be a class input dropped on purpose.
 */
function lostItems(input: ResourceListInput, summary: PipelineSummary, renderedClusters: number): boolean {
  const given = input.items.length + (input.earlier?.length ?? 0);
  return summary.keep.length + summary.keepEntries.length === 0 && renderedClusters === 0 && given > 0;
}

/**
 * KRM function mode. Each Cluster's objects are serialised as soon as they are rendered and
 * dropped (krm/write.ts `resourceListWriter`); the output is written in pieces, awaiting the
 * stream, once the last Cluster is rendered. Every ResourceList written holds every input item:
 * input that cannot be read as a whole gets one line on stderr and exit 1; an invalid function
 * config gets the items back untouched with an error result naming the field, and exit 3.
 */
export async function runFunction(io: CliIO): Promise<number> {
  const read = readResourceList(await io.readStdin());
  if (!read.ok) {
    io.stderr(`render-clusterclass: ${read.message}\n`);
    return ExitCode.errorResults;
  }
  const { input } = read;
  const cfg: ConfigOutcome = input.functionConfigProblem ? { ok: false, message: `invalid function config: ${input.functionConfigProblem}` } : parseFunctionConfig(input.functionConfig);
  if (!cfg.ok) {
    const result = configErrorResult(cfg, input.functionConfig);
    const keepEntries = input.earlier?.map((e) => e.entry!) ?? [];
    await io.stdout(writeResourceList(input.doc!, { keep: input.items, keepEntries, edits: new Map(), generated: [], results: [...input.results, result] }));
    io.stderr(`render-clusterclass: ${result.field ? `functionConfig.${result.field.path}: ` : ''}${result.message}\n`);
    return ExitCode.functionConfig;
  }
  if (cfg.config.mode === 'convert') {
    const { convertResourceList } = await import('../convert/index.js');
    const converted = convertResourceList(input.doc!, input.items, cfg.config, input.results);
    await io.stdout(converted.text);
    if (converted.code !== 0) io.stderr(formatResults(converted.results, 'error'));
    return converted.code;
  }
  const extensions = await prepareExtensions(cfg.config, io);
  if (!extensions.ok) {
    io.stderr(`render-clusterclass: ${extensions.message}\n`);
    return ExitCode.errorResults;
  }
  const writer = resourceListWriter();
  const extras = { ...(extensions.value.inputs ? { extensions: extensions.value.inputs } : {}), ...(input.earlier ? { earlier: input.earlier } : {}) };
  const output = renderPipeline(input.items, cfg.config, input.results, extras, (g) => writer.add(g));
  await extensions.value.save();
  if (lostItems(input, output, writer.clusters)) {
    io.stderr('render-clusterclass: refusing to return an empty item list\n');
    return ExitCode.internal;
  }
  for (const piece of writer.pieces(input.doc!, output)) await io.stdout(piece);
  const code = exitCodeFor(output.results, cfg.config);
  if (code !== 0) io.stderr(formatResults(output.results, 'error'));
  return code;
}

/** An invalid function config as a result: about the config object when it has an identity (kpt's `function-input`). */
function configErrorResult(cfg: { message: string; field?: string }, fc: Json | undefined): Result {
  const ref = isObject(fc) ? refOf(fc) : undefined;
  const result: Result = { severity: 'error', message: cfg.message, tags: { rule: 'function-config' } };
  if (ref) result.resourceRef = ref;
  if (cfg.field !== undefined) {
    if (ref) result.field = { path: cfg.field };
    else result.message = `functionConfig.${cfg.field}: ${cfg.message}`;
  }
  return result;
}

const YAML_FILE = /\.(ya?ml|json)$/i;

/** Files under the given paths, sorted for a stable item order. */
export async function collectFiles(paths: string[]): Promise<{ abs: string; rel: string }[]> {
  const out: { abs: string; rel: string }[] = [];
  const base = process.cwd();
  const walk = async (abs: string, root: string): Promise<void> => {
    const st = await stat(abs);
    if (st.isDirectory()) {
      const entries = (await readdir(abs)).sort();
      for (const e of entries) {
        if (e.startsWith('.') || e === 'node_modules') continue;
        await walk(join(abs, e), root);
      }
    } else if (st.isFile() && (YAML_FILE.test(abs) || abs === root)) {
      out.push({ abs, rel: relative(st.isFile() && abs === root ? dirname(root) : root, abs).split(sep).join('/') });
    }
  };
  for (const p of paths) await walk(resolve(base, p), resolve(base, p));
  return out;
}

export type InputsOutcome = { ok: true; items: InputItem[]; readResults: Result[] } | { ok: false; message: string };

/** Reads YAML files and directories (and `-` for stdin) into input items, in a stable order. */
export async function readInputs(paths: string[], io: CliIO): Promise<InputsOutcome> {
  let inputFiles: { abs: string; rel: string }[];
  try {
    inputFiles = await collectFiles(paths.filter((p) => p !== '-'));
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
  const sources = inputFiles.map((f) => ({ rel: f.rel, text: () => readFile(f.abs, 'utf8') }));
  if (paths.includes('-')) sources.unshift({ rel: 'stdin.yaml', text: () => io.readStdin() });
  const items: InputItem[] = [];
  const readResults: Result[] = [];
  for (const f of sources) {
    const read = readYamlStream(await f.text(), f.rel);
    if (!read.ok) return { ok: false, message: read.message };
    items.push(...read.items);
    readResults.push(...read.results);
  }
  return { ok: true, items, readResults };
}

/** The function config of a command: `--config FILE`, then `--set KEY=VALUE` and shorthand flags on top. */
export async function configFromFlags(flags: Record<string, string | boolean | string[]>): Promise<ConfigOutcome> {
  let fc: JsonObject | undefined;
  const configFile = flags.config as string | undefined;
  if (configFile) {
    const text = await readFile(configFile, 'utf8').catch(() => undefined);
    const read = text === undefined ? undefined : readYamlStream(text, configFile);
    if (!read || !read.ok || read.items.length !== 1) return { ok: false, message: `--config ${configFile}: expected a file with one YAML object` };
    fc = read.items[0]!.value;
  }
  const cfg = parseFunctionConfig(fc);
  if (!cfg.ok) return cfg;
  const settings: Record<string, string> = {};
  for (const kv of (flags.set as string[] | undefined) ?? []) {
    const i = kv.indexOf('=');
    if (i <= 0) return { ok: false, message: `--set expects KEY=VALUE, got "${kv}"` };
    settings[kv.slice(0, i)] = kv.slice(i + 1);
  }
  for (const [flag, key] of [
    ['mode', 'mode'],
    ['fail-on', 'failOn'],
    ['shard', 'shard'],
    ['upgrade', 'upgrade'],
    ['extensions', 'extensions'],
    ['record-extensions', 'recordExtensions'],
    ['replay-extensions', 'replayExtensions'],
  ] as const) {
    const v = flags[flag];
    if (typeof v === 'string') settings[key] = v;
  }
  const urls = flags.extension as string[] | undefined;
  if (urls && urls.length > 0) settings.extensionURLs = urls.join(',');
  if (flags.strict === true) settings.strict = 'true';
  return applySettings(cfg.config, settings, true);
}

/** Objects from a side directory (`--crds`, `--observed`): used by the render, never output. */
export async function readSideObjects(dir: string | undefined, io: CliIO, keep: (i: InputItem) => boolean): Promise<{ ok: true; objects: JsonObject[] } | { ok: false; message: string }> {
  if (!dir) return { ok: true, objects: [] };
  const read = await readInputs([dir], io);
  if (!read.ok) return read;
  return { ok: true, objects: read.items.filter(keep).map((i) => i.value) };
}

/** CustomResourceDefinitions from `--crds DIR` (used for defaults, contracts and validation). */
export const readCrds = (dir: string | undefined, io: CliIO) => readSideObjects(dir, io, (i) => i.ref?.kind === 'CustomResourceDefinition');

/** The Runtime SDK flags every command takes (see configFromFlags). */
export const EXTENSION_FLAGS = { extensions: 'string', extension: 'list', 'record-extensions': 'string', 'replay-extensions': 'string' } as const;

export const EXTENSION_HELP = `  --extensions PATH    ExtensionConfig objects (a file or directory): external patches,
                       variable discovery and topology validation call these Runtime SDK
                       extensions (ExtensionConfigs among the inputs are used too)
  --extension NAME=URL reach ExtensionConfig NAME at URL (a local extension or a port-forward);
                       the certificate must still name the host CAPI would call (repeatable)
  --record-extensions DIR  write every extension answer to DIR (one file per request)
  --replay-extensions DIR  answer extension calls from DIR only, without any network
`;

const RENDER_ARGS: ArgSpec = {
  flags: {
    previous: 'string',
    observed: 'string',
    crds: 'string',
    output: 'string',
    o: 'string',
    config: 'string',
    mode: 'string',
    format: 'string',
    set: 'list',
    help: 'boolean',
    'fail-on': 'string',
    strict: 'boolean',
    upgrade: 'string',
    shard: 'string',
    ...EXTENSION_FLAGS,
  },
};


export const RENDER_HELP: string = `Usage: render-clusterclass render PATH... [options]

Renders every Cluster with spec.topology found in the YAML files under PATH (files or
directories, read recursively; - reads a YAML stream from stdin) and prints the result, or
writes it to a directory.

Options:
  -o, --output DIR     write files: inputs keep their relative paths, rendered objects go to
                       <outputDir>/<namespace>/<cluster>.yaml (default: print to stdout)
  --config FILE        function config (RenderClusterClass or ConfigMap) as a file
  --set KEY=VALUE      a function config field (repeatable), e.g. --set mode=preview
  --mode MODE          expand (default) | preview | validate
  --format FORMAT      manifests (default: applyable objects only, no tool annotations) |
                       all (every object, as kpt would write them) | resourcelist |
                       kustomize (for the kustomize exec plugin: keeps kustomize ids)
  --fail-on SEVERITY   error (default) | warning
  --strict             report every warning as an error (CI gates)
  --shard I/N          render only shard I (0-based) of N
  --previous REF|DIR   the inputs as they were (a git revision of the same paths, or a directory):
                       adds the webhooks' update checks (class compatibility, version
                       downgrade or skipped minor) and reports which control planes and
                       MachineDeployments will roll out, and why; its render is the
                       current state for upgrade sequencing
  --observed DIR       live objects exported with kubectl get -o yaml (control plane,
                       MachineDeployments, MachinePools, with status): the observed state
                       that lets workers follow a control-plane upgrade
  --upgrade POLICY     control-plane-first (default): with a current state, the control
                       plane moves first, one step at a time, workers follow once observed
                       state shows it done | all-at-once: everything at spec.topology.version
  --crds DIR           CustomResourceDefinitions: their structural defaults are applied to
                       templates, their cluster.x-k8s.io/<contract> labels give control-plane
                       contracts, and every rendered object is validated against its schema
                       (CRDs among the inputs are used the same way)
${EXTENSION_HELP}Exit codes: 0 ok, 1 error results or unreadable input, 2 internal failure (a bug), 3 bad config
or usage.
`;

export async function runRender(args: string[], io: CliIO): Promise<number> {
  const parsed = parseArgs(args, RENDER_ARGS);
  if (!parsed.ok) {
    io.stderr(`render-clusterclass render: ${parsed.message}\n${RENDER_HELP}`);
    return ExitCode.functionConfig;
  }
  if (parsed.flags.help) {
    io.stdout(RENDER_HELP);
    return ExitCode.ok;
  }
  if (parsed.positional.length === 0) {
    io.stderr(`render-clusterclass render: no PATH given\n${RENDER_HELP}`);
    return ExitCode.functionConfig;
  }
  const cfg = await configFromFlags(parsed.flags);
  if (!cfg.ok) {
    io.stderr(`render-clusterclass render: ${cfg.message}\n`);
    return ExitCode.functionConfig;
  }
  if (cfg.config.mode === 'convert') {
    io.stderr('render-clusterclass render: mode convert is the KRM function\'s; on the command line use `render-clusterclass convert PATH...`\n');
    return ExitCode.functionConfig;
  }
  const format = (parsed.flags.format as string | undefined) ?? 'manifests';
  if (!['manifests', 'all', 'resourcelist', 'kustomize'].includes(format)) {
    io.stderr(`render-clusterclass render: --format must be manifests, all, kustomize or resourcelist\n`);
    return ExitCode.functionConfig;
  }

  const inputs = await readInputs(parsed.positional, io);
  if (!inputs.ok) {
    io.stderr(`render-clusterclass render: ${inputs.message}\n`);
    return ExitCode.errorResults;
  }
  const { items, readResults } = inputs;
  const crds = await readCrds(parsed.flags.crds as string | undefined, io);
  if (!crds.ok) {
    io.stderr(`render-clusterclass render: --crds: ${crds.message}\n`);
    return ExitCode.errorResults;
  }
  const observed = await readSideObjects(parsed.flags.observed as string | undefined, io, () => true);
  if (!observed.ok) {
    io.stderr(`render-clusterclass render: --observed: ${observed.message}\n`);
    return ExitCode.errorResults;
  }
  const previous = parsed.flags.previous as string | undefined;
  let previousInputs: InputItem[] = [];
  if (previous) {
    const base = materializeBase(previous, parsed.positional.filter((p) => p !== '-'));
    const before = base.ok ? await readInputs(base.paths, io) : base;
    if (!before.ok) {
      io.stderr(`render-clusterclass render: --previous: ${before.message}\n`);
      return ExitCode.errorResults;
    }
    previousInputs = before.items;
  }
  const extensions = await prepareExtensions(cfg.config, io);
  if (!extensions.ok) {
    io.stderr(`render-clusterclass render: ${extensions.message}\n`);
    return ExitCode.errorResults;
  }
  const output = runPipeline(items, cfg.config, readResults, {
    crds: crds.objects,
    observed: observed.objects,
    previousInputs,
    ...(extensions.value.inputs ? { extensions: extensions.value.inputs } : {}),
  });
  await extensions.value.save();
  io.stderr(formatResults(output.results));
  const code = exitCodeFor(output.results, cfg.config);

  const outDir = (parsed.flags.output ?? parsed.flags.o) as string | undefined;
  if (format === 'resourcelist') {
    await io.stdout(writeResourceList(newResourceListDocument(), output));
    return code;
  }
  // Never hand an applier an empty or partial set on error (Argo CD would prune).
  if (code !== ExitCode.ok && !outDir) return code;
  const files = outputFiles(output).flatMap(({ path, object }) => {
    // A provenance report is local-config (never applied) but is wanted next to the files written.
    const report = outDir !== undefined && object.kind === 'ProvenanceReport';
    const o = (format === 'manifests' || format === 'kustomize') && !report ? toManifest(object, format === 'kustomize') : object;
    return o ? [{ path, object: o }] : [];
  });
  if (!outDir) {
    await io.stdout(stringifyDocuments(files.map((f) => f.object)));
    return code;
  }
  try {
    await writeFiles(outDir, files);
  } catch (e) {
    // A path that is not a directory, or one we may not write: the user's to fix, not a bug.
    io.stderr(`render-clusterclass render: cannot write -o ${outDir}: ${(e as Error).message}\n`);
    return ExitCode.errorResults;
  }
  return code;
}

/** Writes objects grouped by file; paths that would leave the output directory are refused. */
async function writeFiles(outDir: string, files: { path: string; object: JsonObject }[]): Promise<void> {
  const byFile = new Map<string, JsonObject[]>();
  for (const f of files) byFile.set(f.path, [...(byFile.get(f.path) ?? []), f.object]);
  const root = resolve(outDir);
  for (const [path, objects] of [...byFile].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const target = resolve(root, path);
    if (!target.startsWith(root + sep)) continue;
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, stringifyDocuments(objects));
  }
}
