import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RANDOM_ALPHABET, det5, generateStableName, prefixName, truncateBytes } from '../../src/topology/names.js';

describe('deterministic names', () => {
  it('det5 uses five characters of the apimachinery alphabet and is stable', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 4 }), (parts) => {
        const a = det5(...parts);
        expect(a).toHaveLength(5);
        for (const ch of a) expect(RANDOM_ALPHABET).toContain(ch);
        expect(det5(...parts)).toBe(a);
      }),
    );
  });

  it('separates parts with NUL so ("ab","c") and ("a","bc") differ', () => {
    expect(det5('ab', 'c')).not.toBe(det5('a', 'bc'));
  });

  it('default patterns: <cluster>-<random> and <cluster>-<md>-<random>', () => {
    const cp = generateStableName({ role: 'control-plane', namespace: 'ns', clusterName: 'c1' });
    const md = generateStableName({ role: 'machine-deployment', namespace: 'ns', clusterName: 'c1', topologyName: 'md-0', topologyKey: 'machineDeployment' });
    expect(cp).toEqual({ ok: true, name: `c1-${det5('control-plane', 'ns', 'c1')}` });
    expect(md).toEqual({ ok: true, name: `c1-md-0-${det5('machine-deployment', 'ns', 'c1', 'md-0')}` });
  });

  it('a name longer than 63 bytes is cut to 58 bytes plus a hash suffix', () => {
    const long = 'c'.repeat(70);
    const out = generateStableName({ role: 'machine-deployment', namespace: 'ns', clusterName: long, topologyName: 'md', topologyKey: 'machineDeployment' });
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.name).toHaveLength(63);
    expect(out.name.startsWith('c'.repeat(58))).toBe(true);
    const rendered = `${long}-md-${det5('machine-deployment', 'ns', long, 'md')}`;
    expect(out.name.slice(58)).toBe(det5('machine-deployment-truncate', 'ns', long, 'md', rendered));
  });

  it('prefix names never exceed 63 bytes and never split a UTF-8 character', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), (prefix) => {
        const name = prefixName(prefix, 'bcdfg');
        expect(Buffer.byteLength(name)).toBeLessThanOrEqual(63);
        expect(name.endsWith('bcdfg')).toBe(true);
        expect(Buffer.from(truncateBytes(prefix, 58)).toString()).toBe(truncateBytes(prefix, 58));
      }),
    );
  });
});
