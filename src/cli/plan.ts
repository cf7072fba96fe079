/**
 * `render-clusterclass plan --base GIT-REF|DIR [PATH...]`: what a change does to every Cluster;
 * `--to-capi-version V` / `--to-crds DIR`: what an upgrade of the management cluster does to them.
 * Exit code like `git diff --exit-code`: 0 no change, 1 changes, 2 unreadable input, 3 bad usage.
 */
import { parseArgs } from './args.js';
import { COMMANDS, PLAN_FORMATS, PLAN_ONLY } from './commands.js';
import { readBase } from './base.js';
import { ExitCode, type CliIO } from './io.js';
import { CAPI_HELP, EXTENSION_HELP, configFromFlags, readCrds, readInputs } from './inputs.js';
import { CAPI_VERSIONS, isCapiVersion } from '../core/capi-release.js';
import type { JsonObject } from '../core/model.js';
import { commandSources, prepareExtensions } from './extensions.js';
import { computePlan, planHasChanges, type PlanRequest } from '../plan/plan.js';
import { formatJson, formatMarkdown, formatText } from '../plan/format.js';
import { formatSarif } from '../plan/sarif.js';
import { sarifInputs } from './sarif.js';
import { PLAN_FAIL_ON, checkGates, gateExitCode, gateResults, type Gates } from '../plan/gates.js';
import { onlyRollouts, selectClasses, unknownClass } from '../plan/select.js';
import { closestMatches, didYouMean } from '../core/suggest.js';
import { formatResults } from '../output/write.js';

export const PLAN_HELP: string = `Usage: render-clusterclass plan --base GIT-REF|DIR [PATH...] [options]
       render-clusterclass plan --to-capi-version M.N | --to-crds DIR [--base GIT-REF|DIR] [PATH...]

Renders the inputs at the base (a git revision of the same paths, or a directory) and in the
working tree (PATH..., default .), and reports per Cluster the objects created, deleted and
modified, the control planes and MachineDeployments that roll out, why and how many Machines they
replace, the workers upgrade sequencing holds back (and those that roll twice because of it), and
Clusters that newly fail validation; identical changes are grouped across Clusters, and the fleet
and each ClusterClass are summed up. Both sides are compared as CAPI compares them: stored at
v1beta2, only what the topology controller sets.

An upgrade preview renders the working tree's inputs as the management cluster renders them now
and after upgrading CAPI (--to-capi-version) or a provider's CRDs (--to-crds), and reports the same
for the upgrade, in a section of its own, apart from the change to --base.

Options:
  --base REF|DIR       what to compare against (required without --to-*)
  --crds DIR           CRDs the management cluster has installed (besides those among the inputs)
  --to-capi-version M.N  preview upgrading CAPI to this release (${CAPI_VERSIONS.join(', ')}); the
                       --feature-gates given apply over each release's own defaults
  --to-crds DIR        preview installing these CRDs (a provider upgrade): each replaces the
                       installed or input CRD of its name
  --format FORMAT      text (default; colour on a terminal) | markdown (a pull-request comment,
                       within GitHub's 65,536 characters) | json (schemas/plan.v1.json) |
                       sarif (SARIF 2.1.0 for code scanning: each finding at the input lines
                       that cause it)
  --class NS/NAME      only the Clusters of this ClusterClass (repeatable): counts and gates too
  --only rollouts      list only the Clusters that roll out, and only their rollouts
  --max-replaced-machines N   gate: at most N Machines replaced (an autoscaled pool at its maximum)
  --max-rolling-clusters N    gate: at most N Clusters roll out
  --fail-on WHAT       gate: rollout, double-rollout, new-error (repeatable, or a comma list);
                       the change and the upgrade are each judged against every gate
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

/** A usage error of plan: said on stderr, exit 3. */
function usage(io: CliIO, message: string): number {
  io.stderr(`render-clusterclass plan: ${message}\n`);
  return ExitCode.functionConfig;
}

/** The checks of the option values the parser leaves to the command; a message when one is wrong. */
function badValue(flags: Record<string, string | boolean | string[]>): string | undefined {
  const format = (flags.format as string | undefined) ?? 'text';
  if (!(PLAN_FORMATS as readonly string[]).includes(format)) return `--format must be ${PLAN_FORMATS.join(', ')}`;
  const only = flags.only as string | undefined;
  if (only !== undefined && !(PLAN_ONLY as readonly string[]).includes(only)) return '--only must be rollouts';
  const to = flags['to-capi-version'];
  if (to !== undefined && !isCapiVersion(to)) {
    const hint = didYouMean(closestMatches(String(to), CAPI_VERSIONS, 1));
    return `--to-capi-version must be ${CAPI_VERSIONS.join(', ')}, not ${JSON.stringify(to)}${hint ? `; ${hint}` : ''}`;
  }
  return undefined;
}

/** The CRDs of a directory option (none when it is not given). */
const crdsOf = (dir: string | boolean | string[] | undefined, io: CliIO) =>
  readCrds(typeof dir === 'string' ? dir : undefined, io);

const crdName = (o: JsonObject) => (o.metadata as { name?: string } | undefined)?.name;

/** The installed CRDs after installing `next`: each replaces the one of its name. */
const installed = (now: readonly JsonObject[], next: readonly JsonObject[]): JsonObject[] => {
  const names = new Set(next.map(crdName));
  return [...now.filter((o) => !names.has(crdName(o))), ...next];
};

export async function runPlanCommand(args: string[], io: CliIO): Promise<number> {
  const parsed = parseArgs(args, COMMANDS.plan);
  const flags = parsed.ok ? parsed.flags : {};
  const upgrade = typeof flags['to-capi-version'] === 'string' || typeof flags['to-crds'] === 'string';
  if (!parsed.ok || flags.help || (typeof flags.base !== 'string' && !upgrade)) {
    const usageError = !parsed.ok
      ? parsed.message
      : flags.help
        ? undefined
        : '--base (or --to-capi-version, --to-crds) is required';
    if (!usageError) {
      await io.stdout(PLAN_HELP);
      return ExitCode.ok;
    }
    return usage(io, `${usageError} (see render-clusterclass plan --help)`);
  }
  const bad = badValue(flags);
  if (bad) return usage(io, bad);
  // SARIF places what the change to the base does at the input lines that cause it.
  if (flags.format === 'sarif' && typeof flags.base !== 'string') return usage(io, '--format sarif needs --base');
  const format = (flags.format as string | undefined) ?? 'text';
  const only = flags.only as string | undefined;
  const gates = gatesOf(flags);
  if (!gates.ok) return usage(io, gates.message);
  const cfg = await configFromFlags(flags);
  if (!cfg.ok) return usage(io, cfg.message);
  const headPaths = parsed.positional.length > 0 ? parsed.positional : ['.'];
  const base = typeof flags.base === 'string' ? await readBase(flags.base, headPaths, io) : undefined;
  const head = await readInputs(headPaths, io);
  const [crds, toCrds] = [await crdsOf(flags.crds, io), await crdsOf(flags['to-crds'], io)];
  if ((base && !base.ok) || !head.ok || !crds.ok || !toCrds.ok) {
    const failed = [base, head, crds, toCrds].find((r) => r?.ok === false);
    io.stderr(`render-clusterclass plan: ${failed && !failed.ok ? failed.message : ''}\n`);
    return ExitCode.errorResults;
  }
  const extensions = await prepareExtensions(cfg.config, io, commandSources(cfg.extensionSources, flags, process.env));
  if (!extensions.ok) {
    io.stderr(`render-clusterclass plan: ${extensions.message}\n`);
    return ExitCode.errorResults;
  }
  // What was not read or not used (links, URLs): said whatever the plan is.
  io.stderr(
    formatResults(
      [...(base?.links ?? []), ...head.links, ...crds.links, ...toCrds.links, ...extensions.value.results],
      'warning',
    ),
  );
  const crdsDir = typeof flags.crds === 'string' ? { crds: flags.crds } : {};
  const toCapi = flags['to-capi-version'];
  const request: PlanRequest = {
    ...(base ? { base } : {}),
    head,
    current: { config: cfg.config, crds: crds.objects, name: { capiVersion: cfg.config.capiVersion, ...crdsDir } },
  };
  if (upgrade) {
    const capiVersion = isCapiVersion(toCapi) ? toCapi : cfg.config.capiVersion;
    const toCrdsDir = typeof flags['to-crds'] === 'string' ? { crds: flags['to-crds'] } : crdsDir;
    request.target = {
      config: { ...cfg.config, capiVersion },
      crds: installed(crds.objects, toCrds.objects),
      name: { capiVersion, ...toCrdsDir },
    };
  }
  const extras = { extensions: extensions.value.inputs };
  const whole = computePlan(request, extras);
  const saved = await extensions.value.save();
  if (saved) {
    io.stderr(`render-clusterclass plan: ${saved}\n`);
    return ExitCode.errorResults;
  }
  const classes = (flags.class as string[] | undefined) ?? [];
  const unknown = unknownClass(whole, classes);
  if (unknown) return usage(io, unknown);
  const plan = classes.length > 0 ? selectClasses(whole, classes) : whole;
  // Gates judge every Cluster selected; --only narrows what is listed, not what is judged.
  const checks = checkGates(plan, gates.gates, base !== undefined);
  const shown = only === 'rollouts' ? onlyRollouts(plan) : plan;
  const sections = { change: base !== undefined };
  await io.stdout(
    format === 'sarif' && base
      ? formatSarif(shown, checks, sarifInputs(shown, base, head, cfg.config, extras))
      : format === 'json'
        ? formatJson(shown, checks)
        : format === 'markdown'
          ? formatMarkdown(shown, checks, sections)
          : formatText(shown, io.colour?.stdout === true, checks, sections),
  );
  io.stderr(formatResults(gateResults(checks, plan), 'error', { colour: io.colour?.stderr === true }));
  return gateExitCode(checks) ?? (planHasChanges(plan) ? ExitCode.errorResults : ExitCode.ok);
}
