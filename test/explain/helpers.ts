/** Shared helpers of the explain tests. */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CONFIG, type RenderConfig } from '../../src/krm/config.js';
import { readYamlStream } from '../../src/krm/read.js';
import type { ExplainedObject, FieldOrigin, Source } from '../../src/provenance/types.js';
import type { InputItem } from '../../src/krm/item.js';

export const repoRoot = join(import.meta.dirname, '..', '..');
export const sharedFixtures = join(repoRoot, '..', 'shared', 'fixtures', 'real-world');
const upstreamQuickStart = join(sharedFixtures, 'capi-docker-quick-start.yaml');
export const hasShared = existsSync(upstreamQuickStart);
if (!hasShared) console.warn(`SKIPPED: ${upstreamQuickStart} is absent; the real-world explain tests did not run`);

/** qs-custom's taint, as written upstream: without the `propagation` CAPI's CRD requires (v1.13+). */
const UPSTREAM_TAINT = '        - key: example.com/dedicated\n          value: large\n          effect: NoSchedule\n';
/**
 * The quick-start with qs-custom's taint given `propagation: Always`, as the API server admits it,
 * on the same lines (one flow mapping, two blank lines), so that every other position is upstream's.
 */
export const quickStart = hasShared
  ? join(mkdtempSync(join(tmpdir(), 'rcc-quick-start-')), 'capi-docker-quick-start.yaml')
  : upstreamQuickStart;
if (hasShared) {
  const text = readFileSync(upstreamQuickStart, 'utf8');
  if (!text.includes(UPSTREAM_TAINT)) throw new Error(`${upstreamQuickStart}: qs-custom's taint is not as expected`);
  writeFileSync(
    quickStart,
    text.replace(
      UPSTREAM_TAINT,
      '        - {key: example.com/dedicated, value: large, effect: NoSchedule, propagation: Always}\n\n\n',
    ),
  );
}

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
