/**
 * Plan gates: budgets a change must stay within (`--max-replaced-machines`,
 * `--max-rolling-clusters`) and kinds of change that need an approval (`--fail-on`). Each breach
 * is a result with its own exit code, so CI can tell them apart.
 */
import type { Result } from '../core/result.js';
import { machinesPhrase, thousands } from './blast.js';
import type { Plan, PlanSection } from './plan.js';

/** What `--fail-on` can name. */
export const PLAN_FAIL_ON = ['rollout', 'double-rollout', 'new-error'] as const;
type FailOn = (typeof PLAN_FAIL_ON)[number];

export interface Gates {
  maxReplacedMachines?: number;
  maxRollingClusters?: number;
  failOn: readonly FailOn[];
}

type GateName = FailOn | 'max-replaced-machines' | 'max-rolling-clusters';

/**
 * Each gate's exit code, in order of precedence: when several breach, the run exits with the
 * lowest (a broken Cluster outweighs a budget, a budget any rollout). 0-3 and 128+ keep their
 * meaning (cli/io.ts ExitCode).
 */
const GATE_EXIT_CODES: Record<GateName, number> = {
  'new-error': 4,
  'double-rollout': 5,
  'max-replaced-machines': 6,
  'max-rolling-clusters': 7,
  rollout: 8,
};

/** One gate as checked: its limit, what the plan has, whether it breaches. */
export interface GateCheck {
  gate: GateName;
  /** The budget (`--max-*`); absent for `--fail-on`, whose limit is none. */
  limit?: number;
  actual: number;
  breached: boolean;
  exitCode: number;
  /** `upgrade`: checked against the upgrade preview, which is judged apart from the change. */
  section?: 'upgrade';
}

/** The gates asked for, checked against one section of the plan (in precedence order). A budget counts an autoscaled pool at its maximum. */
function checkSection(section: PlanSection, gates: Gates, upgrade: boolean): GateCheck[] {
  const s = section.summary;
  const checks: GateCheck[] = [];
  const add = (gate: GateName, actual: number, limit?: number) =>
    checks.push({
      gate,
      actual,
      breached: limit === undefined ? actual > 0 : actual > limit,
      exitCode: GATE_EXIT_CODES[gate],
      ...(limit === undefined ? {} : { limit }),
      ...(upgrade ? { section: 'upgrade' as const } : {}),
    });
  if (gates.failOn.includes('new-error')) add('new-error', s.newlyFailing);
  if (gates.failOn.includes('double-rollout')) add('double-rollout', s.doubleRollouts);
  if (gates.maxReplacedMachines !== undefined) add('max-replaced-machines', s.machines.max, gates.maxReplacedMachines);
  if (gates.maxRollingClusters !== undefined) add('max-rolling-clusters', s.rollingOut, gates.maxRollingClusters);
  if (gates.failOn.includes('rollout')) add('rollout', s.rollingOut);
  return checks.sort((a, b) => a.exitCode - b.exitCode);
}

/**
 * The gates asked for, checked against the change (unless there is none: an upgrade previewed
 * without a base) and, apart, against the upgrade preview: each must stay within the budgets on
 * its own (they reach the fleet at different times).
 */
export const checkGates = (plan: Plan, gates: Gates, change = true): GateCheck[] => [
  ...(change ? checkSection(plan, gates, false) : []),
  ...(plan.upgrade ? checkSection(plan.upgrade, gates, true) : []),
];

/** The exit code of the gates that breach (the lowest), if any does. */
export const gateExitCode = (checks: readonly GateCheck[]): number | undefined =>
  checks
    .filter((c) => c.breached)
    .map((c) => c.exitCode)
    .sort((a, b) => a - b)[0];

/** What a gate says of the plan, breached or not (the summary's line). */
export function gateText(check: GateCheck, plan: Plan): string {
  const s = (check.section === 'upgrade' && plan.upgrade ? plan.upgrade : plan).summary;
  const verdict = `${check.section === 'upgrade' ? 'by the upgrade ' : ''}${check.breached ? 'breached' : 'passed'}`;
  switch (check.gate) {
    case 'new-error':
      return `--fail-on new-error ${verdict}: ${thousands(s.newlyFailing)} Cluster(s) newly fail validation (exit ${check.exitCode})`;
    case 'double-rollout':
      return `--fail-on double-rollout ${verdict}: ${thousands(s.doubleRollouts)} worker(s) roll twice (exit ${check.exitCode})`;
    case 'max-replaced-machines':
      return `--max-replaced-machines ${check.limit} ${verdict}: ${machinesPhrase(s.machines)} replaced (exit ${check.exitCode})`;
    case 'max-rolling-clusters':
      return `--max-rolling-clusters ${check.limit} ${verdict}: ${thousands(s.rollingOut)} Cluster(s) roll out (exit ${check.exitCode})`;
    case 'rollout':
      return `--fail-on rollout ${verdict}: ${thousands(s.rollingOut)} Cluster(s) roll out (exit ${check.exitCode})`;
  }
}

/** Each breach as a result (stderr, and the JSON report's `gates`). */
export const gateResults = (checks: readonly GateCheck[], plan: Plan): Result[] =>
  checks
    .filter((c) => c.breached)
    .map((c) => ({
      severity: 'error',
      message: gateText(c, plan),
      tags: { rule: 'plan-gate', gate: c.gate },
    }));
