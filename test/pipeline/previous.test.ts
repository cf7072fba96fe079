/**
 * Previous state inside a package (KRM function mode): items marked
 * `render-clusterclass.dev/previous: "true"` are the inputs as they were; the webhooks' update
 * rules run between them and the current inputs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { runFunction } from '../../src/cli/render.js';
import { fakeIO } from '../helpers/io.js';

const classText = readFileSync(join(import.meta.dirname, '..', 'golden', 'plan', 'clusterclass.yaml'), 'utf8');
const cluster = (version: string) => ({
  apiVersion: 'cluster.x-k8s.io/v1beta2',
  kind: 'Cluster',
  metadata: { name: 'c1', namespace: 'fleet' },
  spec: {
    topology: {
      classRef: { name: 'fleet' },
      version,
      workers: { machineDeployments: [{ class: 'general', name: 'md-0' }] },
    },
  },
});
const mark = (o: Record<string, unknown>) => {
  const copy = structuredClone(o) as { metadata: { annotations?: Record<string, string> } };
  copy.metadata.annotations = {
    ...copy.metadata.annotations,
    'render-clusterclass.dev/previous': 'true',
    'config.kubernetes.io/local-config': 'true',
  };
  return copy;
};

// The same with the ResourceList sent as JSON (issue #13): the answer is the same YAML.
describe.each(['yaml', 'json'])('previous state in the package (%s in)', (format) => {
  const resourceList = (items: unknown[]) => {
    const list = { apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items };
    return format === 'json' ? JSON.stringify(list) : YAML.stringify(list);
  };

  it('reports a version downgrade against the previous Cluster, and keeps the previous items untouched', async () => {
    const classDocs = YAML.parseAllDocuments(classText).map((d) => d.toJS());
    const items = [...classDocs, cluster('v1.32.0'), mark(cluster('v1.33.0'))];
    const io = fakeIO(resourceList(items));
    expect(await runFunction(io)).toBe(1);
    const out = YAML.parse(io.out);
    const downgrade = out.results.find((r: { message: string }) => r.message.includes('version cannot be decreased'));
    expect(downgrade).toMatchObject({
      severity: 'error',
      resourceRef: { kind: 'Cluster', name: 'c1' },
      field: { path: 'spec.topology.version' },
    });
    const kept = out.items.filter(
      (i: { metadata: { annotations?: Record<string, string> } }) =>
        i.metadata.annotations?.['render-clusterclass.dev/previous'] === 'true',
    );
    expect(kept).toHaveLength(1);
  });

  it('passes when the change is allowed', async () => {
    const classDocs = YAML.parseAllDocuments(classText).map((d) => d.toJS());
    const io = fakeIO(resourceList([...classDocs, cluster('v1.33.1'), mark(cluster('v1.33.0'))]));
    expect(await runFunction(io)).toBe(0);
  });
});
