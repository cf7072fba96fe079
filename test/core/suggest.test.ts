import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closest, closestMatches, didYouMean, editDistance } from '../../src/core/suggest.js';

describe('did you mean', () => {
  it('suggests close words and prefixes, nothing for unrelated ones', () => {
    const commands = ['render', 'plan', 'explain', 'template', 'help', 'version'];
    expect(closest('rendr', commands)).toBe('render');
    expect(closest('redner', commands)).toBe('render');
    expect(closest('expl', commands)).toBe('explain');
    expect(closest('plna', commands)).toBe('plan');
    expect(closest('v', commands)).toBe('version');
    expect(closest('kubectl', commands)).toBeUndefined();
    expect(closest('x', commands)).toBeUndefined();
  });
  it('finds the names of the issue: a variable, a config field, a class', () => {
    expect(closest('kubeletLogLevl', ['etcdImageTag', 'kubeletLogLevel', 'kubeadmControlPlaneLogLevel'])).toBe(
      'kubeletLogLevel',
    );
    expect(closest('mdoe', ['mode', 'keepClassInputs', 'outputDir', 'strict'])).toBe('mode');
    expect(closest('quick-strat', ['quick-start', 'quick-start-runtimesdk'])).toBe('quick-start');
  });
  it('orders by distance, then by code unit (never by locale), at most the limit', () => {
    expect(closestMatches('c-10', ['c-11', 'C-10', 'c-12', 'c-1', 'b-10', 'z-99'], 5)).toEqual([
      'C-10',
      'b-10',
      'c-1',
      'c-11',
      'c-12',
    ]);
    expect(closestMatches('c-10', ['c-12', 'c-11'], 1)).toEqual(['c-11']);
    expect(closestMatches('c-10', ['c-11', 'c-11'], 5)).toEqual(['c-11']);
  });
  it('says it as one question', () => {
    expect(didYouMean([])).toBe('');
    expect(didYouMean(['a'])).toBe('did you mean "a"?');
    expect(didYouMean(['a', 'b', 'c'], (n) => `--${n}`)).toBe('did you mean --a, --b or --c?');
  });
  it('is an edit distance with transpositions (fast-check seed 2801)', () => {
    const word = fc.string({ maxLength: 12 });
    fc.assert(
      fc.property(word, word, (a, b) => {
        const d = editDistance(a, b);
        expect(d).toBe(editDistance(b, a));
        expect(d === 0).toBe(a === b);
        expect(d).toBeLessThanOrEqual(Math.max(a.length, b.length));
        expect(d).toBeGreaterThanOrEqual(Math.abs(a.length - b.length));
        if (a.length >= 2) expect(editDistance(a, `${a.slice(0, -2)}${a.at(-1)}${a.at(-2)}`)).toBeLessThanOrEqual(1);
      }),
      { seed: 2801, numRuns: 500 },
    );
  });
});
