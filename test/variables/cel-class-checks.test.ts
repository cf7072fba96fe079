/**
 * What CAPI's ClusterClass webhook checks in the CEL rules of a variable schema, through the real
 * CLI: the rules' types (compilation), the rules under a root array's default, and the rules'
 * estimated cost. Each expectation follows the CAPI or apiextensions function its test names.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/model.js';
import { fleetCluster, fleetDocs } from '../helpers/scenario.js';
import { binPath, run } from '../helpers/tools.js';

/** Renders the fleet class with one more variable (`v`) and a Cluster; the ClusterClass's error lines. */
function classErrors(schema: JsonObject): { code: number; errors: string[] } {
  const docs = fleetDocs();
  docs[0].spec.variables.push({ name: 'v', required: false, schema: { openAPIV3Schema: schema } });
  const dir = mkdtempSync(join(tmpdir(), 'rcc-cel-'));
  writeFileSync(join(dir, 'fleet.yaml'), [...docs, fleetCluster('c1')].map((d) => YAML.stringify(d)).join('---\n'));
  const out = run(binPath, ['render', dir]);
  const errors = out.stderr
    .split('\n')
    .filter((l) => / error: ClusterClass /.test(l))
    .map((l) => l.replace(/^.*? error: ClusterClass fleet\/fleet /, ''));
  return { code: out.code, errors };
}

const V = 'spec.variables[v].schema.openAPIV3Schema';

describe('a root array default whose items carry rules', () => {
  // apiextensions-apiserver pkg/apiserver/schema/defaulting/validation.go `validate` (the variable
  // schema is the resource root) -> schema/cel/validation.go `NewValidator` -> cel/model/schemas.go
  // `WithTypeAndObjectMeta` keeps no `items`, so the root array has no declType and
  // schema/cel/compilation.go `Compile` fails for the items' rules; `validateExpressions` reports it
  // per non-null item. Called by CAPI internal/topology/variables/clusterclass_variable_validation.go
  // `validateRootSchema` (`structuraldefaulting.ValidateDefaults`).
  const items = { type: 'string', 'x-kubernetes-validations': [{ rule: 'self.size() <= 6' }] };

  it('refuses the class at each item of the default', () => {
    const { code, errors } = classErrors({ type: 'array', items, default: ['a', 'b'] });
    expect(code).toBe(1);
    expect(errors.slice(0, 2)).toEqual(
      [0, 1].map((i) =>
        expect.stringMatching(
          new RegExp(
            `^${V.replace(/[[\].]/g, '\\$&')}\\.default\\[${i}\\]: Invalid value: "string": rule compiler initialization error: failed to convert to declType for CEL validation rules`,
          ),
        ),
      ),
    );
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(
      /; drop the default \(an empty list passes\) or make the variable an object holding the list/,
    );
  });

  it("types a root object's default as a resource root (apiVersion, kind, metadata), values not", () => {
    // The class and its default pass; a Cluster's value is validated with
    // `cel.NewValidator(ss, false)` (cluster_variable_validation.go), where `kind` is undefined.
    const schema = { type: 'object', properties: { a: { type: 'string' } }, default: { a: 'b' } };
    expect(classErrors({ ...schema, 'x-kubernetes-validations': [{ rule: '!has(self.kind)' }] }).errors).toEqual([]);
  });

  it('accepts an empty default, and the same default one level down', () => {
    expect(classErrors({ type: 'array', items, default: [] })).toEqual({ code: 0, errors: [] });
    expect(classErrors({ type: 'object', properties: { list: { type: 'array', items, default: ['a'] } } })).toEqual({
      code: 0,
      errors: [],
    });
  });
});

describe('the types of CEL rules', () => {
  // CAPI internal/topology/variables/clusterclass_variable_validation.go `validateSchema` ->
  // apiextensions-apiserver pkg/apiserver/schema/cel/compilation.go `compileRule` (cel-go's
  // checker, checker/checker.go `checkSelectField`, `resolveOverload`), with `self` typed by
  // k8s.io/apiserver pkg/cel/common/schemas.go `SchemaDeclType`.
  const rule = (type: JsonObject, r: string, more: JsonObject = {}) => ({
    ...type,
    ...more,
    'x-kubernetes-validations': [{ rule: r }],
  });
  const refused = (detail: string) => [
    expect.stringMatching(
      new RegExp(
        `^${V.replace(/[[\].]/g, '\\$&')}\\.x-kubernetes-validations\\[0\\]\\.rule: Invalid value: .*: ${detail.replace(/[()[\]|.*+?']/g, '\\$&')}`,
      ),
    ),
  ];

  it('refuses field selection on a string, and an undeclared field of an object', () => {
    expect(classErrors(rule({ type: 'string' }, 'self.foo == 1')).errors).toEqual(
      refused("compilation failed: ERROR: <input>:1:5: type 'string' does not support field selection"),
    );
    expect(classErrors(rule({ type: 'object', properties: { a: { type: 'string' } } }, 'has(self.b)')).errors).toEqual(
      refused("undefined field 'b'"),
    );
  });

  it('refuses an operator without an overload for the operand types, and a rule that is no bool', () => {
    expect(classErrors(rule({ type: 'string' }, 'self > 1')).errors).toEqual(
      refused("found no matching overload for '_>_' applied to '(string, int)'"),
    );
    expect(classErrors(rule({ type: 'integer' }, 'self == 1.0')).errors).toEqual(
      refused("found no matching overload for '_==_' applied to '(int, double)'"),
    );
    expect(classErrors(rule({ type: 'integer' }, 'self + 1')).errors).toEqual(
      refused('cel expression must evaluate to a bool'),
    );
  });

  it('accepts well-typed rules, and anything on int-or-string (dyn)', () => {
    for (const schema of [
      rule({ type: 'string' }, 'self.size() <= 6'),
      {
        type: 'string',
        maxLength: 16,
        'x-kubernetes-validations': [
          { rule: "self.startsWith('v')", messageExpression: "'must start with v, not ' + self" },
        ],
      },
      rule({ type: 'integer' }, 'self % 2 == 0 && self > 1.5'),
      rule(
        { type: 'object', properties: { name: { type: 'string' }, count: { type: 'integer' } } },
        'has(self.name) || !has(self.count)',
      ),
      rule(
        {
          type: 'object',
          properties: { tags: { type: 'array', maxItems: 4, items: { type: 'string', maxLength: 8 } } },
        },
        "self.tags.all(t, t != '') && self.tags.map(t, t + 'x').size() >= 0",
      ),
      rule(
        { type: 'object', additionalProperties: { type: 'integer' }, maxProperties: 4 },
        'self.all(k, self[k] > 0 && k.size() > 0) && self.x == 1',
      ),
      rule({ 'x-kubernetes-int-or-string': true }, "self.foo == 1 || self > 'a'"),
    ])
      expect(classErrors(schema)).toEqual({ code: 0, errors: [] });
  });
});

describe('null, aggregate literals and the Kubernetes library in CEL rules', () => {
  // cel-go checker/types.go `internalIsAssignableNull` (`isLegacyNullable`: objects, library
  // types, durations and timestamps take null; strings, numbers, lists and maps do not).
  const rule = (type: JsonObject, r: string) => ({ ...type, 'x-kubernetes-validations': [{ rule: r }] });
  const compileError = (schema: JsonObject) => {
    const { code, errors } = classErrors(schema);
    expect(code).toBe(1);
    expect(errors).toHaveLength(1);
    return errors[0] as string;
  };
  const refusedAt = (schema: JsonObject, column: number, detail: string) => {
    const e = compileError(schema);
    expect(e.startsWith(`${V}.x-kubernetes-validations[0].rule: Invalid value: {"Rule":`)).toBe(true);
    expect(e).toContain(`compilation failed: ERROR: <input>:1:${column}: ${detail}`);
  };
  const obj = (x: JsonObject) => ({ type: 'object', properties: { x } });

  it('refuses comparing a string, a number, a list or a map with null; accepts an object, dyn', () => {
    refusedAt(
      rule(obj({ type: 'string' }), 'self.x == null'),
      8,
      "found no matching overload for '_==_' applied to '(string, null)'",
    );
    refusedAt(
      rule(obj({ type: 'integer' }), 'self.x != null'),
      8,
      "found no matching overload for '_!=_' applied to '(int, null)'",
    );
    refusedAt(
      rule(obj({ type: 'array', items: { type: 'string' } }), 'self.x == null'),
      8,
      "found no matching overload for '_==_' applied to '(list(string), null)'",
    );
    refusedAt(
      rule({ type: 'string' }, 'null == self'),
      6,
      "found no matching overload for '_==_' applied to '(null, string)'",
    );
    for (const schema of [
      rule(obj({ type: 'object', properties: { a: { type: 'string' } } }), 'self.x == null'),
      rule(obj({ 'x-kubernetes-int-or-string': true }), 'self.x == null'),
      rule({ type: 'string', format: 'date-time' }, 'self != null'),
      rule({ type: 'string' }, 'quantity(self) != null && null == null'),
    ])
      expect(classErrors(schema)).toEqual({ code: 0, errors: [] });
  });

  it('refuses list and map literals mixing element types, as the homogeneity validator does', () => {
    // cel-go cel/validator.go `homogeneousAggregateLiteralValidator` (k8s.io/apiserver
    // pkg/cel/environment/base.go `HomogeneousAggregateLiterals`): each element against the first.
    refusedAt(rule({ type: 'string' }, "size([1, 'a']) > 0"), 10, "expected type 'int' but found 'string'");
    refusedAt(rule({ type: 'string' }, 'size([null, 1]) > 0'), 13, "expected type 'null' but found 'int'");
    refusedAt(rule({ type: 'string' }, "size([dyn(1), 'a']) > 0"), 15, "expected type 'dyn' but found 'string'");
    refusedAt(rule({ type: 'string' }, "size({'a': 1, 2: 3}) > 0"), 15, "expected type 'string' but found 'int'");
    expect(classErrors(rule({ type: 'string' }, "'%s %d'.format(['a', 1]) != ''"))).toEqual({ code: 0, errors: [] });
  });

  it("type-checks the Kubernetes library's functions by their declared overloads, at cel-go's column", () => {
    // k8s.io/apiserver pkg/cel/library quantity.go, urls.go, ip.go, cidr.go, regex.go; cel-go
    // parser/parser.go locates a call at its `(`.
    const overloads: [string, number, string][] = [
      ["quantity(1) == quantity('1')", 9, "'quantity' applied to '(int)'"],
      ['self.find(1) == self', 10, "'find' applied to 'string.(int)'"],
      ['quantity(self).isGreaterThan(1)', 29, "'isGreaterThan' applied to 'kubernetes.Quantity.(int)'"],
      ["ip(self).family() == 'x'", 19, "'_==_' applied to '(int, string)'"],
      ['quantity(self).sign() == 1', 20, "'sign' applied to 'kubernetes.Quantity.()'"],
      ["sets.contains([1], ['a'])", 14, "'sets.contains' applied to '(list(int), list(string))'"],
    ];
    for (const [r, column, call] of overloads)
      refusedAt(rule({ type: 'string' }, r), column, `found no matching overload for ${call}`);
    expect(compileError(rule({ type: 'string' }, 'quantity(self)'))).toMatch(/cel expression must evaluate to a bool/);
    for (const r of [
      'ip.isCanonical(self)',
      "url(self).getQuery()['a'][0] == 'b'",
      'cidr(self).ip().family() == 4 && cidr(self).masked() == cidr(self)',
      "semver(self, true).isLessThan(semver('1.0.0'))",
      "self.split(',', 2).size() == self.replace('a', 'b', 1).size()",
    ])
      expect(classErrors(rule({ type: 'string', maxLength: 64 }, r))).toEqual({ code: 0, errors: [] });
  });

  it('reports an internal error for every rule under a root array with rules of its own', () => {
    // apiextensions validation/cel_validation.go `CELSchemaContext.TypeInfo`: a child's type info is
    // read from its parent's, whose failure (a root array has no type) it returns.
    const items = {
      type: 'object',
      properties: { a: { type: 'string' } },
      'x-kubernetes-validations': [{ rule: 'self.a == null' }],
    };
    const internal =
      ': Internal error: internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations';
    const { errors } = classErrors({ type: 'array', items, 'x-kubernetes-validations': [{ rule: 'self.size() < 5' }] });
    expect(errors.map((e) => e.replace(/; .*$/, '')).sort()).toEqual([
      `${V}.items.x-kubernetes-validations${internal}`,
      `${V}.x-kubernetes-validations${internal}`,
    ]);
  });
});

describe('the estimated cost of CEL rules', () => {
  // CAPI internal/topology/variables/clusterclass_variable_validation.go `validateSchema`
  // (`getExpressionCost`, `StaticEstimatedCostLimit`) and `validateRootSchema`
  // (`StaticEstimatedCRDCostLimit`); apiextensions-apiserver compilation.go `compileRule` with
  // cel-go checker/cost.go and k8s.io/apiserver pkg/cel/library/cost.go.
  const X = `${V}.x-kubernetes-validations[0]`;
  const limits = (errors: string[]) => errors.map((e) => e.replace(/ \(try simplifying.*$/, ''));
  const JOINED = "'bad: ' + self.map(k, self[k]).join(',')";
  const costly = (messageExpression = JOINED, more: JsonObject = {}, value: JsonObject = { type: 'string' }) => ({
    type: 'object',
    additionalProperties: value,
    ...more,
    'x-kubernetes-validations': [{ rule: 'self.all(k, self[k].size() > 0)', messageExpression }],
  });

  it('refuses a messageExpression joining an unbounded map, and names it in the total', () => {
    expect(limits(classErrors(costly()).errors)).toEqual([
      `${X}.messageExpression: Forbidden: estimated messageExpression cost exceeds budget by factor of more than 100x`,
      `${X}.messageExpression: Forbidden: contributed to estimated rule & messageExpression cost total exceeding cost limit for entire OpenAPIv3 schema`,
      `${X}.rule: Forbidden: contributed to estimated rule & messageExpression cost total exceeding cost limit for entire OpenAPIv3 schema`,
      `${V}: Forbidden: x-kubernetes-validations estimated rule & messageExpression cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x`,
    ]);
  });

  it('refuses it bounded too (a mapped list has no declared item size); accepts a bounded message', () => {
    expect(classErrors(costly(JOINED, { maxProperties: 10 }, { type: 'string', maxLength: 10 })).errors).toHaveLength(
      3,
    );
    expect(classErrors(costly("'bad: ' + (self.size() > 3 ? 'many' : 'few')"))).toEqual({ code: 0, errors: [] });
  });

  it('reports by how much a quadratic rule exceeds the limit', () => {
    const schema = {
      type: 'object',
      properties: { l: { type: 'array', maxItems: 3000, items: { type: 'string', maxLength: 50 } } },
      'x-kubernetes-validations': [{ rule: 'self.l.all(x, self.l.exists(y, x == y))' }],
    };
    expect(limits(classErrors(schema).errors)).toEqual([
      `${X}.rule: Forbidden: estimated rule cost exceeds budget by factor of 23.4x`,
      `${X}.rule: Forbidden: contributed to estimated rule & messageExpression cost total exceeding cost limit for entire OpenAPIv3 schema`,
      `${V}: Forbidden: x-kubernetes-validations estimated rule & messageExpression cost total for entire OpenAPIv3 schema exceeds budget by factor of 2.3x`,
    ]);
  });

  it('multiplies a rule under an unbounded list by the most items a request can hold', () => {
    const schema = {
      type: 'object',
      properties: {
        l: {
          type: 'array',
          items: { type: 'string', 'x-kubernetes-validations': [{ rule: "self.matches('^[a-z]+$')" }] },
        },
      },
    };
    expect(limits(classErrors(schema).errors)[0]).toBe(
      `${V}.properties[l].items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x`,
    );
  });

  it('estimates the Kubernetes library functions and replace, find, maps as cel-go does', () => {
    // k8s.io/apiserver pkg/cel/library/cost.go `EstimateCallCost` (`replace`: the target's size
    // times twice the traversal factor, the result's size from the literals' sizes; `find`: the
    // string's size times the regex's; `quantity`, `url`, `cidr`: the string's size), times the
    // 100,000 items of the list. Factors as the v1.12-v1.14 oracles give them.
    const perItem = (r: string) => ({
      type: 'array',
      maxItems: 100000,
      items: { type: 'string', maxLength: 5000, 'x-kubernetes-validations': [{ rule: r }] },
    });
    const factor = (r: string) =>
      limits(classErrors(perItem(r)).errors)[0]?.replace(/^.*exceeds budget by factor of /, '');
    expect(factor("self.replace('a', 'bb') != ''")).toBe('40.0x');
    expect(factor("self.replace('a', 'bb').contains('x')")).toBe('80.0x');
    expect(factor("self.replace('ab', 'b').contains('x')")).toBe('60.0x');
    expect(factor("self.find('[a-z]+').contains('x')")).toBe('60.0x');
    expect(factor("url(self).getHost() == 'x'")).toBe('20.0x');
    expect(factor("isQuantity(self) && quantity(self).isGreaterThan(quantity('1'))")).toBe('40.0x');
    expect(
      factor("isCIDR(self) && cidr(self).containsIP('1.2.3.4') && cidr(self).containsCIDR(cidr('1.0.0.0/8'))"),
    ).toBe('60.2x');
    expect(factor("{'a': self}['a'].contains('x')")).toBe('20.3x');
    expect(factor("self.split(',').join('-') != ''")).toBe('more than 100x');
    expect(factor('isURL(self)')).toBeUndefined();
  });
});
