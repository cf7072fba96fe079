/** Plan output: human text (colour on a terminal), Markdown for pull-request comments, JSON. */
import type { Json } from '../core/model.js';
import type { ObjectRef } from '../core/model.js';
import type { ClusterPlan, Plan } from './plan.js';

const value = (v: Json | undefined): string => (v === undefined ? '(none)' : JSON.stringify(v));
const objectName = (r: ObjectRef): string => `${r.kind} ${r.name}`;

function headline(plan: Plan): string {
  const s = plan.summary;
  const still = s.stillFailing > 0 ? `, ${s.stillFailing} still fail` : '';
  return `${s.changed} of ${s.clusters} Clusters change, ${s.rollingOut} roll out, ${s.newlyFailing} newly fail validation${still}`;
}

/** Said once for the fleet rather than once per Cluster. */
const missingClassLines = (plan: Plan): string[] =>
  plan.missingClasses.map(
    (m) =>
      `ClusterClass "${m.clusterClass}" is not among the inputs (${m.clusters} Cluster${m.clusters === 1 ? ' uses' : 's use'} it): pass the path that holds it, or run plan where it is`,
  );

/** A Cluster that fails only because its class is missing is covered by the missing-class line. */
const onlyClassMissing = (c: ClusterPlan) =>
  c.errors.length > 0 && c.errors.every((e) => e.tags?.rule === 'class-missing');

const interesting = (plan: Plan): ClusterPlan[] =>
  plan.clusters.filter(
    (c) =>
      (c.status !== 'unchanged' || c.newErrors.length > 0) && !(c.status === 'still-failing' && onlyClassMissing(c)),
  );

/** The errors to show for a Cluster: all of them when it still fails, else those that are new. */
const shownErrors = (c: ClusterPlan) => (c.status === 'still-failing' ? c.errors : c.newErrors);
const statusText = (c: ClusterPlan) => c.status.replace('-', ' ');

export function formatMarkdown(plan: Plan): string {
  const lines: string[] = ['## ClusterClass render plan', '', `**${headline(plan)}.**`, ''];
  for (const m of missingClassLines(plan)) lines.push(`> **${m}**`, '');
  lines.push(
    '| ClusterClass | Clusters | Changed | Rolling out | Newly failing |',
    '| --- | ---: | ---: | ---: | ---: |',
  );
  for (const c of plan.summary.byClass)
    lines.push(`| \`${c.clusterClass}\` | ${c.clusters} | ${c.changed} | ${c.rollingOut} | ${c.newlyFailing} |`);
  for (const c of interesting(plan)) {
    lines.push('', `### \`${c.cluster}\` (${c.clusterClass}): ${statusText(c)}`);
    if (shownErrors(c).length > 0) {
      lines.push('', c.status === 'still-failing' ? '**Errors**' : '**New errors**', '');
      for (const e of shownErrors(c)) lines.push(`- ${e.field ? `\`${e.field.path}\`: ` : ''}${e.message}`);
    }
    if (c.rollouts.length > 0) {
      lines.push('', '**Rolling out**', '');
      for (const r of c.rollouts) {
        const why = r.reasons
          .map((x) => `${x.template}${x.fields.length > 0 ? ` (${x.fields.map((f) => `\`${f}\``).join(', ')})` : ''}`)
          .join('; ');
        lines.push(`- ${r.kind} \`${r.name}\`: ${why}`);
      }
    }
    if (c.modified.length > 0) {
      lines.push('', '**Modified**', '');
      for (const m of c.modified) {
        lines.push(`- ${m.ref.kind} \`${m.ref.name}\`${m.renamedFrom ? ` (was \`${m.renamedFrom}\`)` : ''}`);
        for (const ch of m.changes) lines.push(`  - \`${ch.path}\`: \`${value(ch.before)}\` → \`${value(ch.after)}\``);
      }
    }
    if (c.created.length > 0) lines.push('', '**Created**', '', ...c.created.map((r) => `- ${r.kind} \`${r.name}\``));
    if (c.deleted.length > 0) lines.push('', '**Deleted**', '', ...c.deleted.map((r) => `- ${r.kind} \`${r.name}\``));
  }
  return `${lines.join('\n')}\n`;
}

const colours = { red: '\x1b[31m', green: '\x1b[32m', yellow: '\x1b[33m', bold: '\x1b[1m', reset: '\x1b[0m' } as const;

export function formatText(plan: Plan, colour: boolean): string {
  const c = (name: keyof typeof colours, s: string) => (colour ? `${colours[name]}${s}${colours.reset}` : s);
  const lines: string[] = [c('bold', headline(plan))];
  for (const m of missingClassLines(plan)) lines.push(c('red', m));
  for (const k of plan.summary.byClass)
    lines.push(
      `  ${k.clusterClass}: ${k.changed}/${k.clusters} changed, ${k.rollingOut} rolling out, ${k.newlyFailing} newly failing`,
    );
  for (const p of interesting(plan)) {
    lines.push('', c('bold', `${p.cluster} (${p.clusterClass}): ${statusText(p)}`));
    for (const e of shownErrors(p)) lines.push(c('red', `  ! ${e.field ? `${e.field.path}: ` : ''}${e.message}`));
    for (const r of p.rollouts)
      lines.push(c('yellow', `  ~ rolls out ${r.kind} ${r.name}: ${r.reasons.map((x) => x.template).join('; ')}`));
    for (const m of p.modified) {
      lines.push(c('yellow', `  ~ ${objectName(m.ref)}${m.renamedFrom ? ` (was ${m.renamedFrom})` : ''}`));
      for (const ch of m.changes)
        lines.push(`      ${ch.path}: ${c('red', value(ch.before))} -> ${c('green', value(ch.after))}`);
    }
    for (const r of p.created) lines.push(c('green', `  + ${objectName(r)}`));
    for (const r of p.deleted) lines.push(c('red', `  - ${objectName(r)}`));
  }
  return `${lines.join('\n')}\n`;
}

export const formatJson = (plan: Plan): string => `${JSON.stringify(plan, null, 2)}\n`;
