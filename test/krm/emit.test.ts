/**
 * The fast YAML writer must produce exactly what the yaml library produces: checked on
 * generated JSON and on every object rendered from the real-world fixtures and goldens.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import YAML from 'yaml';
import type { JsonObject } from '../../src/core/model.js';
import { EMIT_OPTIONS, emitYaml } from '../../src/output/emit.js';
import { readYamlStream } from '../../src/krm/read.js';
import { runPipeline } from '../../src/pipeline/run.js';
import { DEFAULT_CONFIG } from '../../src/krm/config.js';

const library = (o: unknown) => YAML.stringify(o, EMIT_OPTIONS);

const tricky = fc.constantFrom(
  'yes',
  'No',
  'on',
  '~',
  'null',
  '0755',
  '1.50',
  '2024-01-01',
  'a: b',
  '- x',
  '#c',
  'multi\nline\n',
  'trail\n\n',
  ' lead',
  'x ',
  '',
  '*a',
  '&a',
  '!t',
  '%x',
  '@x',
  '`x',
  "it's",
  '"q"',
  'a:b',
  'http://x',
  '1e3',
  '.inf',
  '<<',
  'é',
  '\t',
  '0x1F',
  '+1',
  '-1',
  '1_000',
  'true',
  '12:30',
  '0o12',
  'e1000',
  '1:20',
  '2026-01-01T00:00:00Z',
  '.5',
  '1.',
  '0b101',
  '+.inf',
  '08',
  '9007199254740993',
);
const scalarArb = fc.oneof(
  fc.string(),
  tricky,
  fc.integer(),
  fc.double(),
  fc.constantFrom(2 ** 63, -0, 1e21, 2 ** 53 + 2),
  fc.boolean(),
  fc.constant(null),
);
const keyArb = fc.oneof(
  fc.string({ minLength: 1 }),
  tricky.filter((k) => k !== ''),
  fc.constantFrom('cluster.x-k8s.io/cluster-name', 'spec', 'a.b'),
);
const valueArb = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, scalarArb, tie('list'), tie('map')),
  list: fc.array(tie('value'), { maxLength: 4 }),
  map: fc.dictionary(keyArb, tie('value'), { maxKeys: 5 }),
})).map;

describe('emitYaml', () => {
  it('matches YAML.stringify on generated objects (fast-check seed 1401)', () => {
    fc.assert(
      fc.property(valueArb, (o) => {
        expect(emitYaml(o as JsonObject)).toBe(library(o));
      }),
      { numRuns: Number(process.env.EMIT_RUNS ?? 3000), seed: 1401 },
    );
  });

  const fixtures = join(import.meta.dirname, '..', '..', '..', 'shared', 'fixtures', 'real-world');
  it.skipIf(!existsSync(fixtures))(
    'matches YAML.stringify on every object rendered from the real-world fixtures',
    () => {
      let count = 0;
      for (const file of readdirSync(fixtures).filter((f) => f.endsWith('.yaml'))) {
        const read = readYamlStream(readFileSync(join(fixtures, file), 'utf8'), file);
        if (!read.ok) throw new Error(read.message);
        const out = runPipeline(read.items, { ...DEFAULT_CONFIG, skipExternalPatches: true });
        for (const o of [...out.generated.flatMap((g) => g.objects), ...read.items.map((i) => i.value)]) {
          expect(emitYaml(o)).toBe(library(o));
          count++;
        }
      }
      expect(count).toBeGreaterThan(100);
    },
  );
});
