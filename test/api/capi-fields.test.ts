/**
 * The built-in field lists of Cluster and ClusterClass (src/api/capi-fields.ts, used for strict
 * field validation without CRDs) must be exactly what the real CAPI v1.14 CRDs declare:
 * ../shared/fixtures/crds/capi, read in place. A CRD update that adds or renames a field fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { CAPI_SPEC_FIELDS, type Fields } from '../../src/api/capi-fields.js';
import { CRD_DIR, fixtureCrdsMissing } from '../helpers/fixture-crds.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
/** The tree capi-fields.ts describes, derived from an openAPIV3Schema. */
function fieldsOf(schema: any): Fields | 1 | '*' {
  if (schema['x-kubernetes-preserve-unknown-fields'] === true) return '*';
  if (schema.properties) return Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, fieldsOf(v)]));
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    const values = fieldsOf(schema.additionalProperties);
    return values === 1 ? 1 : { '{}': values };
  }
  if (schema.type === 'array') return fieldsOf(schema.items ?? {});
  return 1;
}

/** Sorted JSON, so that key order does not matter. */
const canonical = (t: Fields | 1 | '*'): unknown =>
  typeof t === 'object'
    ? Object.fromEntries(
        Object.keys(t)
          .sort()
          .map((k) => [k, canonical(t[k]!)]),
      )
    : t;

describe.skipIf(fixtureCrdsMissing())('built-in Cluster/ClusterClass fields = the CAPI CRDs', () => {
  for (const [file, kind] of [
    ['cluster.x-k8s.io_clusters.yaml', 'Cluster'],
    ['cluster.x-k8s.io_clusterclasses.yaml', 'ClusterClass'],
  ] as const) {
    const crd = YAML.parse(readFileSync(join(CRD_DIR, 'capi', file), 'utf8'));
    for (const version of crd.spec.versions.filter((v: any) => v.served)) {
      it(`${kind} ${version.name}: spec fields, and the top level (apiVersion, kind, metadata, spec, status)`, () => {
        const root = version.schema.openAPIV3Schema;
        expect(Object.keys(root.properties).sort()).toEqual(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
        expect(canonical(CAPI_SPEC_FIELDS.get(`${kind}/${version.name}`)!)).toEqual(
          canonical(fieldsOf(root.properties.spec)),
        );
      });
    }
  }

  it('covers exactly the served versions of both kinds', () => {
    expect([...CAPI_SPEC_FIELDS.keys()].sort()).toEqual([
      'Cluster/v1beta1',
      'Cluster/v1beta2',
      'ClusterClass/v1beta1',
      'ClusterClass/v1beta2',
    ]);
  });
});
