/**
 * A typed view of a variable's `openAPIV3Schema` (CAPI `JSONSchemaProps`, plain JSON in the
 * model). Parsing keeps only the keywords CAPI's API type has: everything else is pruned by the
 * API server (CAPI api/core/v1beta2/clusterclass_types.go), so it is reported as a warning and otherwise ignored.
 * Shape problems (e.g. `properties` not an object) are errors, as the API server would refuse
 * to decode them.
 */
import type { Json, JsonObject } from '../core/model.js';
import { child, fieldError, invalid, key, index, type FieldError } from '../core/fielderror.js';
import { defineKey, isObject } from '../core/json.js';
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
  maximum?: number;
  minimum?: number;
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
  'description', 'example', 'type', 'properties', 'additionalProperties', 'maxProperties',
  'minProperties', 'required', 'items', 'maxItems', 'minItems', 'uniqueItems', 'format',
  'maxLength', 'minLength', 'pattern', 'maximum', 'minimum', 'exclusiveMaximum',
  'exclusiveMinimum', 'x-kubernetes-preserve-unknown-fields', 'enum', 'default',
  'x-kubernetes-validations', 'x-metadata', 'x-kubernetes-int-or-string', 'allOf', 'oneOf',
  'anyOf', 'not',
]);

const RULE_FIELDS = new Set(['rule', 'message', 'messageExpression', 'reason', 'fieldPath', 'optionalOldSelf']);

export function parseSchema(raw: Json | undefined, path: string, issues: ParseIssues): SchemaNode {
  const node: SchemaNode = {
    path, type: '', format: '', uniqueItems: false, exclusiveMaximum: false, exclusiveMinimum: false,
    intOrString: false, validations: [], json: {},
  };
  if (raw === undefined || raw === null) return node;
  if (!isObject(raw)) {
    issues.errors.push(invalid(path, { go: goMarshal(raw) }, 'must be an object'));
    return node;
  }
  const json: JsonObject = {};
  node.json = json;
  const keep = (k: string, v: Json) => defineKey(json, k, v);

  /** A scalar keyword: absent/null → undefined, the wrong kind → an error, else kept. */
  const scalar = <T extends Json>(k: string, is: (v: Json) => v is T, must: string): T | undefined => {
    const v = getOwn(raw, k);
    if (v === undefined || v === null) return undefined;
    if (!is(v)) { issues.errors.push(invalid(child(path, k), { go: goMarshal(v) }, must)); return undefined; }
    keep(k, v);
    return v;
  };
  const str = (k: string) => scalar(k, (v): v is string => typeof v === 'string', 'must be a string');
  // maximum/minimum are int64 in CAPI's API: fractional bounds cannot be decoded.
  const int = (k: string) => scalar(k, (v): v is number => typeof v === 'number' && Number.isInteger(v), 'must be an integer');
  const bool = (k: string) => scalar(k, (v): v is boolean => typeof v === 'boolean', 'must be a boolean');
  const sub = (k: string): SchemaNode | undefined => {
    const v = getOwn(raw, k);
    if (v === undefined || v === null) return undefined;
    const n = parseSchema(v, child(path, k), issues);
    keep(k, n.json);
    return n;
  };
  const subList = (k: string): SchemaNode[] | undefined => {
    const v = getOwn(raw, k);
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v)) { issues.errors.push(invalid(child(path, k), { go: goMarshal(v) }, 'must be a list')); return undefined; }
    const list = v.map((s, i) => parseSchema(s, index(child(path, k), i), issues));
    keep(k, list.map((n) => n.json));
    return list;
  };

  for (const k of Object.keys(raw)) {
    if (!SUPPORTED.has(k)) {
      issues.ignored.push(fieldError('Forbidden', child(path, k), `unsupported schema keyword ${JSON.stringify(k)} is pruned by the API server and ignored`));
    }
  }

  const description = str('description');
  if (description !== undefined) node.description = description;
  node.type = str('type') ?? '';
  node.format = str('format') ?? '';
  const pattern = str('pattern');
  if (pattern !== undefined) node.pattern = pattern;
  for (const k of ['maxProperties', 'minProperties', 'maxItems', 'minItems', 'maxLength', 'minLength', 'maximum', 'minimum'] as const) {
    const v = int(k);
    if (v !== undefined) node[k] = v;
  }
  node.uniqueItems = bool('uniqueItems') ?? false;
  node.exclusiveMaximum = bool('exclusiveMaximum') ?? false;
  node.exclusiveMinimum = bool('exclusiveMinimum') ?? false;
  node.intOrString = bool('x-kubernetes-int-or-string') ?? false;
  const preserve = bool('x-kubernetes-preserve-unknown-fields');
  if (preserve !== undefined) node.preserveUnknownFields = preserve;

  const req = getOwn(raw, 'required');
  if (req !== undefined && req !== null) {
    if (Array.isArray(req) && req.every((r) => typeof r === 'string')) {
      node.required = req;
      keep('required', [...req]);
    } else issues.errors.push(invalid(child(path, 'required'), { go: goMarshal(req) }, 'must be a list of strings'));
  }

  const props = getOwn(raw, 'properties');
  if (props !== undefined && props !== null) {
    if (!isObject(props)) issues.errors.push(invalid(child(path, 'properties'), { go: goMarshal(props) }, 'must be an object'));
    else {
      node.properties = new Map(Object.keys(props).map((name) => [name, parseSchema(props[name], key(child(path, 'properties'), name), issues)]));
      keep('properties', propertiesJson(node.properties));
    }
  }
  const ap = sub('additionalProperties');
  if (ap) node.additionalProperties = ap;
  const items = sub('items');
  if (items) node.items = items;
  const not = sub('not');
  if (not) node.not = not;
  for (const k of ['allOf', 'oneOf', 'anyOf'] as const) {
    const l = subList(k);
    if (l) node[k] = l;
  }

  for (const k of ['default', 'example'] as const) {
    // A JSON null default is "no default" for CAPI (`Default.Raw == nil` after decoding null).
    const v = getOwn(raw, k);
    if (v !== undefined && v !== null) { node[k] = { value: v }; keep(k, v); }
  }
  const en = getOwn(raw, 'enum');
  if (en !== undefined && en !== null) {
    if (Array.isArray(en)) { node.enum = en; keep('enum', en); }
    else issues.errors.push(invalid(child(path, 'enum'), { go: goMarshal(en) }, 'must be a list'));
  }

  const xv = getOwn(raw, 'x-kubernetes-validations');
  if (xv !== undefined && xv !== null) {
    const kept = parseValidations(xv, child(path, 'x-kubernetes-validations'), node.validations, issues);
    if (kept) keep('x-kubernetes-validations', kept);
  }

  const xm = getOwn(raw, 'x-metadata');
  if (xm !== undefined && xm !== null) {
    if (!isObject(xm)) issues.errors.push(invalid(child(path, 'x-metadata'), { go: goMarshal(xm) }, 'must be an object'));
    else {
      node.xMetadata = xMetadataOf(xm);
      keep('x-metadata', xm);
    }
  }
  return node;
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
    if (!isObject(r)) { issues.errors.push(invalid(index(p, i), { go: goMarshal(r) }, 'must be an object')); return; }
    const s = (f: string): string => {
      const v = getOwn(r, f);
      if (v === undefined || v === null) return '';
      if (typeof v !== 'string') { issues.errors.push(invalid(child(index(p, i), f), { go: goMarshal(v) }, 'must be a string')); return ''; }
      return v;
    };
    for (const f of Object.keys(r)) {
      if (!RULE_FIELDS.has(f)) issues.ignored.push(fieldError('Forbidden', child(index(p, i), f), `unsupported field ${JSON.stringify(f)} is pruned by the API server and ignored`));
    }
    const def: ValidationRuleDef = { rule: s('rule'), message: s('message'), messageExpression: s('messageExpression'), reason: s('reason'), fieldPath: s('fieldPath') };
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
