import { describe, expect, it } from 'vitest';
import { formatChecker } from '../../src/core/go/formats.js';
import { goQuote } from '../../src/core/fielderror.js';
import { goMarshal } from '../../src/core/go/json.js';
import { escapeCelPropertyName } from '../../src/variables/cel/values.js';
import type { JsonObject } from '../../src/core/model.js';

describe('primitives', () => {
  it('quotes like Go strconv.Quote', () => {
    expect(goQuote('a"b\\c\n')).toBe('"a\\"b\\\\c\\n"');
    expect(goQuote('é\u0001')).toBe('"é\\x01"');
  });

  it('marshals like Go encoding/json', () => {
    expect(goMarshal({ b: [1.0, '<&>'], a: null })).toBe('{"a":null,"b":[1,"\\u003c\\u0026\\u003e"]}');
  });

  it('checks the Kubernetes format set', () => {
    const ok: [string, string][] = [
      ['ipv6', '::1'],
      ['ipv6', '2001:db8::ffff:1.2.3.4'],
      ['cidr', '10.0.0.0/8'],
      ['mac', '00:1a:2b:3c:4d:5e'],
      ['uuid', '123e4567-e89b-12d3-a456-426614174000'],
      ['hostname', 'example.com'],
      ['date', '2024-02-29'],
      ['datetime', '2026-08-19T22:21:07Z'],
      ['date-time', '2026-08-19T22:21:07.5+02:00'],
      ['duration', '1h30m'],
      ['duration', '3\u00b5s'],
      ['byte', 'aGVsbG8='],
      ['quantity', '500m'],
      ['isbn10', '0306406152'],
      ['email', 'a@b.c'],
      ['uri', 'https://x/y'],
      ['hexcolor', '#fff'],
      ['rgbcolor', 'rgb(1, 2, 255)'],
    ];
    const bad: [string, string][] = [
      ['ipv4', '01.2.3.4'],
      ['ipv6', '1::2::3'],
      ['cidr', '10.0.0.0/33'],
      ['date', '2023-02-29'],
      ['uuid', 'xyz'],
      ['quantity', '1.2.3'],
      ['byte', 'abc'],
      ['uri', 'no scheme'],
    ];
    for (const [f, v] of ok) expect(formatChecker(f)?.(v), `${f} ${v}`).toBe(true);
    for (const [f, v] of bad) expect(formatChecker(f)?.(v), `${f} ${v}`).toBe(false);
    expect(formatChecker('k8s-short-name')).toBeUndefined();
  });

  it('escapes property names for CEL like Kubernetes', () => {
    expect(escapeCelPropertyName('foo-bar')).toBe('foo__dash__bar');
    expect(escapeCelPropertyName('a__b.c/d')).toBe('a__underscores__b__dot__c__slash__d');
    expect(escapeCelPropertyName('if')).toBe('__if__');
    expect(escapeCelPropertyName('1a')).toBeUndefined();
  });
});

describe('RE2 patterns in ajv', () => {
  it('checks each pattern of one schema with its own expression (ajv caches them by toString)', async () => {
    const { newAjv } = await import('../../src/variables/openapi.js');
    const validate = newAjv().compile({
      type: 'object',
      properties: {
        lower: { type: 'string', pattern: '^[a-z]+$' },
        kind: { type: 'string', pattern: '^[A-Z][a-zA-Z]*$' },
      },
    });
    expect(validate({ lower: 'abc', kind: 'KubeadmConfigTemplate' })).toBe(true);
    expect(validate({ lower: 'abc', kind: 'lowercase' })).toBe(false);
    expect(validate({ lower: 'ABC', kind: 'Kind' })).toBe(false);
  });
});

describe('schema compiler', () => {
  it('compiles each distinct schema once and keeps distinct schemas apart', async () => {
    const { newSchemaCompiler } = await import('../../src/variables/openapi.js');
    const { parseSchema } = await import('../../src/variables/schema.js');
    const node = (raw: JsonObject, path: string) => parseSchema(raw, path, { errors: [], ignored: [] });
    const schemas = newSchemaCompiler();
    const port = { type: 'integer', minimum: 1, maximum: 65535 };
    // The same schema at two places (two classes, or a node and its enum values) is one validator.
    const a = schemas.compile(node(port, 'spec.variables[0]'));
    expect(schemas.compile(node(port, 'spec.variables[3]'))).toBe(a);
    // A different bound, or the same keywords in another order of properties, is another one.
    expect(schemas.compile(node({ ...port, maximum: 1024 }, 'x'))).not.toBe(a);
    const ab = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } };
    const ba = { type: 'object', properties: { b: { type: 'string' }, a: { type: 'string' } } };
    expect(schemas.compile(node(ba, 'x'))).not.toBe(schemas.compile(node(ab, 'x')));
    if ('error' in a) throw new Error(a.error);
    expect([a.validate(80), a.validate(0), a.validate(70000)]).toEqual([true, false, false]);
  });
});
