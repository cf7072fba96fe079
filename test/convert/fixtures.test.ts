/**
 * Acceptance on the real-world fixtures (../shared/fixtures/real-world): every v1beta1 ClusterClass
 * converts and proves equivalent. Expectations come from the fixtures and their README (which
 * Cluster fails and why) and from CAPI (ConvertToArgs sorts arguments by name; patches may reach
 * list items only as `add …/0` or `…/-`), not from running the converter.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import type { JsonObject } from '../../src/core/model.js';
import { DEFAULT_CONFIG } from '../../src/krm/config.js';
import { readResourceList, readYamlStream } from '../../src/krm/read.js';
import { runPipeline } from '../../src/pipeline/run.js';
import { convertResourceList, convertSources } from '../../src/convert/index.js';
import { PARSE_OPTIONS } from '../../src/convert/yamltree.js';
import { FIXTURE_DIR, fixtureMissing } from '../realworld/helpers.js';

/** The v1beta1 classes of the fixture set, with their Clusters and what the README says of them. */
const FIXTURES: { file: string; clusters: Record<string, 'equivalent' | 'fails-both'> }[] = [
  {
    file: 'byoh-quickstart-v1beta1.yaml',
    clusters: { 'default/byoh-1': 'equivalent', 'default/byoh-defaults': 'equivalent' },
  },
  {
    file: 'capa-simple-clusterclass-v1beta1.yaml',
    clusters: { 'default/capa-simple-1': 'equivalent', 'default/capa-simple-2': 'equivalent' },
  },
  {
    file: 'capz-aks-aso-clusterclass-v1beta1.yaml',
    clusters: { 'default/capz-aso': 'equivalent', 'default/capz-aso-2': 'equivalent' },
  },
  { file: 'capz-aks-clusterclass-v1beta1.yaml', clusters: { 'default/capz-aks': 'equivalent' } },
  // README: "Unset optional variables read by valueFrom.variable fail the Cluster … capz-ci-win".
  {
    file: 'capz-ci-default-v1beta1.yaml',
    clusters: { 'default/capz-ci': 'equivalent', 'default/capz-ci-win': 'fails-both' },
  },
  { file: 'k3s-docker-v1beta1.yaml', clusters: { 'default/k3s-mp': 'equivalent', 'default/k3s-topo': 'equivalent' } },
];

const CONVERTED_KINDS = ['ClusterClass', 'Cluster', 'KubeadmConfigTemplate', 'KubeadmControlPlaneTemplate'];
const docsOf = (text: string) =>
  YAML.parseAllDocuments(text, PARSE_OPTIONS)
    .map((d) => d.toJS() as JsonObject)
    .filter(Boolean);

describe.skipIf(FIXTURES.some((f) => fixtureMissing(f.file)))(
  'real-world v1beta1 fixtures convert and prove equivalent',
  () => {
    it.each(FIXTURES)('$file', ({ file, clusters }) => {
      const text = readFileSync(join(FIXTURE_DIR, file), 'utf8');
      const outcome = convertSources([{ path: file, text }]);
      expect(outcome.results.filter((r) => r.severity === 'error')).toEqual([]);
      expect(outcome.code).toBe(0);
      expect(Object.fromEntries(outcome.proof!.clusters.map((c) => [c.cluster, c.verdict]))).toEqual(clusters);
      // Nothing v1beta1 of the converted kinds is left.
      const left = docsOf(outcome.files[0]!.after).filter(
        (d) => CONVERTED_KINDS.includes(d.kind as string) && String(d.apiVersion).endsWith('/v1beta1'),
      );
      expect(left.map((d) => `${d.kind}/${(d.metadata as JsonObject).name}`)).toEqual([]);
      // Converting the converted file again changes nothing (`--in-place` twice is a no-op).
      expect(convertSources([{ path: file, text: outcome.files[0]!.after }]).files[0]!.after).toBe(
        outcome.files[0]!.after,
      );
    });

    it.each(FIXTURES)('$file: the KRM function converts to the same objects as the CLI', ({ file }) => {
      const text = readFileSync(join(FIXTURE_DIR, file), 'utf8');
      const cli = docsOf(convertSources([{ path: file, text }]).files[0]!.after);
      const read = readYamlStream(text, file);
      if (!read.ok) throw new Error(read.message);
      const list = readResourceList(
        YAML.stringify({
          apiVersion: 'config.kubernetes.io/v1',
          kind: 'ResourceList',
          items: read.items.map((i) => i.value),
        }),
      );
      if (!list.ok) throw new Error(list.message);
      const krm = convertResourceList(list.input.doc!, list.input.items, DEFAULT_CONFIG);
      expect(krm.code).toBe(0);
      const items = (YAML.parse(krm.text, PARSE_OPTIONS) as JsonObject).items as JsonObject[];
      expect(items).toEqual(cli);
    });
  },
);

describe.skipIf(fixtureMissing('capz-ci-default-v1beta1.yaml'))(
  'capz-ci-default-v1beta1: kubeadm extraArgs patches',
  () => {
    const text = () => readFileSync(join(FIXTURE_DIR, 'capz-ci-default-v1beta1.yaml'), 'utf8');
    const CM = '/spec/template/spec/kubeadmConfigSpec/clusterConfiguration/controllerManager/extraArgs';

    it('are rewritten to CAPI-valid operations on the argument list, in ConvertToArgs order', () => {
      const out = docsOf(convertSources([{ path: 'f.yaml', text: text() }]).files[0]!.after);
      const cls = out.find((d) => d.kind === 'ClusterClass')!;
      const patch = (name: string) => ((cls.spec as JsonObject).patches as JsonObject[]).find((p) => p.name === name)!;
      const ops = (name: string) => (patch(name).definitions as JsonObject[])[0]!.jsonPatches as JsonObject[];
      // The template's map {allocate-node-cidrs, cloud-provider, cluster-name} becomes that sorted list;
      // cluster-name is its last entry, so setting it means writing the list again.
      expect(ops('controlPlaneAzureJsonSecretName')[0]).toEqual({
        op: 'add',
        path: CM,
        value: [{ name: 'cluster-name' }],
      });
      expect(ops('controlPlaneAzureJsonSecretName').slice(1, 4)).toEqual([
        { op: 'add', path: `${CM}/0/value`, valueFrom: { variable: 'builtin.cluster.name' } },
        { op: 'add', path: `${CM}/0`, value: { name: 'cloud-provider', value: 'external' } },
        { op: 'add', path: `${CM}/0`, value: { name: 'allocate-node-cidrs', value: 'false' } },
      ]);
      // `v` sorts after cluster-name, whose value comes from the earlier patch's variable.
      expect(ops('logLevel')).toEqual([
        { op: 'add', path: CM, value: [{ name: 'v' }] },
        { op: 'add', path: `${CM}/0/value`, valueFrom: { variable: 'logLevel' } },
        { op: 'add', path: `${CM}/0`, value: { name: 'cluster-name' } },
        { op: 'add', path: `${CM}/0/value`, valueFrom: { variable: 'builtin.cluster.name' } },
        { op: 'add', path: `${CM}/0`, value: { name: 'cloud-provider', value: 'external' } },
        { op: 'add', path: `${CM}/0`, value: { name: 'allocate-node-cidrs', value: 'false' } },
      ]);
      // The feature-gates map template becomes a list template; the emptied apiServer is added back with it.
      expect(ops('k8sFeatureGates')).toEqual([
        {
          op: 'add',
          path: '/spec/template/spec/kubeadmConfigSpec/clusterConfiguration/apiServer',
          valueFrom: { template: 'extraArgs:\n- name: feature-gates\n  value: {{ .k8sFeatureGates }}\n' },
        },
      ]);
      for (const p of (cls.spec as JsonObject).patches as JsonObject[]) {
        for (const d of p.definitions as JsonObject[]) {
          for (const op of d.jsonPatches as JsonObject[]) {
            // validateIndexAccess: a list index only as `add` of 0.
            for (const seg of String(op.path).split('/'))
              if (/^\d+$/.test(seg)) expect([op.op, seg]).toEqual(['add', '0']);
          }
        }
      }
    });

    it('render the control plane arguments identically to the original', () => {
      const before = readYamlStream(text(), 'f.yaml');
      const after = readYamlStream(convertSources([{ path: 'f.yaml', text: text() }]).files[0]!.after, 'f.yaml');
      if (!before.ok || !after.ok) throw new Error('unreadable');
      const kcp = (items: typeof before.items) => {
        const out = runPipeline(items, { ...DEFAULT_CONFIG, mode: 'preview' });
        return out.generated
          .find((g) => g.cluster === 'default/capz-ci')!
          .objects.find((o) => o.kind === 'KubeadmControlPlane')!;
      };
      const original = kcp(before.items);
      const converted = kcp(after.items);
      const cc = (o: JsonObject) =>
        ((o.spec as JsonObject).kubeadmConfigSpec as JsonObject).clusterConfiguration as JsonObject;
      // The fixture: template args, cluster-name from builtin.cluster.name (capz-ci), v from logLevel "4".
      expect(original.apiVersion).toBe('controlplane.cluster.x-k8s.io/v1beta1');
      expect((cc(original).controllerManager as JsonObject).extraArgs).toEqual({
        'allocate-node-cidrs': 'false',
        'cloud-provider': 'external',
        'cluster-name': 'capz-ci',
        v: '4',
      });
      expect(converted.apiVersion).toBe('controlplane.cluster.x-k8s.io/v1beta2');
      expect((cc(converted).controllerManager as JsonObject).extraArgs).toEqual([
        { name: 'allocate-node-cidrs', value: 'false' },
        { name: 'cloud-provider', value: 'external' },
        { name: 'cluster-name', value: 'capz-ci' },
        { name: 'v', value: '4' },
      ]);
      // timeoutForControlPlane: 20m in the template.
      const spec = (converted.spec as JsonObject).kubeadmConfigSpec as JsonObject;
      expect((spec.initConfiguration as JsonObject).timeouts).toEqual({
        controlPlaneComponentHealthCheckSeconds: 1200,
      });
      expect((spec.joinConfiguration as JsonObject).timeouts).toEqual({
        controlPlaneComponentHealthCheckSeconds: 1200,
      });
    });
  },
);
