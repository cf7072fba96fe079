/**
 * Unit tests of the patch engine's template plumbing against a FAKE Go template engine
 * (vi.mock). They check what the patch engine does with templates — when they are parsed,
 * what data they get, how results and errors are used — not template semantics, which the
 * real-engine tests in engine.test.ts cover once the engine exists.
 *
 * Fake language: `{{ .a.b }}` substitutes a value (missing → `<no value>`), `{{ fail }}` fails
 * execution, `{{ warn }}` adds a warning, text containing `{{ bad` fails parsing. Output
 * parsing: trimmed "" → null, true/yes → true, false → false, JSON when it parses, else string,
 * `!!bad` → error.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Json } from '../../src/core/model.js';

const calls = vi.hoisted(() => ({ parse: 0, exec: [] as unknown[] }));

vi.mock('../../src/gotemplate/index.js', () => {
  const lookup = (data: unknown, path: string): unknown => {
    let cur: unknown = data;
    for (const seg of path.split('.').filter(Boolean)) {
      if (typeof cur !== 'object' || cur === null || !Object.prototype.hasOwnProperty.call(cur, seg)) return undefined;
      cur = (cur as Record<string, unknown>)[seg];
    }
    return cur;
  };
  return {
    parseTemplate: (text: string) => {
      calls.parse++;
      if (text.includes('{{ bad')) return { ok: false, error: 'template: tpl:1: unclosed action', phase: 'parse' };
      return { ok: true, template: { name: 'tpl', source: text } };
    },
    executeTemplate: (t: { source: string }, data: Json) => {
      calls.exec.push(data);
      if (t.source.includes('{{ fail }}'))
        return { ok: false, error: 'template: tpl:1:3: executing "tpl" at <fail>: boom', phase: 'exec' };
      const warnings: string[] = [];
      const output = t.source
        .replace(/\{\{ warn \}\}/g, () => {
          warnings.push('randInt is not deterministic');
          return '';
        })
        .replace(/\{\{ \.([\w.]*) \}\}/g, (_m, p: string) => {
          const v = lookup(data, p);
          return v === undefined || v === null ? '<no value>' : typeof v === 'object' ? JSON.stringify(v) : String(v);
        });
      return { ok: true, output, warnings };
    },
    parseTemplateOutput: (text: string) => {
      const s = text.trim();
      if (s === '') return { ok: true, value: null };
      if (s === '!!bad') return { ok: false, error: 'yaml: line 1: did not find expected node content' };
      if (s === 'true' || s === 'yes') return { ok: true, value: true };
      if (s === 'false') return { ok: true, value: false };
      try {
        return { ok: true, value: JSON.parse(s) };
      } catch {
        return { ok: true, value: s };
      }
    },
  };
});

const { applyPatches } = await import('../../src/patches/index.js');
const { classRef, compileClass, ctx, infraDef, infraItem, innerSpec, mdInfraDef, mdItems, request, runPatches } =
  await import('./fixtures.js');

const ON = [{ op: 'add', path: '/spec/template/spec/on', value: true }];

beforeEach(() => {
  calls.parse = 0;
  calls.exec = [];
});

describe('enabledIf (fake engine)', () => {
  it('is evaluated per item with that item’s merged variables', () => {
    const req = request([...mdItems('md-0', 'a', { flag: true }), ...mdItems('md-1', 'b')], { flag: false, other: 1 });
    const out = runPatches([{ name: 'p', enabledIf: '{{ .flag }}', definitions: [mdInfraDef(ON)] }], req, ['flag']);
    expect(out.results).toEqual([]);
    expect(innerSpec(out.templates[1]!)).toEqual({ on: true });
    expect(innerSpec(out.templates[3]!)).toEqual({});
    // One evaluation per matching item (only the infra templates match); the data is the merged map.
    expect(calls.exec).toHaveLength(2);
    expect(calls.exec[0]).toEqual({
      builtin: {
        cluster: { name: 'c1', namespace: 'default' },
        machineDeployment: { class: 'a', topologyName: 'md-0', name: 'c1-md-0', version: 'v1.31.0' },
      },
      flag: true,
    });
  });

  it('is not evaluated for items no definition matches', () => {
    const out = runPatches([{ name: 'p', enabledIf: '{{ fail }}', definitions: [mdInfraDef(ON)] }]);
    expect(out.results).toEqual([]);
    expect(calls.exec).toHaveLength(0);
  });

  const cases: [string, Record<string, Json>, boolean][] = [
    ['', {}, true], // unset → enabled
    ['true', {}, true],
    ['{{ .v }}', { v: 'yes' }, true],
    ['{{ .v }}', { v: '"true"' }, false], // the string "true" is not the boolean
    ['{{ .v }}', { v: 1 }, false],
    ['{{ .nope }}', {}, false],
    ['   ', {}, false], // empty output → null → disabled (only an unset enabledIf means enabled)
  ];
  for (const [enabledIf, globals, expected] of cases) {
    it(`${JSON.stringify(enabledIf)} with ${JSON.stringify(globals)} → ${expected ? 'enabled' : 'disabled'}`, () => {
      const out = runPatches([{ name: 'p', enabledIf, definitions: [infraDef(ON)] }], request([infraItem()], globals), [
        'v',
      ]);
      expect(out.results).toEqual([]);
      expect(innerSpec(out.templates[0]!)).toEqual(expected ? { on: true } : {});
    });
  }

  it('collects enabledIf errors from every matching item and skips their definitions', () => {
    const out = runPatches(
      [{ name: 'p', enabledIf: 'x{{ fail }}', definitions: [mdInfraDef(ON)] }],
      request([...mdItems('md-0', 'a'), ...mdItems('md-1', 'b')]),
    );
    expect(out.failed).toBe(true);
    expect(out.results).toHaveLength(2);
    expect(out.results[0]).toEqual({
      severity: 'error',
      message:
        'Cluster default/c1: patch "p" (enabledIf) failed on DevMachineTemplate "a-infra" (MachineDeployment topology "md-0"): failed to calculate value for enabledIf: failed to render template: "x{{ fail }}": template: tpl:1:3: executing "tpl" at <fail>: boom',
      resourceRef: classRef,
      field: { path: 'spec.patches[0].enabledIf' },
      tags: { cluster: 'default/c1', patch: 'p' },
    });
  });
});

describe('valueFrom.template (fake engine)', () => {
  const run = (template: string, globals: Record<string, Json> = {}) =>
    runPatches(
      [{ name: 'p', definitions: [infraDef([{ op: 'add', path: '/spec/template/spec/v', valueFrom: { template } }])] }],
      request([infraItem()], globals),
      ['v'],
    );

  it('uses the parsed output as the value; empty output becomes null', () => {
    expect(innerSpec(run('{{ .v }}', { v: 'x' }).templates[0]!)).toEqual({ v: 'x' });
    expect(innerSpec(run('{{ .v }}', { v: { a: [1] } }).templates[0]!)).toEqual({ v: { a: [1] } });
    expect(innerSpec(run('{{ .builtin.cluster.name }}').templates[0]!)).toEqual({ v: 'c1' });
    expect(innerSpec(run('  ').templates[0]!)).toEqual({ v: null });
  });

  it('wraps parse, execution and output errors like CAPI', () => {
    const msg = (t: string) => run(t).results[0]!.message;
    const prefix =
      'Cluster default/c1: patch "p" (definitions[0].jsonPatches[0]) failed on DevClusterTemplate "quick-start-cluster" at /spec/template/spec/v: ';
    expect(msg('{{ bad')).toBe(
      `${prefix}failed to calculate value for template: failed to parse template: "{{ bad": template: tpl:1: unclosed action`,
    );
    expect(msg('{{ fail }}')).toBe(
      `${prefix}failed to calculate value for template: failed to render template: "{{ fail }}": template: tpl:1:3: executing "tpl" at <fail>: boom`,
    );
    expect(msg('!!bad')).toBe(
      `${prefix}failed to calculate value for template: failed to unmarshal rendered template: "!!bad": yaml: line 1: did not find expected node content`,
    );
  });

  it('surfaces engine warnings once per message', () => {
    const out = runPatches(
      [
        {
          name: 'p',
          definitions: [
            mdInfraDef([{ op: 'add', path: '/spec/template/spec/v', valueFrom: { template: '{{ warn }}1' } }]),
          ],
        },
      ],
      request([...mdItems('md-0', 'a'), ...mdItems('md-1', 'b')]),
    );
    expect(out.failed).toBe(false);
    expect(out.results).toEqual([
      {
        severity: 'warning',
        message: 'Cluster default/c1: patch "p": template warning: randInt is not deterministic',
        resourceRef: classRef,
        tags: { cluster: 'default/c1', patch: 'p' },
      },
    ]);
  });

  it('parses templates once per ClusterClass, not per Cluster', () => {
    const { patches } = compileClass([
      {
        name: 'p',
        enabledIf: 'true',
        definitions: [infraDef([{ op: 'add', path: '/spec/template/spec/v', valueFrom: { template: '{{ .v }}' } }])],
      },
    ]);
    expect(calls.parse).toBe(2);
    for (let i = 0; i < 5; i++) applyPatches(patches, request([infraItem()], { v: i }), ctx(['v']));
    expect(calls.parse).toBe(2);
    expect(calls.exec).toHaveLength(10);
  });

  it('does not render templates of remove operations', () => {
    const out = runPatches([
      {
        name: 'p',
        definitions: [
          infraDef([
            { op: 'add', path: '/spec/template/spec/v', value: 1 },
            { op: 'remove', path: '/spec/template/spec/v', valueFrom: { template: '{{ fail }}' } },
          ]),
        ],
      },
    ]);
    expect(out.results).toEqual([]);
    expect(calls.exec).toHaveLength(0);
  });
});
