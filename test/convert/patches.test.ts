/**
 * Patch rewriting for converted kubeadm templates. Expected operations follow from CAPI, not from
 * running the converter: the v1beta2 list is sorted by name (ConvertToArgs,
 * api/bootstrap/kubeadm/v1beta2/conversion.go) and a ClusterClass patch may address list items
 * only as `add …/0` or `…/-` (validateIndexAccess, core/webhooks/admission/patch_validation.go).
 * Every convertible case is also proven by rendering before and after (exit code 0).
 */
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import type { JsonObject } from '../../src/core/model.js';
import { convertSources } from '../../src/convert/index.js';

const KCPT = 'controlplane.cluster.x-k8s.io/v1beta1';
const KCT = 'bootstrap.cluster.x-k8s.io/v1beta1';
const cp = (jsonPatches: JsonObject[], extra: JsonObject = {}): JsonObject => ({
  name: 'p',
  ...extra,
  definitions: [
    {
      selector: { apiVersion: KCPT, kind: 'KubeadmControlPlaneTemplate', matchResources: { controlPlane: true } },
      jsonPatches,
    },
  ],
});
const API = '/spec/template/spec/kubeadmConfigSpec/clusterConfiguration/apiServer/extraArgs';

interface Setup {
  patches: JsonObject[];
  /** The KubeadmControlPlaneTemplate's kubeadmConfigSpec. */
  kubeadm?: JsonObject;
  /** Worker bootstrap templates (name → spec); one MachineDeployment class each. */
  workers?: Record<string, JsonObject>;
  variables?: { name: string; value: string }[];
}

function estate(s: Setup): string {
  const workers = Object.keys(s.workers ?? {});
  const docs: JsonObject[] = [
    {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'ClusterClass',
      metadata: { name: 'cc', namespace: 'default' },
      spec: {
        controlPlane: { ref: { apiVersion: KCPT, kind: 'KubeadmControlPlaneTemplate', name: 'cp' } },
        infrastructure: {
          ref: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'DockerClusterTemplate', name: 'dc' },
        },
        workers: {
          machineDeployments: workers.map((w) => ({
            class: w,
            template: {
              bootstrap: { ref: { apiVersion: KCT, kind: 'KubeadmConfigTemplate', name: w } },
              infrastructure: {
                ref: {
                  apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
                  kind: 'DockerMachineTemplate',
                  name: 'dm',
                },
              },
            },
          })),
        },
        variables: (s.variables ?? []).map((v) => ({
          name: v.name,
          required: false,
          schema: { openAPIV3Schema: { type: 'string' } },
        })),
        patches: s.patches,
      },
    },
    {
      apiVersion: KCPT,
      kind: 'KubeadmControlPlaneTemplate',
      metadata: { name: 'cp', namespace: 'default' },
      spec: { template: { spec: { kubeadmConfigSpec: s.kubeadm ?? {} } } },
    },
    ...workers.map((w) => ({
      apiVersion: KCT,
      kind: 'KubeadmConfigTemplate',
      metadata: { name: w, namespace: 'default' },
      spec: { template: { spec: s.workers![w]! } },
    })),
    {
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
      kind: 'DockerClusterTemplate',
      metadata: { name: 'dc', namespace: 'default' },
      spec: { template: { spec: {} } },
    },
    {
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
      kind: 'DockerMachineTemplate',
      metadata: { name: 'dm', namespace: 'default' },
      spec: { template: { spec: {} } },
    },
    {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'Cluster',
      metadata: { name: 'c1', namespace: 'default' },
      spec: {
        topology: {
          class: 'cc',
          version: 'v1.33.0',
          controlPlane: { replicas: 1 },
          workers: { machineDeployments: workers.map((w) => ({ class: w, name: w, replicas: 1 })) },
          variables: s.variables ?? [],
        },
      },
    },
  ];
  return docs.map((d) => YAML.stringify(d)).join('---\n');
}

function convert(s: Setup) {
  const outcome = convertSources([{ path: 'estate.yaml', text: estate(s) }]);
  const docs = YAML.parseAllDocuments(outcome.files[0]!.after).map((d) => d.toJS() as JsonObject);
  const cls = docs.find((d) => d.kind === 'ClusterClass')!;
  const patches = (cls.spec as JsonObject).patches as JsonObject[];
  const ops = (i: number) => (patches[i]!.definitions as JsonObject[])[0]!.jsonPatches as JsonObject[];
  const messages = outcome.results
    .filter((r) => r.severity !== 'info' || r.tags?.rule === 'convert')
    .map((r) => `${r.severity} ${r.field?.path ?? ''}: ${r.message}`);
  const kcpt = docs.find((d) => d.kind === 'KubeadmControlPlaneTemplate')!;
  return { outcome, ops, messages, kcpt, cls };
}

describe('extraArgs patches', () => {
  const base = { 'audit-log-path': '/log', 'enable-admission-plugins': 'NodeRestriction' };

  it('a new argument that sorts last, from a literal: append with "-"', () => {
    const r = convert({
      kubeadm: { clusterConfiguration: { apiServer: { extraArgs: base } } },
      patches: [cp([{ op: 'add', path: `${API}/v`, value: '4' }])],
    });
    expect(r.ops(0)).toEqual([{ op: 'add', path: `${API}/-`, value: { name: 'v', value: '4' } }]);
    expect(r.outcome.code).toBe(0);
  });

  it('a new argument that sorts first, from a variable: prepend at 0, then its value (valueFrom kept)', () => {
    const r = convert({
      kubeadm: { clusterConfiguration: { apiServer: { extraArgs: base } } },
      variables: [{ name: 'maxAge', value: '30' }],
      patches: [cp([{ op: 'add', path: `${API}/audit-log-maxage`, valueFrom: { variable: 'maxAge' } }])],
    });
    expect(r.ops(0)).toEqual([
      { op: 'add', path: `${API}/0`, value: { name: 'audit-log-maxage' } },
      { op: 'add', path: `${API}/0/value`, valueFrom: { variable: 'maxAge' } },
    ]);
    expect(r.outcome.code).toBe(0);
  });

  it('a new argument in the middle, from a variable: the list is written whole, in order', () => {
    const r = convert({
      kubeadm: { clusterConfiguration: { apiServer: { extraArgs: base } } },
      variables: [{ name: 'b', value: 'x' }],
      patches: [cp([{ op: 'add', path: `${API}/b-middle`, valueFrom: { variable: 'b' } }])],
    });
    expect(r.ops(0)).toEqual([
      { op: 'add', path: API, value: [{ name: 'enable-admission-plugins', value: 'NodeRestriction' }] },
      { op: 'add', path: `${API}/0`, value: { name: 'b-middle' } },
      { op: 'add', path: `${API}/0/value`, valueFrom: { variable: 'b' } },
      { op: 'add', path: `${API}/0`, value: { name: 'audit-log-path', value: '/log' } },
    ]);
    expect(r.messages.join('\n')).toMatch(/list items only as add …\/0 or …\/-, so the list is written whole/);
    expect(r.outcome.code).toBe(0);
  });

  it('setting or removing an existing argument with literals: the whole list at once', () => {
    const set = convert({
      kubeadm: { clusterConfiguration: { apiServer: { extraArgs: base } } },
      patches: [cp([{ op: 'replace', path: `${API}/audit-log-path`, value: '/other' }])],
    });
    expect(set.ops(0)).toEqual([
      {
        op: 'add',
        path: API,
        value: [
          { name: 'audit-log-path', value: '/other' },
          { name: 'enable-admission-plugins', value: 'NodeRestriction' },
        ],
      },
    ]);
    expect(set.outcome.code).toBe(0);
    const remove = convert({
      kubeadm: { clusterConfiguration: { apiServer: { extraArgs: base } } },
      patches: [cp([{ op: 'remove', path: `${API}/audit-log-path` }])],
    });
    expect(remove.ops(0)).toEqual([
      { op: 'add', path: API, value: [{ name: 'enable-admission-plugins', value: 'NodeRestriction' }] },
    ]);
    expect(remove.outcome.code).toBe(0);
    // The last argument removed: an empty list is not stored (ConvertToArgs of an empty map), so the field goes.
    const last = convert({
      kubeadm: { clusterConfiguration: { apiServer: { extraArgs: { only: '1' }, certSANs: ['a'] } } },
      patches: [cp([{ op: 'remove', path: `${API}/only` }])],
    });
    expect(last.ops(0)).toEqual([{ op: 'remove', path: API }]);
    expect(last.outcome.code).toBe(0);
  });

  it('a whole map: a literal becomes the sorted list; a template without control structures is rewritten to write the list', () => {
    const literal = convert({
      kubeadm: { clusterConfiguration: { certificatesDir: '/c' } },
      patches: [
        cp([
          {
            op: 'add',
            path: '/spec/template/spec/kubeadmConfigSpec/clusterConfiguration/apiServer',
            value: { extraArgs: { z: '1', a: '2' } },
          },
        ]),
      ],
    });
    expect(literal.ops(0)).toEqual([
      {
        op: 'add',
        path: '/spec/template/spec/kubeadmConfigSpec/clusterConfiguration/apiServer',
        value: {
          extraArgs: [
            { name: 'a', value: '2' },
            { name: 'z', value: '1' },
          ],
        },
      },
    ]);
    expect(literal.outcome.code).toBe(0);
    const template = convert({
      kubeadm: { clusterConfiguration: { apiServer: { extraArgs: {} } } },
      variables: [{ name: 'gates', value: 'A=true' }],
      patches: [
        cp([{ op: 'add', path: API, valueFrom: { template: 'feature-gates: "{{ .gates }}"\nprofiling: "false"\n' } }]),
      ],
    });
    // The template's `apiServer: {extraArgs: {}}` converts to nothing (an empty list and then empty
    // structs are not stored), so the patch now adds the clusterConfiguration it writes into.
    expect(template.ops(0)).toEqual([
      {
        op: 'add',
        path: '/spec/template/spec/kubeadmConfigSpec/clusterConfiguration',
        valueFrom: {
          template:
            'apiServer:\n  extraArgs:\n  - name: feature-gates\n    value: "{{ .gates }}"\n  - name: profiling\n    value: "false"\n',
        },
      },
    ]);
    expect(template.outcome.code).toBe(0);
  });

  it('a map built by a template at render time cannot be converted: reported with a rewrite, the template stays v1beta1', () => {
    const r = convert({
      kubeadm: { clusterConfiguration: { apiServer: { certSANs: ['a'] } } },
      variables: [{ name: 'args', value: 'x' }],
      patches: [
        cp([
          { op: 'add', path: API, valueFrom: { template: '{{ range $k, $v := .args }}{{ $k }}: {{ $v }}\n{{ end }}' } },
        ]),
      ],
    });
    expect(r.outcome.code).toBe(1);
    expect(r.messages).toContainEqual(
      expect.stringMatching(
        /^error spec\.patches\[0\]\.definitions\[0\]\.jsonPatches\[0\]: patch "p" definition 0 operation 0 \(add \/spec\/template\/spec\/kubeadmConfigSpec\/clusterConfiguration\/apiServer\/extraArgs\) on the control plane template cannot be converted: spec\.template\.spec\.kubeadmConfigSpec\.clusterConfiguration\.apiServer\.extraArgs becomes a list of \{name, value\} in v1beta2, but its value comes from a valueFrom\.template .*because its action \{\{ range \$k, \$v := \.args \}\} decides the structure when it runs\. Suggested rewrite: write the v1beta2 list instead/,
      ),
    );
    expect(r.messages).toContainEqual(
      expect.stringMatching(
        /^error apiVersion: stays controlplane\.cluster\.x-k8s\.io\/v1beta1: a patch on it cannot be rewritten/,
      ),
    );
    expect(r.kcpt.apiVersion).toBe(KCPT);
    expect(((r.cls.spec as JsonObject).controlPlane as JsonObject).templateRef).toMatchObject({ apiVersion: KCPT });
    // What did convert still renders the same.
    expect(r.outcome.proof?.equivalent).toBe(true);
  });

  it('a whole map from a variable cannot be converted', () => {
    const r = convert({
      kubeadm: { clusterConfiguration: { apiServer: { certSANs: ['a'] } } },
      variables: [{ name: 'args', value: 'x' }],
      patches: [cp([{ op: 'add', path: API, valueFrom: { variable: 'args' } }])],
    });
    expect(r.messages.join('\n')).toMatch(
      /becomes a list of \{name, value\} in v1beta2, but its value comes from variable "args"/,
    );
    expect(r.outcome.code).toBe(1);
  });

  it('an argument list an earlier conditional patch may have changed cannot be addressed', () => {
    const r = convert({
      kubeadm: { clusterConfiguration: { apiServer: { extraArgs: base } } },
      variables: [{ name: 'on', value: 'true' }],
      patches: [
        cp([{ op: 'add', path: `${API}/x`, value: '1' }], { name: 'first', enabledIf: '{{ .on }}' }),
        cp([{ op: 'add', path: `${API}/y`, value: '2' }], { name: 'second' }),
      ],
    });
    expect(r.messages.join('\n')).toMatch(
      /patch "second" definition 0 operation 0 .* cannot be converted: .* may be changed by patch "first" \(enabledIf "\{\{ \.on \}\}"\)/,
    );
    expect(r.outcome.code).toBe(1);
  });

  it('kubelet arguments of worker templates: one definition, two templates, two different rewrites: split the definition', () => {
    const r = convert({
      workers: {
        a: { joinConfiguration: { nodeRegistration: { kubeletExtraArgs: { x: '1' } } } },
        b: { joinConfiguration: { nodeRegistration: { kubeletExtraArgs: { z: '1' } } } },
      },
      patches: [
        {
          name: 'kubelet',
          definitions: [
            {
              selector: {
                apiVersion: KCT,
                kind: 'KubeadmConfigTemplate',
                matchResources: { machineDeploymentClass: { names: ['a', 'b'] } },
              },
              jsonPatches: [
                {
                  op: 'add',
                  path: '/spec/template/spec/joinConfiguration/nodeRegistration/kubeletExtraArgs/y',
                  value: '2',
                },
              ],
            },
          ],
        },
      ],
    });
    expect(r.messages.join('\n')).toMatch(
      /must be rewritten differently for each template it selects \(MachineDeployment class "a" bootstrap template: add \S+\/kubeletExtraArgs\/-; MachineDeployment class "b" bootstrap template: add \S+\/kubeletExtraArgs\/0\): split the definition per template/,
    );
    expect(r.outcome.code).toBe(1);
  });
});

describe('other fields whose shape changed', () => {
  it('timeoutForControlPlane: a literal moves to both timeouts; from a variable it cannot be converted', () => {
    const literal = convert({
      kubeadm: { initConfiguration: { nodeRegistration: { name: 'n' } } },
      patches: [
        cp([
          {
            op: 'add',
            path: '/spec/template/spec/kubeadmConfigSpec/clusterConfiguration',
            value: { apiServer: { timeoutForControlPlane: '4m' } },
          },
        ]),
      ],
    });
    expect(literal.ops(0)).toEqual([
      {
        op: 'add',
        path: '/spec/template/spec/kubeadmConfigSpec/initConfiguration/timeouts',
        value: { controlPlaneComponentHealthCheckSeconds: 240 },
      },
      {
        op: 'add',
        path: '/spec/template/spec/kubeadmConfigSpec/joinConfiguration',
        value: { timeouts: { controlPlaneComponentHealthCheckSeconds: 240 } },
      },
    ]);
    expect(literal.outcome.code).toBe(0);
    const variable = convert({
      kubeadm: { clusterConfiguration: { apiServer: { certSANs: ['a'] } } },
      variables: [{ name: 't', value: '4m' }],
      patches: [
        cp([
          {
            op: 'add',
            path: '/spec/template/spec/kubeadmConfigSpec/clusterConfiguration/apiServer/timeoutForControlPlane',
            valueFrom: { variable: 't' },
          },
        ]),
      ],
    });
    expect(variable.messages.join('\n')).toMatch(
      /timeoutForControlPlane becomes whole seconds in v1beta2, but its value comes from variable "t".*Suggested rewrite: v1beta2 takes whole seconds here/,
    );
  });

  it('renamed fields get the new path; operations no rule touches stay as written', () => {
    const r = convert({
      kubeadm: { files: [{ path: '/a', content: 'a' }] },
      patches: [
        {
          name: 'p',
          definitions: [
            {
              selector: {
                apiVersion: KCPT,
                kind: 'KubeadmControlPlaneTemplate',
                matchResources: { controlPlane: true },
              },
              jsonPatches: [
                { op: 'add', path: '/spec/template/spec/rolloutStrategy', value: { rollingUpdate: { maxSurge: 0 } } },
                {
                  op: 'add',
                  path: '/spec/template/spec/kubeadmConfigSpec/files/-',
                  value: { path: '/b', content: 'b' },
                },
              ],
            },
          ],
        },
      ],
    });
    expect(r.ops(0)).toEqual([
      // KubeadmControlPlaneTemplate conversion defaults the type (…TemplateResourceSpec_To_v1beta2…).
      {
        op: 'add',
        path: '/spec/template/spec/rollout',
        value: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0 } } },
      },
      { op: 'add', path: '/spec/template/spec/kubeadmConfigSpec/files/-', value: { path: '/b', content: 'b' } },
    ]);
    expect(r.outcome.code).toBe(0);
  });

  it('reads of the v1beta1 builtin spellings are reported with their v1beta2 names', () => {
    const r = convert({
      kubeadm: {},
      patches: [
        cp(
          [
            {
              op: 'add',
              path: '/spec/template/spec/kubeadmConfigSpec/preKubeadmCommands',
              valueFrom: { template: '- echo {{ .builtin.cluster.topology.classNamespace }}' },
            },
          ],
          { enabledIf: '{{ eq .builtin.cluster.topology.class "cc" }}' },
        ),
      ],
    });
    expect(r.messages).toContain(
      'warning spec.patches[0].enabledIf: reads builtin.cluster.topology.class, the v1beta1 spelling kept as a deprecated alias; use builtin.cluster.topology.classRef.name',
    );
    expect(r.messages).toContain(
      'warning spec.patches[0].definitions[0].jsonPatches[0].valueFrom.template: reads builtin.cluster.topology.classNamespace, the v1beta1 spelling kept as a deprecated alias; use builtin.cluster.topology.classRef.namespace',
    );
    expect(r.outcome.code).toBe(0);
  });
});
