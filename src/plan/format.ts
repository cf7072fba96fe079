/** Plan output: human text (colour on a terminal), Markdown for pull-request comments, JSON. */
import type { Json } from '../api/model.js';
import type { ObjectRef } from '../api/model.js';
import type { ClusterPlan, Plan } from './plan.js';

const value = (v: Json | undefined): string => (v === undefined ? '(none)' : JSON.stringify(v));
const objectName = (r: ObjectRef): string => `${r.kind} ${r.name}`;

function headline(plan: Plan): string {
  const s = plan.summary;
  return `${s.changed} of ${s.clusters} Clusters change, ${s.rollingOut} roll out, ${s.newlyFailing} newly fail validation`;
}

const interesting = (plan: Plan): ClusterPlan[] => plan.clusters.filter((c) => c.status !== 'unchanged' || c.newErrors.length > 0);

export function formatMarkdown(plan: Plan): string {
  const lines: string[] = ['## ClusterClass render plan', '', `**${headline(plan)}.**`, ''];
  lines.push('| ClusterClass | Clusters | Changed | Rolling out | Newly failing |', '| --- | ---: | ---: | ---: | ---: |');
  for (const c of plan.summary.byClass) lines.push(`| \`${c.clusterClass}\` | ${c.clusters} | ${c.changed} | ${c.rollingOut} | ${c.newlyFailing} |`);
  for (const c of interesting(plan)) {
    lines.push('', `### \`${c.cluster}\` (${c.clusterClass}): ${c.status}`);
    if (c.newErrors.length > 0) {
      lines.push('', '**New errors**', '');
      for (const e of c.newErrors) lines.push(`- ${e.field ? `\`${e.field.path}\`: ` : ''}${e.message}`);
    }
    if (c.rollouts.length > 0) {
      lines.push('', '**Rolling out**', '');
      for (const r of c.rollouts) {
        const why = r.reasons.map((x) => `${x.template}${x.fields.length > 0 ? ` (${x.fields.map((f) => `\`${f}\``).join(', ')})` : ''}`).join('; ');
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
  for (const k of plan.summary.byClass) lines.push(`  ${k.clusterClass}: ${k.changed}/${k.clusters} changed, ${k.rollingOut} rolling out, ${k.newlyFailing} newly failing`);
  for (const p of interesting(plan)) {
    lines.push('', c('bold', `${p.cluster} (${p.clusterClass}): ${p.status}`));
    for (const e of p.newErrors) lines.push(c('red', `  ! ${e.field ? `${e.field.path}: ` : ''}${e.message}`));
    for (const r of p.rollouts) lines.push(c('yellow', `  ~ rolls out ${r.kind} ${r.name}: ${r.reasons.map((x) => x.template).join('; ')}`));
    for (const m of p.modified) {
      lines.push(c('yellow', `  ~ ${objectName(m.ref)}${m.renamedFrom ? ` (was ${m.renamedFrom})` : ''}`));
      for (const ch of m.changes) lines.push(`      ${ch.path}: ${c('red', value(ch.before))} -> ${c('green', value(ch.after))}`);
    }
    for (const r of p.created) lines.push(c('green', `  + ${objectName(r)}`));
    for (const r of p.deleted) lines.push(c('red', `  - ${objectName(r)}`));
  }
  return `${lines.join('\n')}\n`;
}

export const formatJson = (plan: Plan): string => `${JSON.stringify(plan, null, 2)}\n`;
