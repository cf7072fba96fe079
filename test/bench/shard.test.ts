/**
 * Sharding (`shard: I/N`): for a generated fleet, the shards of a split render together exactly
 * what the unsharded render produces, and every Cluster is rendered by exactly one shard. The
 * fleet is the benchmark's (bench/fleet.mjs over bench/fleet-class.yaml), kept small for speed.
 */
import { describe, expect, it } from 'vitest';
import { fleetStream, clusterName, NAMESPACE } from '../../bench/fleet.mjs';
import type { Json, JsonObject } from '../../src/core/model.js';
import { DEFAULT_CONFIG, applySettings, type RenderConfig } from '../../src/krm/config.js';
import { readYamlStream } from '../../src/krm/read.js';
import { shardOf } from '../../src/pipeline/classify.js';
import { runPipeline, type PipelineOutput } from '../../src/pipeline/run.js';
import { LOCAL_CONFIG_ANNOTATION } from '../../src/core/labels.js';
import type { InputItem } from '../../src/krm/item.js';

const CLUSTERS = 60;

function readFleet(): InputItem[] {
  const read = readYamlStream(fleetStream(CLUSTERS), 'fleet.yaml');
  if (!read.ok) throw new Error(read.message);
  expect(read.results).toEqual([]);
  return read.items;
}

function configFor(shard?: string): RenderConfig {
  const cfg = applySettings(DEFAULT_CONFIG, shard ? { shard } : {}, true);
  if (!cfg.ok) throw new Error(cfg.message);
  return cfg.config;
}

/** JSON with object keys sorted: equal content gives equal text whatever the key order. */
function canonical(v: Json): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k]!)}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

function identity(o: JsonObject): string {
  const meta = (o.metadata ?? {}) as JsonObject;
  return `${String(o.apiVersion)}/${String(o.kind)}/${String(meta.namespace ?? '')}/${String(meta.name)}`;
}

/** Rendered objects of a run by identity (failing on a duplicate identity). */
function renderedObjects(out: PipelineOutput): Map<string, string> {
  const objects = new Map<string, string>();
  for (const g of out.generated) {
    for (const o of g.objects) {
      const id = identity(o);
      expect(objects.has(id), `duplicate rendered object ${id}`).toBe(false);
      objects.set(id, canonical(o));
    }
  }
  return objects;
}

const errorsOf = (out: PipelineOutput) => out.results.filter((r) => r.severity !== 'info');

describe('sharded renders of a generated fleet', () => {
  const items = readFleet();
  const full = runPipeline(items, configFor());
  const fullObjects = renderedObjects(full);
  const allClusters = Array.from({ length: CLUSTERS }, (_, i) => `${NAMESPACE}/${clusterName(i)}`).sort();

  it('renders the whole fleet without errors or warnings when unsharded', () => {
    expect(errorsOf(full)).toEqual([]);
    expect(full.generated.map((g) => g.cluster)).toEqual(allClusters);
    // Classic Cluster, InfraCluster, CP machine template, CP, CP health check, then 3 MDs with
    // bootstrap + infrastructure templates and health checks where the class/topology has one.
    for (const g of full.generated) expect(g.objects.length).toBeGreaterThanOrEqual(1 + 4 + 3 * 3);
    expect(fullObjects.size).toBe(full.generated.reduce((n, g) => n + g.objects.length, 0));
  });

  it.each([1, 3, 4])(
    'N=%i: the union of the shards is the unsharded render, each Cluster in exactly one shard',
    (count) => {
      const union = new Map<string, string>();
      const shardOfCluster = new Map<string, number>();
      const markedLocal = new Map<string, number>();
      for (let index = 0; index < count; index++) {
        const out = runPipeline(items, configFor(`${index}/${count}`));
        expect(errorsOf(out)).toEqual([]);
        // Shard membership is the documented stable hash of namespace/name.
        for (const g of out.generated) {
          const [ns, name] = g.cluster.split('/') as [string, string];
          expect(shardOf(ns, name, count)).toBe(index);
          expect(
            shardOfCluster.has(g.cluster),
            `${g.cluster} rendered by shards ${shardOfCluster.get(g.cluster)} and ${index}`,
          ).toBe(false);
          shardOfCluster.set(g.cluster, index);
        }
        if (count > 1) expect(out.generated.length, `shard ${index}/${count} is empty`).toBeGreaterThan(0);
        for (const [id, content] of renderedObjects(out)) {
          expect(union.has(id), `${id} rendered by two shards`).toBe(false);
          union.set(id, content);
        }
        // Every input item passes through every shard; only its own Clusters are marked local-config.
        expect(out.keep.length).toBe(items.length);
        for (const [item, edit] of out.edits) {
          if (edit.addAnnotations?.[LOCAL_CONFIG_ANNOTATION] === 'true') {
            const key = `${item.ref!.namespace}/${item.ref!.name}`;
            markedLocal.set(key, (markedLocal.get(key) ?? 0) + 1);
          }
        }
      }
      expect([...shardOfCluster.keys()].sort()).toEqual(allClusters);
      expect([...markedLocal.values()].every((n) => n === 1)).toBe(true);
      expect([...markedLocal.keys()].sort()).toEqual(allClusters);
      expect([...union.keys()].sort()).toEqual([...fullObjects.keys()].sort());
      for (const [id, content] of fullObjects) expect(union.get(id), id).toBe(content);
    },
  );
});
