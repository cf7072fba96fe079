/**
 * Compiles a ClusterClass's `spec.patches` once (templates parsed, variable paths split,
 * selectors prepared, value-shape problems precomputed) so `applyPatches`, which runs per
 * Cluster and twice per Cluster, only evaluates.
 */
import type { ClusterClass, ClusterClassPatch, Json, JsonPatchOperation, ObjectRef } from '../core/model.js';
import type { Result } from '../core/result.js';
import { compileSelector, type CompiledSelector } from './selector.js';
import { prepareTemplate, type PreparedTemplate } from './templates.js';
import { parseVariablePath, type ParsedVariablePath } from './variablepath.js';
import { FIX, withFix } from '../core/fixes.js';

/** Where an add/replace value comes from; `error` holds CAPI's render-time calculateValue text. */
type ValueSource =
  | { kind: 'none' }
  | { kind: 'literal'; value: Json }
  | { kind: 'variable'; path: ParsedVariablePath }
  | { kind: 'template'; template: PreparedTemplate }
  | { kind: 'error'; error: string };

export interface CompiledOp {
  readonly index: number;
  readonly op: string;
  readonly path: string;
  readonly value: ValueSource;
}

export interface CompiledDefinition {
  readonly index: number;
  readonly selector: CompiledSelector;
  readonly ops: readonly CompiledOp[];
}

export type CompiledPatch =
  | {
      readonly kind: 'inline';
      readonly index: number;
      readonly name: string;
      readonly enabledIf: PreparedTemplate | undefined;
      readonly definitions: readonly CompiledDefinition[];
    }
  /** external.generatePatchesExtension: called through the Runtime SDK client, or skipped. */
  | ({
      readonly kind: 'external';
      readonly index: number;
      readonly name: string;
      readonly extension: string;
      readonly skip: boolean;
    } & ExternalParts)
  /** Only validateTopologyExtension (nothing to apply; validates after the last patch). */
  | ({ readonly kind: 'validateOnly'; readonly index: number; readonly name: string } & ExternalParts)
  /** Neither definitions nor a generate extension: CAPI fails with "failed to create patch generator". */
  | { readonly kind: 'noGenerator'; readonly index: number; readonly name: string };

/** What every external patch carries besides its generator: settings and its validation hook. */
interface ExternalParts {
  readonly settings?: Readonly<Record<string, string>>;
  readonly validateTopologyExtension?: string;
}

export interface CompiledPatches {
  readonly classRef: ObjectRef;
  readonly patches: readonly CompiledPatch[];
}

/** calculateValue's checks, in CAPI's order (only add/replace compute a value). */
function compileValue(op: JsonPatchOperation): ValueSource {
  if (op.op !== 'add' && op.op !== 'replace') return { kind: 'none' };
  // A JSON null `value` decodes to a nil *JSON in Go (and the API server prunes it), i.e. unset.
  const hasValue = op.value !== undefined && op.value !== null;
  const vf = op.valueFrom;
  const hasValueFrom = vf !== undefined && vf !== null;
  if (!hasValue && !hasValueFrom)
    return {
      kind: 'error',
      error: withFix('failed to calculate value: neither .value nor .valueFrom are set', FIX.patchValueMissing),
    };
  if (hasValue && hasValueFrom)
    return {
      kind: 'error',
      error: withFix('failed to calculate value: both .value and .valueFrom are set', FIX.patchValueBoth),
    };
  if (hasValue || !vf) return { kind: 'literal', value: op.value as Json };
  const variable = vf.variable ?? '';
  const template = vf.template ?? '';
  if (variable === '' && template === '') {
    return {
      kind: 'error',
      error: withFix(
        'failed to calculate value: .valueFrom is set, but neither .valueFrom.variable nor .valueFrom.template are set',
        FIX.patchValueFromMissing,
      ),
    };
  }
  if (variable !== '' && template !== '') {
    return {
      kind: 'error',
      error: withFix(
        'failed to calculate value: .valueFrom is set, but both .valueFrom.variable and .valueFrom.template are set',
        FIX.patchValueFromBoth,
      ),
    };
  }
  if (variable !== '') return { kind: 'variable', path: parseVariablePath(variable) };
  return { kind: 'template', template: prepareTemplate(template) };
}

function compileOne(p: ClusterClassPatch, index: number, skipExternal: boolean): CompiledPatch {
  const name = p.name;
  // createPatchGenerator: inline wins whenever definitions are present.
  if (p.definitions && p.definitions.length > 0) {
    return {
      kind: 'inline',
      index,
      name,
      enabledIf: p.enabledIf ? prepareTemplate(p.enabledIf) : undefined,
      definitions: p.definitions.map((d, j) => ({
        index: j,
        selector: compileSelector(d.selector),
        ops: (d.jsonPatches ?? []).map((op, k) => ({ index: k, op: op.op, path: op.path, value: compileValue(op) })),
      })),
    };
  }
  const external: ExternalParts = {
    ...(p.external?.settings ? { settings: p.external.settings } : {}),
    ...(p.external?.validateTopologyExtension
      ? { validateTopologyExtension: p.external.validateTopologyExtension }
      : {}),
  };
  const ext = p.external?.generatePatchesExtension;
  if (ext) return { kind: 'external', index, name, extension: ext, skip: skipExternal, ...external };
  if (p.external?.validateTopologyExtension) return { kind: 'validateOnly', index, name, ...external };
  return { kind: 'noGenerator', index, name };
}

export function compilePatches(
  cc: ClusterClass,
  classRef: ObjectRef,
  options: { skipExternalPatches: boolean; extensionsAvailable?: boolean },
): { patches: CompiledPatches; results: Result[] } {
  const results: Result[] = [];
  const patches = (cc.patches ?? []).map((p, i) => {
    const compiled = compileOne(p, i, options.skipExternalPatches);
    const tags = { patch: p.name };
    if (compiled.kind === 'external' && compiled.skip) {
      results.push({
        severity: 'warning',
        message: `patch ${JSON.stringify(p.name)}: external patch (generatePatchesExtension ${JSON.stringify(compiled.extension)}) skipped because skipExternalPatches is set; rendered objects lack its changes`,
        resourceRef: classRef,
        field: { path: `spec.patches[${i}].external.generatePatchesExtension` },
        tags,
      });
    }
    // Without a Runtime SDK client (no ExtensionConfig, no recordings) the hooks below cannot be
    // called: say so once per class. ValidateTopology runs after all patches in CAPI.
    const validate = options.extensionsAvailable ? undefined : p.external?.validateTopologyExtension;
    if (validate) {
      results.push({
        severity: 'warning',
        message: `patch ${JSON.stringify(p.name)}: validateTopologyExtension ${JSON.stringify(validate)} cannot be called without its ExtensionConfig or recordings (--extensions, --replay-extensions); topology validation by the extension is skipped`,
        resourceRef: classRef,
        field: { path: `spec.patches[${i}].external.validateTopologyExtension` },
        tags,
      });
    }
    // DiscoverVariables contributes definitions to status.variables (CAPI core/reconcilers/clusterclass/clusterclass_controller.go); offline only the
    // class's own spec.variables exist, so values for discovered variables are "not defined".
    const discover = options.extensionsAvailable ? undefined : p.external?.discoverVariablesExtension;
    if (discover) {
      results.push({
        severity: 'warning',
        message: `patch ${JSON.stringify(p.name)}: discoverVariablesExtension ${JSON.stringify(discover)} cannot be called without its ExtensionConfig or recordings (--extensions, --replay-extensions); variables it would define are unknown here — give the extension, or define them in spec.variables, to render Clusters that set them`,
        resourceRef: classRef,
        field: { path: `spec.patches[${i}].external.discoverVariablesExtension` },
        tags,
      });
    }
    return compiled;
  });
  return { patches: { classRef, patches }, results };
}
