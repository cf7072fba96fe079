import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ClusterVariable, Json, JsonObject } from '../../src/core/model.js';
import { compileClassVariables, defaultAndValidateClusterVariables } from '../../src/variables/index.js';
import { applyStructuralDefaults } from '../../src/variables/defaulting.js';
import { parseSchema } from '../../src/variables/schema.js';
import { classRef, clusterRef, makeClass, makeCluster } from './helpers.js';

type Var = { name: string; required?: boolean; schema: JsonObject };
function run(
  vars: Var[],
  values: ClusterVariable[],
  extra: Parameters<typeof makeCluster>[1] = {},
  previous?: ClusterVariable[],
) {
  const { variables, results } = compileClassVariables(makeClass(vars), classRef());
  expect(results.filter((r) => r.severity === 'error')).toEqual([]);
  const opts = previous ? { previous: makeCluster(previous) } : undefined;
  const out = defaultAndValidateClusterVariables(variables, makeCluster(values, extra), clusterRef(), opts);
  return {
    ...out,
    errors: out.results.filter((r) => r.severity === 'error').map((r) => `${r.field?.path}: ${r.message}`),
    warnings: out.results.filter((r) => r.severity === 'warning').map((r) => `${r.field?.path}: ${r.message}`),
  };
}
const V = 'spec.topology.variables';
const httpProxy: Var = {
  name: 'httpProxy',
  schema: { type: 'object', properties: { enabled: { type: 'boolean', default: false }, url: { type: 'string' } } },
};

describe('defaulting (§5.4)', () => {
  it('does not create a variable without a top-level default', () => {
    expect(run([httpProxy], []).variables.cluster).toEqual([]);
  });

  it('creates variables with a top-level default and applies nested defaults to it', () => {
    const withDefault = { ...httpProxy, schema: { ...httpProxy.schema, default: { url: 'test-url' } } };
    expect(run([withDefault], []).variables.cluster).toEqual([
      { name: 'httpProxy', value: { enabled: false, url: 'test-url' } },
    ]);
    const emptyDefault = { ...httpProxy, schema: { ...httpProxy.schema, default: {} } };
    expect(run([emptyDefault], []).variables.cluster).toEqual([{ name: 'httpProxy', value: { enabled: false } }]);
  });

  it('applies nested defaults only inside existing parents', () => {
    expect(run([httpProxy], [{ name: 'httpProxy', value: { url: 'x' } }]).variables.cluster).toEqual([
      { name: 'httpProxy', value: { enabled: false, url: 'x' } },
    ]);
  });

  it('keeps an empty string and replaces null with the default', () => {
    const s: Var = { name: 'img', schema: { type: 'string', default: 'kindest' } };
    expect(run([s], [{ name: 'img', value: '' }]).variables.cluster).toEqual([{ name: 'img', value: '' }]);
    expect(run([s], [{ name: 'img', value: null }]).variables.cluster).toEqual([{ name: 'img', value: 'kindest' }]);
  });

  it('defaults additionalProperties values and array items (null replaced)', () => {
    const m: Var = {
      name: 'm',
      schema: {
        type: 'object',
        additionalProperties: {
          type: 'object',
          default: { x: 1 },
          properties: { x: { type: 'integer' }, y: { type: 'integer', default: 2 } },
        },
      },
    };
    expect(run([m], [{ name: 'm', value: { a: null, b: { x: 5 } } }]).variables.cluster[0]?.value).toEqual({
      a: { x: 1, y: 2 },
      b: { x: 5, y: 2 },
    });
    const l: Var = { name: 'l', schema: { type: 'array', items: { type: 'string', default: 'd' } } };
    expect(run([l], [{ name: 'l', value: ['a', null] }]).variables.cluster[0]?.value).toEqual(['a', 'd']);
  });

  it('never applies defaults inside allOf/anyOf/oneOf/not', () => {
    const node = parseSchema(
      { type: 'object', properties: { a: { type: 'string' } }, allOf: [{ properties: { a: { default: 'x' } } }] },
      'p',
      { errors: [], ignored: [] },
    );
    expect(applyStructuralDefaults({}, node)).toEqual({});
  });

  it('appends defaulted-but-unset variables in alphabetical order after user entries', () => {
    const vars: Var[] = [
      { name: 'z', schema: { type: 'string', default: 'z' } },
      { name: 'b', schema: { type: 'string', default: 'b' } },
      { name: 'm', schema: { type: 'string' } },
    ];
    expect(run(vars, [{ name: 'm', value: 'x' }]).variables.cluster.map((v) => v.name)).toEqual(['m', 'b', 'z']);
  });

  it('defaults override lists only inside existing entries', () => {
    const vars: Var[] = [httpProxy, { name: 'img', schema: { type: 'string', default: 'kindest' } }];
    const out = run(vars, [], {
      cp: [{ name: 'httpProxy', value: {} }],
      md: { md0: [{ name: 'httpProxy', value: { url: 'u' } }], md1: [] },
      mp: { mp0: [{ name: 'httpProxy', value: {} }] },
    });
    expect(out.variables.controlPlaneOverrides).toEqual([{ name: 'httpProxy', value: { enabled: false } }]);
    expect(out.variables.machineDeploymentOverrides.get('md0')).toEqual([
      { name: 'httpProxy', value: { enabled: false, url: 'u' } },
    ]);
    expect(out.variables.machineDeploymentOverrides.get('md1')).toEqual([]);
    expect(out.variables.machinePoolOverrides.get('mp0')).toEqual([{ name: 'httpProxy', value: { enabled: false } }]);
  });

  it('reports variables set more than once', () => {
    const out = run(
      [{ name: 'a', schema: { type: 'string' } }],
      [
        { name: 'a', value: 'x' },
        { name: 'a', value: 'y' },
      ],
    );
    expect(out.errors).toContain(`${V}[a]: Invalid value: "\\"y\\"": variable "a" is set more than once`);
  });

  it('reports values without a definition, saying where definitions come from (the class spec.variables)', () => {
    const fix = 'define it in ClusterClass "cc" spec.variables, or remove it from the Cluster';
    expect(run([], [{ name: 'location', value: 'us-east-1' }]).errors).toEqual([
      `${V}[location]: Invalid value: "\\"us-east-1\\"": variable is not defined; ${fix}`,
    ]);
    expect(run([], [], { md: { md0: [{ name: 'x', value: 1 }] } }).errors).toEqual([
      `spec.topology.workers.machineDeployments[md0].variables.overrides[x]: Invalid value: "1": variable is not defined; ${fix}`,
    ]);
  });

  it('re-serialises values like Go encoding/json (sorted keys)', () => {
    const p: Var = { name: 'p', schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };
    const value = run([p], [{ name: 'p', value: { b: 1, a: { d: 1.0, c: 2 } } }]).variables.cluster[0]
      ?.value as JsonObject;
    expect(JSON.stringify(value)).toBe('{"a":{"c":2,"d":1},"b":1}');
  });

  it('treats __proto__ keys as plain data', () => {
    const p: Var = {
      name: 'p',
      schema: {
        type: 'object',
        additionalProperties: { type: 'object', properties: { x: { type: 'integer', default: 1 } } },
      },
    };
    const input = JSON.parse('{"__proto__":{}}') as Json;
    const value = run([p], [{ name: 'p', value: input }]).variables.cluster[0]?.value as JsonObject;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toEqual({ x: 1 });
    expect(({} as { x?: number }).x).toBeUndefined();
  });

  it('is idempotent and deterministic (property, fast-check seed 1404)', () => {
    const schema = parseSchema(
      {
        type: 'object',
        default: {},
        properties: {
          a: { type: 'string', default: 'x' },
          o: {
            type: 'object',
            properties: {
              n: { type: 'integer', default: 3 },
              l: { type: 'array', items: { type: 'string', default: 'i' } },
            },
          },
          m: {
            type: 'object',
            additionalProperties: {
              type: 'object',
              default: {},
              properties: { k: { type: 'boolean', default: true } },
            },
          },
        },
      },
      'p',
      { errors: [], ignored: [] },
    );
    const json = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: 'small' },
        fc.constant(null),
        fc.boolean(),
        fc.integer(),
        fc.string(),
        fc.array(tie('v')),
        fc.dictionary(fc.constantFrom('a', 'o', 'm', 'n', 'l', 'k', 'x'), tie('v')),
      ),
    })).v as fc.Arbitrary<Json>;
    fc.assert(
      fc.property(json, (v) => {
        const once = applyStructuralDefaults(v, schema);
        expect(applyStructuralDefaults(once, schema)).toEqual(once);
        expect(applyStructuralDefaults(v, schema)).toEqual(once);
      }),
      { numRuns: 300, seed: 1404 },
    );
  });
});

describe('validation (§5.5)', () => {
  it('requires required variables in the cluster list only', () => {
    const vars: Var[] = [{ name: 'cpu', required: true, schema: { type: 'integer' } }];
    expect(run(vars, []).errors).toEqual([`${V}: Required value: required variable "cpu" must be set`]);
    expect(run(vars, [{ name: 'cpu', value: 1 }], { cp: [] }).errors).toEqual([]);
  });

  it('checks types', () => {
    expect(run([{ name: 'cpu', schema: { type: 'string' } }], [{ name: 'cpu', value: 1 }]).errors).toEqual([
      `${V}[cpu].value: Invalid value: "1": must be of type string: "integer"`,
    ]);
  });

  it('checks maximum with the raw value as BadValue', () => {
    expect(
      run([{ name: 'cpu', schema: { type: 'integer', maximum: 10 } }], [{ name: 'cpu', value: 99 }]).errors,
    ).toEqual([`${V}[cpu].value: Invalid value: "99": should be less than or equal to 10`]);
    expect(
      run(
        [{ name: 'cpu', schema: { type: 'integer', maximum: 10, exclusiveMaximum: true } }],
        [{ name: 'cpu', value: 10 }],
      ).errors,
    ).toEqual([`${V}[cpu].value: Invalid value: "10": should be less than 10`]);
  });

  it('checks pattern with RE2', () => {
    expect(
      run(
        [{ name: 'location', schema: { type: 'string', pattern: '^[0-9]+$' } }],
        [{ name: 'location', value: '000000a' }],
      ).errors,
    ).toEqual([`${V}[location].value: Invalid value: "\\"000000a\\"": should match '^[0-9]+$'`]);
  });

  it('checks enum', () => {
    expect(
      run(
        [{ name: 'location', schema: { type: 'string', enum: ['us-east-1', 'us-east-2'] } }],
        [{ name: 'location', value: 'us-east-invalid' }],
      ).errors,
    ).toEqual([
      `${V}[location].value: Unsupported value: "\\"us-east-invalid\\"": supported values: "us-east-1", "us-east-2"`,
    ]);
  });

  it('reports nested errors at the nested path', () => {
    expect(run([httpProxy], [{ name: 'httpProxy', value: { enabled: 'not-a-bool' } }]).errors).toEqual([
      `${V}[httpProxy].value.enabled: Invalid value: "{\\"enabled\\":\\"not-a-bool\\"}": enabled in body must be of type boolean: "string"`,
    ]);
    const l: Var = { name: 'l', schema: { type: 'array', items: { type: 'string' } } };
    expect(run([l], [{ name: 'l', value: ['a', 1] }]).errors).toEqual([
      `${V}[l].value.[1]: Invalid value: "[\\"a\\",1]": [1] in body must be of type string: "integer"`,
    ]);
  });

  it('checks maxItems and uniqueItems', () => {
    const a: Var = {
      name: 'testArray',
      schema: { type: 'array', items: { type: 'string' }, maxItems: 3, uniqueItems: true },
    };
    expect(run([a], [{ name: 'testArray', value: ['a', 'b', 'c', 'd'] }]).errors).toEqual([
      `${V}[testArray].value: Too many: "[\\"a\\",\\"b\\",\\"c\\",\\"d\\"]": must have at most 3 items`,
    ]);
    expect(run([a], [{ name: 'testArray', value: ['value1', 'value1'] }]).errors).toEqual([
      `${V}[testArray].value: Invalid value: "[\\"value1\\",\\"value1\\"]": shouldn't contain duplicates`,
    ]);
  });

  it('checks required properties', () => {
    const o: Var = { name: 'o', schema: { type: 'object', required: ['a'], properties: { a: { type: 'string' } } } };
    expect(run([o], [{ name: 'o', value: {} }]).errors).toEqual([`${V}[o].value.a: Required value`]);
  });

  it('checks Kubernetes formats and ignores unknown ones', () => {
    const f: Var = { name: 'ip', schema: { type: 'string', format: 'ipv4' } };
    expect(run([f], [{ name: 'ip', value: '10.0.0.300' }]).errors).toEqual([
      `${V}[ip].value: Invalid value: "\\"10.0.0.300\\"": must be of type ipv4: "10.0.0.300"`,
    ]);
    expect(run([f], [{ name: 'ip', value: '10.0.0.3' }]).errors).toEqual([]);
    expect(
      run([{ name: 'n', schema: { type: 'string', format: 'k8s-short-name' } }], [{ name: 'n', value: 'NOT_A_NAME' }])
        .errors,
    ).toEqual([]);
    expect(
      run([{ name: 'q', schema: { type: 'string', format: 'quantity' } }], [{ name: 'q', value: '1Gi' }]).errors,
    ).toEqual([]);
  });

  it('accepts int-or-string and rejects other types', () => {
    const ios: Var = { name: 'v', schema: { 'x-kubernetes-int-or-string': true } };
    expect(run([ios], [{ name: 'v', value: 1 }]).errors).toEqual([]);
    expect(run([ios], [{ name: 'v', value: '10%' }]).errors).toEqual([]);
    expect(run([ios], [{ name: 'v', value: true }]).errors).toEqual([
      `${V}[v].value: Invalid value: "true": must be of type integer,string: "boolean"`,
    ]);
  });

  it('reports unknown fields unless preserved', () => {
    const o: Var = {
      name: 'o',
      schema: {
        type: 'object',
        properties: {
          a: { type: 'object', properties: { b: { type: 'string' } } },
          p: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        },
      },
    };
    expect(run([o], [{ name: 'o', value: { a: { b: 'x', c: 1 }, z: 1, p: { anything: 1 } } }]).errors).toEqual([
      `${V}[o]: Invalid value: "{\\"a\\":{\\"b\\":\\"x\\",\\"c\\":1},\\"p\\":{\\"anything\\":1},\\"z\\":1}": failed validation: "a.c,z" field(s) are not specified in the variable schema of variable "o"`,
    ]);
  });

  it('evaluates CEL rules with the default message', () => {
    expect(
      run(
        [{ name: 'cpu', schema: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self <= 1' }] } }],
        [{ name: 'cpu', value: 99 }],
      ).errors,
    ).toEqual([`${V}[cpu].value: Invalid value: "99": failed rule: self <= 1`]);
  });

  it('evaluates CEL messageExpression, reason and fieldPath', () => {
    const s: Var = {
      name: 'o',
      schema: {
        type: 'object',
        properties: { a: { type: 'string' } },
        'x-kubernetes-validations': [
          { rule: "self.a != 'x'", messageExpression: "'a is %s'.format([self.a])", fieldPath: '.a' },
          { rule: "self.a != 'x'", message: 'forbidden x', reason: 'FieldValueForbidden' },
        ],
      },
    };
    expect(run([s], [{ name: 'o', value: { a: 'x' } }]).errors).toEqual([
      `${V}[o].value.a: Invalid value: "{\\"a\\":\\"x\\"}": a is x`,
      `${V}[o].value: Forbidden: forbidden x`,
    ]);
  });

  it('evaluates nested CEL rules at nested paths and Kubernetes library functions', () => {
    const s: Var = {
      name: 'o',
      schema: {
        type: 'object',
        properties: {
          l: { type: 'array', items: { type: 'integer' }, 'x-kubernetes-validations': [{ rule: 'self.isSorted()' }] },
          // Bounded: over an unbounded map of unbounded strings the rule's estimated cost is refused.
          m: {
            type: 'object',
            maxProperties: 10,
            additionalProperties: {
              type: 'string',
              maxLength: 20,
              'x-kubernetes-validations': [{ rule: 'self.matches("^[a-z]+$")', message: 'lowercase' }],
            },
          },
          u: { type: 'string', 'x-kubernetes-validations': [{ rule: 'isURL(self)' }] },
        },
      },
    };
    expect(run([s], [{ name: 'o', value: { l: [1, 2], m: { k: 'abc' }, u: 'https://x' } }]).errors).toEqual([]);
    expect(run([s], [{ name: 'o', value: { l: [2, 1], m: { k: 'ABC' }, u: 'not a url' } }]).errors).toEqual([
      `${V}[o].value.l: Invalid value: "{\\"l\\":[2,1],\\"m\\":{\\"k\\":\\"ABC\\"},\\"u\\":\\"not a url\\"}": failed rule: self.isSorted()`,
      `${V}[o].value.m[k]: Invalid value: "{\\"l\\":[2,1],\\"m\\":{\\"k\\":\\"ABC\\"},\\"u\\":\\"not a url\\"}": lowercase`,
      `${V}[o].value.u: Invalid value: "{\\"l\\":[2,1],\\"m\\":{\\"k\\":\\"ABC\\"},\\"u\\":\\"not a url\\"}": failed rule: isURL(self)`,
    ]);
  });

  it('reports CEL runtime errors like the API server', () => {
    const s: Var = {
      name: 'o',
      schema: {
        type: 'object',
        properties: { a: { type: 'string' } },
        'x-kubernetes-validations': [{ rule: "self.a == 'x'" }],
      },
    };
    expect(run([s], [{ name: 'o', value: {} }]).errors).toEqual([
      `${V}[o].value: Invalid value: "{}": no such key: a evaluating rule: self.a == 'x'`,
    ]);
  });

  it('evaluates transition rules only with an old value (oldSelf)', () => {
    const s: Var = {
      name: 'v',
      schema: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'immutable' }] },
    };
    expect(run([s], [{ name: 'v', value: 'b' }]).errors).toEqual([]);
    expect(run([s], [{ name: 'v', value: 'b' }], {}, [{ name: 'v', value: 'a' }]).errors).toEqual([
      `${V}[v].value: Invalid value: "\\"b\\"": immutable`,
    ]);
    expect(run([s], [{ name: 'v', value: 'a' }], {}, [{ name: 'v', value: 'a' }]).errors).toEqual([]);
  });

  it('warns (never passes silently) when a rule uses an unsupported function', () => {
    const s: Var = {
      name: 'q',
      schema: { type: 'string', 'x-kubernetes-validations': [{ rule: "quantity(self).isLessThan(quantity('1Gi'))" }] },
    };
    const out = run([s], [{ name: 'q', value: '2Gi' }]);
    expect(out.errors).toEqual([]);
    expect(out.warnings).toHaveLength(1);
    expect(out.warnings[0]).toContain(`${V}[q].value: `);
    expect(out.warnings[0]).toContain(
      'x-kubernetes-validations rule "quantity(self).isLessThan(quantity(\'1Gi\'))" not evaluated: ',
    );
  });

  it('validates override lists with their own field paths', () => {
    const vars: Var[] = [{ name: 'cpu', schema: { type: 'integer', maximum: 10 } }];
    const out = run(vars, [], {
      cp: [{ name: 'cpu', value: 11 }],
      md: { md0: [{ name: 'cpu', value: 12 }] },
      mp: { mp0: [{ name: 'cpu', value: 13 }] },
    });
    expect(out.errors).toEqual([
      'spec.topology.controlPlane.variables.overrides[cpu].value: Invalid value: "11": should be less than or equal to 10',
      'spec.topology.workers.machineDeployments[md0].variables.overrides[cpu].value: Invalid value: "12": should be less than or equal to 10',
      'spec.topology.workers.machinePools[mp0].variables.overrides[cpu].value: Invalid value: "13": should be less than or equal to 10',
    ]);
    expect(out.results.every((r) => r.resourceRef?.kind === 'Cluster')).toBe(true);
  });

  it('does not run RE2 patterns with backtracking semantics (no catastrophic backtracking)', () => {
    const s: Var = { name: 'p', schema: { type: 'string', pattern: '^(a+)+$' } };
    // RE2 semantics: the pattern is still applied (and rejects the value); its linear time is
    // what the fuzz run and bench measure.
    expect(run([s], [{ name: 'p', value: 'a'.repeat(5000) + '!' }]).errors).toEqual([
      expect.stringContaining('should match'),
    ]);
  });
});
