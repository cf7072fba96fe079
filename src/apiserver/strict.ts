/**
 * What the API server decides about a Cluster or ClusterClass before any webhook runs, also
 * when their CRDs are not given:
 *
 * - Strict field validation, the default of `kubectl apply` / `create` since kubectl 1.27 (and of
 *   server-side apply): a field the CRD does not declare makes the request fail with
 *   `Cluster in version "v1beta2" cannot be handled as a Cluster: strict decoding error: unknown
 *   field "spec.topolgy"` (apiextensions-apiserver `customresource_handler.go`: the pruned paths
 *   become `unknown field "<path>"` strict decoding errors; apiserver `handlers/rest.go`
 *   `transformDecodeError` adds the `cannot be handled as a` prefix). The declared fields come
 *   from the CRD when it is given, else from src/api/capi-fields.ts. `metadata` and `status` are
 *   not checked.
 * - When the kind's CRD is not given (with it, CRD validation reports the same), the rules of
 *   CAPI's own CRDs the product knows: the v1beta2 Cluster CRD's format of MachineDeployment/
 *   MachinePool topology names (at most 63 characters, a DNS-1123 subdomain; v1beta1: at most
 *   63), the ClusterClass CRD's required `spec.variables[].required`, the required fields and
 *   enums of topology and class taints (v1.13+), and the keys of their list-type maps
 *   (listtype.ts).
 *
 * Proposal-era `labels`/`annotations` directly on a v1beta1 topology entry are left to the
 * normaliser, which reads them as metadata with a warning.
 */
import type { Json, JsonObject, ObjectRef } from '../core/model.js';
import { CAPI_SPEC_FIELDS, type Fields } from '../api/capi-fields.js';
import { capiVersionOf } from '../api/normalize.js';
import type { Result } from '../core/result.js';
import { errorBody, fieldError, index, invalid, notSupported, required, type FieldError } from '../core/fielderror.js';
import { isJsonObject } from '../core/go/json.js';
import { closest } from '../core/suggest.js';
import { groupOf } from '../core/labels.js';
import { atLeast, type CapiProfile } from '../core/capi-release.js';
import { pruneUnknownFields, type CrdIndex } from './crds.js';
import { validateMetadata } from '../variables/labels.js';
import { toResults } from '../core/fixes.js';
import { listSetAndMapErrors } from './listtype.js';

const TOP_LEVEL = new Set(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
const PROPOSAL_ERA =
  /^spec\.topology\.(controlPlane|workers\.(machineDeployments|machinePools)\[\d+\])\.(labels|annotations)$/;

/** Paths of the fields of `value` that `fields` does not declare (pruning paths: `a.b[0].c`, map keys as `.key`). */
function unknownPaths(value: Json | undefined, fields: Fields | 1 | '*', path: string, out: string[]): void {
  if (fields === 1 || fields === '*' || value === null || value === undefined) return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => unknownPaths(item, fields, `${path}[${i}]`, out));
    return;
  }
  if (!isJsonObject(value)) return;
  for (const k of Object.keys(value)) {
    const p = `${path}.${k}`;
    const sub = fields['{}'] ?? fields[k];
    if (sub === undefined) out.push(p);
    else unknownPaths(value[k], sub, p, out);
  }
}

/** The sub-tree at a dotted path (list indexes skipped), or undefined. */
function fieldsAt(fields: Fields, path: readonly string[]): Fields | undefined {
  let cur: Fields | 1 | '*' | undefined = fields;
  for (const k of path) {
    if (cur === undefined || cur === 1 || cur === '*') return undefined;
    cur = cur['{}'] ?? cur[k];
  }
  return cur === undefined || cur === 1 || cur === '*' ? undefined : cur;
}

/** The built-in fields of a Cluster or ClusterClass at v1beta1 or v1beta2. */
function specFields(kind: string, version: string): Fields {
  // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- callers pass one of the two kinds at a CAPI version, and the table has all four
  return CAPI_SPEC_FIELDS.get(`${kind}/${version}`)!;
}

/** A fix for an unknown field: the field of the other API version, or a declared sibling with a close name. */
function hint(kind: string, version: string, path: string): string {
  const steps = path.replace(/\[\d+\]/g, '').split('.');
  // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- split gives at least one element
  const name = steps.pop()!;
  const [, ...inSpec] = steps;
  const other = version === 'v1beta1' ? 'v1beta2' : 'v1beta1';
  const otherParent = steps[0] === 'spec' ? fieldsAt(specFields(kind, other), inSpec) : undefined;
  if (otherParent?.[name] !== undefined)
    return `; "${name}" is a cluster.x-k8s.io/${other} ${kind} field: use the ${version} field, or apiVersion cluster.x-k8s.io/${other}`;
  const parent = steps[0] === 'spec' ? fieldsAt(specFields(kind, version), inSpec) : undefined;
  const siblings = steps.length === 0 ? [...TOP_LEVEL] : Object.keys(parent ?? {}).filter((k) => k !== '{}');
  const close = closest(name, siblings);
  return close !== undefined ? `; did you mean "${close}"?` : '; remove it or fix its name and indentation';
}

/** Unknown fields of a Cluster or ClusterClass, by its CRD when given, else by the built-in field list. */
function unknownFields(obj: JsonObject, kind: string, group: string, version: string, crds: CrdIndex): string[] {
  if (crds.versions.get(`${group}/${version}/${kind}`)?.schema) return pruneUnknownFields(crds, obj).pruned;
  const spec = specFields(kind, version);
  const out = Object.keys(obj).filter((k) => !TOP_LEVEL.has(k));
  unknownPaths(obj.spec, spec, 'spec', out);
  return out;
}

const TOPOLOGY_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** The Cluster CRD's `maxLength: 63` (both versions) and `pattern` (v1beta2) on worker topology names. */
function topologyNameErrors(obj: JsonObject, version: string): FieldError[] {
  const workers = (obj.spec as JsonObject | undefined)?.topology as JsonObject | undefined;
  const errors: FieldError[] = [];
  for (const list of ['machineDeployments', 'machinePools']) {
    const items = isJsonObject(workers) && isJsonObject(workers.workers) ? workers.workers[list] : undefined;
    if (!Array.isArray(items)) continue;
    items.forEach((item, i) => {
      const name = isJsonObject(item) ? item.name : undefined;
      // An empty name is reported by the reader and the Cluster webhook ("must not be empty").
      if (typeof name !== 'string' || name === '') return;
      const path = `spec.topology.workers.${list}[${i}].name`;
      if (Buffer.byteLength(name) > 63) errors.push(fieldError('Too long', path, 'may not be more than 63 bytes'));
      if (version === 'v1beta2' && !TOPOLOGY_NAME.test(name))
        errors.push(invalid(path, name, `${path} in body should match '${TOPOLOGY_NAME.source}'`));
    });
  }
  return errors;
}

/**
 * `required` of every ClusterClass variable: `+required` on `ClusterClassVariable.Required` in CAPI's
 * api/core/v1beta1 and api/core/v1beta2 clusterclass_types.go (since v1.11; up to v1.10 a defaulting
 * webhook set it to false), so the CRD lists it and apiextensions' schema validation refuses a
 * variable without it before any webhook runs.
 */
function variableRequiredErrors(obj: JsonObject): FieldError[] {
  const variables = isJsonObject(obj.spec) ? obj.spec.variables : undefined;
  if (!Array.isArray(variables)) return [];
  return variables.flatMap((v, i) =>
    isJsonObject(v) && v.required === undefined ? [required(`${index('spec.variables', i)}.required`, '')] : [],
  );
}

/** The items of the lists at `path` (`[]` steps into each item of a list), with their paths. */
function itemsAt(value: Json | undefined, path: string, at = ''): { item: Json; path: string }[] {
  const [step, ...rest] = path.split('.');
  if (step === undefined || step === '') return value === undefined ? [] : [{ item: value, path: at }];
  const name = step.replace(/\[\]$/, '');
  const child = isJsonObject(value) ? value[name] : undefined;
  const childPath = at === '' ? name : `${at}.${name}`;
  if (!step.endsWith('[]')) return itemsAt(child, rest.join('.'), childPath);
  return Array.isArray(child) ? child.flatMap((v, i) => itemsAt(v, rest.join('.'), index(childPath, i))) : [];
}

/** Where taints are, per kind: the control plane's and each worker's. */
const TAINT_LISTS = {
  Cluster: [
    'spec.topology.controlPlane.taints[]',
    'spec.topology.workers.machineDeployments[].taints[]',
    'spec.topology.workers.machinePools[].taints[]',
  ],
  ClusterClass: [
    'spec.controlPlane.taints[]',
    'spec.workers.machineDeployments[].taints[]',
    'spec.workers.machinePools[].taints[]',
  ],
} as const;

const TAINT_ENUMS = {
  effect: ['NoSchedule', 'PreferNoSchedule', 'NoExecute'],
  propagation: ['Always', 'OnInitialization'],
} as const;

/**
 * `MachineTaint` of CAPI api/core/v1beta1 and v1beta2 common_types.go (v1.13.6, v1.14.2; v1.12 has
 * no taints): `key`, `effect` and `propagation` are `+required`, `effect` and `propagation` enums.
 * The key and value formats are left to the webhook's `ValidateMachineTaints` (webhooks/rules.ts).
 */
function taintSchemaErrors(obj: JsonObject, kind: 'Cluster' | 'ClusterClass', capi: CapiProfile): FieldError[] {
  if (!atLeast(capi, '1.13')) return [];
  return TAINT_LISTS[kind].flatMap((list) =>
    itemsAt(obj, list).flatMap(({ item, path }) => {
      if (!isJsonObject(item)) return [];
      const errors: FieldError[] = [];
      for (const field of ['key', 'effect', 'propagation'] as const)
        if (item[field] === undefined) errors.push(required(`${path}.${field}`, ''));
      for (const [field, values] of Object.entries(TAINT_ENUMS)) {
        const v = item[field];
        if (typeof v === 'string' && !(values as readonly string[]).includes(v))
          errors.push(notSupported(`${path}.${field}`, v, values));
      }
      return errors;
    }),
  );
}

const listMap = (...keys: string[]): JsonObject => ({
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': keys,
});
const object = (properties: JsonObject): JsonObject => ({ properties });
const mapOf = (keys: string[], items: JsonObject): JsonObject => ({ ...listMap(...keys), items });

/**
 * The list-type maps of CAPI's Cluster and ClusterClass CRDs (`+listType=map`, `+listMapKey` in
 * api/core/v1beta1 and v1beta2 cluster_types.go and clusterclass_types.go, the same in both API
 * versions and in v1.12.10-v1.14.2, but taints, which v1.13 added), as an `openAPIV3Schema`.
 */
function capiListMaps(kind: 'Cluster' | 'ClusterClass', capi: CapiProfile): JsonObject {
  const withTaints = (props: JsonObject): JsonObject =>
    object(atLeast(capi, '1.13') ? { ...props, taints: listMap('key', 'effect') } : props);
  const gates = listMap('conditionType');
  const overrides = object({ overrides: listMap('name') });
  if (kind === 'Cluster') {
    return object({
      spec: object({
        availabilityGates: gates,
        topology: object({
          variables: listMap('name'),
          controlPlane: withTaints({ readinessGates: gates, variables: overrides }),
          workers: object({
            machineDeployments: mapOf(['name'], withTaints({ readinessGates: gates, variables: overrides })),
            machinePools: mapOf(['name'], withTaints({ variables: overrides })),
          }),
        }),
      }),
    });
  }
  return object({
    spec: object({
      availabilityGates: gates,
      controlPlane: withTaints({ readinessGates: gates }),
      workers: object({
        machineDeployments: mapOf(['class'], withTaints({ readinessGates: gates })),
        machinePools: mapOf(['class'], withTaints({})),
      }),
      variables: {
        items: object({ schema: object({ openAPIV3Schema: object({ 'x-kubernetes-validations': listMap('rule') }) }) }),
      },
    }),
  });
}

/** The rules of CAPI's own Cluster or ClusterClass CRD the product knows, at the chosen release. */
const capiCrdErrors = (obj: JsonObject, kind: 'Cluster' | 'ClusterClass', version: string, capi: CapiProfile) => [
  ...(kind === 'Cluster' ? topologyNameErrors(obj, version) : variableRequiredErrors(obj)),
  ...taintSchemaErrors(obj, kind, capi),
  ...listSetAndMapErrors(capiListMaps(kind, capi), obj),
];

/**
 * The object's own labels and annotations, as the API server validates every custom resource's
 * metadata (apiextensions-apiserver pkg/registry/customresource/validator.go `Validate` →
 * apimachinery `ValidateObjectMetaAccessor`: `ValidateLabels`, `ValidateAnnotations`) in the same
 * pass as its schema, listing every invalid field in one refusal. Values that are no strings are
 * decoding errors the reader reports.
 */
function objectMetaErrors(obj: JsonObject): FieldError[] {
  const meta = isJsonObject(obj.metadata) ? obj.metadata : undefined;
  const strings = (m: Json | undefined) =>
    isJsonObject(m) ? Object.fromEntries(Object.entries(m).filter(([, v]) => typeof v === 'string')) : undefined;
  return validateMetadata({ labels: strings(meta?.labels), annotations: strings(meta?.annotations) }, 'metadata');
}

/**
 * Strict-decoding errors, errors of the object's labels and annotations and (without the CRD)
 * built-in schema errors of a Cluster or ClusterClass input; [] for other kinds. An object with
 * such errors never reaches CAPI: it must not be rendered.
 */
export function apiServerDecodingErrors(obj: JsonObject, ref: ObjectRef, crds: CrdIndex, capi: CapiProfile): Result[] {
  const version = capiVersionOf(ref.apiVersion);
  if (!version || (ref.kind !== 'Cluster' && ref.kind !== 'ClusterClass')) return [];
  const group = groupOf(ref.apiVersion);
  const results: Result[] = unknownFields(obj, ref.kind, group, version, crds)
    .filter((p) => !(version === 'v1beta1' && ref.kind === 'Cluster' && PROPOSAL_ERA.test(p)))
    .map((p) => ({
      severity: 'error',
      message: `${ref.kind} in version "${version}" cannot be handled as a ${ref.kind}: strict decoding error: unknown field "${p}"${hint(ref.kind, version, p)}`,
      resourceRef: ref,
      field: { path: p },
      tags: { rule: 'strict-decoding' },
    }));
  results.push(...toResults(objectMetaErrors(obj), ref, 'metadata'));
  if (!crds.versions.get(`${group}/${version}/${ref.kind}`)?.schema) {
    for (const e of capiCrdErrors(obj, ref.kind, version, capi)) {
      results.push({
        severity: 'error',
        message: `${errorBody(e)}: the API server would reject this ${ref.kind} as written (${ref.apiVersion} CRD schema); fix it in the input`,
        resourceRef: ref,
        field: { path: e.field },
        tags: { rule: 'crd-schema' },
      });
    }
  }
  return results;
}
