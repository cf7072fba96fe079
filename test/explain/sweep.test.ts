/**
 * Every Cluster of every real-world fixture (../shared) and of the golden inputs: the replay
 * reproduces the rendered objects, no field is unattributed, and every Cluster/ClusterClass/
 * template attribution points at a field that exists in that input document (with the same
 * value unless the source notes a conversion).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Json, JsonObject } from '../../src/core/model.js';
import { canonicalJson } from '../../src/core/json.js';
import { explainCluster } from '../../src/cli/explain-cluster.js';
import { getAt, parsePath } from '../../src/provenance/paths.js';
import { hasTopology } from '../../src/api/normalize.js';
import { config, readItems, repoRoot, sharedFixtures } from './helpers.js';
import type { InputItem } from '../../src/krm/item.js';

const goldenDir = join(repoRoot, 'test', 'golden', 'render');
const inputs = [
  ...(existsSync(sharedFixtures)
    ? readdirSync(sharedFixtures)
        .filter((f) => f.endsWith('.yaml'))
        .map((f) => join(sharedFixtures, f))
    : []),
  ...readdirSync(goldenDir)
    .map((d) => join(goldenDir, d, 'input.yaml'))
    .filter((f) => existsSync(f)),
];

function clustersOf(items: InputItem[]): { key: string; doc: JsonObject }[] {
  return items
    .filter((i) => i.ref?.kind === 'Cluster' && hasTopology(i.value))
    .map((i) => ({ key: `${i.ref!.namespace ?? 'default'}/${i.ref!.name}`, doc: i.value }));
}

describe('explain sweep over real-world and golden inputs', () => {
  for (const file of inputs) {
    it(file.replace(`${repoRoot}/`, '').replace(/^.*\/shared\//, 'shared/'), () => {
      const items = readItems(file);
      let explained = 0;
      for (const { key, doc } of clustersOf(items)) {
        const r = explainCluster(items, config({ skipExternalPatches: true }), key);
        if (r.objects.length === 0) continue; // a fixture Cluster that is meant to fail validation
        explained++;
        expect(
          r.results.filter((x) => x.tags?.rule === 'explain-replay'),
          key,
        ).toEqual([]);
        const classDoc = items.find(
          (i) =>
            i.ref?.kind === 'ClusterClass' &&
            i.ref.name === r.clusterClass!.name &&
            (i.ref.namespace ?? 'default') === r.clusterClass!.namespace,
        )!.value;
        for (const o of r.objects) {
          for (const f of o.fields) {
            const where = `${key} ${o.ref.kind}/${o.ref.name} ${f.path}`;
            expect(f.source.kind, where).not.toBe('unknown');
            const s = f.source;
            if (s.kind !== 'topology' && s.kind !== 'clusterClass') continue;
            const target: JsonObject = s.kind === 'topology' ? doc : classDoc;
            const segs = parsePath(s.path);
            expect(segs, where).toBeDefined();
            const actual: Json | undefined = getAt(target, segs!);
            expect(actual, `${where} ← ${s.kind} ${s.path}`).not.toBeUndefined();
            if (!s.note) expect(canonicalJson(actual!), `${where} ← ${s.kind} ${s.path}`).toBe(canonicalJson(f.value));
          }
        }
      }
      expect(explained).toBeGreaterThan(0);
    });
  }
});
