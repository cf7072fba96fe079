/**
 * The two front-ends of the renderer core: the KRM function (ResourceList on stdin → stdout) and
 * `render PATH...` over files and directories (CI, Flux, Argo CD). Both run the pipeline.
 */
import { realpath } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import type { Json, JsonObject } from '../core/model.js';
import { isObject } from '../core/json.js';
import { parseFunctionConfig, type ConfigOutcome, type RenderConfig } from '../krm/config.js';
import { hasErrors, type Result } from '../core/result.js';
import { annotationsOf, readResourceList, readYamlStream, refOf, type ResourceListInput } from '../krm/read.js';
import { DEFAULT_READ_LIMITS } from '../yaml/decode.js';
import {
  formatResults,
  jsonList,
  newResourceListDocument,
  outputValue,
  resourceListWriter,
  stringifyDocuments,
  toManifest,
  writeResourceList,
} from '../output/write.js';
import { classify, clusterKey, namespacedRef, shardOf, type Classified } from '../pipeline/classify.js';
import {
  renderPipeline,
  runPipeline,
  type ClusterOutput,
  type KeepDecision,
  type PipelineExtras,
  type PipelineOutput,
  type PipelineSummary,
} from '../pipeline/run.js';
import { PROVENANCE_KIND } from '../provenance/report.js';
import { readBase } from './base.js';
import {
  CAPI_HELP,
  EXTENSION_HELP,
  configFromFlags,
  readCrds,
  readInputs,
  readSideObjects,
  type ExtensionSources,
  type InputFile,
  type InputsOutcome,
} from './inputs.js';
import { ExitCode, type CliIO } from './io.js';
import { locator } from './locate.js';
import {
  intactOutputs,
  listedCluster,
  listedOutputs,
  listedOwner,
  outputPathProblems,
  ownerOf,
  relativeTo,
  within,
  writeOutputDir,
  type ListEntry,
  type OutputFile,
  type OutputSummary,
} from './outdir.js';
import { UnsafePath } from './safefs.js';
import { KEPT_BECAUSE, unreadableKeptResult, type KeepReason } from '../pipeline/keep.js';
import { plural, progress, summaryLine } from './progress.js';
import { runSummary } from '../pipeline/report.js';
import { parseArgs } from './args.js';
import { COMMANDS, RENDER_FORMATS } from './commands.js';
import { RENDERER_BUILD } from './build.js';
import { commandSources, functionConfigSources, prepareExtensions, type PreparedExtensions } from './extensions.js';
import { PATH_ANNOTATION } from '../core/labels.js';
import { inputsMark } from '../pipeline/reuse.js';
import type { InputItem } from '../krm/item.js';

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
/**
 * A ResourceList up to this size is read whole (krm/read.ts): its kept items are then written from
 * the nodes read, not parsed a second time, a fifth of a one-Cluster render. Reading entry by
 * entry, which bounds memory by one item, matters for fleets; both give the same bytes.
 */
const WHOLE_READ_CHARS = 1 << 20;

export async function runFunction(io: CliIO): Promise<number> {
  const text = await io.readStdin();
  const read = readResourceList(text, DEFAULT_READ_LIMITS, { byEntries: text.length > WHOLE_READ_CHARS });
  if (!read.ok) {
    io.stderr(`render-clusterclass: ${read.message}${objectStream(text) ? RENDER_STDIN_HINT : ''}\n`);
    return ExitCode.errorResults;
  }
  const { input } = read;
  const cfg: ConfigOutcome = input.functionConfigProblem
    ? { ok: false, message: `invalid function config: ${input.functionConfigProblem}` }
    : parseFunctionConfig(input.functionConfig);
  if (!cfg.ok) {
    const result = configErrorResult(cfg, input.functionConfig);
    const keepEntries = input.earlier?.map((e) => e.entry) ?? [];
    await io.stdout(
      writeResourceList(input.doc, {
        keep: input.items,
        keepEntries,
        edits: new Map(),
        generated: [],
        results: [...input.results, result],
      }),
    );
    io.stderr(`render-clusterclass: ${result.field ? `functionConfig.${result.field.path}: ` : ''}${result.message}\n`);
    return ExitCode.functionConfig;
  }
  if (cfg.config.mode === 'convert') {
    // Conversion rewrites the package's text: it needs every item, earlier outputs included.
    const whole = input.earlier ? readResourceList(text, DEFAULT_READ_LIMITS, { cutEarlier: false }) : read;
    if (!whole.ok) {
      io.stderr(`render-clusterclass: ${whole.message}\n`);
      return ExitCode.errorResults;
    }
    const { convertResourceList } = await import('../convert/index.js');
    const converted = convertResourceList(whole.input.doc, whole.input.items, cfg.config, whole.input.results);
    await io.stdout(converted.text);
    if (converted.code !== 0) io.stderr(formatResults(converted.results, 'error'));
    return converted.code;
  }
  const extensions = await prepareExtensions(cfg.config, io, functionConfigSources(cfg.config, process.env), true);
  if (!extensions.ok) {
    io.stderr(`render-clusterclass: ${extensions.message}\n`);
    return ExitCode.errorResults;
  }
  const writer = resourceListWriter();
  io.rendering?.(input.items.length);
  const extras = {
    extensions: extensions.value.inputs,
    ...(input.earlier ? { earlier: input.earlier } : {}),
    // Opt-in here: the marks are annotations on every object (pipeline/reuse.ts).
    ...(cfg.config.reuse === true && RENDERER_BUILD ? { renderer: RENDERER_BUILD } : {}),
  };
  const output = renderPipeline(input.items, cfg.config, [...input.results, ...extensions.value.results], extras, (g) =>
    writer.add(g),
  );
  const saved = await extensions.value.save();
  if (saved) {
    io.stderr(`render-clusterclass: ${saved}\n`);
    return ExitCode.errorResults;
  }
  if (lostItems(input, output, writer.clusters)) {
    io.stderr('render-clusterclass: refusing to return an empty item list\n');
    return ExitCode.internal;
  }
  for (const piece of writer.pieces(input.doc, output)) await io.stdout(piece);
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

/** Said on the same line: unreadable input is one line on stderr (the KRM contract). */
const RENDER_STDIN_HINT =
  ' (stdin holds Kubernetes objects, not a ResourceList: to render a YAML stream, run "render-clusterclass render -")';

/** Whether text that is not a ResourceList is a YAML stream of objects (someone piped manifests to the function). */
function objectStream(text: string): boolean {
  const read = readYamlStream(text, '<stdin>');
  return read.ok && read.items.length > 0 && read.items.every((i) => i.ref && i.ref.kind !== 'ResourceList');
}

export const RENDER_HELP: string = `Usage: render-clusterclass render PATH... [options]

Renders every Cluster with spec.topology found in the YAML files under PATH (files or
directories; - reads a YAML stream from stdin) and prints the result, or writes it to a
directory. Directories are read recursively (.yaml, .yml, .json; not hidden files), honouring
.krmignore as kpt does; documents that are not Kubernetes objects (Helm values, Chart.yaml,
kustomization.yaml, docs) are skipped.

Options:
  -o, --output DIR     write the rendered objects to DIR/<namespace>/<cluster>.yaml instead of
                       stdout. DIR is never read as input; a Cluster in the inputs that cannot
                       be rendered keeps its files, only files of Clusters gone from every input
                       are pruned (none while an input file cannot be read), unchanged files
                       are not rewritten, nothing half-written appears, no link below DIR is
                       followed, and one run at a time writes DIR (see README)
  --with-inputs        with -o: also write the applyable inputs (ClusterClass, templates, ...)
  --no-reuse           with -o: render every Cluster, also those whose files DIR's outputs list
                       shows were rendered from the same inputs (reused by default; also
                       --set reuse=false)
  --config FILE        function config (RenderClusterClass or ConfigMap) as a file
  --set KEY=VALUE      a function config field (repeatable), e.g. --set mode=preview
  --mode MODE          expand (default) | preview (the rendered objects, for review) |
                       validate (results and a summary only)
  --format FORMAT      manifests (default: applyable objects only, no tool annotations) |
                       all (every object, as kpt would write them) | resourcelist |
                       kustomize (for the kustomize exec plugin: keeps kustomize ids) |
                       json (the manifests as one JSON v1 List, as kubectl -o json prints)
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
${EXTENSION_HELP}${CAPI_HELP}  --color[=WHEN]       auto (default) | always | never
Results go to stderr as path:line:column: severity: object field: message. On a terminal a
progress line (past a second) and a summary line are shown; never on a pipe.
Exit codes: 0 ok, 1 error results (or warnings with --fail-on warning) or unreadable input,
2 internal error (a bug), 3 invalid function config or usage.
`;

type Format = (typeof RENDER_FORMATS)[number];

function usageError(io: CliIO, message: string): number {
  io.stderr(`render-clusterclass render: ${message} (see render-clusterclass render --help)\n`);
  return ExitCode.functionConfig;
}

/** The render command's flags, checked against each other. */
interface RenderRequest {
  paths: string[];
  flags: Record<string, string | boolean | string[]>;
  config: RenderConfig;
  extensionSources: Omit<ExtensionSources, 'allowPackage'>;
  format: Format;
  /** `-o DIR`; otherwise the manifests go to stdout. */
  outDir: string | undefined;
  withInputs: boolean;
}

/** Parses the flags and refuses combinations that cannot work: the request, or help's or a usage error's exit code. */
async function renderRequest(args: string[], io: CliIO): Promise<RenderRequest | number> {
  const parsed = parseArgs(args, COMMANDS.render);
  if (!parsed.ok) return usageError(io, parsed.message);
  if (parsed.flags.help || parsed.flags.h) {
    await io.stdout(RENDER_HELP);
    return ExitCode.ok;
  }
  if (parsed.positional.length === 0) return usageError(io, 'no PATH given (- reads a YAML stream from stdin)');
  const cfg = await configFromFlags(parsed.flags);
  if (!cfg.ok) {
    io.stderr(`render-clusterclass render: ${cfg.message}\n`);
    return ExitCode.functionConfig;
  }
  const config = cfg.config;
  if (config.mode === 'convert')
    return usageError(
      io,
      "mode convert is the KRM function's; on the command line use `render-clusterclass convert PATH...`",
    );
  const format = ((parsed.flags.format as string | undefined) ?? 'manifests') as Format;
  if (!RENDER_FORMATS.includes(format))
    return usageError(io, '--format must be manifests, all, kustomize, resourcelist or json');
  const outDir = (parsed.flags.output ?? parsed.flags.o) as string | undefined;
  if (outDir !== undefined && (format === 'resourcelist' || format === 'json'))
    return usageError(io, `--format ${format} prints to stdout; it does not go with -o`);
  const applier = outDir === undefined ? pruningApplier(format, process.env) : undefined;
  if (config.mode === 'validate' && applier) {
    return usageError(
      io,
      `mode validate prints no manifests, which ${applier} reads as an application without objects: it would prune them all. Render with mode expand (or preview) here, and validate in CI`,
    );
  }
  const withInputs = parsed.flags['with-inputs'] === true;
  return {
    paths: parsed.positional,
    flags: parsed.flags,
    config,
    extensionSources: cfg.extensionSources,
    format,
    outDir,
    withInputs,
  };
}

/** Input that cannot be read (or an output directory that cannot be written): one line and exit 1. */
function unreadable(io: CliIO, message: string): number {
  io.stderr(`render-clusterclass render: ${message}\n`);
  return ExitCode.errorResults;
}

/** A path that is not a directory, a link in the way, a run holding DIR: the user's to fix, not a bug. */
function cannotWrite(io: CliIO, dir: string, e: unknown): number {
  if (!(e instanceof UnsafePath) && !(e as { code?: string }).code) throw e;
  return unreadable(io, `cannot write -o ${dir}: ${(e as Error).message}`);
}

/** Everything a render reads: the inputs, and what --crds, --observed, --previous and the extensions add. */
interface RenderReading {
  inputs: Extract<InputsOutcome, { ok: true }>;
  crds: { objects: JsonObject[]; links: Result[] };
  observed: { objects: JsonObject[]; links: Result[] };
  previousInputs: InputItem[];
  extensions: PreparedExtensions;
}

/** Reads the inputs (without DIR's own outputs, `exclude`) and the side inputs; the message of the first that cannot be read. */
async function readRender(
  request: RenderRequest,
  exclude: readonly string[],
  io: CliIO,
): Promise<{ ok: true; read: RenderReading } | { ok: false; message: string }> {
  const { paths, flags } = request;
  const inputs = await readInputs(paths, io, { partial: true, exclude });
  if (!inputs.ok) return inputs;
  const crds = await readCrds(flags.crds as string | undefined, io);
  if (!crds.ok) return { ok: false, message: `--crds: ${crds.message}` };
  const observed = await readSideObjects(flags.observed as string | undefined, io, () => true);
  if (!observed.ok) return { ok: false, message: `--observed: ${observed.message}` };
  const previous = flags.previous as string | undefined;
  let previousInputs: InputItem[] = [];
  if (previous) {
    const before = await readBase(
      previous,
      paths.filter((p) => p !== '-'),
      io,
    );
    if (!before.ok) return { ok: false, message: `--previous: ${before.message}` };
    previousInputs = before.items;
  }
  const extensions = await prepareExtensions(
    request.config,
    io,
    commandSources(request.extensionSources, flags, process.env),
  );
  if (!extensions.ok) return extensions;
  return { ok: true, read: { inputs, crds, observed, previousInputs, extensions: extensions.value } };
}

/** Says why a run without errors fails: its warnings, with --fail-on warning. */
function failingOnWarnings(io: CliIO, results: readonly Result[]): void {
  const warnings = results.filter((r) => r.severity === 'warning').length;
  io.stderr(`render-clusterclass render: failing because of ${plural(warnings, 'warning')} (--fail-on warning)\n`);
}

/** What `-o DIR` receives: the checked files of this run, and what tells which earlier files stay. */
interface RenderedDir {
  outDir: string;
  checked: CheckedOutputFiles;
  output: PipelineOutput & KeepDecision;
  own: OwnOutputs;
  withInputs: boolean;
  /** Input files that could not be read this run. */
  skippedFiles: number;
  printResults: (results: readonly Result[]) => void;
}

/** Writes `-o DIR` and says what it holds now: the run's exit `code`, or 1 when DIR cannot be written. */
async function writeRenderedDir(io: CliIO, dir: RenderedDir, code: number): Promise<number> {
  const { outDir, checked, output } = dir;
  let written: OutputSummary<KeepReason>;
  // A Cluster whose file could not be written keeps its earlier one, as one not rendered does.
  const keep = (cluster: string | undefined): KeepReason | undefined =>
    cluster !== undefined && checked.withheld.has(cluster) ? 'not-rendered' : output.kept.reason(cluster);
  try {
    written = await writeOutputDir(outDir, checked.files, keep, {
      inputs: checked.inputsInDir,
      holdsInputs: dir.own.holdsInput,
    });
  } catch (e) {
    return cannotWrite(io, outDir, e);
  }
  for (const note of written.notes) io.stderr(`render-clusterclass render: ${note}\n`);
  const notFound = written.kept.get(KEPT_UNREADABLE) ?? 0;
  if (notFound > 0)
    dir.printResults([
      unreadableKeptResult(
        `${plural(notFound, 'file')} of Clusters${dir.withInputs ? ' and inputs' : ''} not found this run`,
        output.kept.unreadable,
      ),
    ]);
  io.stderr(`${describeOutputs(outDir, written, dir.skippedFiles)}\n`);
  return code;
}

export async function runRender(args: string[], io: CliIO): Promise<number> {
  const request = await renderRequest(args, io);
  if (typeof request === 'number') return request;
  const { config, format, outDir, withInputs } = request;
  let own: OwnOutputs = { exclude: [], holdsInput: false, listed: new Map() };
  let reuse: Pick<PipelineExtras, 'renderer' | 'earlierFiles'> = {};
  if (outDir !== undefined) {
    try {
      own = await ownOutputs(outDir, request.paths);
      // On unless turned off (--no-reuse, reuse: false): the marks live in DIR's outputs list, not in the YAML.
      if (config.reuse !== false && config.mode !== 'validate' && RENDERER_BUILD)
        reuse = {
          renderer: `${RENDERER_BUILD} -o --format ${format}`,
          earlierFiles: await intactOutputs(outDir, own.listed),
        };
    } catch (e) {
      return cannotWrite(io, outDir, e);
    }
    if (withInputs && own.holdsInput)
      return usageError(
        io,
        `--with-inputs cannot copy the inputs into -o ${outDir}: it is, or holds, an input path, so the copies would replace their sources; choose a DIR outside the inputs`,
      );
  }
  const reading = await readRender(request, own.exclude, io);
  if (!reading.ok) return unreadable(io, reading.message);
  const { inputs, crds, observed, previousInputs, extensions } = reading.read;
  const { items, readResults } = inputs;
  const shown = progress(io, 'rendering Clusters');
  const manifest = (o: JsonObject, generated: boolean): JsonObject | undefined =>
    format === 'all' ? o : toManifest(o, format === 'kustomize', generated && config.mode === 'preview');
  const toDir =
    outDir !== undefined && config.mode !== 'validate' ? outputDirFiles(config, own.listed, manifest) : undefined;
  const readAll = [...readResults, ...crds.links, ...observed.links, ...extensions.results];
  io.rendering?.(items.length);
  const output = runPipeline(
    items,
    config,
    readAll,
    {
      crds: crds.objects,
      observed: observed.objects,
      previousInputs,
      progress: shown.tick,
      extensions: extensions.inputs,
      // A link not followed is an input not read: the Cluster missing from this run may be behind it.
      unreadable: [...inputs.unreadable.map((u) => u.path), ...inputs.links.flatMap((l) => l.file?.path ?? [])],
      ...(outDir === undefined
        ? {}
        : { earlierClusters: new Set([...own.listed.values()].flatMap((entry) => listedCluster(entry.owner) ?? [])) }),
      ...reuse,
    },
    toDir?.held,
  );
  shown.end();
  const saved = await extensions.save();
  if (saved) return unreadable(io, saved);
  const dirFiles = toDir
    ? await checkedOutputFiles(
        toDir.files(output, { files: inputs.files, withInputs }),
        items,
        inputs.files,
        config,
        own,
        output.kept.reason,
      )
    : undefined;
  const results = dirFiles ? [...output.results, ...dirFiles.results] : output.results;
  const printResults = (results: readonly Result[]) =>
    io.stderr(
      formatResults(results, 'warning', {
        colour: io.colour?.stderr === true,
        locate: locator(inputs.files, inputs.unreadable),
      }),
    );
  printResults(results);
  const code = exitCodeFor(results, config);
  if (code !== ExitCode.ok && !hasErrors(results)) failingOnWarnings(io, results);
  const classified = classify(items, config.defaultNamespace);
  const clusters = classified.clusters.length;
  const objects = toDir?.objects ?? output.generated.reduce((n, g) => n + g.objects.length, 0);
  const summary = () =>
    summaryLine(
      config.mode === 'validate'
        ? `validated ${plural(clusters, 'Cluster')}`
        : `rendered ${output.generated.length} of ${plural(clusters, 'Cluster')} (${plural(objects, 'object')})`,
      results,
      io,
    );
  // A person at a terminal gets a summary; validate mode prints one always (it is its output).
  if (config.mode === 'validate' || io.tty?.stderr) io.stderr(summary());
  if (config.mode === 'validate') return code;

  if (format === 'resourcelist') {
    // A ResourceList holds every input item: without the objects of a file that could not be read, it is not written.
    if (inputs.unreadable.length === 0) await io.stdout(writeResourceList(newResourceListDocument(), output));
    return code;
  }
  if (outDir !== undefined && dirFiles)
    return writeRenderedDir(
      io,
      { outDir, checked: dirFiles, output, own, withInputs, skippedFiles: inputs.unreadable.length, printResults },
      code,
    );
  // Never hand an applier an empty or partial set on error (Argo CD would prune).
  if (code !== ExitCode.ok) {
    io.stderr(nothingPrinted(output.results));
    return code;
  }
  const printing = {
    serialise: format === 'json' ? jsonList : stringifyDocuments,
    kustomizeLimit: format === 'kustomize' ? config.kustomizeMaxObjects : 0,
  };
  return (await printManifests(io, output, classified, config, manifest, printing)) ? code : ExitCode.errorResults;
}

/**
 * Prints the kept inputs and generated objects as manifests (YAML documents or one JSON List). Never an empty set while Clusters
 * are among the inputs (false, nothing printed): any applier that prunes would delete them all.
 * Nor more than `kustomizeLimit` objects (0: no limit) to kustomize, which would take hours.
 */
async function printManifests(
  io: CliIO,
  output: PipelineOutput,
  classified: Classified,
  config: RenderConfig,
  manifest: (o: JsonObject, generated: boolean) => JsonObject | undefined,
  { serialise, kustomizeLimit }: { serialise: (objects: JsonObject[]) => string; kustomizeLimit: number },
): Promise<boolean> {
  const printed = [
    ...output.keep.map((i) => manifest(outputValue(i, output), false)),
    ...output.generated.flatMap((g) => g.objects.map((o) => manifest(o, true))),
  ].filter((o): o is JsonObject => o !== undefined);
  const inThisShard = (ref: { namespace: string; name: string }) =>
    !config.shard || shardOf(ref.namespace, ref.name, config.shard.count) === config.shard.index;
  const present =
    classified.classicClusters.length +
    classified.clusters.filter((c) => inThisShard(namespacedRef(c, config.defaultNamespace))).length;
  if (kustomizeLimit > 0 && printed.length > kustomizeLimit) {
    io.stderr(
      `render-clusterclass render: refusing to hand kustomize ${printed.length} objects, over kustomizeMaxObjects (${kustomizeLimit}): kustomize compares every object it holds with every other, so its time grows with their square (measured in the README, "kustomize"). Render with \`render PATH -o DIR\` and give kustomize (or Flux) a directory per team or namespace of DIR, or raise kustomizeMaxObjects in the transformer config (0: no limit)\n`,
    );
    return false;
  }
  if (printed.length === 0 && present > 0) {
    io.stderr(
      `render-clusterclass render: refusing to print no manifests while ${plural(present, 'Cluster')} ${present === 1 ? 'is' : 'are'} among the inputs: an applier that prunes (Argo CD, kubectl apply --prune) would delete every object of the application\n`,
    );
    return false;
  }
  await io.stdout(serialise(printed));
  return true;
}

/**
 * Who takes printed manifests as the whole application, so that none at all prunes every object:
 * Argo CD (its config management plugins run with ARGOCD_APP_NAME set, argo-cd
 * docs/user-guide/build-environment.md) and kustomize (`--format kustomize`, the exec plugin).
 */
function pruningApplier(format: Format, env: NodeJS.ProcessEnv): string | undefined {
  if (env.ARGOCD_APP_NAME !== undefined) return 'Argo CD';
  return format === 'kustomize' ? 'kustomize' : undefined;
}

/** One rendered Cluster's files of `-o DIR`: its objects by path (below `outputDir`), and its reused files as `listed` gives them. */
function clusterFiles(
  g: ClusterOutput,
  below: string,
  listed: OwnOutputs['listed'],
  manifest: (o: JsonObject, generated: boolean) => JsonObject | undefined,
): { written: OutputFile[]; reused: OutputFile[] } {
  const byPath = new Map<string, JsonObject[]>();
  for (const o of g.objects) {
    const shown = o.kind === PROVENANCE_KIND ? o : manifest(o, true);
    const path = String(annotationsOf(o)[PATH_ANNOTATION]);
    const rel = path.startsWith(below) ? path.slice(below.length) : path;
    if (shown) byPath.set(rel, [...(byPath.get(rel) ?? []), shown]);
  }
  // A reusable render's files are marked with its digest and their count (pipeline/reuse.ts).
  const written = [...byPath].map(([path, objects]): OutputFile => {
    const text = stringifyDocuments(objects);
    return g.inputs
      ? { path, cluster: g.cluster, text, inputs: inputsMark(g.inputs, byPath.size) }
      : { path, cluster: g.cluster, text };
  });
  const reused = (g.reused ?? []).flatMap((path): OutputFile[] => {
    const { owner, inputs, sha256 } = listed.get(path) ?? {};
    return owner && inputs && sha256 ? [{ path, cluster: g.cluster, reused: { owner, inputs, sha256 } }] : [];
  });
  return { written, reused };
}

/** With `--with-inputs`: the applyable inputs, at their path below the argument they came from. */
function inputFiles(
  output: PipelineOutput,
  files: readonly InputFile[],
  manifest: (o: JsonObject, generated: boolean) => JsonObject | undefined,
): OutputFile[] {
  const rel = new Map(files.map((f) => [f.path, f.rel]));
  const byPath = new Map<string, JsonObject[]>();
  for (const i of output.keep) {
    const shown = manifest(outputValue(i, output), false);
    const path = rel.get(i.file?.path ?? '') ?? 'stdin.yaml';
    if (shown) byPath.set(path, [...(byPath.get(path) ?? []), shown]);
  }
  return [...byPath].map(([path, objects]) => ({ path, text: stringifyDocuments(objects) }));
}

/**
 * The files of `-o DIR`: each rendered Cluster's objects at `<namespace>/<cluster>.yaml` (their
 * path below `outputDir`), a provenance report as is (it is wanted next to them), each marked when
 * its render is reusable; a reused Cluster's files as `listed` gives them; with `--with-inputs`
 * the applyable inputs too. One file per Cluster (or copied input) and path: two that share a
 * path are refused later. A Cluster's files are made as soon as it is rendered (`held`, for
 * runPipeline), so the run holds their text, not its objects (at fleet size the larger part of
 * its memory).
 */
function outputDirFiles(
  config: RenderConfig,
  listed: OwnOutputs['listed'],
  manifest: (o: JsonObject, generated: boolean) => JsonObject | undefined,
) {
  const below = `${config.outputDir}/`;
  const made = new Map<ClusterOutput, ReturnType<typeof clusterFiles>>();
  let objects = 0;
  return {
    held: (g: ClusterOutput): ClusterOutput => {
      objects += g.objects.length;
      const { provenance: _, ...kept } = { ...g, objects: [] };
      made.set(kept, clusterFiles(g, below, listed, manifest));
      return kept;
    },
    /** Objects rendered. */
    get objects() {
      return objects;
    },
    files(output: PipelineOutput, dir: { files: readonly InputFile[]; withInputs: boolean }): OutputFile[] {
      const clusters = output.generated.flatMap((g) => made.get(g) ?? []);
      return [
        ...clusters.flatMap((c) => c.written),
        ...(dir.withInputs ? inputFiles(output, dir.files, manifest) : []),
        ...clusters.flatMap((c) => c.reused),
      ];
    },
  };
}

/** What `-o DIR` must not read back, whether DIR is (or holds) an input path, and what its list names. */
interface OwnOutputs {
  /** Paths the input walker skips, as it sees them (below each argument as typed). */
  exclude: string[];
  holdsInput: boolean;
  /** DIR's real path, when it exists. */
  root?: string;
  /** The outputs list: path → entry. */
  listed: ReadonlyMap<string, ListEntry>;
}

/**
 * DIR's own outputs are never read as input: when DIR is inside an input path, DIR is skipped
 * whole; when DIR is an input path or holds one, the files its outputs list names are (the
 * sources beside them are read), so `render pkg -o pkg` reads the same sources every run.
 */
async function ownOutputs(outDir: string, paths: readonly string[]): Promise<OwnOutputs> {
  // DIR as typed, below an input path: skipped even when it is a link that leads elsewhere.
  const named = resolve(outDir);
  const exclude = paths.some((p) => p !== '-' && named !== resolve(p) && within(named, resolve(p))) ? [named] : [];
  const listed = await listedOutputs(outDir);
  if (!listed) return { exclude, holdsInput: false, listed: new Map() };
  const own: OwnOutputs = { exclude, holdsInput: false, root: listed.root, listed: listed.entries };
  // Only Clusters' files: a copied input is never ours to hide when DIR holds inputs (--with-inputs is refused then).
  const files = [...listed.entries].flatMap(([p, { owner }]) =>
    listedCluster(owner) === undefined ? [] : [join(listed.root, p)],
  );
  for (const p of paths) {
    if (p === '-') continue;
    const real = await realpath(p).catch(() => undefined);
    if (real === undefined) continue;
    const asWalked = (abs: string) => join(resolve(p), relative(real, abs));
    if (within(real, listed.root)) {
      own.holdsInput = true;
      own.exclude.push(...files.filter((f) => within(f, real)).map(asWalked));
    } else if (within(listed.root, real)) {
      own.exclude.push(asWalked(listed.root));
    }
  }
  return own;
}

/** The files of `-o DIR` that can be written, with the results of those withheld (`checkedOutputFiles`). */
interface CheckedOutputFiles {
  files: OutputFile[];
  results: Result[];
  /** Clusters whose file is withheld. */
  withheld: Set<string>;
  /** Input files inside DIR, relative to it. */
  inputsInDir: Set<string>;
}

/**
 * The files of `-o DIR` that can be written, and an error result for each Cluster (or copied
 * input) whose file would share a path with another, replace an input or an earlier file this
 * run keeps (`kept`, pipeline/keep.ts), or leave DIR: those are withheld, and the Clusters keep
 * their earlier files.
 */
async function checkedOutputFiles(
  files: OutputFile[],
  items: readonly InputItem[],
  read: readonly InputFile[],
  config: RenderConfig,
  own: OwnOutputs,
  kept: (cluster: string | undefined) => KeepReason | undefined,
): Promise<CheckedOutputFiles> {
  const inputsInDir = new Set<string>();
  if (own.holdsInput && own.root) {
    for (const f of read) {
      const real = await realpath(f.path).catch(() => undefined);
      if (real !== undefined && within(real, own.root)) inputsInDir.add(relativeTo(own.root, real));
    }
  }
  const problems = outputPathProblems(
    files.map((f) => ({ path: f.path, owner: ownerOf(f) })),
    inputsInDir,
  );
  files.forEach((f, i) => {
    const keeper = own.listed.get(f.path)?.owner;
    if (
      keeper === undefined ||
      keeper === listedOwner(f) ||
      problems.has(i) ||
      kept(listedCluster(keeper)) === undefined
    )
      return;
    problems.set(
      i,
      `${ownerOf(f)} (${f.path}) would replace the earlier file of ${listedCluster(keeper) === undefined ? 'a copied input' : `Cluster ${keeper}`}, which this run keeps`,
    );
  });
  const refs = new Map(
    classify(items, config.defaultNamespace).clusters.map((c) => [
      clusterKey(c.ref.namespace ?? config.defaultNamespace, c.ref.name),
      c.ref,
    ]),
  );
  const withheld = new Set<string>();
  const results: Result[] = [];
  for (const [i, problem] of problems) {
    // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- problems are keyed by index in files
    const cluster = files[i]!.cluster;
    if (cluster !== undefined) withheld.add(cluster);
    const ref = cluster === undefined ? undefined : refs.get(cluster);
    results.push({
      severity: 'error',
      message: `-o: ${problem}; not written (a Cluster keeps its earlier files)`,
      ...(ref ? { resourceRef: ref } : {}),
      tags: { rule: 'output-path' },
    });
  }
  return {
    files: files.filter((f, i) => !problems.has(i) && !(f.cluster !== undefined && withheld.has(f.cluster))),
    results,
    withheld,
    inputsInDir,
  };
}

const KEPT_UNREADABLE: KeepReason = 'unreadable-input';

/** The last stderr line when an error leaves stdout empty: why, and what the run did. */
function nothingPrinted(results: readonly Result[]): string {
  const ran = runSummary(results);
  return `render-clusterclass render: nothing printed (an applier would prune what a partial set leaves out)${ran ? `: ${ran}` : ''}\n`;
}

/**
 * The summary line of `-o DIR`: every count, each with its reason when it is not zero —
 * `out: 1999 written, 0 unchanged, 1 kept (not pruned: an input could not be read), 1 skipped (input file could not be read), 0 pruned`.
 */
function describeOutputs(dir: string, s: OutputSummary<KeepReason>, skippedFiles: number): string {
  const kept = [...s.kept.values()].reduce((a, b) => a + b, 0);
  const reasons = [...s.kept].map(([reason, n]) => `${s.kept.size > 1 ? `${n} ` : ''}${KEPT_BECAUSE[reason]}`);
  const parts = [
    `${s.written} written`,
    `${s.unchanged} unchanged${s.reused > 0 ? ` (${s.reused} reused: inputs unchanged)` : ''}`,
    `${kept} kept${kept > 0 ? ` (${reasons.join(', ')})` : ''}`,
    `${skippedFiles} skipped${skippedFiles > 0 ? ` (input ${skippedFiles === 1 ? 'file' : 'files'} could not be read)` : ''}`,
    `${s.pruned} pruned${s.pruned > 0 ? ' (gone from the inputs)' : ''}`,
  ];
  return `${dir}: ${parts.join(', ')}`;
}
