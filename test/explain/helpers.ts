/** Shared helpers of the explain tests. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_CONFIG, type RenderConfig } from '../../src/krm/config.js';
import { readYamlStream } from '../../src/krm/read.js';
import type { ExplainedObject, FieldOrigin, Source } from '../../src/provenance/types.js';
import type { InputItem } from '../../src/krm/item.js';

export const repoRoot = join(import.meta.dirname, '..', '..');
export const sharedFixtures = join(repoRoot, '..', 'shared', 'fixtures', 'real-world');
export const quickStart = join(sharedFixtures, 'capi-docker-quick-start.yaml');
export const hasShared = existsSync(quickStart);
if (!hasShared) console.warn(`SKIPPED: ${quickStart} is absent; the real-world explain tests did not run`);

export function itemsOf(text: string, file = 'input.yaml'): InputItem[] {
  const r = readYamlStream(text, file);
  if (!r.ok) throw new Error(r.message);
  return r.items;
}

export const readItems = (path: string): InputItem[] => itemsOf(readFileSync(path, 'utf8'), path);

/** The quick-start's `qs-custom` sets topology taints, which need MachineTaintPropagation (the fixture says so). */
export const QUICK_START_GATES = ['--feature-gates', 'MachineTaintPropagation=true'] as const;
export const config = (over: Partial<RenderConfig> = {}): RenderConfig => ({
  ...DEFAULT_CONFIG,
  featureGates: { MachineTaintPropagation: true },
  ...over,
});

export function objectOf(objects: ExplainedObject[], role: string): ExplainedObject {
  const o = objects.find((x) => x.role === role);
  if (!o) throw new Error(`no object with role ${role}: ${objects.map((x) => x.role).join(', ')}`);
  return o;
}

export function fieldOf(o: ExplainedObject, path: string): FieldOrigin {
  const f = o.fields.find((x) => x.path === path);
  if (!f) throw new Error(`no field ${path} in ${o.ref.kind}/${o.ref.name}: ${o.fields.map((x) => x.path).join('\n')}`);
  return f;
}

export const sourceOf = (o: ExplainedObject, path: string): Source => fieldOf(o, path).source;
