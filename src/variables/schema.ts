/**
 * A typed view of a variable's `openAPIV3Schema` (CAPI `JSONSchemaProps`, plain JSON in the
 * model). Parsing keeps only the keywords CAPI's API type has: everything else is pruned by the
 * API server (CAPI api/core/v1beta2/clusterclass_types.go), so it is reported as a warning and otherwise ignored.
 * Shape problems (e.g. `properties` not an object) are errors, as the API server would refuse
 * to decode them.
 */
import type { Json, JsonObject } from '../core/model.js';
import { child, fieldError, invalid, key, index, type FieldError } from '../core/fielderror.js';
import { defineKey, int64Double, isObject } from '../core/json.js';
import { getOwn, goMarshal } from '../core/go/json.js';

export interface ValidationRuleDef {
  rule: string;
  message: string;
  messageExpression: string;
  /** Empty when unset (the API treats that as FieldValueInvalid). */
  reason: string;
  fieldPath: string;
}

export interface SchemaNode {
  /** Dotted field path of this node in the ClusterClass, e.g. `spec.variables[x].schema.openAPIV3Schema.properties[a]`. */
  path: string;
  type: string;
  format: string;
  description?: string;
  properties?: Map<string, SchemaNode>;
  additionalProperties?: SchemaNode;
  items?: SchemaNode;
  required?: string[];
  maxProperties?: number;
  minProperties?: number;
  maxItems?: number;
  minItems?: number;
  uniqueItems: boolean;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  /** The bounds as kube-openapi reads them: float64s (CAPI's int64 bounds converted). */
  maximum?: number;
  minimum?: number;
  /** Only in CRD schemas (CAPI's `JSONSchemaProps` has no multipleOf). */
  multipleOf?: number;
  exclusiveMaximum: boolean;
  exclusiveMinimum: boolean;
  enum?: Json[];
  /** `{ value }` wrapper so a JSON `null` default is distinguishable from "no default". */
  default?: { value: Json };
  example?: { value: Json };
  preserveUnknownFields?: boolean;
  intOrString: boolean;
  allOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  anyOf?: SchemaNode[];
  not?: SchemaNode;
  validations: ValidationRuleDef[];
  xMetadata?: { labels?: Json; annotations?: Json };
  /** The pruned JSON (supported keywords only), as the API server would store it. */
  json: JsonObject;
}

export interface ParseIssues {
  errors: FieldError[];
  /** Unsupported keywords: informational, the API server prunes them. */
  ignored: FieldError[];
}

const SUPPORTED = new Set([
  'description',
  'example',
  'type',
  'properties',
  'additionalProperties',
  'maxProperties',
  'minProperties',
  'required',
  'items',
  'maxItems',
  'minItems',
  'uniqueItems',
  'format',
  'maxLength',
  'minLength',
  'pattern',
  'maximum',
  'minimum',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'x-kubernetes-preserve-unknown-fields',
  'enum',
  'default',
  'x-kubernetes-validations',
  'x-metadata',
  'x-kubernetes-int-or-string',
  'allOf',
  'oneOf',
  'anyOf',
  'not',
]);

/**
 * Whose `JSONSchemaProps` a schema is: a ClusterClass variable's (CAPI's API: int64 bounds, no
 * multipleOf) or a CRD's (apiextensions: float64 bounds and multipleOf).
 */
export type SchemaDialect = 'clusterclass' | 'crd';

const supportedIn = (dialect: SchemaDialect, k: string): boolean =>
  SUPPORTED.has(k) || (dialect === 'crd' && k === 'multipleOf');

const RULE_FIELDS = new Set(['rule', 'message', 'messageExpression', 'reason', 'fieldPath', 'optionalOldSelf']);

export function parseSchema(
  raw: Json | undefined,
  path: string,
  issues: ParseIssues,
  dialect: SchemaDialect = 'clusterclass',
): SchemaNode {
  const node: SchemaNode = {
    path,
    type: '',
    format: '',
    uniqueItems: false,
    exclusiveMaximum: false,
    exclusiveMinimum: false,
    intOrString: false,
    validations: [],
    json: {},
  };
  if (raw === undefined || raw === null) return node;
  if (!isObject(raw)) {
    issues.errors.push(invalid(path, { go: goMarshal(raw) }, 'must be an object'));
    return node;
  }
  node.json = {};
  for (const k of Object.keys(raw)) {
    if (!supportedIn(dialect, k)) {
      issues.ignored.push(
        fieldError(
          'Forbidden',
          child(path, k),
          `unsupported schema keyword ${JSON.stringify(k)} is pruned by the API server and ignored`,
        ),
      );
    }
  }
  // In this order: the pruned JSON keeps its keywords in the order they are read.
  const r = keywordReader(raw, path, issues, node.json, dialect);
  readScalars(node, r);
  readStructure(node, r);
  readValuesAndRules(node, r);
  return node;
}

/** The keywords of one schema object: each read once, a wrongly typed one reported, a well-typed one kept in the pruned JSON. */
interface KeywordReader {
  path: string;
  dialect: SchemaDialect;
  issues: ParseIssues;
  /** The keyword's value; absent and null are both undefined. */
  get(k: string): Json | undefined;
  keep(k: string, v: Json): void;
  str(k: string): string | undefined;
  int(k: string): number | undefined;
  /** A bound: an int64 in CAPI's API, a float64 in a CRD's; either read as the float64 kube-openapi compares. */
  bound(k: string): number | undefined;
  bool(k: string): boolean | undefined;
  sub(k: string): SchemaNode | undefined;
  subList(k: string): SchemaNode[] | undefined;
}

function keywordReader(
  raw: JsonObject,
  path: string,
  issues: ParseIssues,
  json: JsonObject,
  dialect: SchemaDialect,
): KeywordReader {
  const get = (k: string): Json | undefined => {
    const v = getOwn(raw, k);
    return v === null ? undefined : v;
  };
  const keep = (k: string, v: Json) => defineKey(json, k, v);
  /** A scalar keyword: absent/null → undefined, the wrong kind → an error, else kept. */
  const scalar = <T extends Json>(k: string, is: (v: Json) => v is T, must: string): T | undefined => {
    const v = get(k);
    if (v === undefined) return undefined;
    if (!is(v)) {
      issues.errors.push(invalid(child(path, k), { go: goMarshal(v) }, must));
      return undefined;
    }
    keep(k, v);
    return v;
  };
  return {
    path,
    dialect,
    issues,
    get,
    keep,
    str: (k) => scalar(k, (v): v is string => typeof v === 'string', 'must be a string'),
    int: (k) => {
      const v = scalar(
        k,
        (x): x is number | bigint => typeof x === 'bigint' || Number.isInteger(x),
        'must be an integer',
      );
      // Lengths and counts beyond ±2^53 are compared as doubles (ajv compares doubles).
      return typeof v === 'bigint' ? int64Double(v) : v;
    },
    // maximum/minimum are int64 in CAPI's API (fractional bounds cannot be decoded), float64 in
    // a CRD's; kube-openapi compares float64s, CAPI converting its int64s
    // (internal/topology/variables/schema.go `convertToAPIExtensionsJSONSchemaProps`).
    bound: (k) => {
      const v =
        dialect === 'crd'
          ? scalar(k, (x): x is number | bigint => typeof x === 'number' || typeof x === 'bigint', 'must be a number')
          : scalar(k, (x): x is number | bigint => typeof x === 'bigint' || Number.isInteger(x), 'must be an integer');
      return v === undefined ? undefined : Number(v);
    },
    bool: (k) => scalar(k, (v): v is boolean => typeof v === 'boolean', 'must be a boolean'),
    sub: (k) => {
      const v = get(k);
      if (v === undefined) return undefined;
      const n = parseSchema(v, child(path, k), issues, dialect);
      keep(k, n.json);
      return n;
    },
    subList: (k) => {
      const v = get(k);
      if (v === undefined) return undefined;
      if (!Array.isArray(v)) {
        issues.errors.push(invalid(child(path, k), { go: goMarshal(v) }, 'must be a list'));
        return undefined;
      }
      const list = v.map((s, i) => parseSchema(s, index(child(path, k), i), issues, dialect));
      keep(
        k,
        list.map((n) => n.json),
      );
      return list;
    },
  };
}

/** The scalar keywords: description, type, format, pattern, the bounds and the flags. */
function readScalars(node: SchemaNode, r: KeywordReader): void {
  const description = r.str('description');
  if (description !== undefined) node.description = description;
  node.type = r.str('type') ?? '';
  node.format = r.str('format') ?? '';
  const pattern = r.str('pattern');
  if (pattern !== undefined) node.pattern = pattern;
  for (const k of ['maxProperties', 'minProperties', 'maxItems', 'minItems', 'maxLength', 'minLength'] as const) {
    const v = r.int(k);
    if (v !== undefined) node[k] = v;
  }
  for (const k of ['maximum', 'minimum', 'multipleOf'] as const) {
    const v = k === 'multipleOf' && !supportedIn(r.dialect, k) ? undefined : r.bound(k);
    if (v !== undefined) node[k] = v;
  }
  node.uniqueItems = r.bool('uniqueItems') ?? false;
  node.exclusiveMaximum = r.bool('exclusiveMaximum') ?? false;
  node.exclusiveMinimum = r.bool('exclusiveMinimum') ?? false;
  node.intOrString = r.bool('x-kubernetes-int-or-string') ?? false;
  const preserve = r.bool('x-kubernetes-preserve-unknown-fields');
  if (preserve !== undefined) node.preserveUnknownFields = preserve;
}

/** The keywords that shape objects and lists: required, properties, additionalProperties, items and the subschema combinators. */
function readStructure(node: SchemaNode, r: KeywordReader): void {
  const { path, issues } = r;
  const req = r.get('required');
  if (req !== undefined) {
    if (Array.isArray(req) && req.every((v) => typeof v === 'string')) {
      node.required = req;
      r.keep('required', [...req]);
    } else issues.errors.push(invalid(child(path, 'required'), { go: goMarshal(req) }, 'must be a list of strings'));
  }

  const props = r.get('properties');
  if (props !== undefined) {
    if (!isObject(props))
      issues.errors.push(invalid(child(path, 'properties'), { go: goMarshal(props) }, 'must be an object'));
    else {
      node.properties = new Map(
        Object.keys(props).map((name) => [
          name,
          parseSchema(props[name], key(child(path, 'properties'), name), issues, r.dialect),
        ]),
      );
      r.keep('properties', propertiesJson(node.properties));
    }
  }
  const ap = r.sub('additionalProperties');
  if (ap) node.additionalProperties = ap;
  const items = r.sub('items');
  if (items) node.items = items;
  const not = r.sub('not');
  if (not) node.not = not;
  for (const k of ['allOf', 'oneOf', 'anyOf'] as const) {
    const l = r.subList(k);
    if (l) node[k] = l;
  }
}

/** The values (default, example, enum), the CEL rules of x-kubernetes-validations, and x-metadata. */
function readValuesAndRules(node: SchemaNode, r: KeywordReader): void {
  const { path, issues } = r;
  for (const k of ['default', 'example'] as const) {
    // A JSON null default is "no default" for CAPI (`Default.Raw == nil` after decoding null).
    const v = r.get(k);
    if (v !== undefined) {
      node[k] = { value: v };
      r.keep(k, v);
    }
  }
  const en = r.get('enum');
  if (en !== undefined) {
    if (Array.isArray(en)) {
      node.enum = en;
      r.keep('enum', en);
    } else issues.errors.push(invalid(child(path, 'enum'), { go: goMarshal(en) }, 'must be a list'));
  }

  const xv = r.get('x-kubernetes-validations');
  if (xv !== undefined) {
    const kept = parseValidations(xv, child(path, 'x-kubernetes-validations'), node.validations, issues);
    if (kept) r.keep('x-kubernetes-validations', kept);
  }

  const xm = r.get('x-metadata');
  if (xm !== undefined) {
    if (!isObject(xm))
      issues.errors.push(invalid(child(path, 'x-metadata'), { go: goMarshal(xm) }, 'must be an object'));
    else {
      node.xMetadata = xMetadataOf(xm);
      r.keep('x-metadata', xm);
    }
  }
}

/**
 * The rules of `x-kubernetes-validations` (at `p`), appended to `rules`; the list as kept, or
 * undefined when it is not a list.
 */
function parseValidations(xv: Json, p: string, rules: ValidationRuleDef[], issues: ParseIssues): Json[] | undefined {
  if (!Array.isArray(xv)) {
    issues.errors.push(invalid(p, { go: goMarshal(xv) }, 'must be a list'));
    return undefined;
  }
  const kept: Json[] = [];
  xv.forEach((r, i) => {
    if (!isObject(r)) {
      issues.errors.push(invalid(index(p, i), { go: goMarshal(r) }, 'must be an object'));
      return;
    }
    const s = (f: string): string => {
      const v = getOwn(r, f);
      if (v === undefined || v === null) return '';
      if (typeof v !== 'string') {
        issues.errors.push(invalid(child(index(p, i), f), { go: goMarshal(v) }, 'must be a string'));
        return '';
      }
      return v;
    };
    for (const f of Object.keys(r)) {
      if (!RULE_FIELDS.has(f))
        issues.ignored.push(
          fieldError(
            'Forbidden',
            child(index(p, i), f),
            `unsupported field ${JSON.stringify(f)} is pruned by the API server and ignored`,
          ),
        );
    }
    const def: ValidationRuleDef = {
      rule: s('rule'),
      message: s('message'),
      messageExpression: s('messageExpression'),
      reason: s('reason'),
      fieldPath: s('fieldPath'),
    };
    rules.push(def);
    const kj: JsonObject = { rule: def.rule };
    if (def.message) kj.message = def.message;
    if (def.messageExpression) kj.messageExpression = def.messageExpression;
    if (def.reason) kj.reason = def.reason;
    if (def.fieldPath) kj.fieldPath = def.fieldPath;
    kept.push(kj);
  });
  return kept;
}

/** `properties` as kept: each property's schema as kept. */
function propertiesJson(properties: ReadonlyMap<string, SchemaNode>): JsonObject {
  const out: JsonObject = {};
  for (const [name, n] of properties) defineKey(out, name, n.json);
  return out;
}

/** The labels and annotations of `x-metadata`, as written. */
function xMetadataOf(xm: JsonObject): NonNullable<SchemaNode['xMetadata']> {
  const out: NonNullable<SchemaNode['xMetadata']> = {};
  const labels = getOwn(xm, 'labels');
  const annotations = getOwn(xm, 'annotations');
  if (labels !== undefined) out.labels = labels;
  if (annotations !== undefined) out.annotations = annotations;
  return out;
}
