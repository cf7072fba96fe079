/**
 * Public interface of the Go text/template + sprig engine. Other stages import only this file.
 * (Contract stub: the engine behind it is implemented in this folder.)
 */
import type { Json } from '../api/model.js';

/** Which function map a template is parsed with. */
export type FunctionSet =
  /** sprig.HermeticTxtFuncMap() + text/template builtins: ClusterClass patches (enabledIf, valueFrom.template). */
  | 'sprig-hermetic'
  /** text/template builtins only: ClusterClass naming templates. */
  | 'builtins';

export interface ParseOptions {
  /** Template name used in error messages and by `{{ template "tpl" }}`; CAPI uses "tpl". */
  name?: string;
  functions?: FunctionSet;
}

export interface ExecOptions {
  /** Go's Option("missingkey=..."): CAPI patches use 'default', naming templates use 'error'. */
  missingKey?: 'default' | 'error';
  /** Safety limits; defaults are documented in the README's "Security and limits". */
  limits?: Partial<TemplateLimits>;
}

export interface TemplateLimits {
  maxOutputBytes: number;
  maxSteps: number;
  maxDepth: number;
}

export interface CompiledTemplate {
  readonly name: string;
  readonly source: string;
}

export type ParseResult =
  | { ok: true; template: CompiledTemplate }
  | { ok: false; error: string; phase: 'parse' };

export type ExecResult =
  | { ok: true; output: string; warnings: string[] }
  | { ok: false; error: string; phase: 'exec' };

export type YamlValueResult = { ok: true; value: Json } | { ok: false; error: string };

/** Parses (and caches by name+functions+text) a template. */
export declare function parseTemplate(text: string, options?: ParseOptions): ParseResult;

/** Executes a compiled template against JSON data (numbers behave as Go float64). */
export declare function executeTemplate(
  template: CompiledTemplate,
  data: Json,
  options?: ExecOptions,
): ExecResult;

/** Parses template output the way CAPI does (sigs.k8s.io/yaml: go-yaml v2 YAML 1.1 -> JSON). */
export declare function parseTemplateOutput(text: string): YamlValueResult;
