/**
 * CRD awareness through the whole pipeline: a patch that relies on a CRD default renders once the
 * CRD is supplied (as it does live, where the API server stored the template defaulted), a
 * rendered object that its CRD would reject is reported with its field path and where the value
 * came from, and the input objects a render uses are validated once each.
 */
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import type { JsonObject } from '../../src/core/model.js';
import { DEFAULT_CONFIG } from '../../src/krm/config.js';
import { readYamlStream } from '../../src/krm/read.js';
import { runPipeline } from '../../src/pipeline/run.js';

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgetclustertemplates.infrastructure.example.com' },
  spec: {
    group: 'infrastructure.example.com',
    names: { kind: 'WidgetClusterTemplate', plural: 'widgetclustertemplates' },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1beta2',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              apiVersion: { type: 'string' },
              kind: { type: 'string' },
              metadata: { type: 'object' },
              spec: {
                type: 'object',
                properties: {
                  template: {
                    type: 'object',
                    properties: {
                      spec: {
                        type: 'object',
                        default: {},
                        properties: {
                          zones: { type: 'integer', default: 3, minimum: 1 },
                          size: { type: 'string', enum: ['small', 'large'] },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    ],
  },
};

/** The CRD of the object made from the template: its spec is the template's spec.template.spec. */
const widgetSpec = crd.spec.versions[0]!.schema.openAPIV3Schema.properties.spec.properties.template.properties.spec;
const objectCrd = {
  ...crd,
  metadata: { name: 'widgetclusters.infrastructure.example.com' },
  spec: {
    ...crd.spec,
    names: { kind: 'WidgetCluster', plural: 'widgetclusters' },
    versions: [
      {
        ...crd.spec.versions[0]!,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              apiVersion: { type: 'string' },
              kind: { type: 'string' },
              metadata: { type: 'object' },
              spec: widgetSpec,
            },
          },
        },
      },
    ],
  },
} as unknown as JsonObject;

const cluster = (name: string) => `apiVersion: cluster.x-k8s.io/v1beta2
kind: Cluster
metadata: {name: ${name}, namespace: ns}
spec:
  topology:
    classRef: {name: widgets}
    version: v1.34.0
`;

const inputs = (size: string) => `
apiVersion: cluster.x-k8s.io/v1beta2
kind: ClusterClass
metadata: {name: widgets, namespace: ns}
spec:
  infrastructure:
    templateRef: {apiVersion: infrastructure.example.com/v1beta2, kind: WidgetClusterTemplate, name: widget}
  controlPlane:
    templateRef: {apiVersion: controlplane.example.com/v1beta2, kind: WidgetControlPlaneTemplate, name: cp}
  patches:
  - name: fewerZones
    definitions:
    - selector:
        apiVersion: infrastructure.example.com/v1beta2
        kind: WidgetClusterTemplate
        matchResources: {infrastructureCluster: true}
      jsonPatches:
      - {op: replace, path: /spec/template/spec/zones, value: 2}
      - {op: add, path: /spec/template/spec/size, value: ${size}}
---
apiVersion: infrastructure.example.com/v1beta2
kind: WidgetClusterTemplate
metadata: {name: widget, namespace: ns}
spec:
  template: {}
---
apiVersion: controlplane.example.com/v1beta2
kind: WidgetControlPlaneTemplate
metadata: {name: cp, namespace: ns}
spec:
  template:
    spec: {}
---
${cluster('w1')}`;

function renderText(text: string, withCrd: boolean) {
  const read = readYamlStream(text, 'in.yaml');
  if (!read.ok) throw new Error(read.message);
  return runPipeline(
    read.items,
    { ...DEFAULT_CONFIG, mode: 'preview' },
    read.results,
    withCrd ? { crds: [crd as unknown as JsonObject, objectCrd] } : {},
  );
}

const render = (size: string, withCrd: boolean) => renderText(inputs(size), withCrd);

describe('CRDs in the pipeline', () => {
  it('without the CRD, a patch replacing a defaulted-only field fails (the documented divergence)', () => {
    const out = render('small', false);
    expect(out.results.filter((r) => r.severity === 'error').map((r) => r.message)).toEqual([
      expect.stringContaining('replace operation does not apply'),
    ]);
  });

  it('with the CRD, the template is defaulted first and the patch applies', () => {
    const out = render('small', true);
    expect(out.results.filter((r) => r.severity === 'error')).toEqual([]);
    const widget = out.generated[0]!.objects.find((o) => o.kind === 'WidgetCluster')!;
    expect(YAML.stringify(widget.spec)).toBe('zones: 2\nsize: small\n');
  });

  it('a rendered value the CRD rejects is an error at its field path, naming the patch that set it', () => {
    const out = render('medium', true);
    const error = out.results.find((r) => r.severity === 'error')!;
    expect(error.resourceRef).toMatchObject({ kind: 'WidgetCluster', namespace: 'ns' });
    expect(error.field?.path).toBe('spec.size');
    expect(error.message).toContain('Unsupported value: "medium"');
    expect(error.message).toContain(
      '(spec.size comes from patch "fewerZones" (spec.patches[0].definitions[0].jsonPatches[1]: add /spec/template/spec/size); literal value)',
    );
    expect(error.tags).toMatchObject({ rule: 'crd-schema', cluster: 'ns/w1' });
  });

  it('validates the input objects a render uses once each, at their own resourceRef and file; a refused template refuses its class', () => {
    const text =
      inputs('small').replace(
        'kind: WidgetClusterTemplate\nmetadata: {name: widget, namespace: ns}\nspec:\n  template: {}',
        'kind: WidgetClusterTemplate\nmetadata: {name: widget, namespace: ns}\nspec:\n  template: {spec: {zones: 0}}',
      ) +
      `---
${cluster('w2')}---
apiVersion: infrastructure.example.com/v1beta2
kind: WidgetClusterTemplate
metadata: {name: unused, namespace: ns}
spec:
  template: {spec: {zones: -1}}
`;
    const out = renderText(text, true);
    const errors = out.results.filter((r) => r.severity === 'error');
    // The template as written violates minimum 1: the API server refuses it, so it does not exist live and
    // CAPI's getBlueprint cannot read the class (that a patch would replace the value changes nothing).
    expect(errors.filter((r) => r.tags?.rule !== 'crd-schema').map((r) => [r.resourceRef?.name, r.tags?.rule])).toEqual(
      [
        ['widgets', 'template-refused'],
        ['w1', 'class-invalid'],
        ['w2', 'class-invalid'],
      ],
    );
    expect(errors.filter((r) => r.tags?.rule === 'crd-schema')).toEqual([
      {
        severity: 'error',
        message: expect.stringContaining(
          'Invalid value: 0: spec.template.spec.zones in body should be greater than or equal to 1: the API server would reject this WidgetClusterTemplate as written',
        ),
        resourceRef: {
          apiVersion: 'infrastructure.example.com/v1beta2',
          kind: 'WidgetClusterTemplate',
          namespace: 'ns',
          name: 'widget',
        },
        field: { path: 'spec.template.spec.zones' },
        file: { path: 'in.yaml', index: 1 },
        tags: { rule: 'crd-schema' },
      },
    ]);
    expect(out.generated).toEqual([]);
  });
});
