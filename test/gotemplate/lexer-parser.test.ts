import { describe, expect, it } from 'vitest';
import { T, lex } from '../../src/gotemplate/lexer.js';
import { parseTemplate } from '../../src/gotemplate/index.js';

const kinds = (s: string): T[] => lex(s).map((i) => i.typ);

describe('lexer', () => {
  it('splits text and actions', () => {
    expect(kinds('a{{ .b }}c')).toEqual([T.Text, T.LeftDelim, T.Space, T.Field, T.Space, T.RightDelim, T.Text, T.EOF]);
  });
  it('handles trim markers and keeps {{-3}} a number', () => {
    const items = lex('x  {{- 3 -}}  y');
    expect(items.map((i) => i.val)).toEqual(['x', '{{', '3', '}}', 'y', '']);
    expect(lex('{{-3}}').map((i) => i.val)).toContain('-3');
  });
  it('drops comments', () => {
    expect(kinds('a {{/* c */}} b')).toEqual([T.Text, T.Text, T.EOF]);
  });
  it('lexes literals, variables, keywords and chained fields', () => {
    const items = lex('{{ $x := 0x1F | printf "%d" `r` \'a\' 1e3 true nil .a.b }}').filter((i) => i.typ !== T.Space);
    expect(items.map((i) => i.typ)).toEqual([
      T.LeftDelim,
      T.Variable,
      T.Declare,
      T.Number,
      T.Pipe,
      T.Identifier,
      T.String,
      T.RawString,
      T.CharConstant,
      T.Number,
      T.Bool,
      T.Nil,
      T.Field,
      T.Field,
      T.RightDelim,
      T.EOF,
    ]);
  });
  it('reports lexical errors with the line', () => {
    const items = lex('a\n{{ "unterminated }}');
    const last = items[items.length - 1]!;
    expect(last.typ).toBe(T.Error);
    expect(last.val).toBe('unterminated quoted string');
    expect(last.line).toBe(2);
  });
});

describe('parser errors', () => {
  const err = (t: string): string => {
    const r = parseTemplate(t);
    if (r.ok) throw new Error('expected a parse error');
    expect(r.phase).toBe('parse');
    return r.error;
  };
  it('names the template and line', () => {
    expect(err('line1\n{{ nope }}')).toBe('template: tpl:2: function "nope" not defined');
    expect(err('{{ toYaml . }}')).toBe('template: tpl:1: function "toYaml" not defined');
    expect(err('{{ $x }}')).toBe('template: tpl:1: undefined variable "$x"');
    expect(err('{{ if .a }}')).toBe('template: tpl:1: unexpected EOF');
    expect(err('{{ end }}')).toBe('template: tpl:1: unexpected {{end}}');
    expect(err('{{ break }}')).toBe('template: tpl:1: {{break}} outside {{range}}');
    expect(err('{{ .a | 1 }}')).toBe('template: tpl:1: non executable command in pipeline stage 2');
    expect(err('{{ define "a" }}x{{ end }}{{ define "a" }}y{{ end }}')).toBe(
      'template: tpl:1: template: multiple definition of template "a"',
    );
  });
  it('uses the configured name', () => {
    const r = parseTemplate('{{ .a', { name: 'naming' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/^template: naming:1: unclosed action/);
  });
  it('builtins-only function set rejects sprig functions', () => {
    expect(parseTemplate('{{ upper .a }}', { functions: 'builtins' }).ok).toBe(false);
    expect(parseTemplate('{{ upper .a }}', { functions: 'sprig-hermetic' }).ok).toBe(true);
  });
  it('caches compiled templates', () => {
    const a = parseTemplate('{{ .x }}');
    const b = parseTemplate('{{ .x }}');
    expect(a.ok && b.ok && a.template === b.template).toBe(true);
  });
});

describe('exec errors carry positions and context', () => {
  it('formats like Go', async () => {
    const { renderTemplate } = await import('../../src/gotemplate/index.js');
    const r = renderTemplate('x\n  {{ .a.b }}', { a: null });
    expect(r).toEqual({
      ok: false,
      phase: 'exec',
      error: 'template: tpl:2:7: executing "tpl" at <.a.b>: nil pointer evaluating interface {}.b',
    });
    const e = renderTemplate('{{ eq .replicas 3 }}', { replicas: 3 });
    expect(e.ok).toBe(false);
    if (!e.ok) expect(e.error).toContain('error calling eq: incompatible types for comparison');
  });
});
