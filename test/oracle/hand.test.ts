/**
 * Hand-written cases for rules that differ between CAPI versions (scripts/oracle/hand-cases.mjs):
 * what CAPI's own code does with each at every supported version (live oracle or its recorded
 * answers), and the product's differences from it, which must be exactly the recorded ones.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { askOracle, renderWithProduct, type OracleAnswer, type ProductRender } from '../../scripts/oracle/compare.mjs';
import { differenceLines, expectedFor, handCaseNames, readJSON, recordedHandCase, writeHandCases } from '../../scripts/oracle/differential.mjs';
import { versions } from './modes.js';

const files = writeHandCases(mkdtempSync(join(tmpdir(), 'rcc-oracle-hand-')));
const products = new Map<string, ProductRender>();
/** The product's render of a hand case under the rules of CAPI `minor`. */
const product = (minor: string, name: string) => {
  const key = `${minor} ${name}`;
  if (!products.has(key)) products.set(key, renderWithProduct(minor, files.get(name)!));
  return products.get(key)!;
};

const refusal = (answer: OracleAnswer, kind: string) =>
  (answer.admission.find((a) => a.kind === kind)?.errors ?? []).filter((e: { field: string }) => e.field).map((e: { origin: string; type: string; field: string }) => `${e.origin} ${e.type} ${e.field}`);

for (const { minor, capi, mode } of versions('hand-written case comparison')) {
  describe.skipIf(mode === 'none')(`hand-written cases against CAPI ${capi} (${mode})`, () => {
    const answer = (name: string): OracleAnswer => (mode === 'live' ? askOracle(minor, files.get(name)!) : readJSON(recordedHandCase(minor, name)));

    it('refuses a ClusterClass variable without `required`, v1beta1 or v1beta2 (the CRD requires it since v1.11; v1.10 defaulted it)', () => {
      // api/core/v1beta{1,2}/clusterclass_types.go ClusterClassVariable.Required (+required), enforced by the API server.
      for (const name of ['v1beta1-variable-without-required', 'v1beta2-variable-without-required']) {
        const a = answer(name);
        expect(refusal(a, 'ClusterClass')).toEqual(['apiserver FieldValueRequired spec.variables[0].required']);
        expect(a.clusters[0]?.objects).toBeUndefined();
      }
    });

    it('judges topology taints as this version does', () => {
      // v1.12: no spec.topology.workers.machineDeployments[].taints in the Cluster CRD; v1.13+:
      // core/webhooks/admission/cluster.go validateTopologyTaints refuses them with the
      // MachineTaintPropagation gate off (its default).
      const expected = minor === 'v1.12'
        ? ['apiserver FieldValueUnknown spec.topology.workers.machineDeployments[0].taints']
        : ['webhook FieldValueForbidden spec.topology.workers.machineDeployments[md-0].taints'];
      expect(refusal(answer('topology-taints'), 'Cluster')).toEqual(expected);
    });

    it('lists every field the API server refuses in one pass: name, label key, schema', () => {
      // apiextensions-apiserver pkg/registry/customresource/validator.go Validate: ObjectMeta and
      // the OpenAPI schema, aggregated into one refusal.
      expect(refusal(answer('metadata-and-schema-errors'), 'Cluster')).toEqual([
        'apiserver FieldValueInvalid metadata.name',
        'apiserver FieldValueInvalid metadata.labels',
        'apiserver FieldValueInvalid spec.topology.workers.machineDeployments[0].name',
      ]);
    });

    it('renders a version with build metadata at that version', () => {
      const md = answer('version-with-build-metadata').clusters[0]?.objects?.find((o: { role: string }) => o.role === 'MachineDeployment');
      expect(md?.object?.spec?.template?.spec?.version).toBe('v1.34.2+rke2r1');
    });

    it('checks numbers as kube-openapi does at this version: int64s against truncated bounds; typed ranges from v1.14', () => {
      // k8s.io/kube-openapi pkg/validation/validate/validator.go numberValidator.Validate, values.go
      // MinimumNativeType/MaximumNativeType/MultipleOfNativeType; from the release v1.14 builds
      // with, schema.go SchemaValidator.numberValidator passes the node's type and format, and a
      // bound out of that type's range is a plain error (at no field) compared as float64.
      const errors: { field: string }[] = answer('crd-number-bounds').admission.find((a) => a.kind === 'GenClusterTemplate')?.errors ?? [];
      const fields = errors.map((e) => e.field.replace('spec.template.spec.numbers.', '') || '(range)').sort();
      expect(fields).toEqual(minor === 'v1.14' ? [...Array<string>(7).fill('(range)'), 'ratio', 'weight', 'weight'] : ['count', 'ratio', 'step', 'weight', 'weight', 'wide']);
    });

    for (const name of handCaseNames()) {
      it(`${name}: the product differs only as recorded`, () => {
        const lines = differenceLines(answer(name), product(minor, name), { minor });
        expect(lines).toEqual(expectedFor(minor)?.hand?.[name] ?? []);
        expect(lines.filter((l) => l.startsWith('[new]'))).toEqual([]);
      });
    }
  });
}
