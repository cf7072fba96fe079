/**
 * Runs compiled `x-kubernetes-validations` over a value, walking the structural schema like the
 * Kubernetes CEL validator (`apiextensions-apiserver/pkg/apiserver/schema/cel/validation.go`):
 * rules of a node run when its value is non-null; recursion into declared properties (path
 * `.name`, old value correlated by key), additionalProperties (path `[key]`, correlated) and list
 * items (path `[i]`, never correlated, so no `oldSelf` there). Transition rules are skipped when
 * there is no old value.
 */
import type { CelEnv, CelInput } from '@bufbuild/cel';
import type { Json } from '../../core/model.js';
import { child, fieldError, index, key, type BadValue, type FieldError } from '../../core/fielderror.js';
import { isObject } from '../../core/json.js';
import { getOwn } from '../../core/go/json.js';
import type { SchemaNode } from '../schema.js';
import { schemaDeclType } from './types.js';
import { compileRule, evaluate, ruleErrorString, ruleMessageOrDefault, type CompiledRule } from './rules.js';
import { CostBudget, escapeCelPropertyName, toCel } from './values.js';

export interface CelTree {
  node: SchemaNode;
  rules: CompiledRule[];
  /** Set when the validator cannot compile this node's rules: every non-null value fails with it. */
  initError?: string;
  properties?: Map<string, CelTree>;
  additionalProperties?: CelTree;
  items?: CelTree;
}

/**
 * Compiles every rule below `node`, each against its node's CEL type (`schemaDeclType`; at a
 * resource root with `apiVersion`, `kind` and `metadata`); undefined when the schema has no rules
 * at all.
 */
export function compileCelTree(env: CelEnv, node: SchemaNode, isResourceRoot = false): CelTree | undefined {
  const self = schemaDeclType(node, isResourceRoot);
  const t: CelTree = { node, rules: node.validations.map((d) => compileRule(env, d, self)) };
  let any = t.rules.length > 0;
  if (node.properties) {
    const props = new Map<string, CelTree>();
    for (const [k, p] of node.properties) {
      const sub = compileCelTree(env, p);
      if (sub) props.set(k, sub);
    }
    if (props.size > 0) {
      t.properties = props;
      any = true;
    }
  }
  if (node.additionalProperties) {
    const sub = compileCelTree(env, node.additionalProperties);
    if (sub) {
      t.additionalProperties = sub;
      any = true;
    }
  }
  if (node.items) {
    const sub = compileCelTree(env, node.items);
    if (sub) {
      t.items = sub;
      any = true;
    }
  }
  return any ? t : undefined;
}

/**
 * The tree apiextensions' CEL validator builds when the node has no CEL declaration type
 * (`schema/cel/validation.go` `validator` with a nil declType): a node's own rules fail to compile
 * (`Compile`: "failed to convert to declType for CEL validation rules"), items and
 * additionalProperties inherit the nil type, properties with CEL-escapable names are skipped and
 * the others are typed from their own schema.
 */
export function compileUntypedCelTree(env: CelEnv, node: SchemaNode): CelTree | undefined {
  const t: CelTree = { node, rules: [] };
  if (node.validations.length > 0) t.initError = 'failed to convert to declType for CEL validation rules';
  let any = t.initError !== undefined;
  if (node.properties) {
    const props = new Map<string, CelTree>();
    for (const [k, p] of node.properties) {
      const sub = escapeCelPropertyName(k) === undefined ? compileCelTree(env, p) : undefined;
      if (sub) props.set(k, sub);
    }
    if (props.size > 0) {
      t.properties = props;
      any = true;
    }
  }
  for (const k of ['additionalProperties', 'items'] as const) {
    const sub = node[k] && compileUntypedCelTree(env, node[k]);
    if (sub) {
      t[k] = sub;
      any = true;
    }
  }
  return any ? t : undefined;
}

export interface CelOutcome {
  errors: FieldError[];
  /** Rules that could not be evaluated here (unsupported functions): never silently passed. */
  warnings: FieldError[];
}

/**
 * The tokens of a rule `fieldPath`, as apiextensions' `ValidFieldPath` scans them: `.`, `[` and
 * `]` alone, a single-quoted string up to the first `'` not preceded by `\\`, any other text up
 * to the next delimiter.
 */
function fieldPathTokens(path: string): string[] {
  const tokens: string[] = [];
  let rest = path;
  while (rest.length > 0) {
    let end = rest.length;
    if (rest[0] === "'") {
      for (let i = 1; i < rest.length; i++) {
        if (rest[i] === "'" && rest[i - 1] !== '\\') {
          end = i + 1;
          break;
        }
      }
    } else if ('.[]'.includes(rest.charAt(0))) end = 1;
    else {
      const d = rest.search(/[.[\]]/);
      if (d > 0) end = d;
    }
    tokens.push(rest.slice(0, end));
    rest = rest.slice(end);
  }
  return tokens;
}

const FIELD_PATH_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  "'": "'",
  '\\': '\\',
};

/** `unescapeSingleQuote`: the escapes above; any other is an error (Go reports the last one; `\\.` never matches a newline). */
function unescapeSingleQuote(s: string): { value: string } | { error: string } {
  let bad: string | undefined;
  const value = s.replace(/\\[^\n]/gu, (m) => {
    const c = FIELD_PATH_ESCAPES[m.slice(1)];
    if (c === undefined) bad = m;
    return c ?? '';
  });
  return bad === undefined ? { value } : { error: `invalid escape char ${bad}` };
}

/**
 * Resolves a rule `fieldPath` (`.a.b`, `['x.y']`, `['c\\a']`) against the schema: apiextensions'
 * `ValidFieldPath` (apiserver/schema/cel/validation.go), with its error texts. Returns the field
 * path suffix to append, or the error.
 */
export function resolveRuleFieldPath(fieldPath: string, s: SchemaNode): { suffix: string } | { error: string } {
  const tokens = fieldPathTokens(fieldPath);
  let suffix = '';
  let cur: SchemaNode = s;
  const append = (name: string): string | undefined => {
    if (cur.properties) {
      suffix = child(suffix, name);
      const next = cur.properties.get(name);
      if (!next) return 'does not refer to a valid field';
      cur = next;
    } else if (cur.additionalProperties) {
      suffix = key(suffix, name);
      cur = cur.additionalProperties;
    } else return 'does not refer to a valid field';
    return undefined;
  };
  // One iterator: a `[` or `.` takes the tokens after it from the same walk.
  const walk = tokens.values();
  for (const tok of walk) {
    let err: string | undefined;
    if (tok === '[') {
      const quoted = walk.next().value;
      if (quoted === undefined) return { error: 'unexpected end of JSON path' };
      if (quoted.length < 2 || quoted[0] !== "'" || quoted[quoted.length - 1] !== "'")
        return { error: `expected single quoted string but got ${quoted}` };
      const name = unescapeSingleQuote(quoted.slice(1, -1));
      if ('error' in name) return { error: `invalid string literal: ${name.error}` };
      err = append(name.value);
      if (err) return { error: err };
      const close = walk.next().value;
      if (close === undefined) return { error: 'unexpected end of JSON path' };
      if (close !== ']') return { error: `expected ] but got ${close}` };
    } else if (tok === '.') {
      const name = walk.next().value;
      if (name === undefined) return { error: 'unexpected end of JSON path' };
      err = append(name);
      if (err) return { error: err };
    } else return { error: `expected [ or . but got: ${tok}` };
  }
  return { suffix };
}

const joinPath = (base: string, suffix: string): string =>
  suffix === '' ? base : suffix.startsWith('[') ? base + suffix : `${base}.${suffix}`;

function failureError(r: CompiledRule, path: string, detail: string, badValue: BadValue): FieldError {
  switch (r.def.reason) {
    case 'FieldValueForbidden':
      return fieldError('Forbidden', path, detail);
    case 'FieldValueRequired':
      return fieldError('Required value', path, detail);
    case 'FieldValueDuplicate':
      return fieldError('Duplicate value', path, '', badValue);
    default:
      return fieldError('Invalid value', path, detail, badValue);
  }
}

/** Evaluates the messageExpression; undefined means "fall back to message / default". */
function evalMessage(r: CompiledRule, activation: Record<string, CelInput>): string | undefined {
  const m = r.message;
  if (!m?.program) return undefined;
  const res = evaluate(m.program, activation);
  if (!res.ok || typeof res.value !== 'string') return undefined;
  const trimmed = res.value.trim();
  if (trimmed.length === 0 || trimmed.length > 5000 || trimmed.includes('\n')) return undefined;
  return trimmed;
}

/**
 * Elements a rule may visit in the values it checks (Kubernetes: per-call cost limit 1,000,000).
 * Charged by value lists only, so it bounds what input data can make a rule do.
 */
const RULE_COST_LIMIT = 1_000_000;

function runRules(
  t: CelTree,
  value: Json,
  old: Json | undefined,
  path: string,
  badValue: BadValue,
  out: CelOutcome,
): void {
  if (t.initError !== undefined) {
    // `Validator.validateExpressions`: the bad value is the type of the node's schema.
    out.errors.push(
      fieldError('Invalid value', path, `rule compiler initialization error: ${t.initError}`, t.node.type),
    );
    return;
  }
  if (t.rules.length === 0) return;
  const budget = new CostBudget(RULE_COST_LIMIT);
  const self = toCel(value, t.node, budget);
  const activation: Record<string, CelInput> = { self };
  if (old !== undefined && old !== null) activation.oldSelf = toCel(old, t.node, budget);
  for (const r of t.rules) {
    budget.reset();
    const c = r.rule;
    if (c.usesOldSelf && activation.oldSelf === undefined) continue;
    if (c.compileError !== undefined) {
      out.errors.push(fieldError('Invalid value', path, `rule compile error: ${c.compileError}`, badValue));
      continue;
    }
    if (c.unsupported !== undefined || !c.program) {
      out.warnings.push(
        fieldError(
          'Invalid value',
          path,
          `x-kubernetes-validations rule ${JSON.stringify(r.def.rule)} not evaluated: ${c.unsupported ?? 'not compiled'}`,
          badValue,
        ),
      );
      continue;
    }
    const res = evaluate(c.program, activation);
    if (!res.ok) {
      const detail = res.error.startsWith('no such overload')
        ? `'${res.error}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(r.def)}`
        : `${res.error} evaluating rule: ${ruleErrorString(r.def)}`;
      out.errors.push(fieldError('Invalid value', path, detail, badValue));
      continue;
    }
    if (res.value === true) continue;
    let errPath = path;
    if (r.def.fieldPath !== '') {
      const fp = resolveRuleFieldPath(r.def.fieldPath, t.node);
      if ('suffix' in fp) errPath = joinPath(path, fp.suffix);
    }
    const detail = evalMessage(r, activation) ?? ruleMessageOrDefault(r.def);
    out.errors.push(failureError(r, errPath, detail, badValue));
  }
}

/**
 * Validates `value` (and `old`, for transition rules) against every rule in the tree.
 * `badValue` is what error messages show as the value (CAPI: the whole variable's raw JSON).
 */
export function validateCel(
  t: CelTree,
  value: Json,
  old: Json | undefined,
  path: string,
  badValue: BadValue | ((v: Json) => BadValue),
): CelOutcome {
  const out: CelOutcome = { errors: [], warnings: [] };
  const bad = typeof badValue === 'function' ? badValue : () => badValue;
  const walk = (tree: CelTree, v: Json, o: Json | undefined, p: string): void => {
    if (v === null) return;
    runRules(tree, v, o, p, bad(v), out);
    if (Array.isArray(v)) {
      if (tree.items) v.forEach((item, i) => walk(tree.items as CelTree, item, undefined, index(p, i)));
      return;
    }
    if (!isObject(v)) return;
    const oldObj = isObject(o ?? null) ? (o as Record<string, Json>) : undefined;
    for (const k of Object.keys(v)) {
      const sub = tree.properties?.get(k);
      if (sub) walk(sub, v[k] as Json, oldObj ? getOwn(oldObj, k) : undefined, child(p, k));
      else if (tree.additionalProperties)
        walk(tree.additionalProperties, v[k] as Json, oldObj ? getOwn(oldObj, k) : undefined, key(p, k));
    }
  };
  walk(t, value, old, path);
  return out;
}
