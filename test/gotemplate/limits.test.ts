import { describe, expect, it } from 'vitest';
import { executeTemplate, parseTemplate } from '../../src/gotemplate/index.js';

// How fast the limits stop a template is measured by the fuzz run and the bench, not here: a
// wall-clock bound fails on a loaded machine. These tests check that the limits stop it at all.
function run(t: string, limits?: Record<string, number>): { ok: boolean; error?: string } {
  const p = parseTemplate(t);
  if (!p.ok) throw new Error(p.error);
  const r = executeTemplate(p.template, {}, limits ? { limits } : undefined);
  return { ok: r.ok, error: r.ok ? undefined : r.error };
}

describe('safety limits', () => {
  it('stops infinite template recursion', () => {
    const r = run('{{ define "x" }}{{ template "x" . }}{{ end }}{{ template "x" . }}');
    expect(r.ok).toBe(false);
    expect(r.error).toContain('exceeded maximum template depth');
  });
  it('stops huge outputs and huge strings', () => {
    for (const t of [
      '{{ repeat 1000000000 "x" }}',
      '{{ range until 100000000 }}xxxxxxxxxxxxxxxx{{ end }}',
      '{{ $s := "xx" }}{{ range until 64 }}{{ $s = print $s $s }}{{ end }}',
      '{{ range until 1000 }}{{ printf "%1000000d" 1 }}{{ end }}',
    ]) {
      const r = run(t);
      expect(r.ok, t).toBe(false);
      expect(r.error, t).toMatch(/output|length|steps|exceed/i);
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
    expect(
      run('{{ define "r" }}{{ if . }}{{ template "r" (slice . 1) }}{{ end }}{{ end }}{{ template "r" (until 50) }}', {
        maxDepth: 10,
      }).ok,
    ).toBe(false);
  });
});
