import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/model.js';
import { compileClassVariables, inlineVariableNames, statusVariables } from '../../src/variables/index.js';
import { classRef, makeClass } from './helpers.js';

type Var = { name: string; required?: boolean; schema: JsonObject; deprecatedV1Beta1Metadata?: JsonObject };
const compile = (vars: Var[]) => compileClassVariables(makeClass(vars), classRef());
const errors = (vars: Var[]) =>
  compile(vars)
    .results.filter((r) => r.severity === 'error')
    .map((r) => `${r.field?.path}: ${r.message}`);
const S = 'spec.variables';

describe('ClusterClass variable validation (§5.3)', () => {
  it('accepts a valid definition and reports results against the class', () => {
    const { results } = compile([{ name: 'cpu', schema: { type: 'integer', minimum: 1, default: 2 } }]);
    expect(results).toEqual([]);
  });

  it('rejects duplicate names', () => {
    expect(
      errors([
        { name: 'a', schema: { type: 'string' } },
        { name: 'a', schema: { type: 'string' } },
      ]),
    ).toContain(
      `${S}[a].name: Invalid value: "a": variable name must be unique. Variable with name "a" is defined more than once; remove the duplicate or rename one of them`,
    );
  });

  it('rejects an empty name', () => {
    expect(errors([{ name: '', schema: { type: 'string' } }])).toContain(
      `${S}[].name: Required value: variable name must be defined; give the variable a name`,
    );
  });

  it('rejects the reserved name builtin', () => {
    expect(errors([{ name: 'builtin', schema: { type: 'string' } }])).toContain(
      `${S}[builtin].name: Invalid value: "builtin": "builtin" is a reserved variable name; choose another name: "builtin" holds the variables Cluster API provides`,
    );
  });

  it('rejects dots in names', () => {
    const r = compile([{ name: 'a.b', schema: { type: 'string' } }]).results.find(
      (x) => x.field?.path === `${S}[a.b].name`,
    );
    expect(r?.message).toBe(
      'Invalid value: "a.b": variable name cannot contain "."; use a name without "." (nest values in an object schema instead)',
    );
    expect(r?.severity).toBe('error');
    expect(r?.resourceRef).toEqual(classRef());
  });

  it('requires type on the root, properties, items and additionalProperties nodes', () => {
    const errs = errors([
      { name: 'r', schema: { description: 'x' } },
      { name: 'p', schema: { type: 'object', properties: { x: { description: 'no type' } } } },
      { name: 'i', schema: { type: 'array', items: { description: 'no type' } } },
      { name: 'ap', schema: { type: 'object', additionalProperties: { description: 'no type' } } },
    ]);
    const fix = '; set type, or set x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields to true';
    expect(errs).toContain(
      `${S}[r].schema.openAPIV3Schema.type: Required value: must not be empty for specified object fields${fix}`,
    );
    expect(errs).toContain(
      `${S}[p].schema.openAPIV3Schema.properties[x].type: Required value: must not be empty for specified object fields${fix}`,
    );
    expect(errs).toContain(
      `${S}[i].schema.openAPIV3Schema.items.type: Required value: must not be empty for specified array items${fix}`,
    );
    expect(errs).toContain(
      `${S}[ap].schema.openAPIV3Schema.additionalProperties.type: Required value: must not be empty for specified object fields${fix}`,
    );
  });

  it('does not require type with int-or-string or preserve-unknown-fields', () => {
    expect(
      errors([
        { name: 'ios', schema: { 'x-kubernetes-int-or-string': true } },
        { name: 'pu', schema: { type: 'object', properties: { x: { 'x-kubernetes-preserve-unknown-fields': true } } } },
      ]),
    ).toEqual([]);
  });

  it('allows only value validations inside allOf/anyOf/oneOf/not', () => {
    const errs = errors([
      {
        name: 'v',
        schema: {
          type: 'string',
          allOf: [{ type: 'string' }],
          anyOf: [{ default: 'x' }],
          not: { 'x-kubernetes-validations': [{ rule: 'true' }] },
          oneOf: [{ minLength: 1 }],
        },
      },
    ]);
    const fix =
      '; only value validations (e.g. minimum, pattern, enum) may appear inside allOf, anyOf, oneOf and not: move this field to the schema node itself';
    expect(errs).toContain(
      `${S}[v].schema.openAPIV3Schema.allOf[0].type: Forbidden: must be empty to be structural${fix}`,
    );
    expect(errs).toContain(
      `${S}[v].schema.openAPIV3Schema.anyOf[0].default: Forbidden: must be undefined to be structural${fix}`,
    );
    expect(errs).toContain(
      `${S}[v].schema.openAPIV3Schema.not.x-kubernetes-validations: Forbidden: must be empty to be structural${fix}`,
    );
    expect(errs).toHaveLength(3);
  });

  it('rejects unsupported type values', () => {
    expect(errors([{ name: 'n', schema: { type: 'null' } }])).toContain(
      `${S}[n].schema.openAPIV3Schema.type: Unsupported value: "null": supported values: "array", "boolean", "integer", "number", "object", "string"; use one of the supported types`,
    );
  });

  it('rejects properties together with additionalProperties', () => {
    expect(
      errors([
        {
          name: 'o',
          schema: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } },
        },
      ]),
    ).toContain(
      `${S}[o].schema.openAPIV3Schema: Forbidden: additionalProperties and properties are mutually exclusive; keep either properties or additionalProperties`,
    );
  });

  it('validates defaults against the schema', () => {
    expect(errors([{ name: 'd', schema: { type: 'integer', default: 'x' } }])).toContain(
      `${S}[d].schema.openAPIV3Schema.default: Invalid value: "string": must be of type integer: "string"; change the default so it satisfies the schema`,
    );
    expect(
      errors([
        { name: 'n', schema: { type: 'object', properties: { a: { type: 'integer', maximum: 3, default: 5 } } } },
      ]),
    ).toContain(
      `${S}[n].schema.openAPIV3Schema.properties[a].default: Invalid value: 5: should be less than or equal to 3; change the default so it satisfies the schema`,
    );
  });

  it('rejects defaults with unknown (pruned) fields', () => {
    expect(
      errors([
        { name: 'd', schema: { type: 'object', properties: { a: { type: 'string' } }, default: { a: 'x', b: 'y' } } },
      ]),
    ).toContain(
      `${S}[d].schema.openAPIV3Schema.default: Invalid value: {"a":"x","b":"y"}: must not have unknown fields; remove the fields the schema does not declare from the default, or declare them`,
    );
  });

  it('validates defaults against CEL rules', () => {
    expect(
      errors([
        { name: 'd', schema: { type: 'integer', default: 5, 'x-kubernetes-validations': [{ rule: 'self < 3' }] } },
      ]),
    ).toContain(
      `${S}[d].schema.openAPIV3Schema.default: Invalid value: "integer": failed rule: self < 3; change the default so it satisfies the schema`,
    );
  });

  it('validates examples and enum values against the schema', () => {
    const errs = errors([
      { name: 'e', schema: { type: 'string', maxLength: 3, example: 'toolong', enum: ['ok', 'also-too-long'] } },
    ]);
    expect(errs).toContain(
      `${S}[e].schema.openAPIV3Schema.example: Too long: may not be more than 3 bytes; change the example so it satisfies the schema`,
    );
    expect(errs).toContain(
      `${S}[e].schema.openAPIV3Schema.enum[1]: Too long: may not be more than 3 bytes; change or remove this enum value so it satisfies the schema`,
    );
  });

  it('validates examples and enum values against CEL rules', () => {
    const errs = errors([
      {
        name: 'e',
        schema: {
          type: 'string',
          example: 'b',
          enum: ['a', 'b'],
          'x-kubernetes-validations': [{ rule: "self == 'a'", message: 'must be a' }],
        },
      },
    ]);
    expect(errs).toContain(
      `${S}[e].schema.openAPIV3Schema.example: Invalid value: "string": must be a; change the example so it satisfies the schema`,
    );
    expect(errs).toContain(
      `${S}[e].schema.openAPIV3Schema.enum[1]: Invalid value: "string": must be a; change or remove this enum value so it satisfies the schema`,
    );
  });

  it('validates x-metadata and deprecatedV1Beta1Metadata labels and annotations', () => {
    const errs = errors([
      {
        name: 'm',
        deprecatedV1Beta1Metadata: { labels: { 'bad key!': 'v' } },
        schema: {
          type: 'object',
          'x-metadata': { labels: { ok: 'bad value!' } },
          properties: { a: { type: 'string', 'x-metadata': { annotations: { '/x': 'v' } } } },
        },
      },
    ]);
    expect(
      errs.some((e) =>
        e.startsWith(`${S}[m].deprecatedV1Beta1Metadata.labels: Invalid value: "bad key!": name part must consist of`),
      ),
    ).toBe(true);
    expect(
      errs.some((e) =>
        e.startsWith(
          `${S}[m].schema.openAPIV3Schema.x-metadata.labels[ok]: Invalid value: "bad value!": a valid label must be`,
        ),
      ),
    ).toBe(true);
    expect(errs).toContain(
      `${S}[m].schema.openAPIV3Schema.properties[a].x-metadata.annotations: Invalid value: "/x": prefix part must be non-empty; fix or remove this annotation`,
    );
  });

  it('reports CEL rule compile errors', () => {
    const errs = errors([
      {
        name: 'c',
        schema: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self +' }, { rule: 'foo(self)' }] },
      },
    ]);
    expect(
      errs.some(
        (e) =>
          e.startsWith(
            `${S}[c].schema.openAPIV3Schema.x-kubernetes-validations[0].rule: Invalid value: {"Rule":"self +","Message":"","MessageExpression":"","Reason":"FieldValueInvalid","FieldPath":"","OptionalOldSelf":null}: compilation failed`,
          ) && e.includes('compilation failed'),
      ),
    ).toBe(true);
    expect(
      errs.some(
        (e) =>
          e.startsWith(`${S}[c].schema.openAPIV3Schema.x-kubernetes-validations[1].rule:`) &&
          e.includes("undeclared reference to 'foo'"),
      ),
    ).toBe(true);
  });

  it('checks CEL rule message, reason and fieldPath', () => {
    const errs = errors([
      {
        name: 'c',
        schema: {
          type: 'object',
          properties: { a: { type: 'string' } },
          'x-kubernetes-validations': [
            { rule: 'true', message: '  ' },
            { rule: 'true\n&& true' },
            { rule: 'true', reason: 'Nope' },
            { rule: 'true', fieldPath: '.b' },
          ],
        },
      },
    ]);
    const p = `${S}[c].schema.openAPIV3Schema.x-kubernetes-validations`;
    expect(errs).toContain(
      `${p}[0].message: Invalid value: "  ": message must be non-empty if specified; remove message or give it text on one line of at most 2048 characters`,
    );
    expect(errs).toContain(
      `${p}[1].message: Required value: message must be specified if rule contains line breaks; add a message, or write the rule on one line`,
    );
    expect(errs).toContain(
      `${p}[2].reason: Unsupported value: "Nope": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"; use one of the supported reasons, or omit reason`,
    );
    expect(errs).toContain(
      `${p}[3].fieldPath: Invalid value: ".b": fieldPath must be a valid path: does not refer to a valid field; point fieldPath at a field of this schema (e.g. ".name"), or omit it`,
    );
  });

  it('rejects oldSelf inside items', () => {
    expect(
      errors([
        {
          name: 'l',
          schema: {
            type: 'array',
            items: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] },
          },
        },
      ]),
    ).toContain(
      `${S}[l].schema.openAPIV3Schema.items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${S}[l].schema.openAPIV3Schema.items; move the rule to the array itself, or do not use oldSelf`,
    );
  });

  it('ignores unsupported keywords with a warning', () => {
    const { results } = compile([{ name: 'u', schema: { type: 'string', nullable: true, $ref: '#/x' } }]);
    expect(results.filter((r) => r.severity === 'error')).toEqual([]);
    expect(results.filter((r) => r.severity === 'warning').map((r) => r.field?.path)).toEqual([
      `${S}[u].schema.openAPIV3Schema.nullable`,
      `${S}[u].schema.openAPIV3Schema.$ref`,
    ]);
  });

  it('warns at class level about rules using unsupported Kubernetes CEL functions', () => {
    const { results } = compile([
      {
        name: 'q',
        schema: {
          type: 'string',
          'x-kubernetes-validations': [{ rule: "quantity(self).isLessThan(quantity('1Gi'))" }],
        },
      },
    ]);
    expect(results.filter((r) => r.severity === 'error')).toEqual([]);
    expect(results.some((r) => r.severity === 'warning' && r.message.includes("'quantity'"))).toBe(true);
  });

  it('rejects fractional minimum/maximum (int64 only) and invalid patterns', () => {
    const errs = errors([
      { name: 'f', schema: { type: 'number', maximum: 1.5 } },
      { name: 'p', schema: { type: 'string', pattern: '(?=x)' } },
    ]);
    // The API server's error (JSONSchemaProps.Maximum is an int64), by index: no webhook runs.
    expect(
      errs.some((e) =>
        e.startsWith(
          `${S}[0].schema.openAPIV3Schema.maximum: Invalid value: 1.5: must be an integer: the API server would reject this ClusterClass`,
        ),
      ),
    ).toBe(true);
    expect(
      errs.some((e) =>
        e.startsWith(
          `${S}[p].schema.openAPIV3Schema.pattern: Invalid value: "(?=x)": must be a valid regular expression`,
        ),
      ),
    ).toBe(true);
  });
});

describe('status.variables (§5.2)', () => {
  it('is sorted by name, inline, without pruned keywords', () => {
    const { variables } = compile([
      { name: 'b', required: true, schema: { type: 'string', nullable: true } },
      { name: 'a', schema: { type: 'integer' }, deprecatedV1Beta1Metadata: { labels: { x: 'y' } } },
    ]);
    expect(statusVariables(variables)).toEqual([
      {
        name: 'a',
        definitionsConflict: false,
        definitions: [
          {
            from: 'inline',
            required: false,
            deprecatedV1Beta1Metadata: { labels: { x: 'y' } },
            schema: { openAPIV3Schema: { type: 'integer' } },
          },
        ],
      },
      {
        name: 'b',
        definitionsConflict: false,
        definitions: [{ from: 'inline', required: true, schema: { openAPIV3Schema: { type: 'string' } } }],
      },
    ]);
    expect(inlineVariableNames(variables)).toEqual(new Set(['a', 'b']));
  });
});
