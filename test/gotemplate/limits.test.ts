import { describe, expect, it } from 'vitest';
import { executeTemplate, parseTemplate } from '../../src/gotemplate/index.js';

function run(t: string, limits?: Record<string, number>): { ok: boolean; error?: string; ms: number } {
  const start = Date.now();
  const p = parseTemplate(t);
  if (!p.ok) throw new Error(p.error);
  const r = executeTemplate(p.template, {}, limits ? { limits } : undefined);
  return { ok: r.ok, error: r.ok ? undefined : r.error, ms: Date.now() - start };
}

describe('safety limits', () => {
  it('stops infinite template recursion', () => {
    const r = run('{{ define "x" }}{{ template "x" . }}{{ end }}{{ template "x" . }}');
    expect(r.ok).toBe(false);
    expect(r.error).toContain('exceeded maximum template depth');
    expect(r.ms).toBeLessThan(1000);
  });
  it('stops huge outputs and huge strings', () => {
    for (const t of ['{{ repeat 1000000000 "x" }}', '{{ range until 100000000 }}xxxxxxxxxxxxxxxx{{ end }}',
      '{{ $s := "xx" }}{{ range until 64 }}{{ $s = print $s $s }}{{ end }}', '{{ range until 1000 }}{{ printf "%1000000d" 1 }}{{ end }}']) {
      const r = run(t);
      expect(r.ok, t).toBe(false);
      expect(r.ms, t).toBeLessThan(1000);
    }
  });
  it('stops long loops by step count', () => {
    const r = run('{{ range until 100000 }}{{ range until 100000 }}{{ end }}{{ end }}');
    expect(r.ok).toBe(false);
    expect(r.error).toContain('steps');
  });
  it('accepts custom limits', () => {
    expect(run('{{ range until 10 }}x{{ end }}', { maxOutputBytes: 5 }).ok).toBe(false);
    expect(run('{{ range until 10 }}x{{ end }}', { maxOutputBytes: 10 }).ok).toBe(true);
    expect(run('{{ define "r" }}{{ if . }}{{ template "r" (slice . 1) }}{{ end }}{{ end }}{{ template "r" (until 50) }}', { maxDepth: 10 }).ok).toBe(false);
  });
});
