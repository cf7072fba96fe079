/**
 * Public interface of the Go text/template + sprig engine. Other stages import only this file.
 */
import type { Json } from '../core/model.js';
import { goFloat64s } from '../core/go/json.js';
import { holdsBigint } from '../core/json.js';
import { ExecError, execute, type ExecEnv } from './exec.js';
import { builtinFuncs } from './funcs-builtin.js';
import { ParseError, parseTemplates, type Tree } from './parser.js';
import { MUTATING_FUNCS, sprigFuncs } from './sprig/index.js';
import type { GoFunc, GoValue } from './values.js';
import { parseYamlOutput } from './yaml-output.js';

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

interface TemplateLimits {
  maxOutputBytes: number;
  maxSteps: number;
  maxDepth: number;
}

export interface CompiledTemplate {
  readonly name: string;
  readonly source: string;
}

export type ParseResult = { ok: true; template: CompiledTemplate } | { ok: false; error: string; phase: 'parse' };

export type ExecResult = { ok: true; output: string; warnings: string[] } | { ok: false; error: string; phase: 'exec' };

export type YamlValueResult = { ok: true; value: Json } | { ok: false; error: string };

/**
 * Default safety limits: 4 MiB of output (counted in UTF-16 code units), one million evaluation
 * steps (a node walked, a command evaluated, or work charged by list-building functions), and
 * 1000 nested {{template}} calls. Go itself has no output/step limit and allows depth 100000.
 */
const DEFAULT_LIMITS: Readonly<TemplateLimits> = Object.freeze({
  maxOutputBytes: 4 * 1024 * 1024,
  maxSteps: 1_000_000,
  maxDepth: 1000,
});

const BUILTIN_NAMES = new Set(builtinFuncs().map((f) => f.name));

function makeFuncMap(set: FunctionSet): Map<string, GoFunc> {
  const m = new Map<string, GoFunc>();
  for (const f of builtinFuncs()) m.set(f.name, f);
  if (set === 'sprig-hermetic') for (const f of sprigFuncs()) m.set(f.name, f);
  return m;
}

const FUNC_MAPS: Record<FunctionSet, Map<string, GoFunc> | undefined> = {
  'sprig-hermetic': undefined,
  builtins: undefined,
};
function funcMap(set: FunctionSet): Map<string, GoFunc> {
  return (FUNC_MAPS[set] ??= makeFuncMap(set));
}

/** The function names a template can call with the given function set. */
export function functionNames(set: FunctionSet = 'sprig-hermetic'): string[] {
  return [...funcMap(set).keys()].sort();
}

class Compiled implements CompiledTemplate {
  readonly env: ExecEnv;
  constructor(
    readonly name: string,
    readonly source: string,
    readonly functions: FunctionSet,
    readonly trees: Map<string, Tree>,
    /** The template calls functions that mutate maps, so data must be copied per evaluation. */
    readonly mutates: boolean,
  ) {
    const funcs = funcMap(functions);
    this.env = { templates: trees, funcs, builtinNames: sprigOverrides(functions) };
  }
}

/** Builtin names whose builtin implementation is in effect (sprig's `slice` replaces the builtin). */
function sprigOverrides(set: FunctionSet): Set<string> {
  if (set === 'builtins') return BUILTIN_NAMES;
  const s = new Set(BUILTIN_NAMES);
  for (const f of sprigFuncs()) s.delete(f.name);
  return s;
}

const CACHE_MAX = 2000;
const cache = new Map<string, ParseResult>();

/** Parses (and caches by name+functions+text) a template. */
export function parseTemplate(text: string, options?: ParseOptions): ParseResult {
  const name = options?.name ?? 'tpl';
  const functions = options?.functions ?? 'sprig-hermetic';
  const key = name + '\u0000' + functions + '\u0000' + text;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const result = parseUncached(text, name, functions);
  if (cache.size >= CACHE_MAX) {
    const first = cache.keys().next();
    if (!first.done) cache.delete(first.value);
  }
  cache.set(key, result);
  return result;
}

function parseUncached(text: string, name: string, functions: FunctionSet): ParseResult {
  const funcs = funcMap(functions);
  let trees: Map<string, Tree>;
  try {
    trees = parseTemplates(text, name, (n) => funcs.has(n));
  } catch (e) {
    if (e instanceof ParseError) return { ok: false, error: e.message, phase: 'parse' };
    if (e instanceof RangeError) return { ok: false, error: `template: ${name}: nested too deeply`, phase: 'parse' };
    throw e;
  }
  const mutates = [...MUTATING_FUNCS].some((f) => text.includes(f));
  return { ok: true, template: new Compiled(name, text, functions, trees, mutates) };
}

/**
 * Executes a compiled template against JSON data. Numbers behave as Go float64, as CAPI's template
 * data is `json.Unmarshal`ed into `interface{}` (inline/json_patch_generator.go
 * `calculateTemplateData`): an int64 beyond ±2^53 is its nearest double there.
 */
export function executeTemplate(template: CompiledTemplate, data: Json, options?: ExecOptions): ExecResult {
  if (!(template instanceof Compiled)) {
    const parsed = parseTemplate(template.source, { name: template.name });
    if (!parsed.ok) return { ok: false, error: parsed.error, phase: 'exec' };
    template = parsed.template;
  }
  const t = template as Compiled;
  const limits: TemplateLimits = options?.limits ? { ...DEFAULT_LIMITS, ...options.limits } : DEFAULT_LIMITS;
  const tree = t.trees.get(t.name);
  if (tree === undefined) {
    return {
      ok: false,
      error: `template: ${t.name}: ${JSON.stringify(t.name)} is an incomplete or empty template`,
      phase: 'exec',
    };
  }
  let dot: Json = data === null || data === undefined ? {} : data;
  // A copy where the template could change its data, or where it must hold float64s only.
  if (t.mutates || holdsBigint(dot)) dot = goFloat64s(dot);
  try {
    const r = execute(t.env, t.name, tree.root, dot as GoValue, options?.missingKey === 'error', limits);
    return { ok: true, output: r.output, warnings: r.warnings };
  } catch (e) {
    if (e instanceof ExecError) return { ok: false, error: e.message, phase: 'exec' };
    if (e instanceof RangeError) {
      return { ok: false, error: `template: ${t.name}: evaluation nested too deeply`, phase: 'exec' };
    }
    return {
      ok: false,
      error: `template: ${t.name}: internal error: ${(e as Error)?.message ?? String(e)}`,
      phase: 'exec',
    };
  }
}

/** Parses template output the way CAPI does (sigs.k8s.io/yaml: go-yaml v2 YAML 1.1 -> JSON). */
export function parseTemplateOutput(text: string): YamlValueResult {
  return parseYamlOutput(text);
}

/** Convenience: parse (cached) and execute in one call. */
export function renderTemplate(
  text: string,
  data: Json,
  options?: ParseOptions & ExecOptions,
): ParseResult | ExecResult {
  const parsed = parseTemplate(text, options);
  if (!parsed.ok) return parsed;
  return executeTemplate(parsed.template, data, options);
}
