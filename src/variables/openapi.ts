/**
 * OpenAPI schema validation of variable values, behaving like the Kubernetes CRD validator
 * (kube-openapi `validate` behind `apiextensions-apiserver/pkg/apiserver/validation`), built on
 * ajv. A schema is translated and compiled once per run (`SchemaCompiler`) and the compiled
 * function is reused for every Cluster.
 *
 * Kubernetes specifics handled in translation: `exclusiveMaximum`/`exclusiveMinimum` are
 * booleans (OpenAPI 3.0), `x-kubernetes-int-or-string` means type integer or string, only the
 * Kubernetes format set is checked, and `pattern` uses RE2 (re2js), never a backtracking RegExp.
 * Error texts follow kube-openapi (`<name> in body should ...`) and the field error types chosen
 * by `ValidateCustomResource`.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { DataValidationCxt } from 'ajv/dist/types/index.js';
import { RE2JS } from 're2js';
import type { Json, JsonObject } from '../core/model.js';
import { child, fieldError, goQuote, type BadValue, type FieldError } from '../core/fielderror.js';
import { checkedFormatName, formatChecker, formatNames } from '../core/go/formats.js';
import { defineKey, holdsBigint, int64Double, isObject, jsonText, valueAt } from '../core/json.js';
import { goMarshal, jsonTypeName } from '../core/go/json.js';
import type { SchemaNode } from './schema.js';
import { atLeast, type CapiProfile } from '../core/capi-release.js';
import { decodedNumber, numberErrors, type NumberChecks, type NumberDecoding } from './numbers.js';

/**
 * The keyword completing ajv's `integer` type check as kube-openapi's (validate/type.go, swag
 * `IsFloat64AJSONInteger`): a float64 is an integer only within ±(2^53 - 1). A whole JS number
 * beyond that is a float64 beyond int64 here (`jsonNumber`; int64s are bigints, checked as
 * doubles within ±(2^63 - 1024), `int64Double`), which ajv would call an integer. Its value is the
 * node's type list, for the error.
 */
const JSON_INTEGER = 'k8sJsonInteger';

/**
 * The keyword of kube-openapi's `numberValidator` (numbers.ts): ranges, multipleOf and bounds,
 * which ajv's arithmetic would judge otherwise. Its value is the node's `NumberChecks`.
 */
const NUMBER_CHECKS = 'k8sNumber';

/** What the node's `numberValidator` checks; `typed`: kube-openapi gives it the node's type and format. */
function numberChecksOf(n: SchemaNode, typed: boolean): NumberChecks | undefined {
  const single = !n.intOrString && (n.type === 'integer' || n.type === 'number');
  const type = typed && single ? (n.type as 'integer' | 'number') : '';
  const formats = type === 'integer' ? ['int32', 'int64'] : ['float', 'double'];
  const c: NumberChecks = { type, format: type !== '' && formats.includes(n.format) ? n.format : '' };
  if (n.multipleOf !== undefined) c.multipleOf = n.multipleOf;
  if (n.minimum !== undefined) c.minimum = n.minimum;
  if (n.exclusiveMinimum) c.exclusiveMinimum = true;
  if (n.maximum !== undefined) c.maximum = n.maximum;
  if (n.exclusiveMaximum) c.exclusiveMaximum = true;
  return type === '' && c.multipleOf === undefined && c.minimum === undefined && c.maximum === undefined
    ? undefined
    : c;
}

/**
 * The value as ajv checks it: ajv knows only JS numbers, so an int64 beyond ±2^53 (a bigint) is
 * checked as its `int64Double`, which keeps its integer type and int64 range; bounds, multipleOf
 * and enum compare it at double precision. Error values are read from the original value.
 */
function ajvValue(v: Json): Json {
  if (typeof v === 'bigint') return int64Double(v);
  if (Array.isArray(v)) return v.map(ajvValue);
  if (!isObject(v)) return v;
  const out: JsonObject = {};
  for (const k of Object.keys(v)) defineKey(out, k, ajvValue(v[k] as Json));
  return out;
}

/**
 * How the compiled validators read numbers: `decoding` as numbers.ts; `exact` the value being
 * validated, where ajv holds an int64 beyond ±2^53 as a stand-in double.
 */
interface NumberReading {
  decoding: NumberDecoding;
  exact: Json | undefined;
}

/** The number ajv validates at `instancePath`, or the int64 it stands for in `exact`. */
function exactNumber(v: number, exact: Json | undefined, instancePath: string): number | bigint {
  if (exact === undefined || Number.isSafeInteger(v) || !Number.isInteger(v)) return v;
  const o = valueAtPointer(exact, instancePath);
  return typeof o === 'bigint' ? o : v;
}

/** An ajv instance with the Kubernetes formats and RE2 patterns. */
export function newAjv(numbers: NumberReading = { decoding: 'float64', exact: undefined }): Ajv {
  const regExp = Object.assign(
    (pattern: string, flags: string) => {
      const re = RE2JS.compile(pattern);
      // ajv caches compiled patterns by `toString()`: it must differ per pattern, or every pattern
      // of a schema would be checked with the first one compiled.
      return { test: (s: string) => re.test(s), toString: () => `/${pattern}/${flags}` };
    },
    { code: 're2' },
  );
  const ajv = new Ajv({
    allErrors: true,
    verbose: true,
    strict: false,
    ownProperties: true,
    validateFormats: true,
    validateSchema: false,
    addUsedSchema: false,
    // No optimisation pass over the generated code: it costs more on a cold start (a class's
    // dozens of small schemas) than it ever saves when validating (V8 drops the dead code anyway).
    code: { regExp, optimize: false },
  });
  for (const name of formatNames()) {
    const check = formatChecker(name) as (s: string) => boolean;
    ajv.addFormat(name, { type: 'string', validate: check });
  }
  ajv.addKeyword({
    keyword: JSON_INTEGER,
    type: 'number',
    schemaType: ['string', 'array'],
    errors: false,
    validate: (_: unknown, v: number) => !Number.isInteger(v) || Math.abs(v) < 2 ** 63,
  });
  // Fails where numberErrors finds errors; schemaErrors reports them.
  ajv.addKeyword({
    keyword: NUMBER_CHECKS,
    type: 'number',
    schemaType: 'object',
    errors: false,
    validate: (c: NumberChecks, v: number, _: unknown, cxt?: DataValidationCxt) =>
      numberErrors(
        decodedNumber(exactNumber(v, numbers.exact, cxt?.instancePath ?? ''), numbers.decoding),
        c,
        '',
        (m) => m,
      ).length === 0,
  });
  return ajv;
}

/**
 * The JSON Schema ajv compiles for a Kubernetes schema node (draft-07 semantics); `ranges`: with
 * kube-openapi's numeric range check.
 */
function toAjvSchema(n: SchemaNode, ranges: boolean): JsonObject {
  const s: JsonObject = {};
  if (n.intOrString) s.type = ['integer', 'string'];
  else if (n.type !== '') s.type = n.type;
  if (n.intOrString || n.type === 'integer') s[JSON_INTEGER] = s.type ?? null;
  const numbers = numberChecksOf(n, ranges);
  if (numbers) s[NUMBER_CHECKS] = { ...numbers };
  const sub = (c: SchemaNode) => toAjvSchema(c, ranges);
  if (n.properties) {
    const props: JsonObject = {};
    for (const [k, p] of n.properties) defineKey(props, k, sub(p));
    s.properties = props;
  }
  if (n.additionalProperties) s.additionalProperties = sub(n.additionalProperties);
  if (n.items) s.items = sub(n.items);
  if (n.required) s.required = [...n.required];
  for (const k of ['maxProperties', 'minProperties', 'maxItems', 'minItems', 'maxLength', 'minLength'] as const) {
    const v = n[k];
    if (v !== undefined) s[k] = v;
  }
  if (n.uniqueItems) s.uniqueItems = true;
  if (n.pattern !== undefined) s.pattern = n.pattern;
  const format = checkedFormatName(n.format);
  if (format !== undefined) s.format = format;
  if (n.enum) s.enum = n.enum.map(ajvValue);
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const) {
    const l = n[k];
    if (l) s[k] = l.map(sub);
  }
  if (n.not) s.not = sub(n.not);
  return s;
}

export interface CompiledSchemaValidator {
  validate: ValidateFunction;
  numbers: NumberReading;
}

/**
 * Compiles schema nodes into validators, once per distinct schema. ajv generates and compiles a
 * JavaScript function per schema, which costs far more than validating one value with it; a class
 * checks each node with a default, an example or enum values, and then the whole variable, and a
 * fleet's classes often share variable schemas, so one compiler serves a whole run.
 */
export interface SchemaCompiler {
  compile(n: SchemaNode): CompiledSchemaValidator | { error: string };
}

/**
 * Whether kube-openapi checks numbers against their type's range (`SchemaValidator.numberValidator`
 * gives `numberValidator` the node's type and format): from the release CAPI v1.14 builds with
 * (k8s.io/kube-openapi v0.0.0-20260317180543, also apiextensions-apiserver v0.36's, so the API
 * server's validation of custom resources too); v1.12 and v1.13 build with releases
 * (20250710124328, 20250910181357) whose `numberValidator` has no type and checks nothing.
 */
export const checksNumberRanges = (profile: CapiProfile): boolean => atLeast(profile, '1.14');

/**
 * `numberRanges`: see `checksNumberRanges`; `numberDecoding`: how the validated documents were
 * decoded (numbers.ts): `int64` for the API server's validation of objects, `float64` (the
 * default) for CAPI's webhooks.
 */
export function newSchemaCompiler(
  options: { numberRanges?: boolean; numberDecoding?: NumberDecoding } = {},
): SchemaCompiler {
  const numbers: NumberReading = { decoding: options.numberDecoding ?? 'float64', exact: undefined };
  const ajv = newAjv(numbers);
  // Keyed by the translated schema's JSON text: equal text, equal validation (and error order).
  const compiled = new Map<string, CompiledSchemaValidator | { error: string }>();
  return {
    compile(n) {
      const schema = toAjvSchema(n, options.numberRanges === true);
      const text = JSON.stringify(schema);
      let v = compiled.get(text);
      if (!v) {
        try {
          v = { validate: ajv.compile(schema), numbers };
        } catch (e) {
          v = { error: e instanceof Error ? e.message : String(e) };
        }
        compiled.set(text, v);
      }
      return v;
    },
  };
}

/** Chooses the field error's BadValue (CAPI uses the raw variable, class checks the offending value). */
/**
 * The bad value of an error at `offending`: `typeName` for a type error; `plain` for kube-openapi's
 * plain errors (composite and range checks), which apiextensions reports without their value.
 */
export type BadValueOf = (offending: Json, typeName?: string, plain?: boolean) => BadValue;

/**
 * Runs a compiled validator and maps ajv errors to Kubernetes field errors rooted at `basePath`.
 */
export function schemaErrors(
  v: CompiledSchemaValidator,
  value: Json,
  basePath: string,
  badValue: BadValueOf,
): FieldError[] {
  const exact = !holdsBigint(value);
  v.numbers.exact = exact ? undefined : value;
  const valid = v.validate(exact ? value : ajvValue(value));
  v.numbers.exact = undefined;
  if (valid) return [];
  const out: FieldError[] = [];
  const seenAllOf = new Set<string>();
  for (const e of v.validate.errors ?? []) {
    // Sub-errors of anyOf/oneOf/not branches are summarised by the composite error only.
    if (passesThroughBranch(e.schemaPath)) continue;
    const data = exact ? (e.data as Json | undefined) : valueAtPointer(value, e.instancePath);
    // kube-openapi only runs the type check on null values.
    if ((data === null || data === undefined) && e.keyword !== 'type' && e.keyword !== 'required') continue;
    const name = openAPIName(value, e.instancePath);
    if (e.keyword === JSON_INTEGER) {
      const typeError = mapError(
        { ...e, keyword: 'type', params: { type: e.schema } },
        name,
        data ?? null,
        basePath,
        badValue,
      );
      if (typeError) out.push(typeError);
      continue;
    }
    if (e.keyword === NUMBER_CHECKS) {
      const n = decodedNumber(data as number | bigint, v.numbers.decoding);
      for (const ne of numberErrors(n, e.schema as NumberChecks, name, (m) => inBody(name, m)))
        out.push(
          ne.plain
            ? fieldError('Invalid value', basePath, ne.message, badValue(value, undefined, true))
            : fieldError('Invalid value', pathFor(basePath, name), ne.message, badValue(ne.value ?? (data as Json))),
        );
      continue;
    }
    const mapped = mapError(e, name, data ?? null, basePath, badValue);
    if (mapped) out.push(mapped);
    const allOfMatch = /^(.*)\/allOf\/\d+\/[^/]+$/.exec(e.schemaPath);
    if (allOfMatch && !seenAllOf.has(e.instancePath)) {
      seenAllOf.add(e.instancePath);
      out.push(composite(name, 'must validate all the schemas (allOf)', data ?? null, basePath, badValue));
    }
  }
  return out;
}

/** True when a schema path goes into an anyOf/oneOf alternative or into `not` (not just ends there). */
function passesThroughBranch(schemaPath: string): boolean {
  const segs = schemaPath.split('/').slice(1);
  for (let i = 0; i < segs.length - 1; i++) {
    const s = segs[i];
    if (s === 'properties') {
      i++;
      continue;
    }
    if (s === 'anyOf' || s === 'oneOf' || s === 'not') return true;
  }
  return false;
}

/** The value a JSON pointer (ajv's `instancePath`) leads to. */
const valueAtPointer = (root: Json, pointer: string): Json | undefined =>
  pointer === ''
    ? root
    : valueAt(
        root,
        pointer
          .slice(1)
          .split('/')
          .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
          .map((s, i, all) => (Array.isArray(valueAt(root, all.slice(0, i))) ? Number(s) : s)),
      );

/** kube-openapi names: properties joined with `.`, list items as `[i]`; `""` is the root. */
function openAPIName(root: Json, instancePath: string): string {
  if (instancePath === '') return '';
  const segs = instancePath
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let name = '';
  let cur: Json | undefined = root;
  for (const seg of segs) {
    if (Array.isArray(cur)) {
      name += `[${seg}]`;
      cur = cur[Number(seg)];
    } else {
      name = name === '' ? seg : `${name}.${seg}`;
      cur = isObject(cur) ? cur[seg] : undefined;
    }
  }
  return name;
}

const pathFor = (base: string, name: string): string => (name === '' ? base : child(base, name));

/** `<name> in body <msg>`, with CAPI's trimming of a leading ` in body ` for the root. */
const inBody = (name: string, msg: string): string => (name === '' ? msg : `${name} in body ${msg}`);

const fmtNum = (n: unknown): string => String(n);

/**
 * An anyOf/oneOf/allOf/not failure: kube-openapi makes it a plain error (`errors.New` with
 * `CompositeErrorCode`, pkg/validation/validate/schema_messages.go), not a validation error, so
 * apiextensions' `kubeOpenAPIResultToFieldErrors` reports it at the root of the value, naming the
 * node with %q.
 */
const composite = (name: string, msg: string, data: Json, basePath: string, badValue: BadValueOf): FieldError =>
  fieldError('Invalid value', basePath, `${goQuote(name)} ${msg}`, badValue(data, undefined, true));

function mapError(
  e: ErrorObject,
  name: string,
  data: Json,
  basePath: string,
  badValue: BadValueOf,
): FieldError | undefined {
  const p = e.params as Record<string, unknown>;
  const path = pathFor(basePath, name);
  const invalidWith = (msg: string) => fieldError('Invalid value', path, inBody(name, msg), badValue(data));
  switch (e.keyword) {
    case 'type': {
      const expected = Array.isArray(p.type) ? (p.type as string[]).join(',') : String(p.type);
      const actual = jsonTypeName(data);
      return fieldError(
        'Invalid value',
        path,
        inBody(name, `must be of type ${expected}: "${actual}"`),
        badValue(data, actual),
      );
    }
    case 'required': {
      const missing = String(p.missingProperty);
      return fieldError('Required value', pathFor(basePath, name === '' ? missing : `${name}.${missing}`), '');
    }
    case 'enum': {
      const allowed = ((e.schema as Json[]) ?? []).map((a) => (typeof a === 'string' ? a : goMarshal(a)));
      const detail = allowed.length > 0 ? 'supported values: ' + allowed.map(goQuote).join(', ') : '';
      return fieldError('Unsupported value', path, detail, badValue(data));
    }
    case 'maxLength':
      return fieldError('Too long', path, `may not be more than ${fmtNum(p.limit)} bytes`, badValue(data));
    case 'minLength':
      return invalidWith(`should be at least ${fmtNum(p.limit)} chars long`);
    case 'pattern':
      return invalidWith(`should match '${String(p.pattern)}'`);
    case 'maximum':
      return invalidWith(`should be less than or equal to ${fmtNum(p.limit)}`);
    case 'exclusiveMaximum':
      return invalidWith(`should be less than ${fmtNum(p.limit)}`);
    case 'minimum':
      return invalidWith(`should be greater than or equal to ${fmtNum(p.limit)}`);
    case 'exclusiveMinimum':
      return invalidWith(`should be greater than ${fmtNum(p.limit)}`);
    case 'maxItems':
    case 'maxProperties':
      return fieldError('Too many', path, `must have at most ${fmtNum(p.limit)} items`, badValue(data));
    case 'minItems':
      return invalidWith(`should have at least ${fmtNum(p.limit)} items`);
    case 'minProperties':
      return invalidWith(`should have at least ${fmtNum(p.limit)} properties`);
    case 'uniqueItems':
      return invalidWith(`shouldn't contain duplicates`);
    case 'format':
      return fieldError(
        'Invalid value',
        path,
        inBody(name, `must be of type ${String(p.format)}: ${goQuote(jsonText(data))}`),
        badValue(data, String(p.format)),
      );
    case 'anyOf':
      return composite(name, 'must validate at least one schema (anyOf)', data, basePath, badValue);
    case 'oneOf': {
      const passing = p.passingSchemas;
      const extra = Array.isArray(passing) ? `Found ${passing.length} valid alternatives` : 'Found none valid';
      return composite(name, `must validate one and only one schema (oneOf). ${extra}`, data, basePath, badValue);
    }
    case 'not':
      return composite(name, 'must not validate the schema (not)', data, basePath, badValue);
    default:
      return invalidWith(e.message ?? e.keyword);
  }
}
