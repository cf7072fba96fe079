/**
 * Behaviours of CAPI v1.14 and the API server that real ClusterClasses depend on (issue #12,
 * scope 3-6), one test each, through the whole pipeline. Each asserts severity, resourceRef and
 * field path; the comment above it names the upstream source (file and function) that decides
 * it, from which the expectation was derived. The v1beta1 template-reference namespace is
 * rule cc-4 in rules-catalogue.test.ts; versions with build metadata are in versions.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/model.js';
import { normalizeCluster, normalizeClusterClass } from '../../src/api/normalize.js';
import { loadFixtureCrds, fixtureCrdsMissing } from '../helpers/fixture-crds.js';
import { brief, fleetCluster, fleetDocs, runScenario, type Obj } from '../helpers/scenario.js';
import { compileClassVariables, defaultAndValidateClusterVariables } from '../../src/variables/index.js';

const classOf = (docs: Obj[]) => docs.find((d) => d.kind === 'ClusterClass');
const withVariable = (variable: JsonObject, docs = fleetDocs()) => {
  classOf(docs).spec.variables.push(variable);
  return docs;
};
const errorsOf = (docs: Obj[]) => runScenario(docs).errors.map(brief);

describe('CEL rule fieldPath: escaped names (apiextensions ValidFieldPath)', () => {
  // apiextensions-apiserver pkg/apiserver/schema/cel/validation.go `ValidFieldPath` and
  // `unescapeSingleQuote` (\a \b \f \n \r \t \v \' \\; any other escape is an error), called by
  // CAPI internal/topology/variables/clusterclass_variable_validation.go `validateSchema`.
  const net = (fieldPath: string) => ({
    name: 'net',
    required: false,
    schema: {
      openAPIV3Schema: {
        type: 'object',
        properties: { 'b.c': { type: 'string' }, 'c\u0007': { type: 'string' } },
        'x-kubernetes-validations': [{ rule: "!has(self.cidr) || self.cidr != 'x'", fieldPath }],
      },
    },
  });

  it("accepts `['b.c']` and `['c\\a']`; a failing rule reports at the unescaped field", () => {
    for (const [fieldPath, suffix] of [
      ["['b.c']", 'b.c'],
      ["['c\\a']", 'c\u0007'],
    ] as const) {
      const docs = withVariable(net(fieldPath));
      classOf(docs).spec.variables.at(-1).schema.openAPIV3Schema.properties.cidr = { type: 'string' };
      const cluster = fleetCluster('c1', (t) => (t.variables = [{ name: 'net', value: { cidr: 'x' } }]));
      expect(errorsOf([...docs, cluster])).toEqual([
        {
          severity: 'error',
          ref: 'Cluster fleet/c1',
          path: `spec.topology.variables[net].value.${suffix}`,
          message: expect.stringMatching(/^Invalid value: .*failed rule: !has\(self.cidr\) \|\| self.cidr != 'x'$/),
        },
      ]);
    }
  });

  it("rejects an unknown escape (`['c\\d']`) on the ClusterClass, at the rule's fieldPath", () => {
    const docs = withVariable(net("['c\\d']"));
    expect(errorsOf([...docs, fleetCluster('c1')]).filter((e) => e.ref === 'ClusterClass fleet/fleet')).toEqual([
      {
        severity: 'error',
        ref: 'ClusterClass fleet/fleet',
        path: 'spec.variables[net].schema.openAPIV3Schema.x-kubernetes-validations[0].fieldPath',
        message: `Invalid value: "['c\\\\d']": fieldPath must be a valid path: invalid string literal: invalid escape char \\d; point fieldPath at a field of this schema (e.g. ".name"), or omit it`,
      },
    ]);
  });
});

describe('structural schema: the int-or-string exception', () => {
  // apiextensions-apiserver pkg/apiserver/schema/validation.go `validateStructuralInvariants`,
  // `isIntOrStringAnyOfPattern`, `isIntOrStringAllOfPattern`: `anyOf: [{type: integer}, {type:
  // string}]`, directly or as the first allOf entry, is not a structural violation; used by CAPI's
  // `validateClusterClassVariable` (structuralschema.ValidateStructural).
  const intOrString = (extra: JsonObject) => ({ 'x-kubernetes-int-or-string': true, ...extra });

  it('accepts it on a property and on array items; values of either type pass', () => {
    const docs = withVariable({
      name: 'ports',
      required: false,
      schema: {
        openAPIV3Schema: {
          type: 'object',
          properties: {
            api: intOrString({ anyOf: [{ type: 'integer' }, { type: 'string' }] }),
            extra: {
              type: 'array',
              items: intOrString({
                allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }, { pattern: '^[0-9a-z%]+$' }],
              }),
            },
          },
        },
      },
    });
    const r = runScenario([
      ...docs,
      fleetCluster('c1', (t) => (t.variables = [{ name: 'ports', value: { api: 6443, extra: ['80%', 443] } }])),
    ]);
    expect(r.errors.map(brief)).toEqual([]);
    expect(r.rendered).toEqual(['fleet/c1']);
  });

  it('anything else inside anyOf is still "must be empty to be structural" (error on the ClusterClass)', () => {
    const docs = withVariable({
      name: 'port',
      required: false,
      schema: { openAPIV3Schema: intOrString({ anyOf: [{ type: 'integer', minimum: 1 }, { type: 'string' }] }) },
    });
    const base = 'spec.variables[port].schema.openAPIV3Schema.anyOf';
    expect(
      errorsOf([...docs, fleetCluster('c1')])
        .filter((e) => e.ref === 'ClusterClass fleet/fleet')
        .map((e) => [e.severity, e.path]),
    ).toEqual([
      ['error', `${base}[0].type`],
      ['error', `${base}[1].type`],
    ]);
  });
});

/** The fleet class in v1beta1 shape, with `machineHealthCheck: {}` on the control plane and the worker class. */
function v1beta1Class(): Obj[] {
  const [, ...templates] = fleetDocs();
  const ref = (kind: string, name: string, group = 'infrastructure.cluster.x-k8s.io') => ({
    ref: { apiVersion: `${group}/v1beta2`, kind, name },
  });
  const cc = {
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind: 'ClusterClass',
    metadata: { name: 'fleet', namespace: 'fleet' },
    spec: {
      infrastructure: ref('DevClusterTemplate', 'fleet-cluster'),
      controlPlane: {
        ...ref('KubeadmControlPlaneTemplate', 'fleet-cp', 'controlplane.cluster.x-k8s.io'),
        machineInfrastructure: ref('DevMachineTemplate', 'fleet-machine'),
        machineHealthCheck: {},
      },
      workers: {
        machineDeployments: [
          {
            class: 'general',
            machineHealthCheck: {},
            template: {
              bootstrap: ref('KubeadmConfigTemplate', 'fleet-bootstrap', 'bootstrap.cluster.x-k8s.io'),
              infrastructure: ref('DevMachineTemplate', 'fleet-machine'),
            },
          },
        ],
      },
    },
  };
  return [cc, ...templates];
}

describe('an empty v1beta1 machineHealthCheck is not a definition', () => {
  // api/core/v1beta1/conversion.go `Convert_v1beta1_ControlPlaneClass_To_v1beta2_ControlPlaneClass`
  // turns `machineHealthCheck: {}` into a zero v1beta2 healthCheck; `IsDefined()` (checks or
  // remediation non-zero, api/core/v1beta2/clusterclass_types.go) is false, so
  // core/webhooks/admission/cluster.go `validateMachineHealthChecks` forbids `enable: true`
  // without a definition in the Cluster (control plane and each MachineDeployment).
  it('enable: true with no checks of its own is Forbidden, for the control plane and the MachineDeployment', () => {
    const cluster = {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'Cluster',
      metadata: { name: 'c1', namespace: 'fleet' },
      spec: {
        topology: {
          class: 'fleet',
          version: 'v1.33.0',
          controlPlane: { machineHealthCheck: { enable: true } },
          workers: { machineDeployments: [{ class: 'general', name: 'md-0', machineHealthCheck: { enable: true } }] },
        },
      },
    };
    const detail =
      'cannot be set to true as healthCheck definition is not available in the Cluster topology or the ClusterClass; add checks or remediation to this healthCheck, define a healthCheck in the ClusterClass, or remove enabled: true';
    expect(errorsOf([...v1beta1Class(), cluster])).toEqual([
      {
        severity: 'error',
        ref: 'Cluster fleet/c1',
        path: 'spec.topology.controlPlane.healthCheck.enable',
        message: `Forbidden: ${detail}`,
      },
      {
        severity: 'error',
        ref: 'Cluster fleet/c1',
        path: 'spec.topology.workers.machineDeployments[md-0].healthCheck.enable',
        message: `Forbidden: ${detail}`,
      },
    ]);
  });

  it('without enable, the Cluster renders and gets no MachineHealthCheck', () => {
    const cluster = {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'Cluster',
      metadata: { name: 'c1', namespace: 'fleet' },
      spec: {
        topology: {
          class: 'fleet',
          version: 'v1.33.0',
          workers: { machineDeployments: [{ class: 'general', name: 'md-0' }] },
        },
      },
    };
    const r = runScenario([...v1beta1Class(), cluster]);
    expect(r.errors).toEqual([]);
    expect(r.generated[0]!.objects.filter((o: Obj) => o.kind === 'MachineHealthCheck')).toEqual([]);
  });
});

describe('MachineDeployment/MachinePool topology names: the Cluster CRD rule, without the CRD', () => {
  // Cluster CRD (config/crd/bases/cluster.x-k8s.io_clusters.yaml): v1beta2
  // `spec.topology.workers.machineDeployments[].name` has maxLength 63 and the DNS-1123 subdomain
  // pattern; v1beta1 only maxLength 63. The API server rejects the Cluster before any webhook.
  const named = (name: string, apiVersion = 'cluster.x-k8s.io/v1beta2') =>
    fleetCluster('c1', (t, c) => {
      c.apiVersion = apiVersion;
      if (apiVersion.endsWith('v1beta1')) {
        t.class = t.classRef.name;
        delete t.classRef;
      }
      t.workers.machineDeployments[0].name = name;
    });
  const path = 'spec.topology.workers.machineDeployments[0].name';
  const long = 'a'.repeat(64);

  it('v1beta2: not DNS-1123, or longer than 63 characters: an error, the Cluster is not rendered', () => {
    const pattern = "'^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'";
    const tail =
      ': the API server would reject this Cluster as written (cluster.x-k8s.io/v1beta2 CRD schema); fix it in the input';
    const bad = runScenario([...fleetDocs(), named('MD_0')]);
    expect(bad.errors.map(brief)).toEqual([
      {
        severity: 'error',
        ref: 'Cluster fleet/c1',
        path,
        message: `Invalid value: "MD_0": ${path} in body should match ${pattern}${tail}`,
      },
    ]);
    expect(bad.rendered).toEqual([]);
    expect(runScenario([...fleetDocs(), named(long)]).errors.map(brief)).toEqual([
      { severity: 'error', ref: 'Cluster fleet/c1', path, message: `Too long: may not be more than 63 bytes${tail}` },
    ]);
  });

  it('v1beta1: the CRD checks only the length, but the API server refuses the MachineDeployment named after it', () => {
    const subdomain =
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
    const bad = runScenario([...fleetDocs(), named('MD_0', 'cluster.x-k8s.io/v1beta1')]);
    expect(bad.errors.map(brief)).toEqual([
      {
        severity: 'error',
        ref: 'Cluster fleet/c1',
        path: 'spec.topology.workers.machineDeployments[MD_0].name',
        message: expect.stringContaining(
          `failed to generate name for MachineDeployment: metadata.name: Invalid value: "c1-MD_0-`,
        ),
      },
    ]);
    expect(bad.errors[0]!.message).toContain(subdomain);
    expect(bad.rendered).toEqual([]);
    expect(runScenario([...fleetDocs(), named('md.0', 'cluster.x-k8s.io/v1beta1')]).errors).toEqual([]);
    expect(
      runScenario([...fleetDocs(), named(long, 'cluster.x-k8s.io/v1beta1')]).errors.map((e) => [
        e.severity,
        e.field?.path,
      ]),
    ).toEqual([['error', path]]);
  });

  it.skipIf(fixtureCrdsMissing())('with the real Cluster CRD the same message comes from CRD validation, once', () => {
    const crds = loadFixtureCrds().filter((c) => (c.metadata as JsonObject).name === 'clusters.cluster.x-k8s.io');
    const r = runScenario([...fleetDocs(), named('MD_0')], {}, { crds });
    const withoutCrd = runScenario([...fleetDocs(), named('MD_0')]);
    expect(r.errors.filter((e) => e.field?.path === path).map(brief)).toEqual(withoutCrd.errors.map(brief));
  });
});

describe('Go templates: js and urlParse as Go does them', () => {
  // text/template funcs.go `JSEscape` escapes a rune unicode.IsPrint rejects as \uXXXX; sprig
  // url.go `urlParse` panics (a template error) when net/url.Parse fails. The patch engine reports
  // a failing template on the ClusterClass patch, for the Cluster being rendered
  // (internal/controllers/topology/cluster/patches/inline/json_patch_generator.go).
  const withTemplate = (template: string) => {
    const docs = fleetDocs();
    const cc = classOf(docs);
    cc.spec.variables.push({ name: 'text', required: false, schema: { openAPIV3Schema: { type: 'string' } } });
    cc.spec.patches[1].definitions[0].jsonPatches[0].valueFrom.template = template;
    return docs;
  };
  const withText = (text: string) => fleetCluster('c1', (t) => (t.variables = [{ name: 'text', value: text }]));

  it("js keeps U+FDFF (Unicode 14, printable for CAPI v1.14's Go 1.26) and escapes U+00A0 (goldens in test/golden/gotemplate/fidelity.jsonl)", () => {
    const r = runScenario([...withTemplate('img-{{ js .text }}'), withText('a\ufdffb\u00a0c')]);
    expect(r.errors).toEqual([]);
    const worker = r.generated[0]!.objects.find(
      (o: Obj) => o.kind === 'DevMachineTemplate' && o.metadata.labels['topology.cluster.x-k8s.io/deployment-name'],
    ) as Obj;
    expect(worker.spec.template.spec.customImage).toBe('img-a\ufdffb\\u00A0c');
  });

  it('urlParse of "http://[::1" fails as net/url.Parse does: an error on the ClusterClass patch for this Cluster', () => {
    const r = runScenario([...withTemplate('{{ (urlParse .text).host }}'), withText('http://[::1')]);
    expect(r.errors.map((e) => [e.severity, brief(e).ref, e.field?.path, e.tags?.cluster])).toEqual([
      ['error', 'ClusterClass fleet/fleet', 'spec.patches[1].definitions[0].jsonPatches[0]', 'fleet/c1'],
    ]);
    expect(r.errors[0]!.message).toContain(
      'error calling urlParse: unable to parse url: parse "http://[::1": missing \']\' in host',
    );
    expect(r.rendered).toEqual([]);
  });
});

describe('classes exported from a live cluster: status.variables', () => {
  // internal/topology/variables/cluster_variable_validation.go `ValidateClusterVariables` and
  // cluster_variable_defaulting.go `DefaultClusterVariables` take ClusterClass status.variables
  // (written by core/reconcilers/clusterclass `reconcileVariables`: inline definitions plus
  // those a DiscoverVariables Runtime Extension returns); utils.go `newDefinitionsIndex` rejects
  // conflicting definitions.
  const exported = (extra: JsonObject[] = []) => {
    const docs = fleetDocs();
    const cc = classOf(docs);
    cc.spec.patches.push({
      name: 'ext',
      external: { generatePatchesExtension: 'gen.ext', discoverVariablesExtension: 'discover.ext' },
    });
    cc.status = {
      variables: [
        {
          name: 'imageRepository',
          definitionsConflict: false,
          definitions: [
            {
              from: 'inline',
              required: true,
              schema: { openAPIV3Schema: { type: 'string', default: 'registry.example.com' } },
            },
          ],
        },
        {
          name: 'region',
          definitionsConflict: false,
          definitions: [
            {
              from: 'discover.ext',
              required: false,
              schema: { openAPIV3Schema: { type: 'string', enum: ['eu', 'us'], default: 'eu' } },
            },
          ],
        },
        ...extra,
      ],
    };
    return docs;
  };
  const render = (docs: Obj[], variables: JsonObject[]) =>
    runScenario([...docs, fleetCluster('c1', (t) => (t.variables = variables))], { skipExternalPatches: true });

  it('a variable discovered by a Runtime Extension is defined, validated and defaulted', () => {
    expect(render(exported(), [{ name: 'region', value: 'us' }]).errors).toEqual([]);
    expect(
      render(exported(), [{ name: 'region', value: 'mars' }]).errors.map((e) => [
        e.severity,
        brief(e).ref,
        e.field?.path,
      ]),
    ).toEqual([['error', 'Cluster fleet/c1', 'spec.topology.variables[region].value']]);
    const docs = exported();
    const cc = normalizeClusterClass(classOf(docs), {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'ClusterClass',
      name: 'fleet',
      namespace: 'fleet',
    }).value!;
    const cluster = normalizeCluster(fleetCluster('c1'), {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'Cluster',
      name: 'c1',
      namespace: 'fleet',
    }).value!;
    const compiled = compileClassVariables(cc, {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'ClusterClass',
      name: 'fleet',
      namespace: 'fleet',
    }).variables;
    expect(
      defaultAndValidateClusterVariables(compiled, cluster, {
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'Cluster',
        name: 'c1',
        namespace: 'fleet',
      }).variables.cluster,
    ).toEqual([
      { name: 'imageRepository', value: 'registry.example.com' },
      { name: 'region', value: 'eu' },
    ]);
  });

  it('conflicting definitions fail every Cluster of the class, as newDefinitionsIndex does', () => {
    const conflict = {
      name: 'zone',
      definitionsConflict: true,
      definitions: [
        { from: 'inline', required: false, schema: { openAPIV3Schema: { type: 'string' } } },
        { from: 'discover.ext', required: false, schema: { openAPIV3Schema: { type: 'integer' } } },
      ],
    };
    expect(render(exported([conflict]), []).errors.map(brief)).toEqual([
      {
        severity: 'error',
        ref: 'Cluster fleet/c1',
        path: 'spec.topology.variables',
        message:
          'Invalid value: "[Name: imageRepository,Name: region,Name: zone]": variable definitions in the ClusterClass not valid: variable "zone" has conflicting definitions',
      },
    ]);
  });

  it('without status.variables, "variable is not defined" says where definitions come from and how to get the discovered ones', () => {
    const docs = exported();
    delete classOf(docs).status;
    expect(render(docs, [{ name: 'region', value: 'us' }]).errors.map(brief)).toEqual([
      {
        severity: 'error',
        ref: 'Cluster fleet/c1',
        path: 'spec.topology.variables[region]',
        message:
          'Invalid value: "\\"us\\"": variable is not defined; define it in ClusterClass "fleet" spec.variables, or remove it from the Cluster; variables of Runtime Extension "discover.ext" are known only from the class\'s status.variables or from the extension: render the ClusterClass as exported from the management cluster (kubectl get clusterclass fleet -n fleet -o yaml), or give its ExtensionConfig (--extensions) or recorded answers (--replay-extensions)',
      },
      // DefaultVariables failed, so nothing was defaulted and ValidateClusterVariables misses the required one too: the message says so.
      {
        severity: 'error',
        ref: 'Cluster fleet/c1',
        path: 'spec.topology.variables',
        message:
          'Required value: required variable "imageRepository" must be set; this follows from the error at spec.topology.variables[region]: while it stands, Cluster API defaults none of the variables, and this one has a default (fixing that error sets it)',
      },
    ]);
  });
});

describe('strict field validation without CRDs (kubectl apply --validate=strict, the default)', () => {
  // apiextensions-apiserver pkg/apiserver/customresource_handler.go: pruned paths become
  // `unknown field "<path>"` strict decoding errors; apiserver pkg/endpoints/handlers/rest.go
  // `transformDecodeError` prefixes `<Kind> in version "<v>" cannot be handled as a <Kind>`.
  it('a typo in a Cluster: the error kubectl gives, the Cluster passes through unrendered (info)', () => {
    const typo = fleetCluster('c1', (t, c) => {
      c.spec = { topolgy: t };
    });
    const r = runScenario([...fleetDocs(), typo]);
    expect(r.results.filter((x) => x.resourceRef?.kind === 'Cluster').map(brief)).toEqual([
      {
        severity: 'error',
        ref: 'Cluster fleet/c1',
        path: 'spec.topolgy',
        message:
          'Cluster in version "v1beta2" cannot be handled as a Cluster: strict decoding error: unknown field "spec.topolgy"; did you mean "topology"?',
      },
      {
        severity: 'info',
        ref: 'Cluster fleet/c1',
        path: 'spec.topology',
        message:
          'Cluster fleet/c1 has no spec.topology: passed through unrendered (only Clusters with a managed topology are rendered)',
      },
    ]);
  });

  it('a v1beta1 machineHealthCheck in a v1beta2 ClusterClass: an error on the class, its Clusters are not rendered', () => {
    const docs = fleetDocs();
    classOf(docs).spec.controlPlane.machineHealthCheck = { maxUnhealthy: '40%' };
    const r = runScenario([...docs, fleetCluster('c1')]);
    expect(r.errors.map(brief)).toEqual([
      {
        severity: 'error',
        ref: 'ClusterClass fleet/fleet',
        path: 'spec.controlPlane.machineHealthCheck',
        message:
          'ClusterClass in version "v1beta2" cannot be handled as a ClusterClass: strict decoding error: unknown field "spec.controlPlane.machineHealthCheck"; "machineHealthCheck" is a cluster.x-k8s.io/v1beta1 ClusterClass field: use the v1beta2 field, or apiVersion cluster.x-k8s.io/v1beta1',
      },
      {
        severity: 'error',
        ref: 'Cluster fleet/c1',
        path: 'spec.topology',
        message: 'ClusterClass "fleet/fleet" is invalid (see its results); Cluster not rendered',
      },
    ]);
  });

  it('v1beta1 shapes are checked against the v1beta1 fields (a v1beta2 field there is unknown)', () => {
    const cluster = {
      apiVersion: 'cluster.x-k8s.io/v1beta1',
      kind: 'Cluster',
      metadata: { name: 'c1', namespace: 'fleet' },
      spec: { topology: { class: 'fleet', classRef: { name: 'fleet' }, version: 'v1.33.0' } },
    };
    expect(
      runScenario([...v1beta1Class(), cluster]).errors.map((e) => [
        e.severity,
        brief(e).ref,
        e.field?.path,
        e.tags?.rule,
      ]),
    ).toEqual([['error', 'Cluster fleet/c1', 'spec.topology.classRef', 'strict-decoding']]);
  });
});

describe('duplicate identities (kustomize: "may not add resource with an already registered id")', () => {
  // kustomize api/resmap/reswrangler.go `Append` refuses a second resource with the same id
  // (group, version, kind, namespace, name); applying both would make the last one win.
  it('a copied Cluster file whose name was not changed: an error naming both files, the Cluster is not rendered', () => {
    const a = fleetCluster('c1');
    const b = fleetCluster('c1', (t) => (t.version = 'v1.34.0'));
    const other = fleetCluster('c2');
    const docs = [...fleetDocs(), a, b, other];
    const files = docs.map((_, i) =>
      i === docs.length - 3 ? 'clusters/c1.yaml' : i === docs.length - 2 ? 'clusters/c1-copy.yaml' : 'fleet.yaml',
    );
    const r = runScenario(docs, {}, {}, files);
    expect(r.errors.map(brief)).toEqual([
      {
        severity: 'error',
        ref: 'Cluster fleet/c1',
        path: 'metadata.name',
        message:
          'may not add resource with an already registered id: Cluster.v1beta2.cluster.x-k8s.io/c1.fleet: defined in clusters/c1.yaml and clusters/c1-copy.yaml; none of them is rendered: rename or remove all but one',
      },
    ]);
    expect(r.rendered).toEqual(['fleet/c2']);
  });
});
