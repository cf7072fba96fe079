/**
 * kube-openapi's numberValidator (k8s.io/kube-openapi pkg/validation/validate/validator.go
 * `numberValidator.Validate`, values.go `*NativeType`, `IsValueValidAgainstRange`; swag
 * `IsFloat64AJSONInteger`). The expected texts are what the CAPI oracles print for the same
 * numbers (test/oracle/hand.test.ts `crd-number-bounds` runs them through CAPI's code).
 */
import { describe, expect, it } from 'vitest';
import { decodedNumber, goInt64, numberErrors, type NumberChecks } from '../../src/variables/numbers.js';

const untyped = (c: Omit<NumberChecks, 'type' | 'format'>): NumberChecks => ({ type: '', format: '', ...c });
const messages = (v: bigint | number, c: NumberChecks) =>
  numberErrors(v, c, 'x', (m) => `x in body ${m}`).map((e) => `${e.plain ? 'plain: ' : ''}${e.message}`);

describe('Go conversions', () => {
  it('int64(f) truncates toward zero and gives -2^63 out of range (amd64)', () => {
    expect([2.5, -2.5, 0.5, -0.5, 2 ** 53].map(goInt64)).toEqual([2n, -2n, 0n, 0n, 2n ** 53n]);
    expect([2 ** 63, -(2 ** 64), Number.NaN, Infinity].map(goInt64)).toEqual(Array(4).fill(-(2n ** 63n)));
  });

  it('decodes whole numbers as int64 under the API server and as float64 in CAPI webhooks', () => {
    expect(decodedNumber(3, 'int64')).toBe(3n);
    expect(decodedNumber(2.5, 'int64')).toBe(2.5);
    expect(decodedNumber(2 ** 63, 'int64')).toBe(2 ** 63); // beyond int64: convertNumber's float64
    expect(decodedNumber(9007199254740993n, 'int64')).toBe(9007199254740993n);
    expect(decodedNumber(9007199254740993n, 'float64')).toBe(2 ** 53);
    expect(decodedNumber(3, 'float64')).toBe(3);
  });
});

describe('numberErrors before the validator knew types (CAPI v1.12, v1.13)', () => {
  it('compares an int64 with its bounds truncated to int64', () => {
    expect(messages(0n, untyped({ minimum: 0.5 }))).toEqual([]);
    expect(messages(2n, untyped({ maximum: 2.5, exclusiveMaximum: true }))).toEqual([
      'x in body should be less than 2',
    ]);
    expect(messages(5n, untyped({ multipleOf: 2.5 }))).toEqual(['x in body should be a multiple of 2']);
    expect(messages(1n, untyped({ multipleOf: 0.5 }))).toEqual([
      'factor MultipleOf declared for x must be positive: 0',
    ]);
    expect(messages(7n, untyped({ maximum: 2 ** 63 }))).toEqual([
      'x in body should be less than or equal to -9223372036854775808',
    ]);
    expect(messages(9007199254740993n, untyped({ maximum: 2 ** 53 }))).toEqual([
      'x in body should be less than or equal to 9007199254740992',
    ]);
  });

  it('compares a float64 as float64, printing bounds with %v', () => {
    expect(messages(0.3, untyped({ multipleOf: 0.1 }))).toEqual([]); // (1/0.1)*0.3 is 3
    expect(messages(0.35, untyped({ multipleOf: 0.1 }))).toEqual(['x in body should be a multiple of 0.1']);
    // swag's tolerance of 1e-9 holds above 1 only: Go compares a negative with float64(uint64(f)).
    expect(messages(0.30000000001, untyped({ multipleOf: 0.1 }))).toEqual([]);
    expect(messages(-0.30000000001, untyped({ multipleOf: 0.1 }))).toEqual(['x in body should be a multiple of 0.1']);
    expect(messages(-0.3, untyped({ multipleOf: 0.1 }))).toEqual([]);
    expect(messages(1e39, untyped({ maximum: 3.4e38 }))).toEqual(['x in body should be less than or equal to 3.4e+38']);
    expect(messages(2e6, untyped({ maximum: 1e6 }))).toEqual(['x in body should be less than or equal to 1e+06']);
    expect(messages(0.5, untyped({ multipleOf: 0 }))).toEqual(['factor MultipleOf declared for x must be positive: 0']);
  });
});

describe('numberErrors with the node type and format (CAPI v1.14)', () => {
  const integer = (c: Omit<NumberChecks, 'type'>): NumberChecks => ({ type: 'integer', ...c });
  it('reports a bound out of the type range as a plain error and compares that bound as float64', () => {
    expect(messages(5n, integer({ format: '', multipleOf: 2.5, minimum: -0.5 }))).toEqual([
      'plain: MultipleOf value must be of type integer (default format) in x',
      'plain: Minimum boundary value must be of type integer (default format) in x',
    ]);
    expect(messages(7n, integer({ format: '', maximum: 2 ** 63 }))).toEqual([
      'plain: Maximum boundary value must be of type integer (default format) in x',
    ]);
    expect(messages(0n, integer({ format: '', minimum: 0.5 }))).toEqual([
      'plain: Minimum boundary value must be of type integer (default format) in x',
      'x in body should be greater than or equal to 0.5',
    ]);
  });

  it('checks the value against int32 and float formats', () => {
    expect(messages(2n ** 31n, integer({ format: 'int32' }))).toEqual([
      'plain: Checked value must be of type integer with format int32 in x',
    ]);
    expect(messages(1e39, { type: 'number', format: 'float' })).toEqual([
      'plain: Checked value must be of type number with format float in x',
    ]);
    expect(messages(2.5, integer({ format: '' }))).toEqual([
      'plain: Checked value must be of type integer (default format) in x',
    ]);
  });

  it('still truncates a fractional bound of a number-typed node for an int64', () => {
    expect(messages(1n, { type: 'number', format: '', multipleOf: 0.5 })).toEqual([
      'factor MultipleOf declared for x must be positive: 0',
    ]);
  });
});
