import { describe, expect, it } from 'vitest';
import { executeTemplate, functionNames, parseTemplate, renderTemplate } from '../../src/gotemplate/index.js';
import { out } from './helpers.js';

describe('sprig hermetic function map', () => {
  it('exposes the 194 hermetic functions plus the text/template builtins', () => {
    const names = functionNames('sprig-hermetic');
    for (const n of [
      'semver',
      'semverCompare',
      'nindent',
      'regexReplaceAll',
      'sha512sum',
      'toJson',
      'dig',
      'slice',
      'and',
      'printf',
    ]) {
      expect(names).toContain(n);
    }
    for (const n of ['now', 'date', 'env', 'uuidv4', 'randAlphaNum', 'toYaml', 'include', 'required']) {
      expect(names).not.toContain(n);
    }
    expect(names.length).toBe(194 + 18); // sprig's slice replaces the builtin slice
  });
  it('strings', () => {
    expect(out('{{ "a\\nb" | nindent 2 }}')).toBe('\n  a\n  b');
    expect(out('{{ quote "x" 1 }} {{ squote "y" }}')).toBe('"x" "1" \'y\'');
    expect(out('{{ trunc 3 "hello" }} {{ upper "ab" }} {{ replace "." "-" "a.b" }}')).toBe('hel AB a-b');
    expect(out('{{ snakecase "FirstName" }} {{ camelcase "http_server" }} {{ kebabcase "myVar" }}')).toBe(
      'first_name HttpServer my-var',
    );
  });
  it('numbers follow cast/int64 semantics', () => {
    expect(out('{{ add 1 2.9 "3" }} {{ int "42" }} {{ div 7 2 }} {{ addf 0.1 0.2 }} {{ printf "%T" (add 1 1) }}')).toBe(
      '6 42 3 0.3 int64',
    );
    const r = renderTemplate('{{ div 1 0 }}', {});
    expect(r.ok).toBe(false);
  });
  it('reads both micro signs of time.ParseDuration (U+00B5 and U+03BC)', () => {
    const plus = (d: string) => out(`{{ mustDateModify "${d}" (toDate "2006-01-02" "2024-01-01") }}`);
    expect(plus('1.5\u00b5s')).toBe('2024-01-01 00:00:00.0000015 +0000 UTC');
    expect(plus('2\u03bcs')).toBe('2024-01-01 00:00:00.000002 +0000 UTC');
  });
  it('lists and dicts', () => {
    expect(
      out(
        '{{ list 1 "a" | toJson }} {{ dict "b" 1 "a" 2 }} {{ .l | first }} {{ keys (dict "y" 1 "x" 2) | sortAlpha }}',
        { l: ['z'] },
      ),
    ).toBe('[1,"a"] map[a:2 b:1] z [x y]');
    expect(out('{{ dig "a" "b" "d" . }}', { a: { b: 'v' } })).toBe('v');
  });
  it('semver objects and constraints', () => {
    expect(out('{{ (semver "v1.29.3").Minor }} {{ semverCompare ">=1.28" "v1.29.3" }} {{ semver "1.2" }}')).toBe(
      '29 true 1.2.0',
    );
  });
  it('regex uses RE2 semantics', () => {
    expect(out('{{ regexReplaceAll "^v(\\\\d+)" "v12" "x$1" }} {{ regexFindAll "a*" "baaac" -1 }}')).toBe(
      'x12 [ aaa ]',
    );
  });
  it('encoders', () => {
    expect(out('{{ toJson . }}', { b: '<&>', a: [1.5, null] })).toBe('{"a":[1.5,null],"b":"\\u003c\\u0026\\u003e"}');
    expect(out('{{ toPrettyJson . }}', { a: 1 })).toBe('{\n  "a": 1\n}');
    expect(out('{{ b64enc "hi" | b64dec }} {{ b64dec "!" }} {{ sha256sum "" | trunc 8 }}')).toBe(
      'hi illegal base64 data at input byte 0 e3b0c442',
    );
  });
  it('random functions are deterministic and warn', () => {
    const p = parseTemplate('{{ randInt 0 100 }} {{ shuffle "abcdef" }}');
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    const a = executeTemplate(p.template, {});
    const b = executeTemplate(p.template, {});
    expect(a).toEqual(b);
    expect(a.ok && a.warnings.length).toBe(2);
  });
  it('mutating functions do not change the caller data', () => {
    const data = { m: { a: 1 } };
    expect(out('{{ $_ := set .m "b" 2 }}{{ .m }}', data)).toBe('map[a:1 b:2]');
    expect(data).toEqual({ m: { a: 1 } });
  });
});
