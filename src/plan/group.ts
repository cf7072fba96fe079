/**
 * Identical changes grouped across Clusters: a class change reaches most of a fleet the same way,
 * and a reviewer reads it once ("1,199 Clusters: DevMachineTemplate default-worker gets
 * `spec.template.spec.extraMounts[1]`; rolls 2,601 MachineDeployments").
 */
import type { Json } from '../core/model.js';
import { NO_MACHINES, addMachines, counted, machinesPhrase, thousands, type Machines } from './blast.js';
import type { ClusterPlan, PlanSection } from './plan.js';
import { jsonString } from '../core/json.js';

/** One field path of a grouped change, with its values when every Cluster of the group has the same. */
interface GroupedField {
  verb: 'gets' | 'loses' | 'changes';
  path: string;
  /** The one before → after of every Cluster in the group; absent when they differ. */
  before?: Json;
  after?: Json;
  same: boolean;
}

/** One change that Clusters share: an object's fields, an object created or deleted, or a Cluster's status. */
export interface ChangeGroup {
  /** `changed`, or a Cluster's other status (`created`, `deleted`, `failing`, `fixed`, `still failing`, `new errors`). */
  status: string;
  /** The object (its `source`) and what happens to it: `~` modified, `+` created, `-` deleted; absent for a status group. */
  object?: { change: '~' | '+' | '-'; source: string; rotated: boolean; fields: GroupedField[] };
  clusters: string[];
  /** Objects of the change (one per Cluster, or several: every MachineDeployment of a worker class). */
  objects: number;
  /** The rollouts it causes, by kind (a double rollout counted once, and in `double`). */
  rollouts: { kind: string; count: number; double: number }[];
  machines: Machines;
}

const verbOf = (before: Json | undefined, after: Json | undefined): GroupedField['verb'] =>
  before === undefined ? 'gets' : after === undefined ? 'loses' : 'changes';

const statusOf = (c: ClusterPlan) => (c.status === 'unchanged' ? 'new errors' : c.status.replace('-', ' '));

const json = (v: Json | undefined) => jsonString(v ?? null);

type Modified = ClusterPlan['modified'][number];

/** A change that only follows a rotated clone (a reference renamed to the new clone): said with the clone. */
function followsRotation(m: Modified, c: ClusterPlan): boolean {
  const clones = new Set(c.modified.filter((o) => o.renamedFrom !== undefined).map((o) => o.ref.name));
  return m.changes.every((ch) => typeof ch.after === 'string' && clones.has(ch.after));
}

/** The rollouts an object's change causes: its own (a control plane, a MachineDeployment), or those of the workers it is the new template of. */
const rolloutsOf = (m: Modified, c: ClusterPlan) =>
  c.rollouts.filter(
    (r) => (r.kind === m.ref.kind && r.name === m.ref.name) || r.reasons.some((x) => x.to === m.ref.name),
  );

function addRollouts(g: ChangeGroup, rollouts: ClusterPlan['rollouts']): void {
  for (const r of rollouts) {
    let entry = g.rollouts.find((x) => x.kind === r.kind);
    if (!entry) g.rollouts.push((entry = { kind: r.kind, count: 0, double: 0 }));
    entry.count++;
    if (r.double) entry.double++;
    g.machines = addMachines(g.machines, r.machines, r.double ? 2 : 1);
  }
}

/** Groups of Clusters sharing a change, most Clusters first. */
export function groupChanges(plan: PlanSection, shown: (c: ClusterPlan) => boolean): ChangeGroup[] {
  const groups = new Map<string, ChangeGroup>();
  const group = (key: string, c: ClusterPlan, fresh: () => ChangeGroup): ChangeGroup => {
    let g = groups.get(key);
    if (!g) groups.set(key, (g = fresh()));
    if (g.clusters[g.clusters.length - 1] !== c.cluster) g.clusters.push(c.cluster);
    g.objects++;
    return g;
  };
  const empty = (status: string, object?: ChangeGroup['object']): ChangeGroup => ({
    status,
    ...(object ? { object } : {}),
    clusters: [],
    objects: 0,
    rollouts: [],
    machines: NO_MACHINES,
  });
  for (const c of plan.clusters) {
    if (!shown(c)) continue;
    if (c.status !== 'changed') {
      group(statusOf(c), c, () => empty(statusOf(c)));
      continue;
    }
    for (const m of c.modified) {
      if (followsRotation(m, c)) continue;
      const key = `~${m.source}${m.renamedFrom ? '*' : ''}\n${m.changes.map((ch) => `${verbOf(ch.before, ch.after)} ${ch.path}`).join('\n')}`;
      const g = group(key, c, () =>
        empty('changed', {
          change: '~',
          source: m.source,
          rotated: m.renamedFrom !== undefined,
          fields: m.changes.map((ch) => ({
            verb: verbOf(ch.before, ch.after),
            path: ch.path,
            ...(ch.before === undefined ? {} : { before: ch.before }),
            ...(ch.after === undefined ? {} : { after: ch.after }),
            same: true,
          })),
        }),
      );
      m.changes.forEach((ch, i) => {
        const field = g.object?.fields[i];
        if (field?.same && (json(field.before) !== json(ch.before) || json(field.after) !== json(ch.after))) {
          field.same = false;
          delete field.before;
          delete field.after;
        }
      });
      addRollouts(g, rolloutsOf(m, c));
    }
    for (const [change, refs] of [
      ['+', c.created],
      ['-', c.deleted],
    ] as const)
      for (const r of refs)
        group(`${change}${r.kind}`, c, () => empty('changed', { change, source: r.kind, rotated: false, fields: [] }));
  }
  const first = (g: ChangeGroup) => g.clusters[0] ?? '';
  return [...groups.values()].sort((a, b) => b.clusters.length - a.clusters.length || (first(a) < first(b) ? -1 : 1));
}

/** The group as one line: `1,199 Clusters: DevMachineTemplate default-worker gets `…`; rolls 2,601 MachineDeployments`. */
export function groupText(g: ChangeGroup, code: (s: string) => string): string {
  const clusters = counted(g.clusters.length, 'Cluster');
  const o = g.object;
  if (!o) return `${clusters}: ${g.status}`;
  const several = g.objects > g.clusters.length ? ` (${thousands(g.objects)} objects)` : '';
  if (o.change !== '~') return `${clusters}: ${o.change === '+' ? 'creates' : 'deletes'} ${o.source}${several}`;
  const fields = o.fields.map((f) => {
    const values =
      !f.same || f.verb === 'loses'
        ? ''
        : f.verb === 'gets'
          ? ` = ${code(json(f.after))}`
          : ` (${code(json(f.before))} → ${code(json(f.after))})`;
    return `${f.verb} ${code(f.path)}${values}`;
  });
  const rolls =
    g.rollouts.length === 0
      ? ''
      : `; rolls ${g.rollouts
          .map((r) => `${counted(r.count, r.kind)}${r.double > 0 ? ` (${thousands(r.double)} of them twice)` : ''}`)
          .join(', ')}, replacing ${machinesPhrase(g.machines)}`;
  return `${clusters}: ${o.source}${o.rotated ? ' (new clone)' : ''}${several} ${fields.join(', ')}${rolls}`;
}
