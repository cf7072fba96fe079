/**
 * Catalogue of the webhook rules the renderer enforces (issue #5; topology-semantics §3.4, §5.3,
 * §7.5, §8.1, §8.2), one test each. Every test asserts severity, resourceRef kind/name and
 * field.path exactly, and a message that starts with CAPI's webhook text verbatim (searchable)
 * followed by `; <fix>` — the fix written out here literally, as the user reads it (the `FIX`
 * table in src/webhooks/rules.ts must produce exactly this text). Inputs go
 * through `runPipeline` (create rules) or `updateResults` (update rules) unless noted.
 *
 * rule                                   | code (src/)                     | message starts with (CAPI text)                                      | test
 * -------------------------------------- | ------------------------------- | -------------------------------------------------------------------- | -----
 * ClusterClass create (§8.1) — resourceRef ClusterClass
 * template kind ends in Template         | validation/clusterclass.ts      | template kind must be of form "<name>Template"                        | cc-1
 * template apiVersion valid              | validation/clusterclass.ts      | template apiVersion must be a valid Kubernetes apiVersion             | cc-2
 * template name/kind/apiVersion set      | api/normalize.ts ¹              | Required value                                                        | cc-3
 * v1beta1 ref namespace dropped (warning) | api/normalize.ts ¹             | namespace "<ns>" is ignored: Cluster API v1.14 drops it ...           | cc-4
 * template present in the input (offline) | blueprint/blueprint.ts         | <Kind> "<name>" (<apiVersion>) referenced by ClusterClass ... not found | cc-5
 * unique MachineDeployment classes       | apiserver/listtype.ts ³         | Duplicate value: {"class":"x"} (the API server, before the webhook)   | cc-6
 * unique MachinePool classes             | apiserver/listtype.ts ³         | Duplicate value: {"class":"x"}                                        | cc-7
 * rollout maxSurge/maxUnavailable        | validation/rules.ts             | must be either an int or a percentage: <err>                          | cc-8
 * rollout not both 0                     | validation/rules.ts             | maxUnavailable and maxSurge cannot both be 0                          | cc-9
 * CP healthCheck needs machineInfra      | validation/clusterclass.ts      | can be only set if spec.controlPlane.machineInfrastructure is set     | cc-10
 * nodeStartupTimeoutSeconds 0 or ≥ 30    | validation/clusterclass.ts      | must be at least 30s                                                  | cc-11
 * unhealthyLessThanOrEqualTo             | validation/rules.ts             | must be either an int or a percentage: <err>                          | cc-12
 * MD remediation.maxInFlight             | validation/rules.ts             | must be either an int or a percentage: <err>                          | cc-13
 * naming template parses (§3.4)          | validation/clusterclass.ts      | invalid <InfraCluster|ControlPlane|MachineDeployment|MachinePool> name template: <err> | cc-14
 * naming template → DNS-1123 name        | validation/clusterclass.ts      | a lowercase RFC 1123 subdomain must consist of ...                    | cc-15
 * taints need the feature gate          | validation/rules.ts             | taints are not allowed to be set when the feature gate ...            | cc-16
 * taint keys                             | validation/rules.ts             | taint key is not allowed / must not have the prefix ... / deprecated  | cc-17
 * class metadata labels/annotations      | validation/rules.ts + variables/labels.ts | (Kubernetes label/annotation texts)                         | cc-18
 * kubernetesVersions                     | validation/rules.ts             | version must be a valid semantic version / must be greater than / expecting a version with minor | cc-19
 * variables: names (§5.3)                | variables/classvalidation.ts    | variable name must be unique ... / "builtin" is a reserved ... / cannot contain "." | var-1
 * variables: structural schema           | variables/classvalidation.ts    | must not be empty for specified object fields / must be empty to be structural | var-2
 * variables: default, example, enum      | variables/classvalidation.ts    | must not have unknown fields / (schema texts)                         | var-3
 * variables: type, pattern, properties   | variables/classvalidation.ts    | Unsupported value / must be a valid regular expression / mutually exclusive | var-4
 * variables: CEL rules                   | variables/classvalidation.ts    | rule is not specified / message ... / reason / fieldPath ... / compile / oldSelf | var-5
 * patches: op add/replace/remove (§7.5)  | validation/patches.ts           | Unsupported value: "<patch as JSON>": supported values: ...           | patch-1
 * patches: path starts with /spec        | validation/patches.ts           | jsonPatch path must start with "/spec"                                | patch-2
 * patches: array indices                 | validation/patches.ts           | arrays can only be accessed using "0" ... / elements in arrays can not be accessed in a <op> operation | patch-3
 * patches: value/valueFrom ²             | validation/patches.ts           | jsonPatch must define one of value or valueFrom / ... can not define both / Value is invalid JSON / valueFrom must set either ... / can not set both | patch-4
 * patches: valueFrom.variable exists     | validation/patches.ts           | not a defined builtin variable / variable with name <path> cannot be found | patch-5
 * patches: templates and enabledIf parse | validation/patches.ts           | template can not be parsed: <err>                                     | patch-6
 * patches: names, definitions xor external (§8.1 r9) | validation/patches.ts | patch name must be defined / "inline" can not be used ... / patch names must be unique ... / one of definitions or external ... | patch-7
 * patches: selectors (§8.1 r9)           | validation/patches.ts           | no selector enabled / selector is enabled but ... / selector can at most contain ... | patch-8
 * Cluster create (§8.2) — resourceRef Cluster
 * name is a label value                  | validation/cluster.ts           | must be a valid label value <err>                                     | cl-1
 * one of topology/infrastructureRef/controlPlaneRef | n/a: only Clusters with spec.topology are read; "cannot be removed" (update) not implemented | — | —
 * class set                              | api/normalize.ts ¹              | Required value: must not be empty                                     | cl-2
 * class present in the input (offline)   | pipeline/run.ts ¹               | ClusterClass "<ns>/<name>" not found: add it ...                      | cl-3
 * version defaulted with "v"             | validation/cluster.ts           | —                                                                     | cl-4
 * version is semver                      | validation/cluster.ts           | version must be a valid semantic version                              | cl-5
 * version listed in kubernetesVersions   | validation/cluster.ts           | version must match one of the versions defined in the ClusterClass    | cl-6
 * MD/MP class exists in the class        | validation/cluster.ts           | <Kind>Class with name "x" does not exist in ClusterClass "cc"         | cl-7
 * MD/MP names unique                     | apiserver/listtype.ts ³         | Duplicate value: {"name":"x"} (the API server, before the webhook)    | cl-8
 * MD/MP names set                        | validation/cluster.ts (normalize reports it first) | name must not be empty                             | cl-9
 * CP healthCheck needs class machineInfra | validation/cluster.ts          | can be only set if spec.controlPlane.machineInfrastructure is set in ClusterClass | cl-10
 * healthCheck enabled needs a definition | validation/cluster.ts           | cannot be set to true as healthCheck definition is not available ...  | cl-11
 * topology health-check values           | validation/rules.ts             | must be at least 30s / must be either an int or a percentage          | cl-12
 * clusterNetwork CIDRs                   | validation/rules.ts             | invalid CIDR address: <cidr>                                          | cl-13
 * topology metadata                      | validation/rules.ts             | (Kubernetes label/annotation texts)                                   | cl-14
 * topology rollout strategy              | validation/rules.ts             | maxUnavailable and maxSurge cannot both be 0                          | cl-15
 * topology taints                        | validation/rules.ts             | taint key must not have the prefix ... / taints are not allowed ...   | cl-16
 * upgrade-concurrency annotation         | validation/rules.ts             | could not parse the value of the annotation: / value cannot be less than 1 | cl-17
 * autoscaler annotations vs replicas     | validation/cluster.ts           | cannot be set for cluster "c" in namespace "ns" if ...                | cl-18
 * variables (§5.5)                       | variables/index.ts ¹            | variable is not defined / required variable "x" must be set / (schema) | cl-19
 * Update (§8.1 rules 12–13, §8.2 rules 12–13) — resourceRef ClusterClass, Clusters in tags.clusters; or the Cluster
 * template API group and kind kept       | validation/compatibility.ts     | group of apiVersion cannot be changed ... / kind cannot be changed ... | up-1
 * machineInfrastructure not added/removed | validation/compatibility.ts    | kind cannot be changed from "X" to ""                                 | up-2
 * worker class in use not removed        | validation/compatibility.ts     | MachineDeploymentClass "x" cannot be deleted because it is used by Cluster "c" | up-3
 * class healthCheck in use not removed   | validation/compatibility.ts     | healthCheck cannot be deleted because it is used by Cluster(s) "c"    | up-4
 * variable in use not removed            | validation/compatibility.ts     | variable x can not be removed. It is used in Clusters [c]             | up-5
 * schema change keeps values in use valid | validation/compatibility.ts    | variable schema change for x is invalid. ...                          | up-6
 * newly required variable set everywhere | validation/compatibility.ts     | variable x is required but is not defined in Clusters [c]             | up-7
 * kubernetesVersions keep versions in use | validation/compatibility.ts    | Kubernetes Version v is used by Cluster "c" but not set in ClusterClass | up-8
 * class autoscaler vs replicas           | validation/compatibility.ts     | cannot be set for cluster ... if the source class ...                 | up-9
 * Cluster class change compatible        | validation/compatibility.ts     | (the template group/kind texts) — on the Cluster                      | up-10
 * class change across namespaces         | validation/compatibility.ts     | (same; classRef.namespace is part of the class key)                   | up-11
 * previous class known (warning)         | validation/compatibility.ts     | valid ClusterClass with name "x" could not be retrieved, ...          | up-12
 * no version downgrade                   | validation/compatibility.ts     | version cannot be decreased from "a" to "b"                           | up-13
 * one-minor ceiling                      | validation/compatibility.ts     | version cannot be increased from "a" to "b"                           | up-14
 * unsafe version annotation (warning)    | validation/compatibility.ts     | Skipping version validation for Cluster because annotation ... (no fix) | up-15
 *
 * ¹ message produced outside the validation files (not changed here): the tests pin today's text,
 *   which is the reader's or the pipeline's own, not CAPI's, and (except cl-3) has no fix hint.
 * ² the patch engine checks the same at render time (`failed to calculate value: ...`, src/patches/compile.ts),
 *   but a class the webhook rejects renders no Cluster, so the pipeline reports it once, on the class.
 * ³ the CRDs make these lists list-type maps, so the API server refuses a repeated key before CAPI's
 *   webhook rule (internal/topology/check/compatibility.go `... must be unique`) is reached.
 */
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import type { JsonObject } from '../../src/core/model.js';
import { DEFAULT_CONFIG, capiProfileOf, type RenderConfig } from '../../src/krm/config.js';
import { readYamlStream } from '../../src/krm/read.js';
import type { Result, Severity } from '../../src/core/result.js';
import { runPipeline } from '../../src/pipeline/run.js';
import { validateClusterTopology } from '../../src/webhooks/cluster.js';
import { validateClusterClassPatches } from '../../src/webhooks/patches.js';
import { updateResults } from '../../src/pipeline/update.js';
import { buildBlueprint } from '../../src/blueprint/blueprint.js';
import { newSchemaCompiler } from '../../src/variables/openapi.js';
import {
  CLASS_REF,
  classDoc,
  clusterDoc,
  clusterRef,
  makeClass,
  makeCluster,
  mdClasses,
  topology,
  workers,
} from './helpers.js';
import { FIX } from '../../src/core/fixes.js';

const CONFIG: RenderConfig = { ...DEFAULT_CONFIG, mode: 'preview' };

const template = (apiVersion: string, kind: string, name: string): JsonObject => ({
  apiVersion,
  kind,
  metadata: { name, namespace: 'default' },
  spec: { template: { spec: {} } },
});
/** The templates `classDoc()` references. */
const TEMPLATES: JsonObject[] = [
  template('infrastructure.cluster.x-k8s.io/v1beta2', 'DevClusterTemplate', 'qs-cluster'),
  template('controlplane.cluster.x-k8s.io/v1beta2', 'KubeadmControlPlaneTemplate', 'qs-control-plane'),
  template('infrastructure.cluster.x-k8s.io/v1beta2', 'DevMachineTemplate', 'qs-control-plane-machine'),
  template('bootstrap.cluster.x-k8s.io/v1beta2', 'KubeadmConfigTemplate', 'qs-worker-bootstrap'),
  template('infrastructure.cluster.x-k8s.io/v1beta2', 'DevMachineTemplate', 'qs-worker-machine'),
  template('bootstrap.cluster.x-k8s.io/v1beta2', 'KubeadmConfigTemplate', 'qs-pool-bootstrap'),
  template('infrastructure.cluster.x-k8s.io/v1beta2', 'DevMachinePoolTemplate', 'qs-pool-machine'),
];

function items(docs: JsonObject[]) {
  const read = readYamlStream(docs.map((d) => YAML.stringify(d)).join('---\n'), 'input.yaml');
  if (!read.ok) throw new Error(read.message);
  return read.items;
}

type SpecEdit = (spec: JsonObject) => void;
type ClusterEdit = (spec: JsonObject, meta: JsonObject) => void;

/** Results of one pipeline run over the test class (edited), its templates and Clusters. */
function render(opts: { cls?: SpecEdit; clusters?: JsonObject[]; templates?: JsonObject[] } = {}): Result[] {
  return runPipeline(
    items([classDoc(opts.cls), ...(opts.templates ?? TEMPLATES), ...(opts.clusters ?? [clusterDoc('c1')])]),
    CONFIG,
  ).results;
}
const renderCluster = (edit: ClusterEdit, cls?: SpecEdit) => render({ cls, clusters: [clusterDoc('c1', edit)] });

interface Expected {
  severity?: Severity;
  kind: 'ClusterClass' | 'Cluster';
  name?: string;
  path: string;
  /** CAPI's text (with the field-error type and bad value), verbatim: the message starts with it. */
  capi: string;
  fix: string;
  /** The message has text between `capi` and the fix (Go error texts that vary). */
  open?: boolean;
  /** Update rules: the Clusters affected (`tags.clusters`). */
  clusters?: string;
}

const CC = { kind: 'ClusterClass', name: 'quick-start' } as const;
const C1 = { kind: 'Cluster', name: 'c1' } as const;

/** Exactly one result at `path` carries CAPI's text; it has the severity, object and fix expected. */
function expectRule(results: readonly Result[], e: Expected): Result {
  const atPath = results.filter((r) => r.field?.path === e.path);
  const hits = atPath.filter((r) => r.message.startsWith(e.capi));
  expect(
    hits,
    `no single result at ${e.path} starting with ${JSON.stringify(e.capi)}; at that path: ${JSON.stringify(atPath.map((r) => r.message))}; all: ${JSON.stringify(results.map((r) => [r.field?.path, r.message]))}`,
  ).toHaveLength(1);
  const r = hits[0]!;
  expect(r.severity).toBe(e.severity ?? 'error');
  expect(r.resourceRef?.kind).toBe(e.kind);
  expect(r.resourceRef?.name).toBe(e.name ?? (e.kind === 'ClusterClass' ? 'quick-start' : 'c1'));
  expect(r.field?.path).toBe(e.path);
  if (e.open) expect(r.message.endsWith(`; ${e.fix}`), r.message).toBe(true);
  else expect(r.message).toBe(`${e.capi}; ${e.fix}`);
  if (e.clusters !== undefined) expect(r.tags?.clusters).toBe(e.clusters);
  return r;
}

const md0 = 'spec.workers.machineDeployments[default-worker]';

// ------------------------------------------------------------------ ClusterClass create

describe('ClusterClass create rules (§8.1)', () => {
  it('cc-1 template kind must end in Template', () => {
    const rs = render({
      cls: (spec) => (((spec.infrastructure as JsonObject).templateRef as JsonObject).kind = 'DevCluster'),
    });
    expectRule(rs, {
      ...CC,
      path: 'spec.infrastructure.templateRef.kind',
      capi: 'Invalid value: "DevCluster": template kind must be of form "<name>Template"',
      fix: 'reference the template kind (it ends in "Template", e.g. DevMachineTemplate), not the kind of the object it creates',
    });
  });

  it('cc-2 template apiVersion must be a Kubernetes apiVersion', () => {
    const rs = render({
      cls: (spec) =>
        ((mdClasses(spec)[0]!.bootstrap as JsonObject).templateRef = {
          apiVersion: 'a/b/c',
          kind: 'KubeadmConfigTemplate',
          name: 'qs-worker-bootstrap',
        }),
    });
    expectRule(rs, {
      ...CC,
      path: 'spec.workers.machineDeployments[0].bootstrap.templateRef.apiVersion',
      capi: 'Invalid value: "a/b/c": template apiVersion must be a valid Kubernetes apiVersion',
      fix: 'use "<group>/<version>", e.g. "infrastructure.cluster.x-k8s.io/v1beta2"',
    });
  });

  it('cc-3 template name is required (reported while reading the class; own text, not ours to change)', () => {
    const rs = render({ cls: (spec) => delete ((spec.controlPlane as JsonObject).templateRef as JsonObject).name });
    expect(
      rs
        .filter((r) => r.field?.path === 'spec.controlPlane.templateRef.name')
        .map((r) => [r.severity, r.resourceRef?.kind, r.resourceRef?.name, r.message]),
    ).toEqual([['error', 'ClusterClass', 'quick-start', 'Required value']]);
  });

  // CAPI v1.14 drops the namespace of a v1beta1 reference on conversion (api/core/v1beta1/conversion.go
  // convert_v1beta1_LocalObjectTemplate_To_v1beta2_ClusterClassTemplateReference) and looks the template
  // up in the class namespace: this was an error here before, a false one.
  it('cc-4 v1beta1 template references: the namespace is dropped, the template is the class namespace one (own text)', () => {
    const doc: JsonObject = {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'ClusterClass',
      metadata: { name: 'quick-start', namespace: 'default' },
      spec: {
        controlPlane: {
          ref: {
            apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
            kind: 'KubeadmControlPlaneTemplate',
            name: 'qs-control-plane',
            namespace: 'other',
          },
        },
      },
    };
    const cluster = clusterDoc('c1', (spec) => delete topology(spec).workers);
    const out = runPipeline(items([doc, ...TEMPLATES, cluster]), CONFIG);
    expect(
      out.results
        .filter((r) => r.field?.path === 'spec.controlPlane.ref.namespace')
        .map((r) => [r.severity, r.resourceRef?.kind, r.message]),
    ).toEqual([
      [
        'warning',
        'ClusterClass',
        'namespace "other" is ignored: Cluster API v1.14 drops it when converting this v1beta1 reference and looks the template up in the ClusterClass namespace "default"; move the template there and remove the namespace',
      ],
    ]);
    expect(out.generated.map((g) => g.cluster)).toEqual(['default/c1']);
  });

  it('cc-5 every referenced template is in the input (offline rule)', () => {
    const rs = render({ templates: TEMPLATES.filter((t) => (t.metadata as JsonObject).name !== 'qs-pool-machine') });
    const r = rs.find((x) => x.tags?.rule === 'template-missing');
    expect(r).toMatchObject({
      severity: 'error',
      resourceRef: { kind: 'ClusterClass', name: 'quick-start' },
      field: { path: 'spec.workers.machinePools[0].infrastructure.templateRef' },
    });
    expect(r?.message).toBe(
      'DevMachinePoolTemplate "qs-pool-machine" (infrastructure.cluster.x-k8s.io/v1beta2) referenced by ClusterClass "quick-start" not found in namespace "default": add the template to the input',
    );
  });

  it('cc-6 MachineDeployment classes are unique', () => {
    const rs = render({ cls: (spec) => mdClasses(spec).push({ ...mdClasses(spec)[0]! }) });
    expectRule(rs, {
      ...CC,
      path: 'spec.workers.machineDeployments[1]',
      capi: 'Duplicate value: {"class":"default-worker"}: the API server would reject this ClusterClass',
      fix: 'fix it in the input',
      open: true,
    });
  });

  it('cc-7 MachinePool classes are unique', () => {
    const rs = render({
      cls: (spec) =>
        (workers(spec).machinePools as JsonObject[]).push({ ...(workers(spec).machinePools as JsonObject[])[0]! }),
    });
    expectRule(rs, {
      ...CC,
      path: 'spec.workers.machinePools[1]',
      capi: 'Duplicate value: {"class":"default-pool"}: the API server would reject this ClusterClass',
      fix: 'fix it in the input',
      open: true,
    });
  });

  it('cc-8 rollout maxSurge/maxUnavailable are an int or a percentage', () => {
    const rs = render({
      cls: (spec) =>
        (mdClasses(spec)[0]!.rollout = { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '1' } } }),
    });
    expectRule(rs, {
      ...CC,
      path: `${md0}.rollout.strategy.rollingUpdate.maxSurge`,
      capi: 'Invalid value: "1": must be either an int or a percentage: invalid value for IntOrString: invalid type: string is not a percentage',
      fix: 'use an integer such as 1 or a percentage such as "25%"',
    });
  });

  it('cc-9 rollout maxSurge and maxUnavailable are not both 0', () => {
    const rs = render({
      cls: (spec) =>
        (mdClasses(spec)[0]!.rollout = {
          strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } },
        }),
    });
    expectRule(rs, {
      ...CC,
      path: `${md0}.rollout.strategy.rollingUpdate`,
      capi: 'Invalid value: "0": maxUnavailable and maxSurge cannot both be 0',
      fix: 'set maxSurge or maxUnavailable above 0',
    });
  });

  it('cc-10 a control plane health check needs machineInfrastructure', () => {
    const rs = render({
      cls: (spec) => {
        const cp = spec.controlPlane as JsonObject;
        delete cp.machineInfrastructure;
        cp.healthCheck = { checks: { nodeStartupTimeoutSeconds: 600 } };
      },
    });
    expectRule(rs, {
      ...CC,
      path: 'spec.controlPlane.healthCheck',
      capi: 'Forbidden: can be only set if spec.controlPlane.machineInfrastructure is set',
      fix: 'set spec.controlPlane.machineInfrastructure, or remove spec.controlPlane.healthCheck',
    });
  });

  it('cc-11 nodeStartupTimeoutSeconds is 0 or at least 30 (class paths use the class name)', () => {
    const rs = render({
      cls: (spec) => (mdClasses(spec)[0]!.healthCheck = { checks: { nodeStartupTimeoutSeconds: 10 } }),
    });
    expectRule(rs, {
      ...CC,
      path: `${md0}.healthCheck.checks.nodeStartupTimeoutSeconds`,
      capi: 'Invalid value: 10: must be at least 30s',
      fix: 'set it to 0 (no startup timeout) or to at least 30',
    });
  });

  it('cc-12 triggerIf.unhealthyLessThanOrEqualTo is an int or a percentage', () => {
    const rs = render({
      cls: (spec) =>
        ((spec.controlPlane as JsonObject).healthCheck = {
          remediation: { triggerIf: { unhealthyLessThanOrEqualTo: 'most' } },
        }),
    });
    expectRule(rs, {
      ...CC,
      path: 'spec.controlPlane.healthCheck.remediation.triggerIf.unhealthyLessThanOrEqualTo',
      capi: 'Invalid value: "most": must be either an int or a percentage: invalid value for IntOrString: invalid type: string is not a percentage',
      fix: 'use an integer such as 1 or a percentage such as "25%"',
    });
  });

  it('cc-13 MachineDeployment remediation.maxInFlight is an int or a percentage', () => {
    const rs = render({ cls: (spec) => (mdClasses(spec)[0]!.healthCheck = { remediation: { maxInFlight: 'x%' } }) });
    expectRule(rs, {
      ...CC,
      path: `${md0}.healthCheck.remediation.maxInFlight`,
      capi: 'Invalid value: "x%": must be either an int or a percentage: invalid value for IntOrString: invalid value "x%": strconv.Atoi: parsing "x": invalid syntax',
      fix: 'use an integer such as 1 or a percentage such as "25%"',
    });
  });

  it('cc-14 naming templates parse (§3.4)', () => {
    const rs = render({
      cls: (spec) => ((spec.infrastructure as JsonObject).naming = { template: '{{ .cluster.name ' }),
    });
    expectRule(rs, {
      ...CC,
      path: 'spec.infrastructure.naming.template',
      capi: 'Invalid value: "{{ .cluster.name ": invalid InfraCluster name template: ',
      fix: 'fix the Go template (e.g. "{{ .cluster.name }}-{{ .random }}")',
      open: true,
    });
  });

  it('cc-15 naming templates generate DNS-1123 names (§3.4)', () => {
    const rs = render({
      cls: (spec) =>
        (mdClasses(spec)[0]!.naming = { template: '{{ .cluster.name }}-{{ .machineDeployment.topologyName }}-X' }),
    });
    expectRule(rs, {
      ...CC,
      path: `${md0}.naming.template`,
      capi: 'Invalid value: "{{ .cluster.name }}-{{ .machineDeployment.topologyName }}-X": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters',
      fix: `change the template so the names it generates are lower case alphanumerics, '-' and '.'`,
      open: true,
    });
  });

  it('cc-16 taints need the MachineTaintPropagation feature gate (off by default)', () => {
    const rs = render({
      cls: (spec) =>
        ((spec.controlPlane as JsonObject).taints = [
          { key: 'example.com/dedicated', effect: 'NoSchedule', propagation: 'Always' },
        ]),
    });
    expectRule(rs, {
      ...CC,
      path: 'spec.controlPlane.taints',
      capi: 'Forbidden: taints are not allowed to be set when the feature gate MachineTaintPropagation is disabled',
      fix: 'enable MachineTaintPropagation on the management cluster (and render with --feature-gates MachineTaintPropagation=true), or remove the taints',
    });
  });

  it('cc-17 taint keys: reserved, forbidden prefixes, deprecated master, label-key syntax', () => {
    const rs = render({
      cls: (spec) =>
        ((workers(spec).machinePools as JsonObject[])[0]!.taints = [
          { key: 'node.cluster.x-k8s.io/uninitialized', effect: 'NoSchedule', propagation: 'Always' },
          { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule', propagation: 'Always' },
          { key: 'node.cloudprovider.kubernetes.io/x', effect: 'NoSchedule', propagation: 'Always' },
          { key: 'node-role.kubernetes.io/master', effect: 'NoSchedule', propagation: 'Always' },
          { key: 'bad key', effect: 'NoSchedule', propagation: 'Always' },
        ]),
    });
    const p = 'spec.workers.machinePools[default-pool].taints';
    expectRule(rs, {
      ...CC,
      path: `${p}[0].key`,
      capi: 'Invalid value: "node.cluster.x-k8s.io/uninitialized": taint key is not allowed',
      fix: 'remove the taint: Cluster API manages this key',
    });
    expectRule(rs, {
      ...CC,
      path: `${p}[1].key`,
      capi: 'Invalid value: "node.kubernetes.io/not-ready": taint key must not have the prefix node.kubernetes.io/, except for node.kubernetes.io/out-of-service',
      fix: 'remove the taint or use a key under your own prefix (e.g. example.com/dedicated)',
    });
    expectRule(rs, {
      ...CC,
      path: `${p}[2].key`,
      capi: 'Invalid value: "node.cloudprovider.kubernetes.io/x": taint key must not have the prefix node.cloudprovider.kubernetes.io/',
      fix: 'remove the taint or use a key under your own prefix (e.g. example.com/dedicated)',
    });
    expectRule(rs, {
      ...CC,
      path: `${p}[3].key`,
      capi: 'Invalid value: "node-role.kubernetes.io/master": taint is deprecated since 1.24 and should not be used anymore',
      fix: 'use node-role.kubernetes.io/control-plane instead',
    });
    expectRule(rs, {
      ...CC,
      path: `${p}[4].key`,
      capi: 'Invalid value: "bad key": name part must consist of alphanumeric characters',
      fix: 'use a valid label key as taint key ([prefix/]name)',
      open: true,
    });
  });

  it('cc-18 class metadata is valid labels and annotations', () => {
    const rs = render({
      cls: (spec) => {
        (spec.controlPlane as JsonObject).metadata = { labels: { app: 'not valid!' } };
        mdClasses(spec)[0]!.metadata = { annotations: { '-nope': 'x' } };
      },
    });
    expectRule(rs, {
      ...CC,
      path: 'spec.controlPlane.metadata.labels[app]',
      capi: 'Invalid value: "not valid!": a valid label must be an empty string',
      fix: 'fix or remove this label',
      open: true,
    });
    expectRule(rs, {
      ...CC,
      path: `${md0}.template.metadata.annotations`,
      capi: 'Invalid value: "-nope": name part must consist of alphanumeric characters',
      fix: 'fix or remove this annotation',
      open: true,
    });
  });

  it('cc-19 kubernetesVersions: semantic versions, increasing, no minor skipped', () => {
    const rs = render({ cls: (spec) => (spec.kubernetesVersions = ['v1.32.0', 'v1.32.0', 'nope', 'v1.34.0']) });
    expectRule(rs, {
      ...CC,
      path: 'spec.kubernetesVersion[1]',
      capi: 'Invalid value: "v1.32.0": version must be greater than v1.32.0',
      fix: 'list each version once, in increasing order',
    });
    expectRule(rs, {
      ...CC,
      path: 'spec.kubernetesVersion[2]',
      capi: 'Invalid value: "nope": version must be a valid semantic version',
      fix: 'write versions as v<major>.<minor>.<patch>, e.g. v1.32.0',
    });
    expectRule(rs, {
      ...CC,
      path: 'spec.kubernetesVersion[3]',
      capi: 'Invalid value: "v1.34.0": expecting a version with minor 32 or 33, found version 1.34.0',
      fix: 'add a version for every minor in between',
    });
  });
});

describe('ClusterClass variable definitions (§5.3)', () => {
  const withVariables = (...vars: JsonObject[]) => render({ cls: (spec) => (spec.variables = vars) });

  it('var-1 names: unique, set, not "builtin", no "."', () => {
    const rs = withVariables(
      { name: 'a', required: false, schema: { openAPIV3Schema: { type: 'string' } } },
      { name: 'a', required: false, schema: { openAPIV3Schema: { type: 'string' } } },
      { name: 'builtin', required: false, schema: { openAPIV3Schema: { type: 'string' } } },
      { name: 'a.b', required: false, schema: { openAPIV3Schema: { type: 'string' } } },
    );
    expectRule(rs, {
      ...CC,
      path: 'spec.variables[a].name',
      capi: 'Invalid value: "a": variable name must be unique. Variable with name "a" is defined more than once',
      fix: 'remove the duplicate or rename one of them',
    });
    expectRule(rs, {
      ...CC,
      path: 'spec.variables[builtin].name',
      capi: 'Invalid value: "builtin": "builtin" is a reserved variable name',
      fix: 'choose another name: "builtin" holds the variables Cluster API provides',
    });
    expectRule(rs, {
      ...CC,
      path: 'spec.variables[a.b].name',
      capi: 'Invalid value: "a.b": variable name cannot contain "."',
      fix: 'use a name without "." (nest values in an object schema instead)',
    });
  });

  it('var-2 the schema is structural', () => {
    const rs = withVariables(
      {
        name: 'untyped',
        required: false,
        schema: { openAPIV3Schema: { type: 'object', properties: { x: { description: 'no type' } } } },
      },
      { name: 'nested', required: false, schema: { openAPIV3Schema: { type: 'string', allOf: [{ type: 'string' }] } } },
    );
    expectRule(rs, {
      ...CC,
      path: 'spec.variables[untyped].schema.openAPIV3Schema.properties[x].type',
      capi: 'Required value: must not be empty for specified object fields',
      fix: 'set type, or set x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields to true',
    });
    expectRule(rs, {
      ...CC,
      path: 'spec.variables[nested].schema.openAPIV3Schema.allOf[0].type',
      capi: 'Forbidden: must be empty to be structural',
      fix: 'only value validations (e.g. minimum, pattern, enum) may appear inside allOf, anyOf, oneOf and not: move this field to the schema node itself',
    });
  });

  it('var-3 defaults, examples and enum values satisfy the schema', () => {
    const rs = withVariables(
      { name: 'd', required: false, schema: { openAPIV3Schema: { type: 'integer', default: 'x' } } },
      {
        name: 'u',
        required: false,
        schema: { openAPIV3Schema: { type: 'object', properties: { a: { type: 'string' } }, default: { b: 'z' } } },
      },
      {
        name: 'e',
        required: false,
        schema: { openAPIV3Schema: { type: 'string', maxLength: 2, example: 'long', enum: ['ok', 'long'] } },
      },
    );
    expectRule(rs, {
      ...CC,
      path: 'spec.variables[d].schema.openAPIV3Schema.default',
      capi: 'Invalid value: "string": must be of type integer: "string"',
      fix: 'change the default so it satisfies the schema',
    });
    expectRule(rs, {
      ...CC,
      path: 'spec.variables[u].schema.openAPIV3Schema.default',
      capi: 'Invalid value: {"b":"z"}: must not have unknown fields',
      fix: 'remove the fields the schema does not declare from the default, or declare them',
    });
    expectRule(rs, {
      ...CC,
      path: 'spec.variables[e].schema.openAPIV3Schema.example',
      capi: 'Too long: may not be more than 2 bytes',
      fix: 'change the example so it satisfies the schema',
    });
    expectRule(rs, {
      ...CC,
      path: 'spec.variables[e].schema.openAPIV3Schema.enum[1]',
      capi: 'Too long: may not be more than 2 bytes',
      fix: 'change or remove this enum value so it satisfies the schema',
    });
  });

  it('var-4 type values, patterns, properties xor additionalProperties', () => {
    const rs = withVariables(
      { name: 't', required: false, schema: { openAPIV3Schema: { type: 'null' } } },
      { name: 'p', required: false, schema: { openAPIV3Schema: { type: 'string', pattern: '(?=x)' } } },
      {
        name: 'o',
        required: false,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: { a: { type: 'string' } },
            additionalProperties: { type: 'string' },
          },
        },
      },
    );
    expectRule(rs, {
      ...CC,
      path: 'spec.variables[t].schema.openAPIV3Schema.type',
      capi: 'Unsupported value: "null": supported values: "array", "boolean", "integer", "number", "object", "string"',
      fix: 'use one of the supported types',
    });
    expectRule(rs, {
      ...CC,
      path: 'spec.variables[p].schema.openAPIV3Schema.pattern',
      capi: 'Invalid value: "(?=x)": must be a valid regular expression, but isn\'t: ',
      fix: 'write the pattern in RE2 syntax (no lookaround, no backreferences)',
      open: true,
    });
    expectRule(rs, {
      ...CC,
      path: 'spec.variables[o].schema.openAPIV3Schema',
      capi: 'Forbidden: additionalProperties and properties are mutually exclusive',
      fix: 'keep either properties or additionalProperties',
    });
  });

  it('var-5 CEL rules: rule set, message, reason, fieldPath, compiles, no oldSelf in items', () => {
    const rs = withVariables(
      {
        name: 'c',
        required: false,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: { a: { type: 'string' } },
            'x-kubernetes-validations': [
              { rule: ' ' },
              { rule: '1 == 1', message: ' ' },
              { rule: '2 == 2', reason: 'Nope' },
              { rule: 'true', fieldPath: '.b' },
              { rule: 'self +' },
            ],
          },
        },
      },
      {
        name: 'l',
        required: false,
        schema: {
          openAPIV3Schema: {
            type: 'array',
            items: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] },
          },
        },
      },
    );
    const p = 'spec.variables[c].schema.openAPIV3Schema.x-kubernetes-validations';
    expectRule(rs, {
      ...CC,
      path: `${p}[0].rule`,
      capi: 'Required value: rule is not specified',
      fix: 'set rule to a CEL expression',
    });
    expectRule(rs, {
      ...CC,
      path: `${p}[1].message`,
      capi: 'Invalid value: " ": message must be non-empty if specified',
      fix: 'remove message or give it text on one line of at most 2048 characters',
    });
    expectRule(rs, {
      ...CC,
      path: `${p}[2].reason`,
      capi: 'Unsupported value: "Nope": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"',
      fix: 'use one of the supported reasons, or omit reason',
    });
    expectRule(rs, {
      ...CC,
      path: `${p}[3].fieldPath`,
      capi: 'Invalid value: ".b": fieldPath must be a valid path: does not refer to a valid field',
      fix: 'point fieldPath at a field of this schema (e.g. ".name"), or omit it',
    });
    // Compile errors are reported once the rule list itself is well-formed.
    const compiled = withVariables({
      name: 'c',
      required: false,
      schema: { openAPIV3Schema: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self +' }] } },
    });
    expectRule(compiled, {
      ...CC,
      path: 'spec.variables[c].schema.openAPIV3Schema.x-kubernetes-validations[0].rule',
      capi: 'Invalid value: {"Rule":"self +","Message":"","MessageExpression":"","Reason":"FieldValueInvalid"',
      fix: 'fix the CEL expression',
      open: true,
    });
    expectRule(rs, {
      ...CC,
      path: 'spec.variables[l].schema.openAPIV3Schema.items.x-kubernetes-validations[0].rule',
      capi: 'Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within spec.variables[l].schema.openAPIV3Schema.items',
      fix: 'move the rule to the array itself, or do not use oldSelf',
    });
  });
});

describe('ClusterClass patches (§7.5, §8.1 rule 9)', () => {
  const INFRA = {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind: 'DevClusterTemplate',
    matchResources: { infrastructureCluster: true },
  };
  /** One patch "p" with one definition (selector `INFRA` unless given) holding `ops`. */
  const withOps = (ops: JsonObject[], selector: JsonObject = INFRA) =>
    render({ cls: (spec) => (spec.patches = [{ name: 'p', definitions: [{ selector, jsonPatches: ops }] }]) });
  const withPatches = (...patches: JsonObject[]) => render({ cls: (spec) => (spec.patches = patches) });
  const op = (k: number) => `spec.patches[0].definitions[0].jsonPatches[${k}]`;
  /** CAPI's `prettyPrint` (json.MarshalIndent) of a value, as field errors print a string: `%q`. */
  const pretty = (v: JsonObject) => JSON.stringify(JSON.stringify(v, null, 2));

  it('patch-1 op is add, replace or remove', () => {
    const rs = withOps([{ op: 'move', path: '/spec/template/spec/x', value: 1 }]);
    expectRule(rs, {
      ...CC,
      path: `${op(0)}.op`,
      capi: `Unsupported value: ${pretty({ op: 'move', path: '/spec/template/spec/x', value: 1 })}: supported values: "add", "remove", "replace"`,
      fix: 'use add, replace or remove',
    });
  });

  it('patch-2 path starts with "/spec"', () => {
    const rs = withOps([{ op: 'add', path: '/metadata/labels/a', value: 'b' }]);
    expectRule(rs, {
      ...CC,
      path: `${op(0)}.path`,
      capi: `Invalid value: ${pretty({ op: 'add', path: '/metadata/labels/a', value: 'b' })}: jsonPatch path must start with "/spec"`,
      fix: `patch the template's spec: start the path with "/spec/" (e.g. /spec/template/spec/...)`,
    });
  });

  it('patch-3 array indices: add only "0" or "-", replace/remove none (Go strconv.Atoi segments)', () => {
    const rs = withOps([
      { op: 'add', path: '/spec/template/spec/list/+1', value: 1 },
      { op: 'replace', path: '/spec/template/spec/list/007', value: 1 },
      { op: 'remove', path: '/spec/template/spec/list/-1' },
      { op: 'add', path: '/spec/template/spec/list/-', value: 1 },
      { op: 'add', path: '/spec/template/spec/list/0', value: 1 },
    ]);
    expectRule(rs, {
      ...CC,
      path: `${op(0)}.path`,
      capi: 'Invalid value: "/spec/template/spec/list/+1": arrays can only be accessed using "0" (prepend) or "-" (append)',
      fix: 'use "0" to prepend or "-" to append; to change other elements, replace the whole array',
    });
    expectRule(rs, {
      ...CC,
      path: `${op(1)}.path`,
      capi: 'Invalid value: "/spec/template/spec/list/007": elements in arrays can not be accessed in a replace operation',
      fix: 'address the whole array (its parent field) instead of one element',
    });
    expectRule(rs, {
      ...CC,
      path: `${op(2)}.path`,
      capi: 'Invalid value: "/spec/template/spec/list/-1": elements in arrays can not be accessed in a remove operation',
      fix: 'address the whole array (its parent field) instead of one element',
    });
    expect(rs.filter((r) => r.field?.path === `${op(3)}.path` || r.field?.path === `${op(4)}.path`)).toEqual([]);
  });

  it('patch-4 add/replace carry exactly one of value and valueFrom, valueFrom exactly one of template and variable, value is JSON (at admission, not per Cluster)', () => {
    const rs = withOps([
      { op: 'add', path: '/spec/template/spec/a' },
      { op: 'add', path: '/spec/template/spec/b', value: 1, valueFrom: { variable: 'imageRepository' } },
      { op: 'replace', path: '/spec/template/spec/c', valueFrom: {} },
      { op: 'replace', path: '/spec/template/spec/d', valueFrom: { variable: 'imageRepository', template: 'x' } },
      { op: 'add', path: '/spec/template/spec/e', value: 'not JSON: see below' },
      { op: 'remove', path: '/spec/template/spec/f', value: 1, valueFrom: {} },
    ]);
    expectRule(rs, {
      ...CC,
      path: op(0),
      capi: `Invalid value: ${pretty({ op: 'add', path: '/spec/template/spec/a' })}: jsonPatch must define one of value or valueFrom`,
      fix: 'set value or valueFrom',
    });
    expectRule(rs, {
      ...CC,
      path: op(1),
      capi: `Invalid value: ${pretty({ op: 'add', path: '/spec/template/spec/b', value: 1, valueFrom: { variable: 'imageRepository' } })}: jsonPatch can not define both value and valueFrom`,
      fix: 'set only one of value and valueFrom',
    });
    expectRule(rs, {
      ...CC,
      path: `${op(2)}.valueFrom`,
      capi: 'Invalid value: "{}": valueFrom must set either template or variable',
      fix: 'set valueFrom.variable or valueFrom.template',
    });
    expectRule(rs, {
      ...CC,
      path: `${op(3)}.valueFrom`,
      capi: `Invalid value: ${pretty({ variable: 'imageRepository', template: 'x' })}: valueFrom can not set both template and variable`,
      fix: 'set only one of valueFrom.variable and valueFrom.template',
    });
    // A value JSON cannot hold (YAML `.inf`) never reaches the webhook: Kubernetes refuses the YAML
    // while converting it to JSON ("json: unsupported value: +Inf"), and so does the reader; the
    // webhook rule (validateJSONPatchValues) is called directly, as cl-9 calls its rule.
    const infinite = (spec: JsonObject) =>
      (spec.patches = [
        {
          name: 'p',
          definitions: [
            { selector: INFRA, jsonPatches: [{ op: 'add', path: '/spec/template/spec/e', value: { size: Infinity } }] },
          ],
        },
      ]);
    const read = readYamlStream(YAML.stringify(classDoc(infinite)), 'input.yaml');
    expect(read.ok && read.results).toEqual([
      expect.objectContaining({
        severity: 'error',
        message: expect.stringContaining('Kubernetes cannot read this object: json: unsupported value: +Inf'),
      }),
    ]);
    const cc = makeClass(infinite);
    expectRule(validateClusterClassPatches(cc, CLASS_REF, capiProfileOf(DEFAULT_CONFIG)), {
      ...CC,
      path: 'spec.patches[0].definitions[0].jsonPatches[0].value',
      capi: 'Invalid value: "{\\"size\\":Infinity}": jsonPatch Value is invalid JSON',
      fix: 'use a value that can be written as JSON',
    });
    // remove ignores value fields; the class is rejected as a whole, so no Cluster reports these again at render time.
    expect(rs.filter((r) => r.field?.path?.startsWith(op(5)))).toEqual([]);
    expect(rs.filter((r) => r.tags?.cluster !== undefined)).toEqual([]);
    expect(rs.find((r) => r.tags?.rule === 'class-invalid')?.resourceRef).toMatchObject(C1);
  });

  it('patch-5 valueFrom.variable names a variable of spec.variables or an allowed builtin', () => {
    const rs = withOps([
      { op: 'add', path: '/spec/template/spec/a', valueFrom: { variable: 'missing.field[0]' } },
      { op: 'add', path: '/spec/template/spec/b', valueFrom: { variable: 'builtin.machineDeployment.bootstrap' } },
      { op: 'add', path: '/spec/template/spec/c', valueFrom: { variable: 'builtin' } },
      { op: 'add', path: '/spec/template/spec/d', valueFrom: { variable: 'imageRepository.x[2]' } },
      {
        op: 'add',
        path: '/spec/template/spec/e',
        valueFrom: { variable: 'builtin.controlPlane.machineTemplate.infrastructureRef.name' },
      },
    ]);
    expectRule(rs, {
      ...CC,
      path: `${op(0)}.valueFrom.variable`,
      capi: 'Invalid value: "missing.field[0]": variable with name missing.field[0] cannot be found',
      fix: 'define variable "missing" in spec.variables or fix the name (variables discovered by a Runtime Extension do not count here)',
    });
    expectRule(rs, {
      ...CC,
      path: `${op(1)}.valueFrom.variable`,
      capi: 'Invalid value: "builtin.machineDeployment.bootstrap": not a defined builtin variable',
      fix: 'use one of builtin.machineDeployment.class, builtin.machineDeployment.name, builtin.machineDeployment.replicas, builtin.machineDeployment.topologyName, builtin.machineDeployment.version, builtin.machineDeployment.metadata.labels, builtin.machineDeployment.metadata.annotations, builtin.machineDeployment.bootstrap.configRef.name, builtin.machineDeployment.infrastructureRef.name (valueFrom.template can read any other builtin field)',
    });
    // Quirk: the bare "builtin" does not start with "builtin." and is no variable of the class.
    expectRule(rs, {
      ...CC,
      path: `${op(2)}.valueFrom.variable`,
      capi: 'Invalid value: "builtin": variable with name builtin cannot be found',
      fix: 'define variable "builtin" in spec.variables or fix the name (variables discovered by a Runtime Extension do not count here)',
    });
    expect(rs.filter((r) => r.field?.path?.startsWith(op(3)) || r.field?.path?.startsWith(op(4)))).toEqual([]);
  });

  it('patch-6 valueFrom.template and enabledIf parse (sprig hermetic functions; not executed)', () => {
    const rs = withPatches({
      name: 'p',
      enabledIf: '{{ if .x }}',
      definitions: [
        {
          selector: INFRA,
          jsonPatches: [
            { op: 'add', path: '/spec/template/spec/a', valueFrom: { template: '{{ now }}' } },
            { op: 'add', path: '/spec/template/spec/b', valueFrom: { template: '{{ fail "only at render time" }}' } },
          ],
        },
      ],
    });
    expectRule(rs, {
      ...CC,
      path: 'spec.patches[0].enabledIf',
      capi: 'Invalid value: "{{ if .x }}": template can not be parsed: template: enabledIf:1: unexpected EOF',
      fix: 'fix the Go template (text/template with sprig functions)',
    });
    expectRule(rs, {
      ...CC,
      path: `${op(0)}.valueFrom.template`,
      capi: 'Invalid value: "{{ now }}": template can not be parsed: template: valueFrom.template:1: function "now" not defined',
      fix: 'fix the Go template (text/template with sprig functions)',
    });
    expect(rs.filter((r) => r.field?.path?.startsWith(op(1)))).toEqual([]);
  });

  it('patch-7 patch names: set, not "inline", unique; exactly one of definitions and external; external names an extension', () => {
    const defs = [{ selector: INFRA, jsonPatches: [{ op: 'add', path: '/spec/template/spec/a', value: 1 }] }];
    const rs = withPatches(
      { name: '', definitions: defs },
      { name: 'inline', definitions: defs },
      { name: 'inline' },
      { name: 'both', definitions: defs, external: { generatePatchesExtension: 'gen' } },
      { name: 'ext', external: { discoverVariablesExtension: 'disc', settings: { b: '2', a: '1' } } },
    );
    expectRule(rs, {
      ...CC,
      path: 'spec.patches[0].name',
      capi: 'Required value: patch name must be defined',
      fix: 'give the patch a name',
    });
    expectRule(rs, {
      ...CC,
      path: 'spec.patches[1].name',
      capi: 'Required value: "inline" can not be used as the name of a patch',
      fix: 'choose another name: "inline" is reserved',
    });
    expectRule(rs, {
      ...CC,
      path: 'spec.patches[2].name',
      capi: 'Invalid value: "inline": patch names must be unique. Patch with name "inline" is defined more than once',
      fix: 'remove the duplicate or rename one of them',
    });
    expectRule(rs, {
      ...CC,
      path: 'spec.patches[2]',
      capi: 'Required value: one of definitions or external must be defined',
      fix: 'add definitions (inline JSON patches) or external (a Runtime Extension)',
    });
    expectRule(rs, {
      ...CC,
      path: 'spec.patches[3]',
      capi: `Invalid value: ${JSON.stringify({ name: 'both', definitions: [{ selector: INFRA, jsonPatches: [{ op: 'add', path: '/spec/template/spec/a', value: 1 }] }], external: { generatePatchesExtension: 'gen' } })}: only one of definitions or external can be defined`,
      fix: 'keep one of definitions and external, and move the other into a patch of its own',
    });
    expectRule(rs, {
      ...CC,
      path: 'spec.patches[4].external',
      capi: 'Invalid value: {"discoverVariablesExtension":"disc","settings":{"a":"1","b":"2"}}: one of validateTopologyExtension and generatePatchesExtension must be defined',
      fix: 'set generatePatchesExtension or validateTopologyExtension',
    });
  });

  it('patch-8 selectors: one enabled, matching the class templates; class-name patterns valid and matching a class', () => {
    const sel = (apiVersion: string, kind: string, matchResources: JsonObject) => ({
      apiVersion,
      kind,
      matchResources,
    });
    const KCT = ['bootstrap.cluster.x-k8s.io/v1beta2', 'KubeadmConfigTemplate'] as const;
    const rs = render({
      cls: (spec) =>
        (spec.patches = [
          {
            name: 'p',
            definitions: [
              sel(...KCT, { infrastructureCluster: false }),
              sel(...KCT, { infrastructureCluster: true, controlPlane: true }),
              sel(...KCT, {
                machineDeploymentClass: { names: ['a*b', 'not-checked'] },
                machinePoolClass: { names: ['*default-pool', '**', 'x'] },
              }),
              sel(...KCT, { machineDeploymentClass: { names: ['*-worker', 'other*', '-bad*'] } }),
              sel('infrastructure.cluster.x-k8s.io/v1beta2', 'DevMachineTemplate', {
                controlPlane: true,
                machineDeploymentClass: { names: ['*'] },
              }),
            ].map((selector) => ({ selector, jsonPatches: [{ op: 'add', path: '/spec/template/spec/a', value: 1 }] })),
          },
        ]),
    });
    const d = (j: number) => `spec.patches[0].definitions[${j}].selector`;
    expectRule(rs, {
      ...CC,
      path: d(0),
      capi: `Invalid value: ${pretty({ apiVersion: KCT[0], kind: KCT[1], matchResources: { infrastructureCluster: false } })}: no selector enabled`,
      fix: 'enable at least one of matchResources.infrastructureCluster, controlPlane, machineDeploymentClass.names or machinePoolClass.names',
    });
    expectRule(rs, {
      ...CC,
      path: `${d(1)}.matchResources.infrastructureCluster`,
      capi: 'Invalid value: true: selector is enabled but does not match the infrastructure ref',
      fix: 'set the selector apiVersion and kind to those of spec.infrastructure.templateRef (infrastructure.cluster.x-k8s.io/v1beta2 DevClusterTemplate), or disable this match',
    });
    expectRule(rs, {
      ...CC,
      path: `${d(1)}.matchResources.controlPlane`,
      capi: 'Invalid value: true: selector is enabled but matches neither the controlPlane ref nor the controlPlane machineInfrastructure ref',
      fix: 'set the selector apiVersion and kind to those of spec.controlPlane.templateRef or spec.controlPlane.machineInfrastructure.templateRef (controlplane.cluster.x-k8s.io/v1beta2 KubeadmControlPlaneTemplate or infrastructure.cluster.x-k8s.io/v1beta2 DevMachineTemplate), or disable this match',
    });
    // The first malformed name ends the list's checks ("not-checked" is not reported).
    expectRule(rs, {
      ...CC,
      path: `${d(2)}.matchResources.machineDeploymentClass.names[0]`,
      capi: 'Invalid value: "a*b": "*" rune can only appear at the beginning, or ending of the selector',
      fix: 'put the "*" at the beginning or the end of the name',
    });
    expect(rs.filter((r) => r.field?.path === `${d(2)}.matchResources.machineDeploymentClass.names[1]`)).toEqual([]);
    expectRule(rs, {
      ...CC,
      path: `${d(2)}.matchResources.machinePoolClass.names[1]`,
      capi: 'Invalid value: "**": selector can at most contain a single "*" rune',
      fix: 'use at most one "*"',
    });
    expect(rs.filter((r) => r.field?.path === `${d(2)}.matchResources.machinePoolClass.names[0]`)).toEqual([]);
    expectRule(rs, {
      ...CC,
      path: `${d(3)}.matchResources.machineDeploymentClass.names[1]`,
      capi: 'Invalid value: "other*": selector is enabled but matches neither the bootstrap ref nor the infrastructure ref of a MachineDeployment class',
      fix: `name one of the MachineDeployment classes whose bootstrap or infrastructure template has the selector's apiVersion and kind ("default-worker")`,
    });
    expectRule(rs, {
      ...CC,
      path: `${d(3)}.matchResources.machineDeploymentClass.names[2]`,
      capi: 'Invalid value: "-bad*": selector does not comply with the Kubernetes naming standards',
      fix: `use a class name pattern of alphanumerics, '-', '_' and '.' with an optional leading or trailing "*"`,
    });
    expect(
      rs.filter(
        (r) =>
          r.field?.path?.startsWith(d(4)) || r.field?.path === `${d(3)}.matchResources.machineDeploymentClass.names[0]`,
      ),
    ).toEqual([]);
  });
});

// ------------------------------------------------------------------ Cluster create

describe('Cluster create rules (§8.2)', () => {
  it('cl-1 the Cluster name is a valid label value', () => {
    const name = `c${'x'.repeat(63)}`;
    const rs = render({ clusters: [clusterDoc(name)] });
    expectRule(rs, {
      ...C1,
      name,
      path: 'metadata.name',
      capi: `Invalid value: "${name}": must be a valid label value must be no more than 63 characters`,
      fix: 'rename the Cluster',
    });
  });

  it('cl-2 the class is set (reported while reading the Cluster; own text, not ours to change)', () => {
    const rs = renderCluster((spec) => ((topology(spec).classRef as JsonObject).name = ''));
    expect(
      rs
        .filter((r) => r.field?.path === 'spec.topology.classRef.name')
        .map((r) => [r.severity, r.resourceRef?.kind, r.resourceRef?.name, r.message]),
    ).toEqual([['error', 'Cluster', 'c1', 'Required value: must not be empty']]);
  });

  it('cl-3 the class is in the input (offline rule; own text in pipeline/run.ts)', () => {
    const rs = renderCluster((spec) => ((topology(spec).classRef as JsonObject).name = 'missing'));
    expect(
      rs
        .filter((r) => r.field?.path === 'spec.topology.classRef.name')
        .map((r) => [r.severity, r.resourceRef?.kind, r.message]),
    ).toEqual([
      [
        'error',
        'Cluster',
        'ClusterClass "default/missing" not found: add it (and its templates) to the input, or fix the class reference',
      ],
    ]);
  });

  it('cl-4 the version is defaulted with a "v" prefix', () => {
    const out = runPipeline(
      items([classDoc(), ...TEMPLATES, clusterDoc('c1', (spec) => (topology(spec).version = '1.32.0'))]),
      CONFIG,
    );
    expect(out.results.filter((r) => r.severity === 'error')).toEqual([]);
    const cp = out.generated[0]!.objects.find((o) => o.kind === 'KubeadmControlPlane');
    expect((cp?.spec as JsonObject).version).toBe('v1.32.0');
  });

  it('cl-5 the version is a semantic version (checked after defaulting, as the webhooks run in that order)', () => {
    const rs = renderCluster((spec) => (topology(spec).version = '1.32'));
    expectRule(rs, {
      ...C1,
      path: 'spec.topology.version',
      capi: 'Invalid value: "v1.32": version must be a valid semantic version',
      fix: 'use a version such as v1.32.0',
    });
  });

  it('cl-6 the version is one of the class kubernetesVersions when it lists any', () => {
    const rs = renderCluster(
      () => {},
      (spec) => (spec.kubernetesVersions = ['v1.31.0', 'v1.31.5']),
    );
    expectRule(rs, {
      ...C1,
      path: 'spec.topology.version',
      capi: 'Invalid value: "v1.32.0": version must match one of the versions defined in the ClusterClass',
      fix: 'use one of the versions in the ClusterClass spec.kubernetesVersions, or add this version there',
    });
  });

  it('cl-7 MachineDeployment and MachinePool classes exist in the ClusterClass', () => {
    const rs = renderCluster((spec) => {
      workers(topology(spec)).machineDeployments = [{ class: 'gpu', name: 'md-0' }];
      workers(topology(spec)).machinePools = [{ class: 'spot', name: 'mp-0' }];
    });
    expectRule(rs, {
      ...C1,
      path: 'spec.topology.workers.machineDeployments[0].class',
      capi: 'Invalid value: "gpu": MachineDeploymentClass with name "gpu" does not exist in ClusterClass "quick-start"',
      fix: 'use one of the classes the ClusterClass defines ("default-worker") or add this class to it',
    });
    expectRule(rs, {
      ...C1,
      path: 'spec.topology.workers.machinePools[0].class',
      capi: 'Invalid value: "spot": MachinePoolClass with name "spot" does not exist in ClusterClass "quick-start"',
      fix: 'use one of the classes the ClusterClass defines ("default-pool") or add this class to it',
    });
    expect('use one of the classes the ClusterClass defines ("default-worker") or add this class to it').toBe(
      'use one of the classes the ClusterClass defines ("default-worker") or add this class to it',
    );
  });

  it('cl-8 MachineDeployment and MachinePool names are unique', () => {
    const rs = renderCluster((spec) => {
      workers(topology(spec)).machineDeployments = [
        { class: 'default-worker', name: 'md-0' },
        { class: 'default-worker', name: 'md-0' },
      ];
      workers(topology(spec)).machinePools = [
        { class: 'default-pool', name: 'mp-0' },
        { class: 'default-pool', name: 'mp-0' },
      ];
    });
    expectRule(rs, {
      ...C1,
      path: 'spec.topology.workers.machineDeployments[1]',
      capi: 'Duplicate value: {"name":"md-0"}: the API server would reject this Cluster',
      fix: 'fix it in the input',
      open: true,
    });
    expectRule(rs, {
      ...C1,
      path: 'spec.topology.workers.machinePools[1]',
      capi: 'Duplicate value: {"name":"mp-0"}: the API server would reject this Cluster',
      fix: 'fix it in the input',
      open: true,
    });
  });

  it('cl-9 MachineDeployment names are set (the reader rejects an empty name first, so the rule is called directly)', () => {
    const piped = renderCluster(
      (spec) => (workers(topology(spec)).machineDeployments = [{ class: 'default-worker', name: '' }]),
    );
    expect(
      piped
        .filter((r) => r.field?.path === 'spec.topology.workers.machineDeployments[0].name')
        .map((r) => [r.severity, r.resourceRef?.kind, r.message]),
    ).toEqual([['error', 'Cluster', 'Required value: must not be empty']]);
    const bp = buildBlueprint(
      makeClass(),
      CLASS_REF,
      {
        get: (apiVersion, kind, _ns, name) =>
          TEMPLATES.find(
            (t) => t.apiVersion === apiVersion && t.kind === kind && (t.metadata as JsonObject).name === name,
          ),
      },
      {
        capi: capiProfileOf(DEFAULT_CONFIG),
        skipExternalPatches: false,
        contractOf: () => 'v1beta2',
        schemas: newSchemaCompiler(),
      },
    ).blueprint!;
    const cluster = makeCluster('c1');
    cluster.topology.workers.machineDeployments[0]!.name = '';
    expectRule(validateClusterTopology(bp, cluster, clusterRef('c1')).results, {
      ...C1,
      path: 'spec.topology.workers.machineDeployments[0].name',
      capi: 'Required value: name must not be empty',
      fix: 'give it a name',
    });
  });

  it('cl-10 a control plane health check in the topology needs class machineInfrastructure', () => {
    const rs = renderCluster(
      (spec) => (topology(spec).controlPlane = { healthCheck: { checks: { nodeStartupTimeoutSeconds: 600 } } }),
      (spec) => delete (spec.controlPlane as JsonObject).machineInfrastructure,
    );
    expectRule(rs, {
      ...C1,
      path: 'spec.topology.controlPlane.healthCheck',
      capi: 'Forbidden: can be only set if spec.controlPlane.machineInfrastructure is set in ClusterClass',
      fix: 'remove the control plane healthCheck from the Cluster topology, or use a ClusterClass that sets spec.controlPlane.machineInfrastructure',
    });
  });

  it('cl-11 healthCheck.enabled needs a definition in the topology or the class (path says "enable", sic)', () => {
    const rs = renderCluster((spec) => {
      topology(spec).controlPlane = { healthCheck: { enabled: true } };
      (workers(topology(spec)).machineDeployments as JsonObject[])[0]!.healthCheck = { enabled: true };
    });
    const capi =
      'Forbidden: cannot be set to true as healthCheck definition is not available in the Cluster topology or the ClusterClass';
    expectRule(rs, {
      ...C1,
      path: 'spec.topology.controlPlane.healthCheck.enable',
      capi,
      fix: 'add checks or remediation to this healthCheck, define a healthCheck in the ClusterClass, or remove enabled: true',
    });
    expectRule(rs, {
      ...C1,
      path: 'spec.topology.workers.machineDeployments[md-0].healthCheck.enable',
      capi,
      fix: 'add checks or remediation to this healthCheck, define a healthCheck in the ClusterClass, or remove enabled: true',
    });
  });

  it('cl-12 topology health-check values', () => {
    const rs = renderCluster((spec) => {
      topology(spec).controlPlane = { healthCheck: { checks: { nodeStartupTimeoutSeconds: 5 } } };
      (workers(topology(spec)).machineDeployments as JsonObject[])[0]!.healthCheck = {
        remediation: { maxInFlight: 'all', triggerIf: { unhealthyLessThanOrEqualTo: '5' } },
      };
    });
    expectRule(rs, {
      ...C1,
      path: 'spec.topology.controlPlane.healthCheck.checks.nodeStartupTimeoutSeconds',
      capi: 'Invalid value: 5: must be at least 30s',
      fix: 'set it to 0 (no startup timeout) or to at least 30',
    });
    const md = 'spec.topology.workers.machineDeployments[md-0].healthCheck.remediation';
    expectRule(rs, {
      ...C1,
      path: `${md}.maxInFlight`,
      capi: 'Invalid value: "all": must be either an int or a percentage: ',
      fix: 'use an integer such as 1 or a percentage such as "25%"',
      open: true,
    });
    expectRule(rs, {
      ...C1,
      path: `${md}.triggerIf.unhealthyLessThanOrEqualTo`,
      capi: 'Invalid value: "5": must be either an int or a percentage: ',
      fix: 'use an integer such as 1 or a percentage such as "25%"',
      open: true,
    });
  });

  it('cl-13 clusterNetwork CIDR blocks parse', () => {
    const rs = renderCluster((spec) => (spec.clusterNetwork = { pods: { cidrBlocks: ['10.0.0.0/33'] } }));
    expectRule(rs, {
      ...C1,
      path: 'spec.clusterNetwork.pods.cidrBlocks[0]',
      capi: 'Invalid value: "10.0.0.0/33": invalid CIDR address: 10.0.0.0/33',
      fix: 'use CIDR notation such as 10.0.0.0/16 or fd00::/108',
    });
  });

  it('cl-14 topology metadata is valid labels and annotations', () => {
    const rs = renderCluster(
      (spec) =>
        ((workers(topology(spec)).machineDeployments as JsonObject[])[0]!.metadata = { labels: { 'a/b/c': 'x' } }),
    );
    expectRule(rs, {
      ...C1,
      path: 'spec.topology.workers.machineDeployments[md-0].metadata.labels',
      capi: 'Invalid value: "a/b/c": a valid label key must consist of',
      fix: 'fix or remove this label',
      open: true,
    });
  });

  it('cl-15 topology rollout strategies', () => {
    const rs = renderCluster(
      (spec) =>
        ((workers(topology(spec)).machineDeployments as JsonObject[])[0]!.rollout = {
          strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } },
        }),
    );
    expectRule(rs, {
      ...C1,
      path: 'spec.topology.workers.machineDeployments[md-0].rollout.strategy.rollingUpdate',
      capi: 'Invalid value: "0": maxUnavailable and maxSurge cannot both be 0',
      fix: 'set maxSurge or maxUnavailable above 0',
    });
  });

  it('cl-16 topology taints', () => {
    const rs = renderCluster(
      (spec) =>
        (topology(spec).controlPlane = {
          taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', propagation: 'Always' }],
        }),
    );
    expectRule(rs, {
      ...C1,
      path: 'spec.topology.controlPlane.taints[0].key',
      capi: 'Invalid value: "node.kubernetes.io/unreachable": taint key must not have the prefix node.kubernetes.io/, except for node.kubernetes.io/out-of-service',
      fix: 'remove the taint or use a key under your own prefix (e.g. example.com/dedicated)',
    });
    expectRule(rs, {
      ...C1,
      path: 'spec.topology.controlPlane.taints',
      capi: 'Forbidden: taints are not allowed to be set when the feature gate MachineTaintPropagation is disabled',
      fix: 'enable MachineTaintPropagation on the management cluster (and render with --feature-gates MachineTaintPropagation=true), or remove the taints',
    });
  });

  it('cl-17 the upgrade-concurrency annotation is a whole number of at least 1', () => {
    const path = 'metadata.annotations[topology.cluster.x-k8s.io/upgrade-concurrency]';
    const withValue = (v: string) =>
      renderCluster((_spec, meta) => (meta.annotations = { 'topology.cluster.x-k8s.io/upgrade-concurrency': v }));
    expectRule(withValue('two'), {
      ...C1,
      path,
      capi: 'Invalid value: "two": could not parse the value of the annotation: strconv.Atoi: parsing "two": invalid syntax',
      fix: 'set the annotation to a whole number of at least 1, e.g. "1"',
    });
    expectRule(withValue('0'), {
      ...C1,
      path,
      capi: 'Invalid value: "0": value cannot be less than 1',
      fix: 'set the annotation to a whole number of at least 1, e.g. "1"',
    });
  });

  it('cl-18 replicas are not set together with autoscaler annotations (topology or class)', () => {
    const rs = renderCluster(
      (spec) =>
        ((workers(topology(spec)).machineDeployments as JsonObject[])[0] = {
          class: 'default-worker',
          name: 'md-0',
          replicas: 2,
          metadata: { annotations: { 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size': '1' } },
        }),
      (spec) =>
        (mdClasses(spec)[0]!.metadata = {
          annotations: { 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size': '5' },
        }),
    );
    const path = 'spec.topology.workers.machineDeployments[md-0].replicas';
    expectRule(rs, {
      ...C1,
      path,
      capi: 'Invalid value: 2: cannot be set for cluster "c1" in namespace "default" if the same MachineDeploymentTopology has autoscaler annotations',
      fix: 'remove replicas (the autoscaler sets them) or remove the autoscaler annotations',
    });
    expectRule(rs, {
      ...C1,
      path,
      capi: 'Invalid value: 2: cannot be set for cluster "c1" in namespace "default" if the source class "default-worker" of this MachineDeploymentTopology has autoscaler annotations',
      fix: 'remove replicas (the autoscaler sets them) or remove the autoscaler annotations from class "default-worker"',
    });
  });

  it('cl-19 variables: defined (the fix says where definitions come from), required ones set, values valid (messages from src/variables/index.ts)', () => {
    const errors = (edit: ClusterEdit, cls?: SpecEdit) =>
      renderCluster(edit, cls)
        .filter((r) => r.resourceRef?.kind === 'Cluster' && r.severity === 'error')
        .map((r) => [r.resourceRef?.name, r.field?.path, r.message]);
    expect(errors((spec) => (topology(spec).variables = [{ name: 'unknown', value: 1 }]))).toEqual([
      [
        'c1',
        'spec.topology.variables[unknown]',
        'Invalid value: "1": variable is not defined; define it in ClusterClass "quick-start" spec.variables, or remove it from the Cluster',
      ],
    ]);
    expect(
      errors(
        () => {},
        (spec) =>
          (spec.variables as JsonObject[]).push({
            name: 'region',
            required: true,
            schema: { openAPIV3Schema: { type: 'string' } },
          }),
      ),
    ).toEqual([['c1', 'spec.topology.variables', 'Required value: required variable "region" must be set']]);
    expect(errors((spec) => (topology(spec).variables = [{ name: 'imageRepository', value: 'x'.repeat(70) }]))).toEqual(
      [['c1', 'spec.topology.variables[imageRepository].value', 'Too long: may not be more than 64 bytes']],
    );
  });
});

// ------------------------------------------------------------------ update

describe('update rules against the previous state', () => {
  const previousClass = classDoc();
  const named = (doc: JsonObject, name: string, namespace = 'default') => ({
    ...doc,
    metadata: { ...(doc.metadata as JsonObject), name, namespace },
  });
  const update = (before: JsonObject[], after: JsonObject[]) => updateResults(items(before), items(after), CONFIG);
  /** The class changed by `edit`, with Clusters `clusters` using it before and after. */
  const classUpdate = (edit: SpecEdit, clusters: JsonObject[], before: SpecEdit = () => {}) =>
    update([classDoc(before), ...clusters], [classDoc(edit), ...clusters]);
  const c1 = clusterDoc('c1');
  const c2 = clusterDoc('c2', (spec) => {
    workers(topology(spec)).machinePools = [{ class: 'default-pool', name: 'mp-0' }];
    topology(spec).variables = [{ name: 'imageRepository', value: 'registry.example.com/a-long-repository' }];
  });

  it('up-1 infrastructure, control plane and worker infrastructure templates keep their API group and kind', () => {
    const rs = classUpdate(
      (spec) => {
        ((spec.infrastructure as JsonObject).templateRef as JsonObject).apiVersion = 'infrastructure.example.com/v1';
        ((workers(spec).machinePools as JsonObject[])[0]!.infrastructure as JsonObject).templateRef = {
          apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
          kind: 'AWSMachinePoolTemplate',
          name: 'x',
        };
      },
      [c1, c2],
    );
    expectRule(rs, {
      ...CC,
      path: 'spec.infrastructure.templateRef.apiVersion',
      capi: 'Forbidden: group of apiVersion cannot be changed from "infrastructure.cluster.x-k8s.io" to "infrastructure.example.com" to prevent incompatible changes in the Clusters',
      fix: `${'keep the previous API group and kind (switching provider or template kind needs a new ClusterClass and new Clusters)'}; ${'used by Cluster(s) "c1", "c2"'}`,
      clusters: 'c1,c2',
    });
    expectRule(rs, {
      ...CC,
      path: 'spec.workers.machinePools[0].infrastructure.templateRef.kind',
      capi: 'Forbidden: kind cannot be changed from "DevMachinePoolTemplate" to "AWSMachinePoolTemplate" to prevent incompatible changes in the Clusters',
      fix: `${'keep the previous API group and kind (switching provider or template kind needs a new ClusterClass and new Clusters)'}; ${'used by Cluster(s) "c2"'}`,
      clusters: 'c2',
    });
  });

  it('up-2 controlPlane.machineInfrastructure is neither added nor removed', () => {
    const rs = classUpdate((spec) => delete (spec.controlPlane as JsonObject).machineInfrastructure, [c1]);
    expectRule(rs, {
      ...CC,
      path: 'spec.controlPlane.machineInfrastructure.templateRef.kind',
      capi: 'Forbidden: kind cannot be changed from "DevMachineTemplate" to "" to prevent incompatible changes in the Clusters',
      fix: `${'keep the previous API group and kind (switching provider or template kind needs a new ClusterClass and new Clusters)'}; ${'used by Cluster(s) "c1"'}`,
      clusters: 'c1',
    });
  });

  it('up-3 MachineDeployment and MachinePool classes in use are not removed', () => {
    const rs = classUpdate(
      (spec) => {
        mdClasses(spec)[0]!.class = 'renamed';
        workers(spec).machinePools = [];
      },
      [c1, c2],
    );
    for (const cluster of ['c1', 'c2']) {
      expectRule(rs, {
        ...CC,
        path: 'spec.workers.machineDeployments',
        capi: `Forbidden: MachineDeploymentClass "default-worker" cannot be deleted because it is used by Cluster "${cluster}"`,
        fix: `keep the class until no Cluster uses it (move Cluster "${cluster}"'s machineDeployments of class "default-worker" to another class first)`,
        clusters: cluster,
      });
    }
    expectRule(rs, {
      ...CC,
      path: 'spec.workers.machinePools',
      capi: 'Forbidden: MachinePoolClass "default-pool" cannot be deleted because it is used by Cluster "c2"',
      fix: `keep the class until no Cluster uses it (move Cluster "c2"'s machinePools of class "default-pool" to another class first)`,
      clusters: 'c2',
    });
  });

  it('up-4 a class health check Clusters rely on is not removed', () => {
    const relies = clusterDoc(
      'c3',
      (spec) => ((workers(topology(spec)).machineDeployments as JsonObject[])[0]!.healthCheck = { enabled: true }),
    );
    const rs = classUpdate(
      () => {},
      [c1, relies],
      (spec) => (mdClasses(spec)[0]!.healthCheck = { checks: { nodeStartupTimeoutSeconds: 600 } }),
    );
    expectRule(rs, {
      ...CC,
      path: `${md0}.healthCheck`,
      capi: 'Forbidden: healthCheck cannot be deleted because it is used by Cluster(s) "c3"',
      fix: 'keep it, or give those Clusters their own healthCheck definition first',
      clusters: 'c3',
    });
  });

  it('up-5 a variable in use is not removed', () => {
    const rs = classUpdate(
      (spec) => (spec.variables = (spec.variables as JsonObject[]).filter((v) => v.name !== 'imageRepository')),
      [c1, c2],
    );
    expectRule(rs, {
      ...CC,
      path: 'spec.variables',
      capi: 'Forbidden: variable imageRepository can not be removed. It is used in Clusters [c2]',
      fix: 'keep the variable until those Clusters stop setting "imageRepository"',
      clusters: 'c2',
    });
  });

  it('up-6 a schema change keeps the values in use valid', () => {
    const rs = classUpdate(
      (spec) =>
        ((spec.variables as JsonObject[])[0] = {
          name: 'imageRepository',
          required: false,
          schema: { openAPIV3Schema: { type: 'string', maxLength: 10 } },
        }),
      [c1, c2],
    );
    expectRule(rs, {
      ...CC,
      path: 'spec.variables[0]',
      capi: 'Forbidden: variable schema change for imageRepository is invalid. It failed validation in Clusters [c2]',
      fix: 'make the schema accept the values in use or update those Clusters first (c2: spec.topology.variables[imageRepository].value: Too long: may not be more than 10 bytes)',
      clusters: 'c2',
    });
  });

  it('up-7 a newly required variable without default is set by every Cluster', () => {
    const rs = classUpdate(
      (spec) =>
        (spec.variables as JsonObject[]).push({
          name: 'region',
          required: true,
          schema: { openAPIV3Schema: { type: 'string' } },
        }),
      [c1, c2],
    );
    expectRule(rs, {
      ...CC,
      path: 'spec.variables[2]',
      capi: 'Forbidden: variable region is required but is not defined in Clusters [c1 c2]',
      fix: 'give the variable a default, or set it in those Clusters first',
      clusters: 'c1,c2',
    });
  });

  it('up-8 kubernetesVersions keep every version in use', () => {
    const rs = classUpdate((spec) => (spec.kubernetesVersions = ['v1.33.0']), [c1]);
    expectRule(rs, {
      ...CC,
      path: 'spec.kubernetesVersions',
      capi: 'Forbidden: Kubernetes Version v1.32.0 is used by Cluster "c1" but not set in ClusterClass',
      fix: 'add v1.32.0 to spec.kubernetesVersions, or move Cluster "c1" to a listed version first',
      clusters: 'c1',
    });
  });

  it('up-9 class autoscaler annotations are not added while a Cluster sets replicas', () => {
    const fixed = clusterDoc(
      'c4',
      (spec) => ((workers(topology(spec)).machineDeployments as JsonObject[])[0]!.replicas = 3),
    );
    const rs = classUpdate(
      (spec) =>
        (mdClasses(spec)[0]!.metadata = {
          annotations: { 'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size': '1' },
        }),
      [c1, fixed],
    );
    expectRule(rs, {
      ...CC,
      path: 'spec.topology.workers.machineDeployments[md-0].replicas',
      capi: 'Invalid value: 3: cannot be set for cluster "c4" in namespace "default" if the source class "default-worker" of this MachineDeploymentTopology has autoscaler annotations',
      fix: 'remove the autoscaler annotations from class "default-worker" or unset replicas in Cluster "c4"',
      clusters: 'c4',
    });
  });

  it('up-10 a Cluster changes class only to a compatible one', () => {
    const other = named(
      classDoc(
        (spec) => (((spec.controlPlane as JsonObject).templateRef as JsonObject).kind = 'OtherControlPlaneTemplate'),
      ),
      'other',
    );
    const moved = clusterDoc('c1', (spec) => ((topology(spec).classRef as JsonObject).name = 'other'));
    const rs = update([previousClass, other, c1], [previousClass, other, moved]);
    expectRule(rs, {
      ...C1,
      path: 'spec.topology.classRef',
      capi: 'Forbidden: kind cannot be changed from "KubeadmControlPlaneTemplate" to "OtherControlPlaneTemplate" to prevent incompatible changes in the Clusters',
      fix: 'spec.controlPlane.templateRef.kind differs between the previous ClusterClass "default/quick-start" and ClusterClass "default/other": keep class "default/quick-start", or move to a class whose templates have the same API groups and kinds',
    });
    // A compatible class is fine.
    const same = named(classDoc(), 'other');
    expect(update([previousClass, same, c1], [previousClass, same, moved])).toEqual([]);
  });

  it('up-11 a class in another namespace (classRef.namespace) is a class change too', () => {
    const elsewhere = named(
      classDoc((spec) => (((spec.infrastructure as JsonObject).templateRef as JsonObject).kind = 'AWSClusterTemplate')),
      'quick-start',
      'shared',
    );
    const moved = clusterDoc('c1', (spec) => ((topology(spec).classRef as JsonObject).namespace = 'shared'));
    const rs = update([previousClass, elsewhere, c1], [previousClass, elsewhere, moved]);
    expectRule(rs, {
      ...C1,
      path: 'spec.topology.classRef',
      capi: 'Forbidden: kind cannot be changed from "DevClusterTemplate" to "AWSClusterTemplate" to prevent incompatible changes in the Clusters',
      fix: 'spec.infrastructure.templateRef.kind differs between the previous ClusterClass "default/quick-start" and ClusterClass "shared/quick-start": keep class "default/quick-start", or move to a class whose templates have the same API groups and kinds',
    });
  });

  it('up-12 a class change needs the previous class (a warning offline)', () => {
    const other = named(classDoc(), 'other');
    const moved = clusterDoc('c1', (spec) => ((topology(spec).classRef as JsonObject).name = 'other'));
    const rs = update([c1], [other, moved]);
    expectRule(rs, {
      ...C1,
      severity: 'warning',
      path: 'spec.topology.classRef',
      capi: 'valid ClusterClass with name "default/quick-start" could not be retrieved, change from class "default/quick-start" to class "default/other" cannot be validated',
      fix: 'add the previous ClusterClass to the previous state so the change can be checked',
    });
  });

  const versioned = (version: string, annotations?: Record<string, string>) =>
    clusterDoc('c1', (spec, meta) => {
      topology(spec).version = version;
      if (annotations) meta.annotations = annotations;
    });

  it('up-13 the version is not decreased', () => {
    const rs = update([previousClass, versioned('v1.33.2')], [previousClass, versioned('v1.32.9')]);
    expectRule(rs, {
      ...C1,
      path: 'spec.topology.version',
      capi: 'Invalid value: "v1.32.9": version cannot be decreased from "1.33.2" to "1.32.9"',
      fix: 'Kubernetes cannot be downgraded: restore version v1.33.2 (or later)',
    });
  });

  it('up-14 the version goes up at most one minor when the class lists no kubernetesVersions', () => {
    const rs = update([previousClass, versioned('v1.31.0')], [previousClass, versioned('v1.33.0')]);
    expectRule(rs, {
      ...C1,
      path: 'spec.topology.version',
      capi: 'Invalid value: "v1.33.0": version cannot be increased from "1.31.0" to "1.33.0"',
      fix: 'upgrade one minor version at a time (to v1.32.x first), or list the versions in the ClusterClass spec.kubernetesVersions',
    });
  });

  it('up-15 the unsafe annotation skips the version checks, with a warning', () => {
    const unsafe = { 'unsafe.topology.cluster.x-k8s.io/disable-update-version-check': '' };
    const rs = update([previousClass, versioned('v1.33.0')], [previousClass, versioned('v1.30.0', unsafe)]);
    expect(rs.map((r) => [r.severity, r.resourceRef?.kind, r.resourceRef?.name, r.field?.path, r.message])).toEqual([
      [
        'warning',
        'Cluster',
        'c1',
        'spec.topology.version',
        'Skipping version validation for Cluster because annotation "unsafe.topology.cluster.x-k8s.io/disable-update-version-check" is set.',
      ],
    ]);
  });
});

describe('fix hints', () => {
  it('are short imperative phrases that follow CAPI text after "; "', () => {
    // The parameterised ones are checked with their rules above.
    const fixed = Object.entries(FIX).flatMap(([key, fix]) => (typeof fix === 'string' ? [[key, fix] as const] : []));
    expect(fixed.length).toBeGreaterThan(40);
    for (const [key, text] of fixed) {
      expect(text, key).toMatch(/^[a-z]/);
      expect(text, key).not.toMatch(/[.;]$/);
      expect(text.length, key).toBeLessThanOrEqual(200);
    }
  });
});
