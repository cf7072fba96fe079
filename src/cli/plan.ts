/**
 * `render-clusterclass plan --base GIT-REF|DIR [PATH...]`: what a change does to every Cluster.
 * Exit code like `git diff --exit-code`: 0 no change, 1 changes, 2 unreadable input, 3 bad usage.
 */
import { parseArgs } from './args.js';
import { COMMANDS, PLAN_FORMATS, PLAN_ONLY } from './commands.js';
import { readBase } from './base.js';
import { ExitCode, type CliIO } from './io.js';
import { CAPI_HELP, EXTENSION_HELP, configFromFlags, readInputs } from './inputs.js';
import { commandSources, prepareExtensions } from './extensions.js';
import { computePlan, planHasChanges } from '../plan/plan.js';
import { formatJson, formatMarkdown, formatText } from '../plan/format.js';
import { formatSarif } from '../plan/sarif.js';
import { sarifInputs } from './sarif.js';
import { PLAN_FAIL_ON, checkGates, gateExitCode, gateResults, type Gates } from '../plan/gates.js';
import { onlyRollouts, selectClasses, unknownClass } from '../plan/select.js';
import { closestMatches, didYouMean } from '../core/suggest.js';
import { formatResults } from '../output/write.js';

export const PLAN_HELP: string = `Usage: render-clusterclass plan --base GIT-REF|DIR [PATH...] [options]

Renders the inputs at the base (a git revision of the same paths, or a directory) and in the
working tree (PATH..., default .), and reports per Cluster the objects created, deleted and
modified, the control planes and MachineDeployments that roll out, why and how many Machines they
replace, the workers upgrade sequencing holds back (and those that roll twice because of it), and
Clusters that newly fail validation; identical changes are grouped across Clusters, and the fleet
and each ClusterClass are summed up.

Options:
  --base REF|DIR       what to compare against (required)
  --format FORMAT      text (default; colour on a terminal) | markdown (a pull-request comment,
                       within GitHub's 65,536 characters) | json (schemas/plan.v1.json) |
                       sarif (SARIF 2.1.0 for code scanning: each finding at the input lines
                       that cause it)
  --class NS/NAME      only the Clusters of this ClusterClass (repeatable): counts and gates too
  --only rollouts      list only the Clusters that roll out, and only their rollouts
  --max-replaced-machines N   gate: at most N Machines replaced (an autoscaled pool at its maximum)
  --max-rolling-clusters N    gate: at most N Clusters roll out
  --fail-on WHAT       gate: rollout, double-rollout, new-error (repeatable, or a comma list)
  --config FILE, --set KEY=VALUE   function config, as for render
${EXTENSION_HELP}                       (base and head use the same extensions and recordings)
${CAPI_HELP}Exit codes: 0 nothing changes, 1 something changes or the plan cannot be made (unreadable
input, a ClusterClass missing from the inputs), 2 internal failure (a bug), 3 bad usage; a gate
that breaches: 4 new-error, 5 double-rollout, 6 --max-replaced-machines, 7 --max-rolling-clusters,
8 rollout (when several breach, the lowest of their codes).
`;

/** The gates of the command line, or what is wrong with them. */
function gatesOf(
  flags: Record<string, string | boolean | string[]>,
): { ok: true; gates: Gates } | { ok: false; message: string } {
  const gates: Gates = { failOn: [] };
  for (const name of ['max-replaced-machines', 'max-rolling-clusters'] as const) {
    const text = flags[name];
    if (text === undefined) continue;
    if (typeof text !== 'string' || !/^\d+$/.test(text))
      return { ok: false, message: `--${name} must be a whole number of 0 or more, not ${JSON.stringify(text)}` };
    gates[name === 'max-replaced-machines' ? 'maxReplacedMachines' : 'maxRollingClusters'] = Number.parseInt(text, 10);
  }
  const failOn = ((flags['fail-on'] as string[] | undefined) ?? []).flatMap((v) => v.split(','));
  for (const word of failOn) {
    const known = PLAN_FAIL_ON.find((w) => w === word);
    if (!known) {
      const hint = didYouMean(closestMatches(word, PLAN_FAIL_ON, 1));
      return {
        ok: false,
        message: `--fail-on must be ${PLAN_FAIL_ON.join(', ')}, not ${JSON.stringify(word)}${hint ? `; ${hint}` : ''}`,
      };
    }
    if (!gates.failOn.includes(known)) gates.failOn = [...gates.failOn, known];
  }
  return { ok: true, gates };
}

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
    io.stderr(`render-clusterclass plan: --format must be ${PLAN_FORMATS.join(', ')}\n`);
    return ExitCode.functionConfig;
  }
  const only = parsed.flags.only as string | undefined;
  if (only !== undefined && !(PLAN_ONLY as readonly string[]).includes(only)) {
    io.stderr('render-clusterclass plan: --only must be rollouts\n');
    return ExitCode.functionConfig;
  }
  const gates = gatesOf(parsed.flags);
  if (!gates.ok) {
    io.stderr(`render-clusterclass plan: ${gates.message}\n`);
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
  const extras = { extensions: extensions.value.inputs };
  const whole = computePlan(before, after, cfg.config, extras);
  const saved = await extensions.value.save();
  if (saved) {
    io.stderr(`render-clusterclass plan: ${saved}\n`);
    return ExitCode.errorResults;
  }
  const classes = (parsed.flags.class as string[] | undefined) ?? [];
  const unknown = unknownClass(whole, classes);
  if (unknown) {
    io.stderr(`render-clusterclass plan: ${unknown}\n`);
    return ExitCode.functionConfig;
  }
  const plan = classes.length > 0 ? selectClasses(whole, classes) : whole;
  // Gates judge every Cluster selected; --only narrows what is listed, not what is judged.
  const checks = checkGates(plan, gates.gates);
  const shown = only === 'rollouts' ? onlyRollouts(plan) : plan;
  await io.stdout(
    format === 'sarif'
      ? formatSarif(shown, checks, sarifInputs(shown, before, after, cfg.config, extras))
      : format === 'json'
        ? formatJson(shown, checks)
        : format === 'markdown'
          ? formatMarkdown(shown, checks)
          : formatText(shown, io.colour?.stdout === true, checks),
  );
  io.stderr(formatResults(gateResults(checks, plan), 'error', { colour: io.colour?.stderr === true }));
  return gateExitCode(checks) ?? (planHasChanges(plan) ? ExitCode.errorResults : ExitCode.ok);
}
