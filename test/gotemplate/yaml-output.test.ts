import { describe, expect, it } from 'vitest';
import { parseTemplateOutput } from '../../src/gotemplate/index.js';

const v = (s: string): unknown => {
  const r = parseTemplateOutput(s);
  if (!r.ok) throw new Error(r.error);
  return r.value;
};

describe('parseTemplateOutput (go-yaml v2, YAML 1.1 -> JSON)', () => {
  it('resolves YAML 1.1 booleans', () => {
    for (const t of ['true', 'True', 'TRUE', 'yes', 'Yes', 'YES', 'y', 'Y', 'on', 'On', 'ON']) expect(v(t)).toBe(true);
    for (const f of ['false', 'no', 'N', 'off', 'OFF']) expect(v(f)).toBe(false);
  });
  it('resolves nulls, numbers and keeps timestamps as strings', () => {
    for (const n of ['', '~', 'null', 'Null', 'NULL', '  \n']) expect(v(n)).toBe(null);
    expect(v('0644')).toBe(420);
    expect(v('0x1F')).toBe(31);
    expect(v('1_000')).toBe(1000);
    expect(v('1.30')).toBe(1.3);
    expect(v('2024-01-01')).toBe('2024-01-01');
    expect(v('1:30')).toBe('1:30');
  });
  it('parses maps and lists, JSON included', () => {
    expect(v('a: 1\nb: [x, "y"]')).toEqual({ a: 1, b: ['x', 'y'] });
    expect(v('{"a": {"b": true}}')).toEqual({ a: { b: true } });
    expect(v('- a\n- 2')).toEqual(['a', 2]);
  });
  it('rejects values JSON cannot hold and invalid YAML', () => {
    expect(parseTemplateOutput('.inf').ok).toBe(false);
    expect(parseTemplateOutput('a: [').ok).toBe(false);
  });
});
