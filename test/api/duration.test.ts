import { describe, expect, it } from 'vitest';
import { durationToSeconds, formatGoDuration, parseGoDuration } from '../../src/core/go/duration.js';

describe('Go durations', () => {
  it.each([
    ['300s', 300],
    ['2m30s', 150],
    ['5m', 300],
    ['1h0m1s', 3601],
    ['1.5s', 1],
    ['0', 0],
    ['999ms', 0],
  ])('%s → %d seconds (truncated toward zero)', (text, secs) => {
    expect(durationToSeconds(text)).toBe(secs);
  });

  it('reads both micro signs, as time.ParseDuration (U+00B5 and U+03BC)', () => {
    expect(parseGoDuration('1.5\u00b5s')).toBe(1500);
    expect(parseGoDuration('2\u03bcs1us')).toBe(3000);
  });

  it('caps at int32 max like ConvertToSeconds', () => {
    expect(durationToSeconds('1000000h')).toBe(2 ** 31 - 1);
  });

  it.each(['', 'abc', '5', '1x', '.s'])('rejects %j', (text) => {
    expect(parseGoDuration(text)).toBeUndefined();
  });

  it.each([
    [90, '1m30s'],
    [600, '10m0s'],
    [0, '0s'],
    [3600, '1h0m0s'],
    [3661, '1h1m1s'],
    [45, '45s'],
  ])('formats %d as Go does: %s', (secs, text) => {
    expect(formatGoDuration(secs)).toBe(text);
  });
});
