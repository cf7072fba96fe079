/**
 * CRD awareness: what the API server would do with provider objects, given their
 * CustomResourceDefinitions (apiextensions.k8s.io/v1).
 *
 * - `loadCrds` indexes every version's `schema.openAPIV3Schema` by `group/version/Kind`.
 * - `contractVersionsFromCrds` reads the `cluster.x-k8s.io/<contract>` labels (CAPI internal/contract/version.go `GetContractVersionForVersion`).
 * - `applyCrdDefaults` is structural defaulting of a stored object (CAPI core/reconcilers/topology/cluster/cluster_controller.go `reconcile`): non-nullable
 *   `null` fields without a default are dropped, then defaults are applied wherever the parent
 *   exists (properties, additionalProperties, items; never under allOf/anyOf/oneOf/not). It
 *   does not prune unknown fields (`pruneUnknownFields` does) and does not run provider
 *   defaulting webhooks: a default below an absent parent object is NOT created.
 * - `validateAgainstCrd` reports what the API server would say about a rendered object.
 *   Severity policy: schema violations (type, required, enum, pattern, bounds, formats...) are
 *   errors because the API server rejects the object; fields the schema does not declare are
 *   warnings because the API server silently drops them (the object is accepted, the value is
 *   lost). A version the CRD does not define or serve is an error. `x-kubernetes-validations`
 *   (CEL) rules of a well-typed object are evaluated as on create (no transition rules); rules
 *   using functions the offline CEL library lacks are listed in one `info` result. ObjectMeta
 *   validation is not done. Kinds without a CRD are skipped.
 *   Messages end with how to fix: in the template or patch for a rendered object, in the input
 *   for an input object (`subject`). A missing required field lists the values its enum allows;
 *   an empty list below `minItems` says that `[]` is kept and rejected, not treated as unset.
 *   Mutating admission (provider defaulting webhooks) is emulated in `admission.ts`.
 *
 * The index owns one schema compiler and compiles a version's schema on first use.
 */
import { jsonString, jsonText } from '../core/json.js';
import type { Json, JsonObject, ObjectRef } from '../core/model.js';
import type { ContractVersion } from '../krm/config.js';
import type { Result } from '../core/result.js';
import { applyStructuralDefaults } from '../variables/defaulting.js';
import { errorBody, type BadValue, type FieldError } from '../core/fielderror.js';
import { deepCopy, goMarshal, hasOwn, isJsonObject, jsonTypeName, setOwn } from '../core/go/json.js';
import {
  newSchemaCompiler,
  schemaErrors,
  type CompiledSchemaValidator,
  type SchemaCompiler,
} from '../variables/openapi.js';
import { parseSchema, type ParseIssues, type SchemaNode } from '../variables/schema.js';
import { compileCelTree, validateCel, type CelTree } from '../variables/cel/validate.js';
import { newCelEnv } from '../variables/cel/library.js';
import { listSetAndMapErrors } from './listtype.js';
import type { CelEnv } from '@bufbuild/cel';

interface CrdVersion {
  group: string;
  version: string;
  kind: string;
  served: boolean;
  storage: boolean;
  deprecated: boolean;
  /** The raw `openAPIV3Schema`, when the version has one. */
  schema?: JsonObject;
  /** Name and labels of the CRD that defines it. */
  crdName: string;
  labels: Record<string, string>;
}

interface CompiledCrdSchema {
  node?: SchemaNode;
  validator?: CompiledSchemaValidator;
  /** The schema's `x-kubernetes-validations`, compiled; absent when it has none. */
  cel?: CelTree;
  /** Why the schema cannot be used for validation (reported once per object). */
  problem?: string;
}

export interface CrdIndex {
  /** `group/version/Kind` → version entry. */
  readonly versions: ReadonlyMap<string, CrdVersion>;
  /** `group/Kind` → the versions the CRD defines, in CRD order. */
  readonly kinds: ReadonlyMap<string, readonly CrdVersion[]>;
  /** @internal compiled schemas, filled on first use */
  readonly compiled: Map<string, CompiledCrdSchema>;
  /** @internal owned by this index */
  readonly schemas: SchemaCompiler;
  /** @internal the CEL environment of `x-kubernetes-validations`, made on first use */
  celEnv?: CelEnv;
}

const CRD_API_VERSION = 'apiextensions.k8s.io/v1';
const CONTRACT_LABEL_PREFIX = 'cluster.x-k8s.io/';
const CONTRACT_ORDER: readonly ContractVersion[] = ['v1beta1', 'v1beta2'];

const splitApiVersion = (apiVersion: string): { group: string; version: string } => {
  const i = apiVersion.indexOf('/');
  return i < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
};
const gvkKey = (group: string, version: string, kind: string) => `${group}/${version}/${kind}`;

function stringMap(v: Json | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isJsonObject(v)) return out;
  for (const k of Object.keys(v)) {
    const s = v[k];
    if (typeof s === 'string') out[k] = s;
  }
  return out;
}

/**
 * Indexes CustomResourceDefinitions. Objects of other kinds are ignored. Problems (wrong
 * apiextensions version, missing group/kind/versions, two CRDs defining the same version) are
 * results on the CRD object; the first definition of a version wins.
 */
/** `numberRanges`: the API server checks numbers against their type's range (`checksNumberRanges`). */
export function loadCrds(
  objects: readonly JsonObject[],
  options: { numberRanges?: boolean } = {},
): { crds: CrdIndex; results: Result[] } {
  const versions = new Map<string, CrdVersion>();
  const kinds = new Map<string, CrdVersion[]>();
  const results: Result[] = [];
  for (const obj of objects) {
    if (obj.kind !== 'CustomResourceDefinition') continue;
    const meta = isJsonObject(obj.metadata) ? obj.metadata : {};
    const name = typeof meta.name === 'string' ? meta.name : '';
    const ref: ObjectRef = { apiVersion: jsonText(obj.apiVersion ?? ''), kind: 'CustomResourceDefinition', name };
    const problem = (path: string, message: string, severity: 'error' | 'warning' = 'error') =>
      results.push({ severity, message, resourceRef: ref, field: { path }, tags: { rule: 'crd-load' } });
    if (obj.apiVersion !== CRD_API_VERSION) {
      problem(
        'apiVersion',
        `CustomResourceDefinition "${name}" is ${jsonText(obj.apiVersion)}; only ${CRD_API_VERSION} is supported: supply the CRD as installed (kubectl get crd ${name} -o yaml)`,
        'warning',
      );
      continue;
    }
    const spec = isJsonObject(obj.spec) ? obj.spec : undefined;
    const group = typeof spec?.group === 'string' ? spec.group : '';
    const kind = isJsonObject(spec?.names) && typeof spec.names.kind === 'string' ? spec.names.kind : '';
    const list = Array.isArray(spec?.versions) ? spec.versions : [];
    if (group === '' || kind === '' || list.length === 0) {
      problem(
        'spec',
        `CustomResourceDefinition "${name}" has no spec.group, spec.names.kind or spec.versions: it cannot be used; supply the complete CRD`,
      );
      continue;
    }
    const labels = stringMap(meta.labels);
    const defined: CrdVersion[] = kinds.get(`${group}/${kind}`) ?? [];
    list.forEach((v, i) => {
      if (!isJsonObject(v) || typeof v.name !== 'string' || v.name === '') {
        problem(
          `spec.versions[${i}].name`,
          `CustomResourceDefinition "${name}" has a version without a name: fix the CRD`,
        );
        return;
      }
      const key = gvkKey(group, v.name, kind);
      const earlier = versions.get(key);
      if (earlier) {
        problem(
          `spec.versions[${i}]`,
          `${kind} ${group}/${v.name} is defined by more than one CustomResourceDefinition (also "${earlier.crdName}"): the first one is used; remove the duplicate`,
          'warning',
        );
        return;
      }
      const schemaHolder = isJsonObject(v.schema) ? v.schema : undefined;
      const raw = schemaHolder && isJsonObject(schemaHolder.openAPIV3Schema) ? schemaHolder.openAPIV3Schema : undefined;
      const entry: CrdVersion = {
        group,
        version: v.name,
        kind,
        served: v.served === true,
        storage: v.storage === true,
        deprecated: v.deprecated === true,
        crdName: name,
        labels,
      };
      if (raw) entry.schema = raw;
      versions.set(key, entry);
      defined.push(entry);
    });
    kinds.set(`${group}/${kind}`, defined);
  }
  return {
    crds: { versions, kinds, compiled: new Map(), schemas: newSchemaCompiler({ ...options, numberDecoding: 'int64' }) },
    results,
  };
}

/**
 * Contract versions per `group/version/Kind` from the CRD labels
 * `cluster.x-k8s.io/<contract>: <version>[_<version>...]` (CAPI `GetContractVersionForVersion`).
 * When several labels list a version, the newest contract wins. Contracts other than
 * v1beta1/v1beta2 (v1alpha3, v1alpha4) are ignored.
 */
export function contractVersionsFromCrds(crds: CrdIndex): Record<string, ContractVersion> {
  const out: Record<string, ContractVersion> = {};
  for (const list of crds.kinds.values()) {
    const first = list[0];
    if (!first) continue;
    const group = first.group;
    for (const [label, value] of Object.entries(first.labels)) {
      if (!label.startsWith(CONTRACT_LABEL_PREFIX)) continue;
      const contract = label.slice(CONTRACT_LABEL_PREFIX.length) as ContractVersion;
      if (!CONTRACT_ORDER.includes(contract)) continue;
      for (const version of value.split('_')) {
        if (version === '') continue;
        const key = gvkKey(group, version, first.kind);
        const current = out[key];
        if (!current || CONTRACT_ORDER.indexOf(contract) > CONTRACT_ORDER.indexOf(current)) out[key] = contract;
      }
    }
  }
  return out;
}

function lookup(
  crds: CrdIndex,
  obj: JsonObject,
): { entry?: CrdVersion; defined?: readonly CrdVersion[]; group: string; version: string; kind: string } {
  const { group, version } = splitApiVersion(typeof obj.apiVersion === 'string' ? obj.apiVersion : '');
  const kind = typeof obj.kind === 'string' ? obj.kind : '';
  const entry = crds.versions.get(gvkKey(group, version, kind));
  const defined = crds.kinds.get(`${group}/${kind}`);
  return { ...(entry ? { entry } : {}), ...(defined ? { defined } : {}), group, version, kind };
}

function compiledFor(crds: CrdIndex, entry: CrdVersion): CompiledCrdSchema {
  const key = gvkKey(entry.group, entry.version, entry.kind);
  const cached = crds.compiled.get(key);
  if (cached) return cached;
  let out: CompiledCrdSchema;
  if (!entry.schema) out = { problem: 'the CRD version has no openAPIV3Schema' };
  else {
    const issues: ParseIssues = { errors: [], ignored: [] };
    const node = parseSchema(entry.schema, '', issues, 'crd');
    const [e] = issues.errors;
    if (e) {
      out = { node, problem: `the CRD schema cannot be used: ${e.field}: ${errorBody(e)}` };
    } else {
      const v = crds.schemas.compile(node);
      if ('error' in v) out = { node, problem: `the CRD schema cannot be compiled: ${v.error}` };
      else {
        const cel = compileCelTree((crds.celEnv ??= newCelEnv()), node);
        out = cel ? { node, validator: v, cel } : { node, validator: v };
      }
    }
  }
  crds.compiled.set(key, out);
  return out;
}

// ------------------------------------------------------------------ raw-schema walks

const EMBEDDED_KEYS = new Set(['apiVersion', 'kind', 'metadata']);
const schemaOf = (s: Json | undefined): JsonObject | undefined => (isJsonObject(s) ? s : undefined);
const propSchema = (s: JsonObject | undefined, k: string): JsonObject | undefined => {
  const props = schemaOf(s?.properties);
  return props && hasOwn(props, k) ? schemaOf(props[k]) : undefined;
};

/** Where a key's value is described: a schema, "kept without schema", or "pruned". */
function childSchema(s: JsonObject | undefined, k: string, root: boolean): JsonObject | 'keep' | 'prune' {
  if (root && EMBEDDED_KEYS.has(k)) return 'keep';
  if (s?.['x-kubernetes-embedded-resource'] === true && EMBEDDED_KEYS.has(k)) return 'keep';
  const p = propSchema(s, k);
  if (p) return p;
  const ap = s?.additionalProperties;
  if (isJsonObject(ap)) return ap;
  if (ap === true || s?.['x-kubernetes-preserve-unknown-fields'] === true) return 'keep';
  return 'prune';
}

/** Copies `value` dropping unknown fields (into `pruned`) and non-nullable nulls without a default. */
function prune(
  value: Json,
  s: JsonObject | undefined,
  path: string,
  root: boolean,
  pruned: string[] | undefined,
  dropUnknown: boolean,
): Json {
  if (Array.isArray(value)) {
    const items = schemaOf(s?.items);
    return value.map((v, i) => (items ? prune(v, items, `${path}[${i}]`, false, pruned, dropUnknown) : deepCopy(v)));
  }
  if (!isJsonObject(value)) return value;
  const out: JsonObject = {};
  for (const k of Object.keys(value)) {
    const v = value[k] as Json;
    const p = path === '' ? k : `${path}.${k}`;
    const c = childSchema(s, k, root);
    if (c === 'prune') {
      pruned?.push(p);
      if (!dropUnknown) setOwn(out, k, deepCopy(v));
      continue;
    }
    if (c === 'keep') {
      setOwn(out, k, deepCopy(v));
      continue;
    }
    if (v === null && c.nullable !== true && c.default === undefined) continue;
    setOwn(out, k, prune(v, c, p, false, pruned, dropUnknown));
  }
  return out;
}

/**
 * kube-openapi reports the actual type name as the bad value of a type error, the value otherwise;
 * apiextensions' `kubeOpenAPIResultToFieldErrors` gives a plain error (not an
 * `errors.Validation`: composites, range checks) the bad value "".
 */
const badValue = (v: Json, typeName?: string, plain?: boolean): BadValue =>
  plain === true
    ? ''
    : typeName !== undefined && typeName === jsonTypeName(v)
      ? typeName
      : v !== null && typeof v === 'object'
        ? { go: goMarshal(v) }
        : v;

function checkedObject(obj: JsonObject): JsonObject {
  return isJsonObject(obj) ? obj : {};
}

/**
 * Structural defaulting of a stored object by its CRD (see the module comment). Returns a new
 * object; the input is never mutated; `observe` is told of each default applied. Objects whose apiVersion/kind has no CRD schema are
 * returned as a copy, unchanged.
 */
export function applyCrdDefaults(
  crds: CrdIndex,
  obj: JsonObject,
  observe?: (path: (string | number)[], detail: string) => void,
): JsonObject {
  const { entry } = lookup(crds, obj);
  const copy = deepCopy<JsonObject>(checkedObject(obj));
  if (!entry?.schema) return copy;
  const compiled = compiledFor(crds, entry);
  const withoutNulls = prune(copy, entry.schema, '', true, undefined, false) as JsonObject;
  if (!compiled.node) return withoutNulls;
  const detail = `default in the schema of CRD ${entry.crdName} (${entry.version})`;
  return applyStructuralDefaults(
    withoutNulls,
    compiled.node,
    observe && ((path) => observe(path, detail)),
  ) as JsonObject;
}

/** Whether a given CRD defines the object's group and kind (in any version). */
export function crdDefines(crds: CrdIndex, obj: JsonObject): boolean {
  return lookup(crds, obj).defined !== undefined;
}

/** The object as the API server would store it (unknown fields dropped), and the dropped paths. */
export function pruneUnknownFields(crds: CrdIndex, obj: JsonObject): { object: JsonObject; pruned: string[] } {
  const { entry } = lookup(crds, obj);
  if (!entry?.schema) return { object: deepCopy<JsonObject>(checkedObject(obj)), pruned: [] };
  const pruned: string[] = [];
  const object = prune(obj, entry.schema, '', true, pruned, true) as JsonObject;
  return { object, pruned };
}

/** A rendered object (fix the template or patch) or an input object (fix the input as written). */
export type CrdSubject = 'rendered' | 'input';

/** The raw schema at a dotted field path (`a.b[0].c`, `m[key]`), or undefined. */
function rawSchemaAt(root: JsonObject, path: string): JsonObject | undefined {
  let s: JsonObject | undefined = root;
  for (const m of path.matchAll(/([^.[\]]+)|\[([^\]]*)\]/g)) {
    if (!s) return undefined;
    if (m[1] !== undefined) s = propSchema(s, m[1]) ?? schemaOf(s.additionalProperties);
    else s = schemaOf(s.items) ?? schemaOf(s.additionalProperties);
  }
  return s;
}

/** What to add to a schema error so that its message says how to fix it. */
function fixHint(e: FieldError, schema: JsonObject): string {
  if (e.type === 'Required value') {
    const values = rawSchemaAt(schema, e.field)?.enum;
    return Array.isArray(values) && values.length > 0
      ? ` (set it to one of: ${values.map((v) => jsonString(v)).join(', ')})`
      : '';
  }
  if (
    e.type === 'Invalid value' &&
    typeof e.badValue === 'object' &&
    e.badValue !== null &&
    e.badValue.go === '[]' &&
    e.detail.includes('should have at least')
  ) {
    return ' (an empty list is not the same as leaving the field out: the API server keeps `[]` and rejects it; remove the field where it is set to `[]`, e.g. a patch adding `value: []`, or add at least one item)';
  }
  return '';
}

/**
 * Validates an object against its CRD (see the module comment for the severity policy): a
 * rendered object by default, an input object as written with `subject: 'input'`. Results carry
 * `ref` and a dotted field path such as
 * `spec.template.spec.backend.docker.extraMounts[0].containerPath`.
 */
export function validateAgainstCrd(
  crds: CrdIndex,
  obj: JsonObject,
  ref: ObjectRef,
  subject: CrdSubject = 'rendered',
): Result[] {
  const { entry, defined, group, version, kind } = lookup(crds, obj);
  if (!defined || defined.length === 0) return [];
  const results: Result[] = [];
  const push = (severity: Result['severity'], path: string | undefined, message: string, rule: string) => {
    const r: Result = { severity, message, resourceRef: ref, tags: { rule } };
    if (path !== undefined) r.field = { path };
    results.push(r);
  };
  const served = defined.filter((v) => v.served).map((v) => v.version);
  const gv = group === '' ? version : `${group}/${version}`;
  if (!entry || !entry.served) {
    const what = entry ? 'is not served by' : 'is not defined in';
    push(
      'error',
      'apiVersion',
      `${kind} version ${version} ${what} its CustomResourceDefinition "${defined[0]?.crdName}" (served: ${served.join(', ') || 'none'}): use apiVersion ${group}/${served[served.length - 1] ?? '<served version>'}${subject === 'input' ? '' : ' in the template'}`,
      'crd-version',
    );
    return results;
  }
  if (!entry.schema) return results;
  const compiled = compiledFor(crds, entry);

  const pruned: string[] = [];
  const stored = prune(obj, entry.schema, '', true, pruned, true);
  for (const p of pruned) {
    push(
      'warning',
      p,
      `unknown field "${p}": the ${kind} CRD (${gv}) does not declare it, so the API server would silently drop it; remove it or fix its name/indentation (check the patch or template that sets it)`,
      'crd-pruned',
    );
  }
  if (!compiled.validator) {
    push(
      'warning',
      undefined,
      `${kind} ${gv}: ${compiled.problem ?? 'no schema'}; the object was not validated`,
      'crd-schema',
    );
    return results;
  }
  const fix =
    subject === 'input'
      ? `would reject this ${kind} as written (${gv} CRD schema); fix it in the input`
      : `would reject this ${kind} (${gv} CRD schema); fix the value in the template or the patch/variable that produces it`;
  const schemaErrs = schemaErrors(compiled.validator, stored, '', badValue);
  // After the schema, the uniqueness of list sets and maps (apiextensions-apiserver
  // pkg/registry/customresource/strategy.go `Validate`); it does not keep CEL rules from running.
  for (const e of [...schemaErrs, ...(isJsonObject(stored) ? listSetAndMapErrors(entry.schema, stored) : [])]) {
    push('error', e.field, `${errorBody(e)}${fixHint(e, entry.schema)}: the API server ${fix}`, 'crd-schema');
  }
  // CEL rules see well-typed values only; on create there is no old object, so transition rules are
  // skipped. The API server shows the schema type as the bad value of a failed rule.
  if (compiled.cel && schemaErrs.length === 0) {
    const cel = validateCel(compiled.cel, stored, undefined, '', jsonTypeName);
    for (const e of cel.errors) push('error', e.field, `${errorBody(e)}: the API server ${fix}`, 'crd-cel');
    if (cel.warnings.length > 0) {
      const rules = [...new Set(cel.warnings.map((w) => w.detail))];
      push(
        'info',
        undefined,
        `${kind} ${gv}: ${rules.length} x-kubernetes-validations rule(s) could not be evaluated offline and were not checked: ${rules.join('; ')}`,
        'crd-cel',
      );
    }
  }
  return results;
}

/** Where each field of an object came from (`explain` provenance), as one line per field path. */
export type FieldOriginsOf = (ref: ObjectRef) => readonly { path: string; origin: string }[] | undefined;

const isUnder = (path: string, parent: string): boolean =>
  path.startsWith(`${parent}.`) || path.startsWith(`${parent}[`);
const parentPath = (path: string): string => path.replace(/(\.[^.[\]]+|\[[^\]]*\])$/, '');

/**
 * `crd-schema` errors get where the rejected value came from appended: the field itself, else the
 * first field below it (an object or list), else, for a missing field, the first field next to
 * it (in the object that lacks it). `originsOf` is only called when there is such an error.
 */
export function withValueOrigins(results: Result[], originsOf: FieldOriginsOf): Result[] {
  return results.map((r) => {
    const path = r.field?.path;
    if (r.severity !== 'error' || r.tags?.rule !== 'crd-schema' || !path || !r.resourceRef) return r;
    const fields = originsOf(r.resourceRef);
    if (!fields) return r;
    const own = fields.find((f) => f.path === path) ?? fields.find((f) => isUnder(f.path, path));
    if (own) return { ...r, message: `${r.message} (${path} comes from ${own.origin})` };
    const parent = parentPath(path);
    const holder = parent !== path && parent !== '' ? fields.find((f) => isUnder(f.path, parent)) : undefined;
    return holder ? { ...r, message: `${r.message} (next to ${holder.path}, which comes from ${holder.origin})` } : r;
  });
}
