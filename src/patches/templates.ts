/**
 * Go-template rendering for `enabledIf` and `valueFrom.template` (CAPI core/reconcilers/topology/cluster/patches/variables/value.go),
 * mirroring CAPI's `renderValueTemplate`: parse with sprig's hermetic function map under the
 * name "tpl", execute with the default missingkey behaviour against the merged variables, then
 * parse the output as sigs.k8s.io/yaml does. Error texts follow CAPI's wrapping.
 *
 * The engine is imported as a namespace and probed at runtime, so this module links (and
 * reports a clean error) even while the engine is only a type-level stub.
 */
import type { Json } from '../core/model.js';
import * as gotemplate from '../gotemplate/index.js';
import { goQuote } from '../gotemplate/fmt.js';

export interface PreparedTemplate {
  readonly source: string;
  /** undefined when no template engine is available at runtime. */
  readonly parsed: gotemplate.ParseResult | undefined;
}

export type RenderResult = { ok: true; value: Json; warnings: string[] } | { ok: false; error: string };

function engineAvailable(): boolean {
  return (
    typeof gotemplate.parseTemplate === 'function' &&
    typeof gotemplate.executeTemplate === 'function' &&
    typeof gotemplate.parseTemplateOutput === 'function'
  );
}

/** Parses once per ClusterClass; parse errors are kept and reported when the template is used. */
export function prepareTemplate(source: string): PreparedTemplate {
  if (!engineAvailable()) return { source, parsed: undefined };
  return { source, parsed: gotemplate.parseTemplate(source, { name: 'tpl', functions: 'sprig-hermetic' }) };
}

export function renderTemplate(t: PreparedTemplate, data: Json): RenderResult {
  if (t.parsed === undefined) {
    return {
      ok: false,
      error: `failed to parse template: ${goQuote(t.source)}: the Go template engine is not available`,
    };
  }
  if (!t.parsed.ok) return { ok: false, error: `failed to parse template: ${goQuote(t.source)}: ${t.parsed.error}` };
  const exec = gotemplate.executeTemplate(t.parsed.template, data, { missingKey: 'default' });
  if (!exec.ok) return { ok: false, error: `failed to render template: ${goQuote(t.source)}: ${exec.error}` };
  const parsed = gotemplate.parseTemplateOutput(exec.output);
  if (!parsed.ok) {
    return { ok: false, error: `failed to unmarshal rendered template: ${goQuote(exec.output)}: ${parsed.error}` };
  }
  return { ok: true, value: parsed.value, warnings: exec.warnings ?? [] };
}
