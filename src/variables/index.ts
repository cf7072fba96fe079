/**
 * Variables stage (CAPI internal/topology/variables): compiles a ClusterClass's variable definitions once
 * (validation of the definitions, synthesised `status.variables`, ajv validators, CEL programs)
 * and then defaults and validates the variables of each Cluster using that class, with the
 * field paths and messages of CAPI's webhooks.
 */
import type { CelEnv } from '@bufbuild/cel';
import type {
  Cluster,
  ClusterClass,
  ClusterClassVariable,
  ClusterVariable,
  Json,
  JsonObject,
  ObjectRef,
} from '../core/model.js';
import type { Result } from '../core/result.js';
import type { VariableOrigin } from '../provenance/sources.js';
import { canonicalJson } from '../core/json.js';
import { newCelEnv } from './cel/library.js';
import { compileCelTree, validateCel, type CelTree } from './cel/validate.js';
import {
  defaultErrors,
  rootSchemaErrors,
  structuralErrors,
  validateVariableMetadata,
  validateVariableNames,
} from './classvalidation.js';
import { defaultVariableValue } from './defaulting.js';
import {
  child,
  dedupeResults,
  goQuote,
  invalid,
  key,
  required,
  toResult,
  type FieldError,
} from '../core/fielderror.js';
import {
  throughGoFloat64s,
  goKeyOrder,
  compareGoStrings,
  deepEqualJson,
  goMarshal,
  isJsonObject,
} from '../core/go/json.js';
import { newSchemaCompiler, schemaErrors, type CompiledSchemaValidator, type SchemaCompiler } from './openapi.js';
import { unknownFieldPaths } from './pruning.js';
import { parseSchema, type ParseIssues, type SchemaNode } from './schema.js';
import { FIX, fixed, withFix } from '../core/fixes.js';
import { closest } from '../core/suggest.js';

interface CompiledVariable {
  name: string;
  /**
   * Where its definitions come from, in status order: `inline` (spec.variables) and/or the
   * external patches whose DiscoverVariables extension defined it (status.variables `from`).
   */
  from: string[];
  required: boolean;
  definition: ClusterClassVariable;
  schema: SchemaNode;
  /** Undefined when the schema could not be compiled (already reported on the class). */
  validator?: CompiledSchemaValidator;
  cel?: CelTree;
  /** The definition as `status.variables[].definitions[0]`. */
  status: JsonObject;
}

/** Definitions a DiscoverVariables extension returned for one external patch. */
export interface DiscoveredVariables {
  /** The patch name (status.variables `from`). */
  from: string;
  variables: readonly ClusterClassVariable[];
}

/** Compiled once per ClusterClass and reused for every Cluster of the class. */
export interface CompiledVariables {
  classRef: ObjectRef;
  /** Status order: sorted by name (Go string order). */
  sorted: readonly CompiledVariable[];
  byName: ReadonlyMap<string, CompiledVariable>;
  /** Owned by this compiled class: the CEL environment of its programs. */
  env: CelEnv;
  /** What "variable is not defined" tells the user to do: where the definitions come from. */
  undefinedFix: string;
  /** `newDefinitionsIndex`'s error about status.variables (no or conflicting definitions): the class's Clusters fail with it. */
  invalidDefinitions?: { names: string; detail: string };
}

/** A Cluster variable after defaulting; `origin` only when asked for (provenance). */
export interface DefaultedVariable extends ClusterVariable {
  origin?: VariableOrigin;
}

export interface DefaultedVariables {
  /** cluster-level list after defaulting: user entries in their order, then defaulted-but-unset ones in status (alphabetical) order */
  cluster: DefaultedVariable[];
  controlPlaneOverrides: DefaultedVariable[];
  machineDeploymentOverrides: Map<string, DefaultedVariable[]>;
  machinePoolOverrides: Map<string, DefaultedVariable[]>;
}

const SCHEMA_PATH = 'schema.openAPIV3Schema';

/**
 * A schema keyword of the wrong type (a fractional `minimum`, a `type` that is not a string). In
 * `spec.variables` the API server refuses it first: CAPI's `JSONSchemaProps` types the keyword
 * (api/core/v1beta1 and v1beta2 clusterclass_types.go), so apiextensions' schema validation reports
 * it by index, `spec.variables[4].schema.openAPIV3Schema.minimum`, and no webhook runs. A variable
 * read from elsewhere (status, a discovering extension) fails CAPI's conversion of its definition.
 */
function undecodableSchemaError(e: FieldError, v: ClusterClassVariable, schemaPath: string): FieldError {
  if (!v.fieldPath.startsWith('spec.variables[')) {
    return {
      ...e,
      detail: `failed to convert schema definition for variable ${goQuote(v.name)}; ClusterClass should be checked: ${e.detail}`,
    };
  }
  return {
    ...e,
    field: child(v.fieldPath, SCHEMA_PATH) + e.field.slice(schemaPath.length),
    detail: `${e.detail}: the API server would reject this ClusterClass as written (CRD schema); fix it in the input`,
  };
}

function compileVariable(
  schemas: SchemaCompiler,
  env: CelEnv,
  v: ClusterClassVariable,
  base: string,
  errors: FieldError[],
  warnings: FieldError[],
  from = 'inline',
): CompiledVariable {
  const schemaPath = child(base, SCHEMA_PATH);
  const issues: ParseIssues = { errors: [], ignored: [] };
  const schema = parseSchema(v.schema?.openAPIV3Schema as Json | undefined, schemaPath, issues);
  warnings.push(...issues.ignored);
  const status: JsonObject = { from, required: v.required };
  const meta = v.deprecatedV1Beta1Metadata;
  if (meta && (Object.keys(meta.labels ?? {}).length > 0 || Object.keys(meta.annotations ?? {}).length > 0)) {
    status.deprecatedV1Beta1Metadata = meta as unknown as Json;
  }
  status.schema = { openAPIV3Schema: schema.json };
  const compiled: CompiledVariable = {
    name: v.name,
    from: [from],
    required: v.required,
    definition: v,
    schema,
    status,
  };

  errors.push(...validateVariableMetadata(v, schema, base));
  if (issues.errors.length > 0) {
    errors.push(...issues.errors.map((e) => undecodableSchemaError(e, v, schemaPath)));
    return compiled;
  }
  const structural = structuralErrors(schema, 'field');
  if (structural.length > 0) {
    errors.push(...structural);
    return compiled;
  }
  const ctx = { schemas, env, root: schema };
  const defaults = defaultErrors(ctx, schema);
  errors.push(...defaults);
  if (defaults.length === 0) {
    const node = rootSchemaErrors(ctx);
    errors.push(...node.errors);
    warnings.push(...node.warnings);
  }
  const validator = schemas.compile(schema);
  if ('error' in validator) errors.push(invalid(schemaPath, '', `failed to build validator: ${validator.error}`));
  else compiled.validator = validator;
  const cel = compileCelTree(env, schema);
  if (cel) compiled.cel = cel;
  return compiled;
}

/**
 * The definitions of a class exported with `status.variables`, as the Cluster webhook indexes
 * them (internal/topology/variables/utils.go `newDefinitionsIndex`: the first definition of each
 * variable; none or conflicting definitions are problems). Status schemas were validated by the
 * ClusterClass controller, so they are compiled without reporting.
 */
function statusDefinitions(
  schemas: SchemaCompiler,
  env: CelEnv,
  cc: ClusterClass,
  statusVariables: NonNullable<ClusterClass['statusVariables']>,
) {
  const byName = new Map<string, CompiledVariable>();
  const problems: string[] = [];
  for (const sv of statusVariables) {
    if (sv.definitions.length === 0) problems.push(`variable ${goQuote(sv.name)} has no definitions`);
    if (sv.definitionsConflict) problems.push(`variable ${goQuote(sv.name)} has conflicting definitions`);
    const def = sv.definitions[0];
    if (!def || byName.has(sv.name)) continue;
    const variable: ClusterClassVariable = {
      name: sv.name,
      required: def.required,
      schema: def.schema,
      fieldPath: key('status.variables', sv.name),
    };
    if (def.deprecatedV1Beta1Metadata) variable.deprecatedV1Beta1Metadata = def.deprecatedV1Beta1Metadata;
    const compiled = compileVariable(schemas, env, variable, variable.fieldPath, [], [], def.from);
    compiled.from = sv.definitions.map((d) => d.from);
    byName.set(sv.name, compiled);
  }
  const fix = `ClusterClass "${cc.name}" status.variables does not define it (the definitions Cluster API uses, discovered variables included): remove it from the Cluster or define it in the class`;
  // A field.TypeInvalid naming every definition, with the problems aggregated (kerrors.NewAggregate).
  const invalidDefinitions =
    problems.length === 0
      ? undefined
      : {
          names: `[${statusVariables.map((sv) => `Name: ${sv.name}`).join(',')}]`,
          detail: `variable definitions in the ClusterClass not valid: ${problems.length === 1 ? problems[0] : `[${problems.join(', ')}]`}`,
        };
  return { byName, invalidDefinitions, fix };
}

/**
 * "Define it in spec.variables", and where the definitions of a Runtime Extension would come
 * from when it was not called (`discoveryCalled`: its answer is already in).
 */
function specUndefinedFix(cc: ClusterClass, discoveryCalled: boolean): string {
  const discovering = cc.patches.flatMap((p) =>
    p.external?.discoverVariablesExtension ? [`"${p.external.discoverVariablesExtension}"`] : [],
  );
  const fix = `define it in ClusterClass "${cc.name}" spec.variables, or remove it from the Cluster`;
  if (discovering.length === 0 || discoveryCalled) return fix;
  return `${fix}; variables of Runtime Extension ${discovering.join(', ')} are known only from the class's status.variables or from the extension: render the ClusterClass as exported from the management cluster (kubectl get clusterclass ${cc.name} -n ${cc.namespace} -o yaml), or give its ExtensionConfig (--extensions) or recorded answers (--replay-extensions)`;
}

/** The parts of a definition CAPI compares (clusterclass_controller.go `addDefinitionToExistingStatusVariable`). */
function sameDefinition(a: CompiledVariable, b: CompiledVariable): boolean {
  const dropFalse = (v: Json | undefined): Json | undefined => {
    if (Array.isArray(v)) return v.map((x) => dropFalse(x) ?? null);
    if (!isJsonObject(v)) return v;
    const out: JsonObject = {};
    for (const [k, x] of Object.entries(v)) if (x !== false) out[k] = dropFalse(x) ?? null;
    return out;
  };
  return (
    a.required === b.required &&
    deepEqualJson(dropFalse(a.status.schema) ?? null, dropFalse(b.status.schema) ?? null) &&
    deepEqualJson(
      (a.definition.deprecatedV1Beta1Metadata ?? null) as Json,
      (b.definition.deprecatedV1Beta1Metadata ?? null) as Json,
    )
  );
}

/**
 * The definitions each DiscoverVariables extension returned, added to `byName` as the ClusterClass
 * controller's `reconcileVariables` adds them to status.variables: validated like class variables
 * at `<patch>.variables`; a name defined twice with different definitions is a conflict.
 */
function addDiscovered(
  schemas: SchemaCompiler,
  env: CelEnv,
  cc: ClusterClass,
  classRef: ObjectRef,
  byName: Map<string, CompiledVariable>,
  discovered: readonly DiscoveredVariables[],
  errors: FieldError[],
  warnings: FieldError[],
): Result[] {
  const conflicts = new Set<string>();
  for (const set of discovered) {
    const base = `${set.from}.variables`;
    const setErrors: FieldError[] = validateVariableNames(set.variables, base);
    const compiled = set.variables.map((v) =>
      compileVariable(schemas, env, v, key(base, v.name), setErrors, warnings, set.from),
    );
    errors.push(...setErrors);
    if (setErrors.length > 0) continue;
    for (const c of compiled) {
      const existing = byName.get(c.name);
      if (!existing) byName.set(c.name, c);
      else {
        existing.from.push(set.from);
        if (!sameDefinition(existing, c)) conflicts.add(c.name);
      }
    }
  }
  if (conflicts.size === 0) return [];
  const names = [...conflicts].sort(compareGoStrings);
  return [
    {
      severity: 'error',
      message: `failed to discover variables for ClusterClass ${cc.name}: the following variables have conflicting schemas: ${names.join(',')}`,
      resourceRef: classRef,
      field: { path: 'status.variables' },
      tags: { rule: 'variable-discovery' },
    },
  ];
}

/**
 * The class's variable definitions. With `discovered` (the class's DiscoverVariables extensions
 * were called): `spec.variables` plus what they returned, as the ClusterClass controller
 * computes status.variables — the live answer supersedes an exported status. Without: the
 * exported `status.variables` when present, else `spec.variables`.
 */
export function compileClassVariables(
  cc: ClusterClass,
  classRef: ObjectRef,
  discovered?: readonly DiscoveredVariables[],
  schemas: SchemaCompiler = newSchemaCompiler(),
): { variables: CompiledVariables; results: Result[] } {
  const env = newCelEnv();
  const errors: FieldError[] = validateVariableNames(cc.variables, 'spec.variables');
  const warnings: FieldError[] = [];
  const inline = new Map<string, CompiledVariable>();
  for (const v of cc.variables) {
    const compiled = compileVariable(schemas, env, v, key('spec.variables', v.name), errors, warnings);
    // A repeated name is an error above; the first definition is the one used.
    if (!inline.has(v.name)) inline.set(v.name, compiled);
  }
  const conflicts = discovered ? addDiscovered(schemas, env, cc, classRef, inline, discovered, errors, warnings) : [];
  const fromStatus =
    !discovered && cc.statusVariables ? statusDefinitions(schemas, env, cc, cc.statusVariables) : undefined;
  const byName = fromStatus?.byName ?? inline;
  const sorted = [...byName.values()].sort((a, b) => compareGoStrings(a.name, b.name));
  const results = dedupeResults([
    ...errors.map((e) => toResult(e, classRef, 'error')),
    ...warnings.map((e) => toResult(e, classRef, 'warning')),
    ...conflicts,
  ]);
  const undefinedFix = fromStatus?.fix ?? specUndefinedFix(cc, discovered !== undefined);
  const variables: CompiledVariables = { classRef, sorted, byName, env, undefinedFix };
  if (fromStatus?.invalidDefinitions) variables.invalidDefinitions = fromStatus.invalidDefinitions;
  return { variables, results };
}

/** Synthesised ClusterClass status.variables (CAPI core/reconcilers/clusterclass/clusterclass_controller.go) as plain JSON, sorted by name. */
export function statusVariables(v: CompiledVariables): Json[] {
  return v.sorted.map((c) => ({
    name: c.name,
    definitionsConflict: false,
    definitions: c.from.map((from) => ({ ...c.status, from })),
  }));
}

/** Names of the variables with a definition from `from` (`inline` or an external patch's name): engine.go `definitionsForPatch`. */
export function variableNamesFrom(v: CompiledVariables, from: string): Set<string> {
  return new Set(v.sorted.filter((c) => c.from.includes(from)).map((c) => c.name));
}

/** Names of variables whose definitions come from `spec.variables` (inline). */
export function inlineVariableNames(v: CompiledVariables): Set<string> {
  return variableNamesFrom(v, 'inline');
}

// ------------------------------------------------------------------ Cluster side

const raw = (value: Json | undefined): string => goMarshal(value ?? null);

/** CAPI's "variable is not defined", then the defined name closest to the one set, and what else to do. */
function notDefined(v: CompiledVariables, name: string): string {
  const near = closest(name, v.byName.keys());
  return withFix(
    'variable is not defined',
    near === undefined ? v.undefinedFix : FIX.variableNearName(near, v.undefinedFix),
  );
}

function indexValues(
  values: readonly ClusterVariable[],
  path: string,
): { index: Map<string, ClusterVariable>; errors: FieldError[] } {
  const index = new Map<string, ClusterVariable>();
  const errors: FieldError[] = [];
  for (const val of values) {
    if (index.has(val.name))
      errors.push(invalid(key(path, val.name), raw(val.value), `variable ${goQuote(val.name)} is set more than once`));
    index.set(val.name, val);
  }
  return { index, errors };
}

/**
 * `defaultClusterVariables`: on error the list is left as it was (the webhook does not write it
 * back). With `originsAt` (the list's path, `spec.topology.variables`), each value says whether
 * it was defaulted and where it is written or defaulted from.
 */
function defaultVariableList(
  v: CompiledVariables,
  values: readonly ClusterVariable[],
  path: string,
  createVariables: boolean,
  originsAt?: string,
): { values: DefaultedVariable[]; errors: FieldError[] } {
  const { index, errors } = indexValues(values, path);
  if (errors.length > 0) return { values: [...values], errors };
  const work: { name: string; current?: ClusterVariable; index?: number }[] = values.map((val, index) => ({
    name: val.name,
    current: val,
    index,
  }));
  for (const c of v.sorted) if (!index.has(c.name)) work.push({ name: c.name });
  const out: DefaultedVariable[] = [];
  for (const item of work) {
    const def = v.byName.get(item.name);
    if (!def) {
      errors.push(invalid(key(path, item.name), raw(item.current?.value), notDefined(v, item.name)));
      continue;
    }
    if (!item.current && (!createVariables || !def.schema.default)) continue;
    // CAPI decodes the value with encoding/json and writes it back (cluster_variable_defaulting.go
    // `defaultValue`): its numbers pass through float64s; that is what is validated and patched.
    const value = goKeyOrder(throughGoFloat64s(defaultVariableValue(item.current?.value, def.schema)));
    out.push(
      originsAt === undefined
        ? { name: item.name, value }
        : { name: item.name, value, origin: originOf(item, value, def, originsAt) },
    );
  }
  if (errors.length > 0) return { values: [...values], errors };
  return { values: out, errors };
}

/** Whether a defaulted value differs from what the Cluster wrote, and where each came from. */
function originOf(
  item: { current?: ClusterVariable; index?: number },
  value: Json,
  def: CompiledVariable,
  listPath: string,
): VariableOrigin {
  const defaulted = !item.current || canonicalJson(item.current.value ?? null) !== canonicalJson(value);
  const origin: VariableOrigin = { defaulted };
  if (item.current) origin.from = `${listPath}[${item.index}].value`;
  const schema = `${def.definition.fieldPath}.schema.openAPIV3Schema`;
  if (defaulted) origin.defaultFrom = item.current ? schema : `${schema}.default`;
  return origin;
}

/**
 * `validateClusterVariables` for one list. `notDefaulted`: the first error of defaulting the list,
 * which left it as written (core/webhooks/admission/cluster.go `DefaultVariables`), so a required
 * variable with a default is missing only because of it; its message says so.
 */
export function validateVariableList(
  v: CompiledVariables,
  values: readonly ClusterVariable[],
  oldValues: readonly ClusterVariable[],
  path: string,
  validateRequired: boolean,
  notDefaulted?: FieldError,
): { errors: FieldError[]; warnings: FieldError[] } {
  const warnings: FieldError[] = [];
  const { index, errors } = indexValues(values, path);
  if (errors.length > 0) return { errors, warnings };
  const oldIndex = new Map(oldValues.map((o) => [o.name, o] as const));
  if (validateRequired) {
    for (const c of v.sorted) {
      if (!c.required || index.has(c.name)) continue;
      const missing = required(path, `required variable ${goQuote(c.name)} must be set`);
      errors.push(
        notDefaulted && c.schema.default ? fixed(missing, FIX.variableNotDefaulted(notDefaulted.field)) : missing,
      );
    }
  }
  for (const val of values) {
    const p = key(path, val.name);
    const def = v.byName.get(val.name);
    const rawValue = raw(val.value);
    if (!def) {
      errors.push(invalid(p, rawValue, notDefined(v, val.name)));
      continue;
    }
    const value = val.value ?? null;
    const valuePath = child(p, 'value');
    if (def.validator) {
      const schemaErrs = schemaErrors(def.validator, value, valuePath, () => rawValue);
      if (schemaErrs.length > 0) {
        errors.push(...schemaErrs);
        continue;
      }
    }
    const unknown = unknownFieldPaths(value, def.schema);
    if (unknown.length > 0) {
      errors.push(
        invalid(
          p,
          rawValue,
          `failed validation: ${goQuote(unknown.join(','))} field(s) are not specified in the variable schema of variable ${goQuote(val.name)}`,
        ),
      );
      continue;
    }
    if (def.cel) {
      const old = oldIndex.get(val.name)?.value;
      const cel = validateCel(def.cel, value, old === null ? undefined : old, valuePath, rawValue);
      errors.push(...cel.errors);
      warnings.push(...cel.warnings);
    }
  }
  return { errors, warnings };
}

export function defaultAndValidateClusterVariables(
  v: CompiledVariables,
  cluster: Cluster,
  clusterRef: ObjectRef,
  options?: { previous?: Cluster; origins?: boolean },
): { variables: DefaultedVariables; results: Result[] } {
  const errors: FieldError[] = [];
  const warnings: FieldError[] = [];
  const topo = cluster.topology;
  const prev = options?.previous?.topology;
  const unchanged = {
    cluster: topo.variables ?? [],
    controlPlaneOverrides: topo.controlPlane?.variables?.overrides ?? [],
    machineDeploymentOverrides: new Map(),
    machinePoolOverrides: new Map(),
  };
  if (v.invalidDefinitions) {
    const e = invalid('spec.topology.variables', v.invalidDefinitions.names, v.invalidDefinitions.detail);
    return { variables: unchanged, results: [toResult(e, clusterRef, 'error')] };
  }

  const clusterPath = 'spec.topology.variables';
  /** Where a list is written (index form), when origins are asked for. */
  const originsAt = (listPath: string) => (options?.origins ? listPath : undefined);
  const cl = defaultVariableList(v, topo.variables ?? [], clusterPath, true, originsAt(clusterPath));
  errors.push(...cl.errors);

  const cpPath = 'spec.topology.controlPlane.variables.overrides';
  const cpValues = topo.controlPlane?.variables?.overrides ?? [];
  let cpOverrides = [...cpValues];
  if (cpValues.length > 0) {
    const cp = defaultVariableList(v, cpValues, cpPath, false, originsAt(cpPath));
    errors.push(...cp.errors);
    cpOverrides = cp.values;
  }

  const mdPath = (name: string) => child(key('spec.topology.workers.machineDeployments', name), 'variables.overrides');
  const mpPath = (name: string) => child(key('spec.topology.workers.machinePools', name), 'variables.overrides');
  const defaultMachines = (
    list: readonly { name: string; variables?: { overrides: ClusterVariable[] } }[],
    pathOf: (n: string) => string,
    listPath: string,
  ) => {
    const out = new Map<string, DefaultedVariable[]>();
    for (const [i, m] of list.entries()) {
      const values = m.variables?.overrides ?? [];
      if (values.length === 0) {
        out.set(m.name, []);
        continue;
      }
      const d = defaultVariableList(
        v,
        values,
        pathOf(m.name),
        false,
        options?.origins ? `${listPath}[${i}].variables.overrides` : undefined,
      );
      errors.push(...d.errors);
      out.set(m.name, d.values);
    }
    return out;
  };
  const mdOverrides = defaultMachines(
    topo.workers?.machineDeployments ?? [],
    mdPath,
    'spec.topology.workers.machineDeployments',
  );
  const mpOverrides = defaultMachines(topo.workers?.machinePools ?? [], mpPath, 'spec.topology.workers.machinePools');

  const collect = (r: { errors: FieldError[]; warnings: FieldError[] }) => {
    errors.push(...r.errors);
    warnings.push(...r.warnings);
  };
  collect(validateVariableList(v, cl.values, prev?.variables ?? [], clusterPath, true, cl.errors[0]));
  if (cpOverrides.length > 0)
    collect(validateVariableList(v, cpOverrides, prev?.controlPlane?.variables?.overrides ?? [], cpPath, false));
  const oldMachine = (
    list: readonly { name: string; variables?: { overrides: ClusterVariable[] } }[] | undefined,
    name: string,
  ) => list?.find((m) => m.name === name)?.variables?.overrides ?? [];
  for (const [name, values] of mdOverrides) {
    if (values.length > 0)
      collect(
        validateVariableList(v, values, oldMachine(prev?.workers?.machineDeployments, name), mdPath(name), false),
      );
  }
  for (const [name, values] of mpOverrides) {
    if (values.length > 0)
      collect(validateVariableList(v, values, oldMachine(prev?.workers?.machinePools, name), mpPath(name), false));
  }

  const results = dedupeResults([
    ...errors.map((e) => toResult(e, clusterRef, 'error')),
    ...warnings.map((e) => toResult(e, clusterRef, 'warning')),
  ]);
  return {
    variables: {
      cluster: cl.values,
      controlPlaneOverrides: cpOverrides,
      machineDeploymentOverrides: mdOverrides,
      machinePoolOverrides: mpOverrides,
    },
    results,
  };
}

export { type FieldError };
