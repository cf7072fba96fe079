/**
 * `render-clusterclass plan --base GIT-REF|DIR [PATH...]`: what a change does to every Cluster.
 * Exit code like `git diff --exit-code`: 0 no change, 1 changes, 2 unreadable input, 3 bad usage.
 */
import { parseArgs } from './args.js';
import { COMMANDS, PLAN_FORMATS } from './commands.js';
import { readBase } from './base.js';
import { ExitCode, type CliIO } from './io.js';
import { CAPI_HELP, EXTENSION_HELP, configFromFlags, readInputs } from './inputs.js';
import { commandSources, prepareExtensions } from './extensions.js';
import { computePlan, planHasChanges } from '../plan/plan.js';
import { formatJson, formatMarkdown, formatText } from '../plan/format.js';
import { formatResults } from '../output/write.js';

export const PLAN_HELP: string = `Usage: render-clusterclass plan --base GIT-REF|DIR [PATH...] [options]

Renders the inputs at the base (a git revision of the same paths, or a directory) and in the
working tree (PATH..., default .), and reports per Cluster the objects created, deleted and
modified, the control planes and MachineDeployments that roll out and why, and Clusters that
newly fail validation, with a fleet summary.

Options:
  --base REF|DIR       what to compare against (required)
  --format FORMAT      text (default; colour on a terminal) | markdown | json
  --config FILE, --set KEY=VALUE   function config, as for render
${EXTENSION_HELP}                       (base and head use the same extensions and recordings)
${CAPI_HELP}Exit codes: 0 nothing changes, 1 something changes or the plan cannot be made (unreadable
input, a ClusterClass missing from the inputs), 2 internal failure (a bug), 3 bad usage.
`;

export async function runPlanCommand(args: string[], io: CliIO): Promise<number> {
  const parsed = parseArgs(args, COMMANDS.plan);
  if (!parsed.ok || parsed.flags.help || typeof parsed.flags.base !== 'string') {
    const usageError = !parsed.ok ? parsed.message : parsed.flags.help ? undefined : '--base is required';
    if (!usageError) {
      await io.stdout(PLAN_HELP);
      return ExitCode.ok;
    }
    io.stderr(`render-clusterclass plan: ${usageError} (see render-clusterclass plan --help)\n`);
    return ExitCode.functionConfig;
  }
  const format = (parsed.flags.format as string | undefined) ?? 'text';
  if (!(PLAN_FORMATS as readonly string[]).includes(format)) {
    io.stderr('render-clusterclass plan: --format must be text, markdown or json\n');
    return ExitCode.functionConfig;
  }
  const cfg = await configFromFlags(parsed.flags);
  if (!cfg.ok) {
    io.stderr(`render-clusterclass plan: ${cfg.message}\n`);
    return ExitCode.functionConfig;
  }
  const headPaths = parsed.positional.length > 0 ? parsed.positional : ['.'];
  const [before, after] = [await readBase(parsed.flags.base, headPaths, io), await readInputs(headPaths, io)];
  if (!before.ok || !after.ok) {
    io.stderr(`render-clusterclass plan: ${(!before.ok && before.message) || (!after.ok && after.message)}\n`);
    return ExitCode.errorResults;
  }
  const extensions = await prepareExtensions(
    cfg.config,
    io,
    commandSources(cfg.extensionSources, parsed.flags, process.env),
  );
  if (!extensions.ok) {
    io.stderr(`render-clusterclass plan: ${extensions.message}\n`);
    return ExitCode.errorResults;
  }
  // What was not read or not used (links, URLs): said whatever the plan is.
  io.stderr(formatResults([...before.links, ...after.links, ...extensions.value.results], 'warning'));
  const plan = computePlan(before, after, cfg.config, { extensions: extensions.value.inputs });
  const saved = await extensions.value.save();
  if (saved) {
    io.stderr(`render-clusterclass plan: ${saved}\n`);
    return ExitCode.errorResults;
  }
  await io.stdout(
    format === 'json'
      ? formatJson(plan)
      : format === 'markdown'
        ? formatMarkdown(plan)
        : formatText(plan, io.colour?.stdout === true),
  );
  return planHasChanges(plan) ? 1 : ExitCode.ok;
}
