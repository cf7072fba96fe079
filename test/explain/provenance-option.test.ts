/**
 * `provenance: true` over every real-world fixture (issue 15; issue 14 scope 4), with and
 * without the fixture CRDs: the provenance is what the render recorded, so it adds no result
 * (no "please report this" warning, the same results as a render without it), every leaf of every
 * rendered object is attributed, and every Cluster, ClusterClass and template attribution points
 * at a field of that input document as written, holding the rendered value (unless the source notes
 * a conversion). The expected values are the input documents themselves.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Json, JsonObject } from '../../src/core/model.js';
import { asObject, canonicalJson } from '../../src/core/json.js';
import { formatPath, getAt, leaves, parsePath } from '../../src/provenance/paths.js';
import type { Source } from '../../src/provenance/types.js';
import { toManifest } from '../../src/output/write.js';
import type { Result } from '../../src/core/result.js';
import { runPipeline } from '../../src/pipeline/run.js';
import { runRender } from '../../src/cli/render.js';
import { fakeIO } from '../helpers/io.js';
import { fixtureCrdsMissing, loadFixtureCrds } from '../helpers/fixture-crds.js';
import { config, readItems, sharedFixtures } from './helpers.js';
import type { InputItem } from '../../src/krm/item.js';

const files = existsSync(sharedFixtures)
  ? readdirSync(sharedFixtures)
      .filter((f) => f.endsWith('.yaml'))
      .sort()
  : [];
const crds = fixtureCrdsMissing() ? undefined : loadFixtureCrds();

/** The input document a source names, as written. */
function documentOf(items: InputItem[], s: Source, cluster: JsonObject, classDoc: JsonObject): JsonObject | undefined {
  if (s.kind === 'topology') return cluster;
  if (s.kind === 'clusterClass') return classDoc;
  if (s.kind !== 'template') return undefined;
  const t = s.template;
  return items.find((i) => i.ref?.apiVersion === t.apiVersion && i.ref.kind === t.kind && i.ref.name === t.name)?.value;
}

/** Results a render gives with or without provenance (the count of objects written aside). */
const comparable = (results: readonly Result[]) =>
  results.filter((r) => r.tags?.rule !== 'rendered' && r.tags?.rule !== 'summary');

describe.skipIf(files.length === 0)('provenance: true over every real-world fixture', () => {
  it('covers the 16 fixtures', () => expect(files).toHaveLength(16));

  for (const withCrds of crds ? [false, true] : [false]) {
    for (const file of files) {
      it(`${file}${withCrds ? ' with the fixture CRDs' : ''}`, () => {
        const items = readItems(join(sharedFixtures, file));
        const extras = withCrds ? { crds } : {};
        const plain = runPipeline(items, config({ skipExternalPatches: true }), [], extras);
        const out = runPipeline(items, config({ skipExternalPatches: true, provenance: true }), [], extras);
        expect(out.results.filter((r) => /please report|explain/.test(r.message))).toEqual([]);
        expect(comparable(out.results)).toEqual(comparable(plain.results));
        expect(out.generated.map((g) => g.cluster)).toEqual(plain.generated.map((g) => g.cluster));
        expect(out.generated.length).toBeGreaterThan(0);

        for (const g of out.generated) {
          const report = g.objects.find((o) => o.kind === 'ProvenanceReport');
          const reported = (asObject(report?.spec)?.objects ?? []) as {
            kind: string;
            name: string;
            fields: { path: string; source: Source }[];
          }[];
          const rendered = g.objects.map((o) => toManifest(o)).filter((o): o is JsonObject => o !== undefined);
          expect(reported.map((o) => `${o.kind}/${o.name}`)).toEqual(
            rendered.map((o) => `${o.kind}/${asObject(o.metadata)?.name}`),
          );
          const clusterDoc = items.find(
            (i) => i.ref?.kind === 'Cluster' && `${i.ref.namespace ?? 'default'}/${i.ref.name}` === g.cluster,
          )!.value;
          const classRef = asObject(asObject(report?.spec)?.clusterClass)!;
          const classDoc = items.find((i) => i.ref?.kind === 'ClusterClass' && i.ref.name === classRef.name)!.value;
          rendered.forEach((obj, n) => {
            const fields = reported[n]!.fields;
            const paths = leaves(obj).map((l) => formatPath(l.segs));
            expect(
              fields.map((f) => f.path),
              `${g.cluster} ${obj.kind}`,
            ).toEqual(paths);
            for (const [i, f] of fields.entries()) {
              const where = `${g.cluster} ${obj.kind}/${asObject(obj.metadata)?.name} ${f.path} ← ${JSON.stringify(f.source)}`;
              expect(f.source.kind, where).not.toBe('unknown');
              const doc = documentOf(items, f.source, clusterDoc, classDoc);
              if (!doc || !('path' in f.source)) continue;
              const actual: Json | undefined = getAt(doc, parsePath(f.source.path)!);
              expect(actual, where).not.toBeUndefined();
              if (!f.source.note)
                expect(canonicalJson(actual!), where).toBe(canonicalJson(getAt(obj, parsePath(paths[i]!)!)!));
            }
          });
        }
      });
    }
  }
});

describe.skipIf(files.length === 0)('render --strict --set provenance=true (issue 14 reproduction)', () => {
  it('capo-dev-test renders clean, with a provenance report per Cluster', async () => {
    const io = fakeIO();
    const code = await runRender(
      [join(sharedFixtures, 'capo-dev-test.yaml'), '--strict', '--set', 'provenance=true', '--format', 'resourcelist'],
      io,
    );
    expect(io.err).not.toMatch(/warning|error/);
    expect(code).toBe(0);
    expect(io.out.match(/kind: ProvenanceReport/g)).toHaveLength(2);
  });
});
