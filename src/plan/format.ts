/**
 * Plan output: human text (colour on a terminal), Markdown for pull-request comments (within
 * GitHub's comment limit), JSON (schemas/plan.v1.json). Each leads with the fleet: what changes,
 * the Machines replaced, who waits, the gates; then identical changes grouped; then each Cluster.
 * An upgrade preview is a section of its own, after the change, with its own gates.
 */
import type { Json } from '../core/model.js';
import type { ObjectRef } from '../core/model.js';
import { DOUBLE_ROLLOUT_FIX, counted, machinesPhrase, thousands, type PlannedRollout } from './blast.js';
import { gateText, type GateCheck } from './gates.js';
import { groupChanges, groupText } from './group.js';
import type { ClusterPlan, Plan, PlanSection, UpgradeSection } from './plan.js';
import { jsonString } from '../core/json.js';

const value = (v: Json | undefined): string => (v === undefined ? '(none)' : jsonString(v));
const objectName = (r: ObjectRef): string => `${r.kind} ${r.name}`;

function headline(plan: PlanSection): string {
  const s = plan.summary;
  const still = s.stillFailing > 0 ? `, ${thousands(s.stillFailing)} still fail` : '';
  const waiting =
    s.deferred > 0
      ? `; ${counted(s.deferred, 'Cluster')} ${s.deferred === 1 ? 'waits' : 'wait'} for upgrade sequencing`
      : '';
  const twice =
    s.doubleRollouts > 0
      ? `; ${counted(s.doubleRollouts, 'worker')} ${s.doubleRollouts === 1 ? 'rolls' : 'roll'} twice`
      : '';
  return `${thousands(s.changed)} of ${counted(s.clusters, 'Cluster')} change, ${thousands(s.rollingOut)} roll out${s.rollingOut > 0 ? ` replacing ${machinesPhrase(s.machines)}` : ''}, ${thousands(s.newlyFailing)} newly fail validation${still}${waiting}${twice}`;
}

/** Said once for the fleet rather than once per Cluster. */
const missingClassLines = (plan: PlanSection): string[] =>
  plan.missingClasses.map(
    (m) =>
      `ClusterClass "${m.clusterClass}" is not among the inputs (${m.clusters} Cluster${m.clusters === 1 ? ' uses' : 's use'} it): pass the path that holds it, or run plan where it is`,
  );

/** A Cluster that fails only because its class is missing is covered by the missing-class line. */
const onlyClassMissing = (c: ClusterPlan) =>
  c.errors.length > 0 && c.errors.every((e) => e.tags?.rule === 'class-missing');

const interesting = (c: ClusterPlan): boolean =>
  (c.status !== 'unchanged' || c.newErrors.length > 0) && !(c.status === 'still-failing' && onlyClassMissing(c));

/** The errors to show for a Cluster: all of them when it still fails, else those that are new. */
const shownErrors = (c: ClusterPlan) => (c.status === 'still-failing' ? c.errors : c.newErrors);
const statusText = (c: ClusterPlan) =>
  `${c.status.replace('-', ' ')}${c.rollouts.length > 0 ? `, replaces ${machinesPhrase(c.machines)}` : ''}`;

/** What rolls a rollout now, and what later (the version step sequencing holds back, when it rolls twice). */
function rolloutText(r: PlannedRollout, code: (s: string) => string): string {
  const why = (x: PlannedRollout['reasons'][number]) =>
    `${x.template}${x.fields.length > 0 ? ` (${x.fields.map(code).join(', ')})` : ''}`;
  const machines = machinesPhrase(r.machines);
  if (r.double)
    return `${r.kind} ${code(r.name)} rolls twice (${machines} each time): now for ${(r.rollsNow ?? []).join('; ')}; again for ${r.reasons.map(why).join('; ')} when its version step comes (${r.deferred}); ${DOUBLE_ROLLOUT_FIX}`;
  const waits = r.deferred ? ` (its version step waits: ${r.deferred})` : '';
  const cost = r.inPlace ? `in place if an extension accepts, else ${machines} replaced` : machines;
  return `${r.kind} ${code(r.name)}: ${r.reasons.map(why).join('; ')}; ${cost}${waits}`;
}

const mdCode = (s: string) => `\`${s}\``;

/** GitHub refuses a comment longer than this (characters; a JavaScript string's length never undercounts them). */
const GITHUB_COMMENT_LIMIT = 65_536;

function markdownCluster(c: ClusterPlan): string {
  const lines = [`<details><summary><code>${c.cluster}</code> (${c.clusterClass}): ${statusText(c)}</summary>`];
  if (shownErrors(c).length > 0) {
    lines.push('', c.status === 'still-failing' ? '**Errors**' : '**New errors**', '');
    for (const e of shownErrors(c)) lines.push(`- ${e.field ? `\`${e.field.path}\`: ` : ''}${e.message}`);
  }
  if (c.rollouts.length > 0)
    lines.push('', '**Rolling out**', '', ...c.rollouts.map((r) => `- ${rolloutText(r, mdCode)}`));
  if (c.deferred.length > 0)
    lines.push('', '**Waiting for upgrade sequencing**', '', ...c.deferred.map((d) => `- ${d.reason}`));
  if (c.modified.length > 0) {
    lines.push('', '**Modified**', '');
    for (const m of c.modified) {
      lines.push(`- ${m.ref.kind} \`${m.ref.name}\`${m.renamedFrom ? ` (was \`${m.renamedFrom}\`)` : ''}`);
      for (const ch of m.changes) lines.push(`  - \`${ch.path}\`: \`${value(ch.before)}\` → \`${value(ch.after)}\``);
    }
  }
  if (c.created.length > 0) lines.push('', '**Created**', '', ...c.created.map((r) => `- ${r.kind} \`${r.name}\``));
  if (c.deleted.length > 0) lines.push('', '**Deleted**', '', ...c.deleted.map((r) => `- ${r.kind} \`${r.name}\``));
  lines.push('', '</details>', '');
  return lines.join('\n');
}

/** What the plan's sections are called: the upgrade by what it upgrades. */
const platformText = (p: UpgradeSection['from']) =>
  `CAPI ${p.capiVersion}${p.crds ? ` with the CRDs of ${p.crds}` : ''}`;
const upgradeTitle = (u: UpgradeSection) => `Upgrade preview: ${platformText(u.from)} → ${platformText(u.to)}`;

/** Which sections to show: the change (base → head) unless only an upgrade was asked for. */
interface Sections {
  change: boolean;
}

/** The sections shown, each with its gates and title (the change has none: it is the plan's own). */
function sectionsOf(plan: Plan, gates: readonly GateCheck[], shown: Sections) {
  const out: { section: PlanSection; gates: GateCheck[]; title?: string }[] = [];
  if (shown.change) out.push({ section: plan, gates: gates.filter((g) => g.section === undefined) });
  if (plan.upgrade)
    out.push({
      section: plan.upgrade,
      gates: gates.filter((g) => g.section === 'upgrade'),
      title: upgradeTitle(plan.upgrade),
    });
  return out;
}

/** One section in Markdown within `limit` characters: what does not fit is left out and counted. */
function markdownSection(section: PlanSection, gates: readonly GateCheck[], plan: Plan, limit: number): string {
  const head: string[] = [`**${headline(section)}.**`, ''];
  for (const g of gates) head.push(`- ${g.breached ? '❌' : '✅'} ${mdCode(gateText(g, plan))}`);
  if (gates.length > 0) head.push('');
  for (const m of missingClassLines(section)) head.push(`> **${m}**`, '');
  head.push(
    '| ClusterClass | Clusters | Changed | Rolling out | Machines replaced | Waiting | Rolling twice | Newly failing |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const c of section.summary.byClass) {
    const machines =
      c.machines.min === c.machines.max
        ? thousands(c.machines.max)
        : `${thousands(c.machines.min)}–${thousands(c.machines.max)}`;
    head.push(
      `| \`${c.clusterClass}\` | ${thousands(c.clusters)} | ${thousands(c.changed)} | ${thousands(c.rollingOut)} | ${machines} | ${thousands(c.deferred)} | ${thousands(c.doubleRollouts)} | ${thousands(c.newlyFailing)} |`,
    );
  }
  const groups = groupChanges(section, interesting);
  const shown = section.clusters.filter(interesting);
  const parts = [
    { title: '### Changes, grouped', items: groups.map((g) => `- ${groupText(g, mdCode)}\n`), what: 'group' },
    { title: '### Clusters', items: shown.map(markdownCluster), what: 'Cluster' },
  ];
  // Room for the note on what was left out.
  const reserve = 600;
  let out = `${head.join('\n')}\n`;
  const left: string[] = [];
  for (const s of parts) {
    if (s.items.length === 0) continue;
    let i = 0;
    if (out.length + s.title.length + 2 + reserve <= limit) {
      out += `\n${s.title}\n\n`;
      for (const item of s.items) {
        if (out.length + item.length + reserve > limit) break;
        out += item;
        i++;
      }
    }
    if (i < s.items.length) left.push(`${thousands(s.items.length - i)} of ${counted(s.items.length, s.what)}`);
  }
  if (left.length > 0)
    out += `\n> **Not shown: ${left.join(', ')}**, to stay within GitHub's ${thousands(GITHUB_COMMENT_LIMIT)}-character comment limit. The full report: \`render-clusterclass plan --format json\` (keep it as an artifact of the CI run), or narrow this one with \`--class NAMESPACE/NAME\` or \`--only rollouts\`.\n`;
  return out;
}

/**
 * Markdown for a pull-request comment: per section, the fleet summary and gates, the grouped
 * changes, then each Cluster folded. Kept within `limit` characters (shared by the sections).
 */
export function formatMarkdown(
  plan: Plan,
  gates: readonly GateCheck[] = [],
  shown: Sections = { change: true },
  limit = GITHUB_COMMENT_LIMIT,
): string {
  const title = '## ClusterClass render plan\n\n';
  const sections = sectionsOf(plan, gates, shown);
  const share = Math.floor((limit - title.length) / Math.max(sections.length, 1));
  return (
    title +
    sections
      .map(({ section, gates: g, title: t }) => {
        const heading = t ? `## ${t}\n\n` : '';
        return heading + markdownSection(section, g, plan, share - heading.length);
      })
      .join('\n')
  );
}

const colours = { red: '\x1b[31m', green: '\x1b[32m', yellow: '\x1b[33m', bold: '\x1b[1m', reset: '\x1b[0m' } as const;

function textSection(
  section: PlanSection,
  gates: readonly GateCheck[],
  plan: Plan,
  c: (name: keyof typeof colours, s: string) => string,
): string[] {
  const lines: string[] = [c('bold', headline(section))];
  for (const g of gates) lines.push(c(g.breached ? 'red' : 'green', `  gate ${gateText(g, plan)}`));
  for (const m of missingClassLines(section)) lines.push(c('red', m));
  for (const k of section.summary.byClass)
    lines.push(
      `  ${k.clusterClass}: ${k.changed}/${k.clusters} changed, ${k.rollingOut} rolling out (${machinesPhrase(k.machines)}), ${k.deferred} waiting, ${k.doubleRollouts} rolling twice, ${k.newlyFailing} newly failing`,
    );
  const groups = groupChanges(section, interesting);
  if (groups.length > 0)
    lines.push('', c('bold', 'Changes, grouped:'), ...groups.map((g) => `  ${groupText(g, (s) => s)}`));
  for (const p of section.clusters.filter(interesting)) {
    lines.push('', c('bold', `${p.cluster} (${p.clusterClass}): ${statusText(p)}`));
    for (const e of shownErrors(p)) lines.push(c('red', `  ! ${e.field ? `${e.field.path}: ` : ''}${e.message}`));
    for (const r of p.rollouts) lines.push(c('yellow', `  ~ rolls out ${rolloutText(r, (s) => s)}`));
    for (const d of p.deferred) lines.push(`  = waits: ${d.reason}`);
    for (const m of p.modified) {
      lines.push(c('yellow', `  ~ ${objectName(m.ref)}${m.renamedFrom ? ` (was ${m.renamedFrom})` : ''}`));
      for (const ch of m.changes)
        lines.push(`      ${ch.path}: ${c('red', value(ch.before))} -> ${c('green', value(ch.after))}`);
    }
    for (const r of p.created) lines.push(c('green', `  + ${objectName(r)}`));
    for (const r of p.deleted) lines.push(c('red', `  - ${objectName(r)}`));
  }
  return lines;
}

export function formatText(
  plan: Plan,
  colour: boolean,
  gates: readonly GateCheck[] = [],
  shown: Sections = { change: true },
): string {
  const c = (name: keyof typeof colours, s: string) => (colour ? `${colours[name]}${s}${colours.reset}` : s);
  const parts = sectionsOf(plan, gates, shown).map(({ section, gates: g, title }) => [
    ...(title ? [c('bold', `== ${title} ==`)] : []),
    ...textSection(section, g, plan, c),
  ]);
  return `${parts.map((lines) => lines.join('\n')).join('\n\n')}\n`;
}

/** The JSON contract (schemas/plan.v1.json): the plan, its grouped changes (the upgrade's with it) and the gates checked. */
export const formatJson = (plan: Plan, gates: readonly GateCheck[] = []): string => {
  const { upgrade, ...change } = plan;
  const json = {
    ...change,
    groups: groupChanges(plan, interesting),
    gates,
    ...(upgrade ? { upgrade: { ...upgrade, groups: groupChanges(upgrade, interesting) } } : {}),
  };
  return `${jsonString(json, 2)}\n`;
};
