/**
 * Runs compiled patches over one Cluster's patch request (CAPI core/reconcilers/topology/cluster/patches/inline/json_patch_generator.go), the way
 * CAPI's patch engine + inline generator do:
 *
 *   for each patch (in order):
 *     generate: for each item, the matching definitions; enabledIf per item with the merged
 *               variables; one JSON patch per matching definition. Errors from all items and
 *               definitions are collected (CAPI aggregates them) and fail the patch.
 *     apply:    each generated JSON patch immediately, in order; the first failure fails the
 *               patch (CAPI returns there). After each, only spec, metadata.labels and
 *               metadata.annotations of the patched document are copied into the item.
 *   a failing patch stops the run (later patches would see a half-patched request).
 *
 * Nothing is mutated: templates are replaced by copy-on-write results.
 */
import { cloneJson, defineKey, isObject } from '../core/json.js';
import type { Json, JsonObject } from '../core/model.js';
import type { Result } from '../core/result.js';
import type { PatchEvaluation, PatchSource, VariableUse } from '../provenance/sources.js';
import type { CompiledDefinition, CompiledOp, CompiledPatch, CompiledPatches } from './compile.js';
import { goQuote } from '../gotemplate/fmt.js';
import { applyJsonPatch, recordJsonPatchEffect, type JsonPatchEffect, type JsonPatchOp } from './jsonpatch.js';
import { templateReferences, variableUses } from './reads.js';
import { applyExternalPatch, copyBack } from './external.js';
import { clusterKeyOf, describeTarget, itemAt } from './target.js';
import { matchesSelector } from './selector.js';
import { renderTemplate } from './templates.js';
import type { PatchRequest } from './types.js';
import { lookupVariable } from './variablepath.js';
import { ApplyContext } from './types.js';

export interface ApplyPatchesResult {
  /** Patched templates, same order as `request.items` (as far as patching got when `failed`). */
  templates: JsonObject[];
  /** Errors (the Cluster must not be rendered) and warnings. */
  results: Result[];
  /** True when any error result was produced. */
  failed: boolean;
}

/**
 * CAPI core/reconcilers/topology/cluster/patches/variables/variables.go: global values (filtered to inline variables) + `builtin`, then item values replace
 * global ones by name, except `builtin`, which is merged field by field (cluster part from the
 * global map, controlPlane/machineDeployment/machinePool part from the item) like CAPI's
 * MergeVariableMaps. The builtin parts are disjoint, so a shallow merge is equivalent.
 */
export function mergeVariables(
  globalVariables: Readonly<Record<string, Json>>,
  itemVariables: Readonly<Record<string, Json>>,
  inlineVariableNames: ReadonlySet<string>,
): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [name, value] of Object.entries(globalVariables)) {
    if (value === undefined) continue;
    if (name === 'builtin' || inlineVariableNames.has(name)) defineKey(out, name, value);
  }
  for (const [name, value] of Object.entries(itemVariables)) {
    if (value === undefined) continue;
    if (name === 'builtin') {
      const prev = Object.hasOwn(out, 'builtin') ? out['builtin'] : undefined;
      defineKey(out, name, isObject(prev) && isObject(value) ? { ...prev, ...value } : value);
    } else if (inlineVariableNames.has(name)) {
      defineKey(out, name, value);
    }
  }
  return out;
}

/** The value of one inline operation with `vars` (CAPI json_patch_generator.go `calculateValue`), or why it has none. */
function operationValue(
  v: CompiledOp['value'],
  vars: Record<string, Json>,
  warn: (warnings: readonly string[]) => void,
): { value: Json | undefined; error: string | undefined } {
  switch (v.kind) {
    case 'none':
      return { value: undefined, error: undefined };
    case 'error':
      return { value: undefined, error: v.error };
    case 'literal':
      return { value: cloneJson(v.value), error: undefined };
    case 'variable': {
      const r = lookupVariable(vars, v.path);
      return r.ok
        ? { value: cloneJson(r.value), error: undefined }
        : { value: undefined, error: `failed to calculate value: ${r.error}` };
    }
    case 'template': {
      const r = renderTemplate(v.template, vars);
      if (!r.ok) return { value: undefined, error: `failed to calculate value for template: ${r.error}` };
      warn(r.warnings);
      return { value: r.value, error: undefined };
    }
  }
}

/**
 * Applies a patch's generated JSON patches in order, each to its item's template as the one
 * before left it (CAPI returns at the first failure: its field path and message are returned).
 */
function applyGenerated(
  patch: CompiledPatch,
  generated: readonly Generated[],
  templates: JsonObject[],
  request: PatchRequest,
  rec: ApplyContext['recorder'],
): { fieldPath: string; message: string } | undefined {
  for (const g of generated) {
    if (g.ops.length === 0) continue;
    const { item, template: before } = itemAt(request, templates, g.item);
    const effects: [number, JsonPatchEffect][] | undefined = rec && [];
    const r = applyJsonPatch(before, g.ops, effects && ((i, effect) => effects.push([i, effect])));
    if (!r.ok) {
      // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- one generated operation per operation of the definition
      const op = g.def.ops[r.opIndex]!;
      const target = describeTarget(item, before);
      const at = `definitions[${g.def.index}].jsonPatches[${op.index}]`;
      return {
        fieldPath: `spec.patches[${patch.index}].${at}`,
        message: `(${at}) failed on ${target} at ${op.path}: ${r.error}`,
      };
    }
    if (rec && effects && isObject(r.doc)) {
      // The patched document starts with the origins of the one patched, then each operation's.
      rec.copy(before, [], r.doc, []);
      for (const [i, effect] of effects) {
        // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- recording, each generated operation has its source
        const source = g.sources![i]!;
        recordJsonPatchEffect(rec, r.doc, effect, source);
      }
    }
    templates[g.item] = copyBack(before, r.doc, rec);
  }
  return undefined;
}

interface Generated {
  item: number;
  def: CompiledDefinition;
  ops: JsonPatchOp[];
  /** When recording: the source of each operation. */
  sources?: PatchSource[];
}

/** Where an inline patch operation's value came from, for provenance. */
function operationSource(
  patch: CompiledPatch & { kind: 'inline' },
  def: CompiledDefinition,
  op: CompiledOp,
  uses: (refs: string[]) => VariableUse[],
  enabledIfVariables: VariableUse[] | undefined,
): PatchSource {
  const s: PatchSource = {
    kind: 'patch',
    patch: patch.name,
    patchIndex: patch.index,
    definitionIndex: def.index,
    jsonPatchIndex: op.index,
    op: op.op,
    opPath: op.path,
  };
  if (patch.enabledIf !== undefined) {
    s.enabledIf = patch.enabledIf.source;
    s.enabledIfResult = true;
    if (enabledIfVariables && enabledIfVariables.length > 0) s.enabledIfVariables = enabledIfVariables;
  }
  const v = op.value;
  if (v.kind === 'variable') s.valueFrom = { variable: v.path.raw };
  if (v.kind === 'template') s.valueFrom = { template: v.template.source };
  const variables = uses(
    v.kind === 'variable' ? [v.path.raw] : v.kind === 'template' ? templateReferences(v.template.source) : [],
  );
  if (variables.length > 0) s.variables = variables;
  return s;
}

/** What every patch of one applyPatches call shares: the request as patched so far, its variables, and its results' wording. */
interface PatchRun {
  request: PatchRequest;
  /** The items' templates as the patches before left them. */
  templates: JsonObject[];
  rec: ApplyContext['recorder'];
  /** Item `n`'s merged variables. */
  varsOf(n: number): Record<string, Json>;
  /** The variables item `n` read through `refs`, with their origins (item overrides win, as in mergeVariables). */
  usesOf(n: number): (refs: string[]) => VariableUse[];
  fail(patch: CompiledPatch, fieldPath: string, message: string): Result;
  /** Adds template warnings, each message once per call. */
  warn(patch: CompiledPatch, warnings: readonly string[]): void;
}

type InlinePatch = CompiledPatch & { kind: 'inline' };

/**
 * CAPI json_patch_generator.go `Generate`: for each item, the matching definitions, enabledIf with
 * the item's variables, one JSON patch per definition; errors of all items are collected.
 */
function generateInline(run: PatchRun, patch: InlinePatch): { generated: Generated[]; errors: Result[] } {
  const { request, templates, rec } = run;
  const base = `spec.patches[${patch.index}]`;
  const errors: Result[] = [];
  const generated: Generated[] = [];
  for (const n of request.items.keys()) {
    const { item, template } = itemAt(request, templates, n);
    const matching = patch.definitions.filter((d) => matchesSelector(item, d.selector, template));
    if (matching.length === 0) continue;
    const target = describeTarget(item, template);
    const vars = run.varsOf(n);
    const evaluation: PatchEvaluation | undefined = rec && {
      patch: patch.name,
      patchIndex: patch.index,
      definitions: matching.map((d) => d.index),
      enabled: true,
    };

    let enabled = true;
    if (patch.enabledIf !== undefined) {
      const r = renderTemplate(patch.enabledIf, vars);
      if (!r.ok) {
        errors.push(
          run.fail(
            patch,
            `${base}.enabledIf`,
            `(enabledIf) failed on ${target}: failed to calculate value for enabledIf: ${r.error}`,
          ),
        );
        continue;
      }
      run.warn(patch, r.warnings);
      enabled = r.value === true;
      if (evaluation) {
        evaluation.enabledIf = patch.enabledIf.source;
        evaluation.enabled = enabled;
        const uses = run.usesOf(n)(templateReferences(patch.enabledIf.source));
        if (uses.length > 0) evaluation.enabledIfVariables = uses;
      }
    }
    if (rec && evaluation) rec.considered(template, evaluation);
    if (!enabled) continue;

    for (const def of matching) {
      const ops = definitionOps(run, patch, def, vars, target);
      if ('error' in ops) {
        errors.push(ops.error);
        continue;
      }
      const sources =
        evaluation &&
        def.ops.map((op) => operationSource(patch, def, op, run.usesOf(n), evaluation.enabledIfVariables));
      generated.push(sources ? { item: n, def, ops: ops.ops, sources } : { item: n, def, ops: ops.ops });
    }
  }
  return { generated, errors };
}

/** CAPI json_patch_generator.go `generateJSONPatches`: a definition's operations with their values, or the first one's error. */
function definitionOps(
  run: PatchRun,
  patch: InlinePatch,
  def: CompiledDefinition,
  vars: Record<string, Json>,
  target: string,
): { ops: JsonPatchOp[] } | { error: Result } {
  const ops: JsonPatchOp[] = [];
  for (const op of def.ops) {
    const v = op.value;
    const { value, error } = operationValue(v, vars, (warnings) => run.warn(patch, warnings));
    if (error !== undefined) {
      const at = `definitions[${def.index}].jsonPatches[${op.index}]`;
      return {
        error: run.fail(
          patch,
          `spec.patches[${patch.index}].${at}`,
          `(${at}) failed on ${target} at ${op.path}: ${error}`,
        ),
      };
    }
    ops.push(v.kind === 'none' ? { op: op.op, path: op.path } : { op: op.op, path: op.path, value: value ?? null });
  }
  return { ops };
}

export function applyPatches(compiled: CompiledPatches, request: PatchRequest, ctx: ApplyContext): ApplyPatchesResult {
  const templates = request.items.map((i) => i.template);
  const results: Result[] = [];
  const clusterKey = clusterKeyOf(ctx.clusterRef);
  const seenWarnings = new Set<string>();

  // Inline patches all see the same variable set (definitions `from: inline`), so the merged
  // map of an item is computed at most once per call and shared across patches.
  const merged = new Array<Record<string, Json> | undefined>(request.items.length);
  const varsOf = (n: number): Record<string, Json> =>
    (merged[n] ??= mergeVariables(
      request.globalVariables,
      itemAt(request, templates, n).item.variables,
      ctx.inlineVariableNames,
    ));
  const rec = ctx.recorder;
  const run: PatchRun = {
    request,
    templates,
    rec,
    varsOf,
    usesOf: (n) => (refs) =>
      variableUses(
        refs,
        varsOf(n),
        (name) =>
          itemAt(request, templates, n).item.variableOrigins?.get(name) ?? request.globalVariableOrigins?.get(name),
      ),
    fail: (patch, fieldPath, message) => ({
      severity: 'error',
      message: `Cluster ${clusterKey}: patch ${goQuote(patch.name)} ${message}`,
      resourceRef: ctx.classRef,
      field: { path: fieldPath },
      tags: { cluster: clusterKey, patch: patch.name },
    }),
    warn: (patch, warnings) => {
      for (const w of warnings) {
        const message = `Cluster ${clusterKey}: patch ${goQuote(patch.name)}: template warning: ${w}`;
        if (seenWarnings.has(message)) continue;
        seenWarnings.add(message);
        results.push({
          severity: 'warning',
          message,
          resourceRef: ctx.classRef,
          tags: { cluster: clusterKey, patch: patch.name },
        });
      }
    },
  };
  const done = (failed: boolean): ApplyPatchesResult => ({ templates, results, failed });

  for (const patch of compiled.patches) {
    switch (patch.kind) {
      case 'validateOnly':
        continue; // warned about once by compilePatches
      case 'external': {
        if (patch.skip) continue; // warned about once by compilePatches
        const out = applyExternalPatch(patch, request, templates, ctx);
        results.push(...out.results);
        if (!out.ok) return done(true);
        templates.splice(0, templates.length, ...out.templates);
        continue;
      }
      case 'noGenerator':
        results.push(
          run.fail(
            patch,
            `spec.patches[${patch.index}]`,
            `cannot be applied: failed to create patch generator for patch ${goQuote(patch.name)}`,
          ),
        );
        return done(true);
      case 'inline':
        break;
    }
    const { generated, errors } = generateInline(run, patch);
    if (errors.length > 0) {
      results.push(...errors);
      return done(true);
    }
    const failure = applyGenerated(patch, generated, templates, request, rec);
    if (failure) {
      results.push(run.fail(patch, failure.fieldPath, failure.message));
      return done(true);
    }
  }
  return done(false);
}
