/**
 * ClusterClass-side variable validation (CAPI `ValidateClusterClassVariables`,
 * CAPI internal/topology/variables/clusterclass_variable_validation.go). Order and early returns follow `validateRootSchema`: conversion
 * problems, then structural-schema errors, then default validation, then per-node checks
 * (type, example, enum, properties/additionalProperties, CEL).
 */
import type { CelEnv } from '@bufbuild/cel';
import type { ClusterClassVariable, Json } from '../core/model.js';
import {
  compileCelTree,
  compileUntypedCelTree,
  resolveRuleFieldPath,
  validateCel,
  type CelTree,
} from './cel/validate.js';
import { compileRule } from './cel/rules.js';
import { schemaDeclType } from './cel/types.js';
import {
  child,
  fieldError,
  forbidden,
  goQuote,
  index,
  invalid,
  key,
  notSupported,
  required,
  type BadValue,
  type FieldError,
} from '../core/fielderror.js';
import { goMarshal } from '../core/go/json.js';
import { validateMetadata } from './labels.js';
import { schemaErrors, type SchemaCompiler } from './openapi.js';
import { unknownFieldPaths } from './pruning.js';
import type { SchemaNode } from './schema.js';
import { RE2JS } from 're2js';
import { FIX, fixed, metadataFix, withFix } from '../core/fixes.js';

const VALID_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const VALID_REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];

export interface ClassCheckContext {
  schemas: SchemaCompiler;
  env: CelEnv;
  /** The variable's schema: the root of apiextensions' CEL context (`RootCELContext`). */
  root: SchemaNode;
}

interface ClassCheckOutcome {
  errors: FieldError[];
  warnings: FieldError[];
  /** Estimated cost of each compiled rule and messageExpression (undefined: not estimated here). */
  costs: ExpressionCost[];
  /**
   * How many of `errors` come from compiling rules (apiextensions' `CELErrors`): unlike schema
   * errors, they do not keep an enclosing node's rules from being compiled.
   */
  celErrors: number;
}

interface ExpressionCost {
  path: string;
  cost: bigint | undefined;
}

/** apiextensions validation.go `StaticEstimatedCostLimit` and `StaticEstimatedCRDCostLimit`. */
const STATIC_ESTIMATED_COST_LIMIT = 10_000_000n;
const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000n;
/** apiextensions compilation.go `maxCardinality` (`celconfig.MaxRequestSizeBytes`). */
const maxCardinality = (minSerializedSize: number): bigint =>
  BigInt(Math.trunc((3 * 1024 * 1024) / (minSerializedSize + 1)));

/** CAPI clusterclass_variable_validation.go `getCostErrorMessage`. */
function costErrorMessage(costName: string, cost: bigint, limit: bigint): string {
  const factor = Number(cost) / Number(limit);
  const shown = factor > 100 ? 'more than 100x' : factor < 1.5 ? `${factor.toFixed(6)}x` : `${factor.toFixed(1)}x`;
  return `${costName} exceeds budget by factor of ${shown} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/**
 * apiextensions cel_validation.go `extractMaxElements`: how many times a node's children can
 * occur per occurrence of the node (undefined: unbounded).
 */
function maxElements(n: SchemaNode): bigint | undefined {
  if (n.type === 'object')
    return n.additionalProperties
      ? n.maxProperties === undefined
        ? undefined
        : BigInt(Math.max(0, n.maxProperties))
      : 1n;
  if (n.type === 'array') return n.maxItems === undefined ? undefined : BigInt(Math.max(0, n.maxItems));
  return 1n;
}

/**
 * CAPI `validateRootSchema` from `validateSchema` on: the checks of every node, then the
 * estimated cost of all rules and messageExpressions of the variable's schema against
 * `StaticEstimatedCRDCostLimit` (its four most expensive expressions of at least 1% of the limit
 * are named). A total with an expression not estimated here is not judged.
 */
export function rootSchemaErrors(ctx: ClassCheckContext): { errors: FieldError[]; warnings: FieldError[] } {
  const out = schemaNodeErrors(ctx, ctx.root, undefined, true, 1n);
  if (out.costs.some((c) => c.cost === undefined)) return out;
  const total = out.costs.reduce((sum, c) => sum + (c.cost as bigint), 0n);
  if (total <= STATIC_ESTIMATED_CRD_COST_LIMIT) return out;
  const mostExpensive = out.costs
    .filter((c) => (c.cost as bigint) >= STATIC_ESTIMATED_CRD_COST_LIMIT / 100n)
    .sort((a, b) => ((b.cost as bigint) > (a.cost as bigint) ? 1 : (b.cost as bigint) < (a.cost as bigint) ? -1 : 0))
    .slice(0, 4);
  const errors = [
    ...out.errors,
    ...mostExpensive.map((c) =>
      forbidden(
        c.path,
        'contributed to estimated rule & messageExpression cost total exceeding cost limit for entire OpenAPIv3 schema',
      ),
    ),
    forbidden(
      ctx.root.path,
      costErrorMessage(
        'x-kubernetes-validations estimated rule & messageExpression cost total for entire OpenAPIv3 schema',
        total,
        STATIC_ESTIMATED_CRD_COST_LIMIT,
      ),
    ),
  ];
  return { errors, warnings: out.warnings };
}

export function validateVariableNames(vars: readonly ClusterClassVariable[], base: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  for (const v of vars) {
    if (seen.has(v.name)) {
      errs.push(
        invalid(
          child(key(base, v.name), 'name'),
          v.name,
          withFix(
            `variable name must be unique. Variable with name ${goQuote(v.name)} is defined more than once`,
            FIX.duplicate,
          ),
        ),
      );
    }
    seen.add(v.name);
  }
  for (const v of vars) {
    const p = child(key(base, v.name), 'name');
    if (v.name === '') errs.push(required(p, withFix('variable name must be defined', FIX.variableName)));
    if (v.name === 'builtin')
      errs.push(invalid(p, v.name, withFix('"builtin" is a reserved variable name', FIX.variableBuiltin)));
    if (v.name.includes('.'))
      errs.push(invalid(p, v.name, withFix('variable name cannot contain "."', FIX.variableDot)));
  }
  return errs;
}

export function validateVariableMetadata(v: ClusterClassVariable, root: SchemaNode, base: string): FieldError[] {
  const errs = validateMetadata(v.deprecatedV1Beta1Metadata, child(base, 'deprecatedV1Beta1Metadata'));
  const walk = (n: SchemaNode): void => {
    errs.push(...validateMetadata(n.xMetadata, child(n.path, 'x-metadata')));
    if (n.additionalProperties) walk(n.additionalProperties);
    if (n.properties) for (const p of n.properties.values()) walk(p);
    if (n.items) walk(n.items);
  };
  walk(root);
  return errs.map(metadataFix);
}

// ------------------------------------------------------------------ structural schema

type Level = 'field' | 'item';

export function structuralErrors(n: SchemaNode, level: Level): FieldError[] {
  const errs: FieldError[] = [];
  if (n.type === '' && !n.intOrString && n.preserveUnknownFields !== true) {
    const detail =
      level === 'item'
        ? 'must not be empty for specified array items'
        : 'must not be empty for specified object fields';
    errs.push(required(child(n.path, 'type'), withFix(detail, FIX.schemaType)));
  }
  if (n.type === 'array' && !n.items)
    errs.push(required(child(n.path, 'items'), withFix('must be specified', FIX.schemaItems)));
  if (n.preserveUnknownFields === false)
    errs.push(
      invalid(
        child(n.path, 'x-kubernetes-preserve-unknown-fields'),
        false,
        withFix('must be true or undefined', FIX.schemaPreserveFalse),
      ),
    );
  if (n.items) errs.push(...structuralErrors(n.items, 'item'));
  if (n.properties) for (const p of n.properties.values()) errs.push(...structuralErrors(p, 'field'));
  if (n.additionalProperties) errs.push(...structuralErrors(n.additionalProperties, 'field'));
  // The int-or-string exception (apiextensions schema/validation.go `validateStructuralInvariants`):
  // `anyOf: [{type: integer}, {type: string}]`, directly or as the first `allOf` entry, is allowed.
  const skipAnyOf = isIntOrStringAnyOf(n.anyOf);
  const skipFirstAllOfAnyOf = isIntOrStringAnyOf(n.allOf?.[0]?.anyOf);
  for (const s of skipAnyOf ? [] : (n.anyOf ?? [])) errs.push(...valueValidationErrors(s));
  (n.allOf ?? []).forEach((s, i) => errs.push(...valueValidationErrors(s, skipFirstAllOfAnyOf && i === 0)));
  for (const s of n.oneOf ?? []) errs.push(...valueValidationErrors(s));
  if (n.not) errs.push(...valueValidationErrors(n.not));
  return errs;
}

/** apiextensions `intOrStringAnyOf`: exactly `[{type: integer}, {type: string}]`, nothing else set. */
function isIntOrStringAnyOf(list: readonly SchemaNode[] | undefined): boolean {
  const only = (n: SchemaNode, type: string) =>
    n.type === type && Object.entries(n.json).every(([k, v]) => k === 'type' || v === '' || v === false);
  const [first, second, ...more] = list ?? [];
  return (
    first !== undefined && second !== undefined && more.length === 0 && only(first, 'integer') && only(second, 'string')
  );
}

/** Inside allOf/anyOf/oneOf/not only value validations are allowed (`NestedValueValidation`). */
function valueValidationErrors(n: SchemaNode, skipAnyOf = false): FieldError[] {
  return nestedStructuralErrors(n, skipAnyOf).map((e) => fixed(e, FIX.schemaNested));
}

function nestedStructuralErrors(n: SchemaNode, skipAnyOf = false): FieldError[] {
  const errs: FieldError[] = [];
  const raw = n.json;
  if (n.type !== '') errs.push(forbidden(child(n.path, 'type'), 'must be empty to be structural'));
  if (n.additionalProperties)
    errs.push(forbidden(child(n.path, 'additionalProperties'), 'must be undefined to be structural'));
  if (n.default) errs.push(forbidden(child(n.path, 'default'), 'must be undefined to be structural'));
  if (n.description !== undefined && n.description !== '')
    errs.push(forbidden(child(n.path, 'description'), 'must be empty to be structural'));
  if (n.preserveUnknownFields !== undefined)
    errs.push(forbidden(child(n.path, 'x-kubernetes-preserve-unknown-fields'), 'must be undefined to be structural'));
  if (n.intOrString)
    errs.push(forbidden(child(n.path, 'x-kubernetes-int-or-string'), 'must be false to be structural'));
  if (n.validations.length > 0)
    errs.push(forbidden(child(n.path, 'x-kubernetes-validations'), 'must be empty to be structural'));
  if (raw['x-metadata'] !== undefined)
    errs.push(forbidden(child(n.path, 'x-metadata'), 'must be empty to be structural'));
  if (n.items) errs.push(...nestedStructuralErrors(n.items));
  if (n.properties) for (const p of n.properties.values()) errs.push(...nestedStructuralErrors(p));
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const) {
    if (k === 'anyOf' && skipAnyOf) continue;
    for (const s of n[k] ?? []) errs.push(...nestedStructuralErrors(s));
  }
  if (n.not) errs.push(...nestedStructuralErrors(n.not));
  return errs;
}

// ------------------------------------------------------------------ defaults, examples, enums

/** Class-side BadValue: kube-openapi passes the offending value, or the actual type name for type errors. */
const classBadValue = (offending: Json, typeName?: string): BadValue => {
  if (typeName !== undefined) return typeName;
  if (
    typeof offending === 'string' ||
    typeof offending === 'number' ||
    typeof offending === 'boolean' ||
    offending === null
  )
    return offending;
  return { go: goMarshal(offending) };
};

function valueErrors(ctx: ClassCheckContext, n: SchemaNode, value: Json, path: string): FieldError[] {
  const v = ctx.schemas.compile(n);
  if ('error' in v) return [invalid(n.path, '', `failed to build schema validator: ${v.error}`)];
  return schemaErrors(v, value, path, classBadValue);
}

function celValueErrors(
  tree: CelTree | undefined,
  n: SchemaNode,
  value: Json,
  old: Json | undefined,
  path: string,
): FieldError[] {
  if (!tree) return [];
  return validateCel(tree, value, old, path, n.type).errors;
}

/**
 * `structuraldefaulting.ValidateDefaults` with requirePrunedDefaults. additionalProperties are not
 * followed. The variable's schema is the resource root there (`validate`: `s == rootSchema`), so
 * its CEL validator is built from `model.WithTypeAndObjectMeta`, which keeps no `items`: a root
 * array has no CEL declaration type and the rules under it cannot compile
 * (`compileUntypedCelTree`).
 */
export function defaultErrors(ctx: ClassCheckContext, root: SchemaNode): FieldError[] {
  const errors = (n: SchemaNode, isRoot: boolean): FieldError[] => {
    const errs: FieldError[] = [];
    if (n.default) {
      const p = child(n.path, 'default');
      const def = n.default.value;
      if (unknownFieldPaths(def, n).length > 0)
        errs.push(invalid(p, classBadValue(def), withFix('must not have unknown fields', FIX.schemaDefaultUnknown)));
      const schemaErrs = valueErrors(ctx, n, def, p);
      const tree =
        isRoot && n.type === 'array' ? compileUntypedCelTree(ctx.env, n) : compileCelTree(ctx.env, n, isRoot);
      const valueErrs = schemaErrs.length > 0 ? schemaErrs : celValueErrors(tree, n, def, def, p);
      errs.push(
        ...valueErrs.map((e) =>
          fixed(
            e,
            e.detail.startsWith('rule compiler initialization error')
              ? FIX.schemaDefaultRootArrayRules
              : FIX.schemaDefault,
          ),
        ),
      );
    }
    if (n.items) errs.push(...errors(n.items, false));
    if (n.properties) for (const s of n.properties.values()) errs.push(...errors(s, false));
    return errs;
  };
  return errors(root, true);
}

/** `validateSchema` in CAPI: per-node checks, recursing through the whole schema. */
function schemaNodeErrors(
  ctx: ClassCheckContext,
  n: SchemaNode,
  uncorrelatable: string | undefined,
  celAllowed: boolean,
  cardinality: bigint | null,
): ClassCheckOutcome {
  const out: ClassCheckOutcome = { errors: [], warnings: [], costs: [], celErrors: 0 };
  if (n.type !== '' && !VALID_TYPES.includes(n.type)) {
    out.errors.push(fixed(notSupported(child(n.path, 'type'), n.type, VALID_TYPES), FIX.schemaTypeValue));
    return out;
  }
  if (n.pattern !== undefined) {
    try {
      RE2JS.compile(n.pattern);
    } catch (e) {
      out.errors.push(
        invalid(
          child(n.path, 'pattern'),
          n.pattern,
          withFix(
            `must be a valid regular expression, but isn't: ${e instanceof Error ? e.message : String(e)}`,
            FIX.schemaPattern,
          ),
        ),
      );
      return out;
    }
  }
  if (n.example)
    out.errors.push(
      ...valueErrors(ctx, n, n.example.value, child(n.path, 'example')).map((e) => fixed(e, FIX.schemaExample)),
    );
  n.enum?.forEach((e, i) => {
    if (e !== null)
      out.errors.push(...valueErrors(ctx, n, e, index(child(n.path, 'enum'), i)).map((x) => fixed(x, FIX.schemaEnum)));
  });
  const merge = (o: ClassCheckOutcome) => {
    out.errors.push(...o.errors);
    out.warnings.push(...o.warnings);
    out.costs.push(...o.costs);
    out.celErrors += o.celErrors;
  };
  // `CELSchemaContext.childContext`: a child's cardinality is its parent's times the parent's
  // maxProperties/maxItems, unbounded (null) once any of them is.
  const perChild = maxElements(n);
  const childCardinality = cardinality === null || perChild === undefined ? null : cardinality * perChild;
  if (n.additionalProperties) {
    if (n.properties && n.properties.size > 0)
      out.errors.push(
        forbidden(
          n.path,
          withFix('additionalProperties and properties are mutually exclusive', FIX.schemaPropertiesXorAdditional),
        ),
      );
    merge(schemaNodeErrors(ctx, n.additionalProperties, uncorrelatable, celAllowed, childCardinality));
  }
  if (n.properties)
    for (const p of n.properties.values())
      merge(schemaNodeErrors(ctx, p, uncorrelatable, celAllowed, childCardinality));
  if (n.items)
    merge(schemaNodeErrors(ctx, n.items, uncorrelatable ?? child(n.path, 'items'), celAllowed, childCardinality));
  if (n.not) merge(schemaNodeErrors(ctx, n.not, uncorrelatable, false, null));
  for (const k of ['allOf', 'oneOf', 'anyOf'] as const)
    for (const s of n[k] ?? []) merge(schemaNodeErrors(ctx, s, uncorrelatable, false, null));

  if (n.validations.length > 0)
    merge(celRuleErrors(ctx, n, uncorrelatable, celAllowed, out.errors.length === out.celErrors, cardinality));
  return out;
}

/**
 * The BadValue CAPI reports for a rule's compile error: the `apiextensions.ValidationRule`, which
 * apimachinery's `field.Invalid` (validation/field/errors.go `ErrorBody`) prints as its JSON, fields
 * in declaration order (the same in CAPI v1.12-v1.14). The ClusterClass CRD defaults `reason` of
 * the schema's own rules (clusterclass_types.go `+kubebuilder:default`); nested schemas are kept
 * as written (preserve-unknown-fields), so their rules' `reason` stays null.
 */
function ruleValue(r: SchemaNode['validations'][number], atRoot: boolean): BadValue {
  const fields: [string, Json][] = [
    ['Rule', r.rule],
    ['Message', r.message],
    ['MessageExpression', r.messageExpression],
    ['Reason', r.reason === '' ? (atRoot ? 'FieldValueInvalid' : null) : r.reason],
    ['FieldPath', r.fieldPath],
    ['OptionalOldSelf', null],
  ];
  return { go: `{${fields.map(([k, v]) => `"${k}":${goMarshal(v)}`).join(',')}}` };
}

/** One expression's estimated cost against `StaticEstimatedCostLimit`, kept for the schema's total. */
function costErrors(out: ClassCheckOutcome, path: string, costName: string, cost: bigint | undefined): void {
  if (cost !== undefined && cost > STATIC_ESTIMATED_COST_LIMIT)
    out.errors.push(forbidden(path, costErrorMessage(costName, cost, STATIC_ESTIMATED_COST_LIMIT)));
  out.costs.push({ path, cost });
}

function celRuleErrors(
  ctx: ClassCheckContext,
  n: SchemaNode,
  uncorrelatable: string | undefined,
  celAllowed: boolean,
  noSchemaErrors: boolean,
  cardinality: bigint | null,
): ClassCheckOutcome {
  const out: ClassCheckOutcome = { errors: [], warnings: [], costs: [], celErrors: 0 };
  const base = child(n.path, 'x-kubernetes-validations');
  n.validations.forEach((r, i) => {
    const p = index(base, i);
    const rule = r.rule.trim();
    const msg = r.message.trim();
    const message = (detail: string, value = r.message) =>
      out.errors.push(invalid(child(p, 'message'), value, withFix(detail, FIX.celMessage)));
    const fieldPath = (detail: string) =>
      out.errors.push(invalid(child(p, 'fieldPath'), r.fieldPath, withFix(detail, FIX.celFieldPath)));
    if (rule.length === 0) out.errors.push(required(child(p, 'rule'), withFix('rule is not specified', FIX.celRule)));
    else if (r.message.length > 0 && msg.length === 0) message('message must be non-empty if specified');
    else if (r.message.length > 2048)
      message('message must have a maximum length of 2048 characters', r.message.slice(0, 10) + '...');
    else if (/[\n\r]/.test(msg)) message('message must not contain line breaks');
    else if (/[\n\r]/.test(rule) && msg.length === 0)
      out.errors.push(
        required(
          child(p, 'message'),
          withFix('message must be specified if rule contains line breaks', FIX.celMessageForMultiLineRule),
        ),
      );
    if (r.messageExpression.length > 0 && r.messageExpression.trim().length === 0) {
      out.errors.push(
        required(
          child(p, 'messageExpression'),
          withFix('messageExpression must be non-empty if specified', FIX.celMessageExpression),
        ),
      );
    }
    if (r.reason !== '' && !VALID_REASONS.includes(r.reason))
      out.errors.push(fixed(notSupported(child(p, 'reason'), r.reason, VALID_REASONS), FIX.celReason));
    if (r.fieldPath.length > 0 && r.fieldPath.trim().length === 0)
      fieldPath('fieldPath must be non-empty if specified');
    if (/\n/.test(r.fieldPath)) fieldPath('fieldPath must not contain line breaks');
    if (r.fieldPath.length > 0) {
      const fp = resolveRuleFieldPath(r.fieldPath, n);
      if ('error' in fp) fieldPath(`fieldPath must be a valid path: ${fp.error}`);
    }
  });
  if (!noSchemaErrors || out.errors.length > 0 || !celAllowed) return out;
  return { ...compiledRuleErrors(ctx, n, uncorrelatable, cardinality, out), celErrors: out.errors.length };
}

/** The errors of compiling `n`'s rules, their costs and their checks of the node's example and enum. */
function compiledRuleErrors(
  ctx: ClassCheckContext,
  n: SchemaNode,
  uncorrelatable: string | undefined,
  cardinality: bigint | null,
  out: ClassCheckOutcome,
): ClassCheckOutcome {
  const base = child(n.path, 'x-kubernetes-validations');

  // `CELSchemaContext.TypeInfo`: the root is a resource root (`SchemaDeclType(s, true)`, whose
  // copy keeps no items: a root array has no type); other nodes have their own declared type,
  // read from their parent's when the parent is in a rule's scope: under a root array with rules
  // of its own, every node's type fails as the root's does.
  const rootFails = n !== ctx.root && ctx.root.validations.length > 0 && !schemaDeclType(ctx.root, true);
  const self = rootFails ? undefined : schemaDeclType(n, n === ctx.root);
  if (!self) {
    out.errors.push(
      fieldError(
        'Internal error',
        base,
        'internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations',
      ),
    );
    return out;
  }
  const rules = n.validations.map((d) => compileRule(ctx.env, d, self));
  // `getExpressionCost`: a rule's cost times the node's cardinality, or when that is unbounded
  // times `maxCardinality` of its type; a messageExpression's cost as estimated.
  const times = cardinality ?? maxCardinality(self.sized?.minSerializedSize ?? 0);
  rules.forEach((c, i) => {
    const p = index(base, i);
    const ruleCost = c.rule.compileError !== undefined ? 0n : c.rule.cost;
    costErrors(out, child(p, 'rule'), 'estimated rule cost', ruleCost === undefined ? undefined : ruleCost * times);
    if (c.rule.compileError !== undefined)
      out.errors.push(
        invalid(child(p, 'rule'), ruleValue(c.def, n === ctx.root), withFix(c.rule.compileError, FIX.celCompile)),
      );
    if (c.message?.compileError !== undefined)
      out.errors.push(
        invalid(
          child(p, 'messageExpression'),
          ruleValue(c.def, n === ctx.root),
          withFix(c.message.compileError, FIX.celCompile),
        ),
      );
    else if (c.message)
      costErrors(out, child(p, 'messageExpression'), 'estimated messageExpression cost', c.message.cost);
    if (c.rule.usesOldSelf && uncorrelatable !== undefined) {
      out.errors.push(
        invalid(
          child(p, 'rule'),
          c.def.rule,
          withFix(
            `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable}`,
            FIX.celOldSelfInItems,
          ),
        ),
      );
    }
    if (c.rule.unsupported !== undefined) {
      // The value shown is the rule: the detail does not quote it a second time.
      out.warnings.push(
        fieldError(
          'Invalid value',
          child(p, 'rule'),
          `this x-kubernetes-validations rule cannot be evaluated offline: ${c.rule.unsupported}; values are not checked against it`,
          c.def.rule,
        ),
      );
    }
  });
  if (out.errors.length > 0) return out;
  const full = compileCelTree(ctx.env, n);
  if (n.example)
    out.errors.push(
      ...celValueErrors(full, n, n.example.value, undefined, child(n.path, 'example')).map((e) =>
        fixed(e, FIX.schemaExample),
      ),
    );
  n.enum?.forEach((e, i) => {
    if (e !== null)
      out.errors.push(
        ...celValueErrors(full, n, e, undefined, index(child(n.path, 'enum'), i)).map((x) => fixed(x, FIX.schemaEnum)),
      );
  });
  return out;
}
