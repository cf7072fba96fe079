/**
 * The plan as SARIF 2.1.0 (issue 26), for code scanning: one run, one rule per kind of finding,
 * each result located at the input lines that cause it (src/plan/causes.ts) — the template field,
 * patch, variable value or Cluster field behind a rollout, the field a new error names — so a
 * pull request's annotations sit on the lines of the ClusterClass or Cluster to look at.
 * Findings with the same locations are one result (a class change that rolls 2,000 Clusters is
 * one annotation on its line, not 2,000). No timestamps, stable order, fingerprints that do not
 * depend on line numbers.
 */
import { createHash } from 'node:crypto';
import type { JsonObject } from '../core/model.js';
import type { Result } from '../core/result.js';
import {
  DOUBLE_ROLLOUT_FIX,
  NO_MACHINES,
  addMachines,
  counted,
  machinesPhrase,
  thousands,
  type Machines,
} from './blast.js';
import type { Causes, InputField } from './causes.js';
import { gateText, type GateCheck } from './gates.js';
import type { ClusterPlan, Plan } from './plan.js';
import { jsonString } from '../core/json.js';

/** Where a field or result is in the repository: `uri` relative to its root (SRCROOT) unless `base` is false. */
export interface ArtifactPlace {
  uri: string;
  base: boolean;
  line?: number;
  column?: number;
}

export interface SarifInputs {
  causes: Causes;
  /** Where an input field is written; undefined for a document not read from a file (stdin). */
  placeOf: (field: InputField) => ArtifactPlace | undefined;
  /** Where a result points (its file, object and field). */
  placeOfResult: (r: Result) => ArtifactPlace | undefined;
  toolVersion: string;
}

/** The README section each rule is explained in (its heading and anchor). */
const README = 'README.md, "Reviewing a change: plan, previous state and explain"';

const RULES = [
  {
    id: 'new-error',
    noun: 'new error',
    name: 'NewValidationError',
    level: 'error',
    short: 'A Cluster newly fails validation',
    full: 'The change makes a Cluster fail validation as the API server and CAPI webhooks would: it would not apply.',
  },
  {
    id: 'double-rollout',
    noun: 'double rollout',
    name: 'DoubleRollout',
    level: 'warning',
    short: 'Machines are replaced twice',
    full: `A worker rolls out now and again when the version step that upgrade sequencing holds back comes; ${DOUBLE_ROLLOUT_FIX}.`,
  },
  {
    id: 'rollout',
    noun: 'rollout',
    name: 'Rollout',
    level: 'warning',
    short: 'Machines are replaced',
    full: 'A control plane, MachineDeployment or MachinePool rolls out: CAPI replaces its Machines.',
  },
  {
    id: 'deferred-worker',
    noun: 'held-back worker',
    name: 'DeferredWorker',
    level: 'note',
    short: 'A worker waits for upgrade sequencing',
    full: 'Upgrade sequencing holds a worker at its version until the control plane has upgraded.',
  },
  {
    id: 'gate-breached',
    noun: 'breached gate',
    name: 'GateBreached',
    level: 'error',
    short: 'A plan gate is breached',
    full: 'The change exceeds a budget (--max-replaced-machines, --max-rolling-clusters) or has a kind of change --fail-on names.',
  },
] as const;

type RuleId = (typeof RULES)[number]['id'];

/** One finding of one Cluster (or of the fleet, for a gate). */
interface Finding {
  rule: RuleId;
  message: string;
  cluster?: string;
  machines?: Machines;
  fields: InputField[];
  /** For a new error: where the result points, and what identifies it across runs. */
  result?: { place: ArtifactPlace | undefined; identity: string };
  /** Where a finding without a file is: the fleet or a ClusterClass. */
  logical?: string;
}

/** The fields found, or else (values no input line sets: a CRD's default, the controller's) the Cluster that rolls. */
const orElse = (fields: InputField[], fallback: InputField | undefined): InputField[] =>
  fields.length > 0 || !fallback ? fields : [fallback];

function findingsOf(c: ClusterPlan, causes: Causes, placeOfResult: SarifInputs['placeOfResult']): Finding[] {
  const cluster = c.cluster;
  const errors = c.newErrors.map((e): Finding => ({
    rule: 'new-error',
    message: `Cluster ${cluster}: ${e.field ? `${e.field.path}: ` : ''}${e.message}`,
    cluster,
    fields: [],
    result: {
      place: placeOfResult(e),
      identity: `${e.resourceRef?.kind}/${e.resourceRef?.namespace}/${e.resourceRef?.name}#${e.field?.path}#${e.message}`,
    },
  }));
  const rollouts = c.rollouts.map((r): Finding => {
    const why = r.reasons
      .map((x) => `${x.template}${x.fields.length > 0 ? ` (${x.fields.join(', ')})` : ''}`)
      .join('; ');
    const machines = machinesPhrase(r.machines);
    return {
      rule: r.double ? 'double-rollout' : 'rollout',
      message: r.double
        ? `${r.kind} ${r.name} of Cluster ${cluster} rolls twice (${machines} each time): now for ${(r.rollsNow ?? []).join('; ')}; again for ${why} when its version step comes (${r.deferred})`
        : `${r.kind} ${r.name} of Cluster ${cluster} rolls out, replacing ${machines}: ${why}`,
      cluster,
      machines: addMachines(NO_MACHINES, r.machines, r.double ? 2 : 1),
      fields: orElse(causes.ofRollout(cluster, r), causes.document('Cluster', cluster)),
    };
  });
  const deferred = c.deferred.map((d): Finding => ({
    rule: 'deferred-worker',
    message: `Cluster ${cluster}: ${d.reason}`,
    cluster,
    fields: causes.ofDeferred(cluster, d),
  }));
  return [...errors, ...rollouts, ...deferred];
}

/** What a gate counts, by Cluster: the Clusters responsible for its breach. */
function gateClusters(g: GateCheck, plan: Plan): ClusterPlan[] {
  switch (g.gate) {
    case 'new-error':
      return plan.clusters.filter((c) => c.newErrors.length > 0);
    case 'double-rollout':
      return plan.clusters.filter((c) => c.rollouts.some((r) => r.double));
    default:
      return plan.clusters.filter((c) => c.rollouts.length > 0);
  }
}

/**
 * A breached gate is located at the one ClusterClass all its Clusters use, or the one Cluster it
 * counts; otherwise (Clusters of several classes) it has only a logical location, the fleet.
 */
function gateFinding(g: GateCheck, plan: Plan, causes: Causes): Finding {
  const members = gateClusters(g, plan);
  const classes = [...new Set(members.map((c) => c.clusterClass))];
  const [only] = members;
  const [theClass] = classes;
  const document =
    (classes.length === 1 && theClass !== undefined && causes.document('ClusterClass', theClass)) ||
    (members.length === 1 && only !== undefined && causes.document('Cluster', only.cluster)) ||
    undefined;
  return {
    rule: 'gate-breached',
    message: gateText(g, plan),
    fields: document ? [document] : [],
    logical: classes.length === 1 && theClass !== undefined ? `ClusterClass ${theClass}` : 'fleet',
  };
}

const hash = (text: string) => createHash('sha256').update(text).digest('hex');

/** The fields a result is located at: the changed ones when there are, else every one. */
const primaryOf = (fields: readonly InputField[]) => {
  const changed = fields.filter((f) => f.changed);
  return changed.length > 0 ? changed : fields;
};

const fieldKey = (f: InputField) => `${f.item.file?.path}#${f.item.file?.index ?? 0}#${f.path}`;

function physical(place: ArtifactPlace, message?: string): JsonObject {
  const artifactLocation: JsonObject = { uri: place.uri };
  if (place.base) artifactLocation.uriBaseId = 'SRCROOT';
  const physicalLocation: JsonObject = { artifactLocation };
  if (place.line !== undefined) {
    const region: JsonObject = { startLine: place.line };
    if (place.column !== undefined) region.startColumn = place.column;
    physicalLocation.region = region;
  }
  return message === undefined ? { physicalLocation } : { physicalLocation, message: { text: message } };
}

/** At most this many findings are spelled out in a grouped result's message. */
const LISTED = 5;
/** Code scanning keeps at most 100 locations of a result (GitHub's "SARIF support for code scanning" limits). */
const RELATED_LIMIT = 100;

function resultOf(group: Finding[], inputs: SarifInputs): JsonObject {
  // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- a group has one finding or more
  const first = group[0]!;
  const ruleIndex = RULES.findIndex((r) => r.id === first.rule);
  const fields = [...new Map(group.flatMap((f) => f.fields).map((f) => [fieldKey(f), f])).values()];
  const primary = primaryOf(fields);
  const related = fields.filter((f) => !primary.includes(f));
  const located = (list: readonly InputField[]) =>
    list.flatMap((f) => {
      const place = inputs.placeOf(f);
      return place ? [{ place, field: f }] : [];
    });
  const physicalLocations = first.result
    ? first.result.place
      ? [physical(first.result.place)]
      : []
    : located(primary).map(({ place, field }) => physical(place, field.what));
  const logical = first.logical ? { logicalLocations: [{ name: first.logical, kind: 'resource' }] } : undefined;
  const locations = logical
    ? physicalLocations.length > 0
      ? physicalLocations.map((l) => ({ ...l, ...logical }))
      : [logical]
    : physicalLocations;
  const clusters = [...new Set(group.flatMap((f) => (f.cluster ? [f.cluster] : [])))];
  const machines = group.reduce((sum, f) => addMachines(sum, f.machines ?? NO_MACHINES), NO_MACHINES);
  const listed = group.slice(0, LISTED).map((f) => f.message);
  const more = group.length > LISTED ? [`and ${thousands(group.length - LISTED)} more like these`] : [];
  const lead =
    group.length === 1
      ? ''
      : `${counted(group.length, RULES[ruleIndex]?.noun ?? 'finding')} in ${counted(clusters.length, 'Cluster')}${first.machines ? `, replacing ${machinesPhrase(machines)}` : ''}, from ${primary.length > 0 ? primary.map((f) => f.what).join(', ') : 'here'}: `;
  const result: JsonObject = {
    ruleId: first.rule,
    ruleIndex,
    level: RULES[ruleIndex]?.level ?? 'warning',
    message: { text: `${lead}${[...listed, ...more].join('; ')}` },
  };
  if (locations.length > 0) result.locations = locations;
  const relatedLocations = located(related.slice(0, RELATED_LIMIT)).map(({ place, field }, id) => ({
    id,
    ...physical(place, field.what),
  }));
  if (relatedLocations.length > 0) result.relatedLocations = relatedLocations;
  const identity = first.result
    ? first.result.identity
    : primary.length > 0
      ? primary.map((f) => `${inputs.placeOf(f)?.uri ?? ''}#${f.path}`).join('\n')
      : first.message;
  result.partialFingerprints = { 'renderClusterclassFinding/v1': hash(`${first.rule}\n${identity}`) };
  const properties: JsonObject = { clusters };
  if (first.machines) properties.machines = { ...machines };
  result.properties = properties;
  return result;
}

/** Findings at the same places (and of one rule) are one result, in the order first found. */
function grouped(findings: readonly Finding[]): Finding[][] {
  const groups = new Map<string, Finding[]>();
  for (const f of findings) {
    const where = f.result ? f.result.identity : primaryOf(f.fields).map(fieldKey).join('\n') || `message:${f.message}`;
    const key = `${f.rule}\n${where}`;
    const group = groups.get(key);
    if (group) group.push(f);
    else groups.set(key, [f]);
  }
  return [...groups.values()];
}

/** The plan as a SARIF 2.1.0 log (one run), findings located at the input lines behind them. */
export function formatSarif(plan: Plan, gates: readonly GateCheck[], inputs: SarifInputs): string {
  const findings = [
    ...plan.clusters.flatMap((c) => findingsOf(c, inputs.causes, inputs.placeOfResult)),
    ...gates.filter((g) => g.breached).map((g) => gateFinding(g, plan, inputs.causes)),
  ];
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'render-clusterclass',
            version: inputs.toolVersion,
            semanticVersion: inputs.toolVersion,
            rules: RULES.map((r) => ({
              id: r.id,
              name: r.name,
              shortDescription: { text: r.short },
              fullDescription: { text: r.full },
              defaultConfiguration: { level: r.level },
              help: { text: `${r.full} See ${README}.` },
            })),
          },
        },
        originalUriBaseIds: {
          SRCROOT: {
            description: {
              text: 'The root of the repository plan ran in (its git work tree, else the working directory)',
            },
          },
        },
        columnKind: 'utf16CodeUnits',
        results: grouped(findings).map((g) => resultOf(g, inputs)),
      },
    ],
  };
  return `${jsonString(log, 2)}\n`;
}
