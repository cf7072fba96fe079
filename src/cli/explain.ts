/**
 * `render-clusterclass explain CLUSTER [KIND/NAME] [-f PATH]... [--field PATH] [--format text|json]`:
 * where every field of the objects rendered for one Cluster comes from (issue #6).
 */
import { parseArgs } from './args.js';
import { COMMANDS } from './commands.js';
import { ExitCode, type CliIO } from './io.js';
import { CAPI_HELP, EXTENSION_HELP, configFromFlags, readInputs } from './inputs.js';
import { commandSources, prepareExtensions } from './extensions.js';
import { formatResults } from '../output/write.js';
import { explainCluster } from './explain-cluster.js';
import { filterFields, formatText, selectObject } from '../provenance/format.js';
import type { ExplainedObject, FieldOrigin } from '../provenance/types.js';
import { jsonString } from '../core/json.js';

export const EXPLAIN_HELP: string = `Usage: render-clusterclass explain CLUSTER [KIND/NAME] [options]

Renders CLUSTER and says, for every field of every rendered object, where its value comes
from: a ClusterClass template (name and field), the ClusterClass, the Cluster (field path), a
patch (name, definition and jsonPatch index, enabledIf, the variables it read and whether they
were defaulted), or the topology controller (names, references, fixed labels, defaults).

Arguments:
  CLUSTER              namespace/name, or a name that is unique across namespaces
  KIND/NAME            only this object; KIND alone when one object has it (e.g.
                       KubeadmControlPlane), or NAME; kinds are case-insensitive and NAME may
                       leave out the generated suffix when unambiguous

Options:
  -f, --input PATH     YAML file or directory to read (repeatable, - for stdin; default: .)
  --field PATH         only this field and what is below it, e.g. spec.replicas,
                       spec.kubeadmConfigSpec, metadata.labels['cluster.x-k8s.io/cluster-name']
  --format FORMAT      text (default) | json
  --config FILE        function config (RenderClusterClass or ConfigMap) as a file
  --set KEY=VALUE      a function config field (repeatable)
${EXTENSION_HELP}${CAPI_HELP}Exit codes: 0 ok, 1 Cluster, object or field not found, or the Cluster does not render (its
errors are printed), or unreadable input; 2 internal failure (a bug); 3 bad usage.
`;

export async function runExplainCommand(args: string[], io: CliIO): Promise<number> {
  const parsed = parseArgs(args, COMMANDS.explain);
  const usage = (message: string) => {
    io.stderr(`render-clusterclass explain: ${message} (see render-clusterclass explain --help)\n`);
    return ExitCode.functionConfig;
  };
  if (!parsed.ok) return usage(parsed.message);
  if (parsed.flags.help || parsed.flags.h) {
    await io.stdout(EXPLAIN_HELP);
    return ExitCode.ok;
  }
  const [clusterArg, objectArg, ...extra] = parsed.positional;
  if (!clusterArg) return usage('no CLUSTER given');
  if (extra.length > 0) return usage(`unexpected argument "${extra[0]}" (input paths go after -f)`);
  const format = (parsed.flags.format as string | undefined) ?? 'text';
  if (format !== 'text' && format !== 'json') return usage('--format must be text or json');
  const field = parsed.flags.field as string | undefined;
  if (field !== undefined && field.trim() === '') return usage('--field needs a path');
  const cfg = await configFromFlags(parsed.flags);
  if (!cfg.ok) {
    io.stderr(`render-clusterclass explain: ${cfg.message}\n`);
    return ExitCode.functionConfig;
  }
  const paths = [
    ...((parsed.flags.f as string[] | undefined) ?? []),
    ...((parsed.flags.input as string[] | undefined) ?? []),
  ];
  const inputs = await readInputs(paths.length > 0 ? paths : ['.'], io);
  if (!inputs.ok) {
    io.stderr(`render-clusterclass explain: ${inputs.message}\n`);
    return ExitCode.errorResults;
  }

  const extensions = await prepareExtensions(
    cfg.config,
    io,
    commandSources(cfg.extensionSources, parsed.flags, process.env),
  );
  if (!extensions.ok) {
    io.stderr(`render-clusterclass explain: ${extensions.message}\n`);
    return ExitCode.errorResults;
  }
  // What was not read or not used (links, URLs): said whatever the explanation is.
  io.stderr(formatResults([...inputs.links, ...extensions.value.results], 'warning'));
  const result = explainCluster(inputs.items, cfg.config, clusterArg, extensions.value.inputs);
  const saved = await extensions.value.save();
  if (saved) {
    io.stderr(`render-clusterclass explain: ${saved}\n`);
    return ExitCode.errorResults;
  }
  const errors = result.results.filter((r) => r.severity === 'error');
  if (result.objects.length === 0 || errors.length > 0) {
    const unowned = result.results
      .filter((r) => r.severity === 'error' && !r.resourceRef)
      .map((r) => `render-clusterclass explain: ${r.message}\n`);
    const owned = formatResults(
      result.results.filter((r) => r.resourceRef),
      'error',
    );
    io.stderr(
      unowned.join('') + owned || `render-clusterclass explain: Cluster "${clusterArg}" could not be explained\n`,
    );
    return ExitCode.errorResults;
  }
  io.stderr(formatResults(result.results, 'warning'));

  let objects: ExplainedObject[] = result.objects;
  if (objectArg !== undefined) {
    const sel = selectObject(result.objects, objectArg);
    if (!sel.ok) {
      io.stderr(`render-clusterclass explain: ${sel.message}\n`);
      return sel.ambiguous ? ExitCode.functionConfig : ExitCode.errorResults;
    }
    objects = sel.objects;
  }
  let selected: { object: ExplainedObject; fields: FieldOrigin[] }[] = objects.map((object) => ({
    object,
    fields: object.fields,
  }));
  if (field !== undefined) {
    selected = selected
      .map((s) => ({ object: s.object, fields: filterFields(s.fields, field) }))
      .filter((s) => s.fields.length > 0);
    if (selected.length === 0) {
      io.stderr(
        `render-clusterclass explain: no field "${field}" in ${objectArg ?? `the objects of Cluster ${clusterArg}`}\n`,
      );
      return ExitCode.errorResults;
    }
  }
  if (format === 'json') {
    const out = {
      cluster: result.cluster,
      clusterClass: result.clusterClass,
      objects: selected.map(({ object, fields }) => ({ ...object, fields })),
      results: result.results.filter((r) => r.severity !== 'info'),
    };
    await io.stdout(`${jsonString(out, 2)}\n`);
  } else {
    const options = {
      patches: field === undefined,
      ...(result.clusterClass ? { clusterClassName: result.clusterClass.name } : {}),
    };
    await io.stdout(formatText(result, selected, options));
  }
  return ExitCode.ok;
}
