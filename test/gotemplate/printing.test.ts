import { describe, expect, it } from 'vitest';
import { formatFloat, sprint, sprintf } from '../../src/gotemplate/fmt.js';
import { goInt } from '../../src/gotemplate/values.js';
import { out } from './helpers.js';

describe('Go printing of values', () => {
  it('prints float64 as %v does', () => {
    expect(formatFloat(1e6, 'g', -1)).toBe('1e+06');
    expect(formatFloat(100000, 'g', -1)).toBe('100000');
    expect(formatFloat(12345678, 'g', -1)).toBe('1.2345678e+07');
    expect(formatFloat(0.00001, 'g', -1)).toBe('1e-05');
    expect(formatFloat(2.5, 'g', -1)).toBe('2.5');
    expect(formatFloat(0.125, 'f', 2)).toBe('0.12'); // half to even on exact ties
    expect(formatFloat(Infinity, 'g', -1)).toBe('+Inf');
  });
  it('prints maps sorted, slices, nil and missing values', () => {
    expect(out('{{ .m }}', { m: { b: 2, a: 1, c: [1, 'x', null] } })).toBe('map[a:1 b:2 c:[1 x <nil>]]');
    expect(out('{{ .missing }}|{{ .n }}|{{ print .missing }}', { n: null })).toBe('<no value>|<no value>|<nil>');
    expect(out('{{ .big }} {{ .r }}', { big: 1000000, r: 3 })).toBe('1e+06 3');
  });
  it('applies fmt verbs with Go error forms', () => {
    expect(out('{{ printf "%d" .r }}', { r: 50 })).toBe('%!d(float64=50)');
    expect(out('{{ printf "%d" 50 }}')).toBe('50');
    expect(sprintf('%d %s', [goInt(1)])).toBe('1 %!s(MISSING)');
    expect(sprintf('%d', [goInt(1), 'x'])).toBe('1%!(EXTRA string=x)');
    expect(sprintf('%5.1f|%-4s|%x|%q', [3.14159, 'ab', 'hi', 'a"b'])).toBe('  3.1|ab  |6869|"a\\"b"');
    expect(sprint([goInt(1), goInt(2), 'a', goInt(3)])).toBe('1 2a3');
  });
});
