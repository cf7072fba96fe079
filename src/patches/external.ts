/**
 * External patches as CAPI's patch engine runs them
 * (core/reconcilers/topology/cluster/patches/engine.go): the GeneratePatches request built from
 * the current templates (createRequest, addVariablesForPatch, variables.Global/ControlPlane/
 * MachineDeployment/MachinePool), the answer applied item by item (applyPatchesToRequest), and
 * the ValidateTopology request after the last patch (convertToValidationRequest). The calls
 * themselves are the Runtime SDK client's (src/extensions), reached through `ExternalHooks`.
 */
import { createHash } from 'node:crypto';
import { isObject, jsonString } from '../core/json.js';
import type { Json, JsonObject, ObjectRef } from '../core/model.js';
import type {
  GeneratePatchesRequest,
  GeneratePatchesResponse,
  HolderReference,
  HookVariable,
  ValidateTopologyRequest,
} from '../extensions/hooks.js';
import { HOOKS_API_VERSION } from '../extensions/hooks.js';
import { goQuote } from '../gotemplate/fmt.js';
import { goKeyOrder } from '../core/go/json.js';
import type { Recorder } from '../provenance/recorder.js';
import type { ExternalPatchSource } from '../provenance/sources.js';
import { decodeJsonPatch, applyJsonPatch, recordJsonPatchEffect, type JsonPatchEffect } from './jsonpatch.js';
import { applyMergePatch, recordMergePatch } from './mergepatch.js';
import type { PatchRequest, PatchRequestItem } from './types.js';
import type { Result } from '../core/result.js';
import type { CompiledPatch, CompiledPatches } from './compile.js';
import { clusterKeyOf, describeTarget, itemAt } from './target.js';
import { ApplyContext } from './types.js';

/**
 * The request item uid. CAPI draws a random UUID per reconcile (template.go `uuidGenerator`);
 * here it is a UUID-shaped SHA-256 of the item's identity, so requests (and recordings keyed by
 * their content) are the same on every run.
 */
function requestItemUid(clusterRef: ObjectRef, item: PatchRequestItem): string {
  const h = createHash('sha256')
    .update(
      [clusterRef.namespace ?? '', clusterRef.name, item.holder.kind, item.holder.name, item.holder.fieldPath].join(
        '\0',
      ),
    )
    .digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/**
 * Variables of one list (global or item) for a patch: the user values whose definitions come
 * from `definitionFrom` (in the Cluster's order), then `builtin` (variables.go `Global` and
 * friends). Map-valued parts are sent with sorted keys, as Go marshals maps.
 */
function hookVariables(values: Readonly<Record<string, Json>>, names: ReadonlySet<string>): HookVariable[] {
  const out: HookVariable[] = [];
  for (const [name, value] of Object.entries(values)) {
    if (name !== 'builtin' && names.has(name) && value !== undefined) out.push({ name, value: goKeyOrder(value) });
  }
  if (values.builtin !== undefined) out.push({ name: 'builtin', value: values.builtin });
  return out;
}

function holderReference(item: PatchRequestItem, namespace: string): HolderReference {
  return {
    apiVersion: item.holder.apiVersion,
    kind: item.holder.kind,
    namespace,
    name: item.holder.name,
    fieldPath: item.holder.fieldPath,
  };
}

/** Items of a request: templates as they are now, variables for the patch (none for the InfraCluster). */
function requestItems(
  request: PatchRequest,
  templates: readonly JsonObject[],
  names: ReadonlySet<string>,
  clusterRef: ObjectRef,
) {
  return request.items.map((_, n) => {
    const { item, template } = itemAt(request, templates, n);
    const variables = hookVariables(item.variables, names);
    return {
      holderReference: holderReference(item, clusterRef.namespace ?? ''),
      object: goKeyOrder(template) as JsonObject,
      ...(variables.length > 0 ? { variables } : {}),
    };
  });
}

/** What both hook requests start with: TypeMeta (kind first), the patch's settings, the global variables (all omitempty). */
function requestHead<K extends string>(
  kind: K,
  request: PatchRequest,
  names: ReadonlySet<string>,
  settings: Record<string, string> | undefined,
) {
  const variables = hookVariables(request.globalVariables, names);
  return {
    kind,
    apiVersion: HOOKS_API_VERSION,
    ...(settings && Object.keys(settings).length > 0
      ? { settings: goKeyOrder(settings) as Record<string, string> }
      : {}),
    ...(variables.length > 0 ? { variables } : {}),
  };
}

/** The GeneratePatchesRequest for one external patch (settings are the patch's). */
function generatePatchesRequest(
  request: PatchRequest,
  templates: readonly JsonObject[],
  names: ReadonlySet<string>,
  settings: Record<string, string> | undefined,
  clusterRef: ObjectRef,
): GeneratePatchesRequest {
  return {
    ...requestHead('GeneratePatchesRequest', request, names, settings),
    items: requestItems(request, templates, names, clusterRef).map((item, n) => ({
      uid: requestItemUid(clusterRef, itemAt(request, templates, n).item),
      ...item,
    })),
  };
}

/**
 * convertToValidationRequest: the final templates with the variables CAPI's request held last,
 * i.e. those computed for the class's last patch (addVariablesForPatch overwrites them per patch).
 */
function validateTopologyRequest(
  request: PatchRequest,
  templates: readonly JsonObject[],
  lastPatchNames: ReadonlySet<string>,
  settings: Record<string, string> | undefined,
  clusterRef: ObjectRef,
): ValidateTopologyRequest {
  return {
    ...requestHead('ValidateTopologyRequest', request, lastPatchNames, settings),
    items: requestItems(request, templates, lastPatchNames, clusterRef),
  };
}

/** patchutil.Patch: spec, metadata.labels and metadata.annotations of the result, each when present (origins along). */
export function copyBack(original: JsonObject, patched: Json, rec?: Recorder): JsonObject {
  if (!isObject(patched)) return original;
  const out: JsonObject = { ...original };
  rec?.moved(original, out);
  const spec = patched['spec'];
  if (spec !== undefined) {
    out['spec'] = spec;
    rec?.copy(patched, ['spec'], out, ['spec']);
  }
  const pm = patched['metadata'];
  if (isObject(pm)) {
    for (const field of ['labels', 'annotations']) {
      const value = Object.hasOwn(pm, field) ? pm[field] : undefined;
      if (value === undefined) continue;
      const meta = isObject(out['metadata']) ? { ...out['metadata'] } : {};
      meta[field] = value;
      out['metadata'] = meta;
      rec?.copy(patched, ['metadata', field], out, ['metadata', field]);
    }
  }
  return out;
}

/**
 * applyPatchesToRequest: each generated patch, in the answer's order, on the template whose uid
 * it names; the first failure stops (the message is CAPI's, after "failed to apply patches for
 * patch"). Returns the new templates.
 */
export function applyGeneratedPatches(
  response: GeneratePatchesResponse,
  templates: readonly JsonObject[],
  uids: readonly string[],
  record?: { rec: Recorder; source: Omit<ExternalPatchSource, 'op' | 'operationIndex' | 'opPath'> },
): { ok: true; templates: JsonObject[] } | { ok: false; error: string; item?: number } {
  const out = [...templates];
  for (const p of response.items) {
    const n = uids.indexOf(p.uid);
    const current = out[n];
    if (current === undefined) return { ok: false, error: 'unable to find corresponding request item for patch' };
    let patched: Json;
    switch (p.patchType) {
      case 'JSONPatch': {
        const decoded = decodeJsonPatch(p.patch);
        if (!decoded.ok)
          return {
            ok: false,
            item: n,
            error: `failed to apply patch: error decoding json patch (RFC6902): ${decoded.error}`,
          };
        if (decoded.ops.length === 0) continue;
        const effects: [number, JsonPatchEffect][] | undefined = record && [];
        const applied = applyJsonPatch(current, decoded.ops, effects && ((i, effect) => effects.push([i, effect])));
        if (!applied.ok)
          return {
            ok: false,
            item: n,
            error: `failed to apply patch: error applying json patch (RFC6902): ${applied.error}`,
          };
        patched = applied.doc;
        if (record && effects && isObject(patched)) {
          record.rec.copy(current, [], patched, []);
          for (const [i, effect] of effects) {
            // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- effects are numbered by the operations applied
            const op = decoded.ops[i]!;
            recordJsonPatchEffect(record.rec, patched, effect, {
              ...record.source,
              op: op.op,
              operationIndex: i,
              opPath: op.path,
            });
          }
        }
        break;
      }
      case 'JSONMergePatch': {
        if (p.patch === '' || p.patch === '{}') continue;
        const applied = applyMergePatch(current, p.patch);
        if (!applied.ok)
          return {
            ok: false,
            item: n,
            error: `failed to apply patch: error applying json merge patch (RFC7386): ${applied.error}`,
          };
        patched = applied.doc;
        if (record && isObject(patched)) recordMergePatch(record.rec, current, patched, p.patch, record.source);
        break;
      }
      default:
        // engine.go has no default case: patchutil.Patch then fails to decode the missing result.
        return {
          ok: false,
          item: n,
          error: `failed to apply patch to template: unknown patchType ${goQuote(p.patchType)} (expected JSONPatch or JSONMergePatch)`,
        };
    }
    // patchutil.Patch decodes the result as an Unstructured: it must be an object with a kind.
    if (!isObject(patched) || typeof patched.kind !== 'string' || patched.kind === '') {
      return {
        ok: false,
        item: n,
        error: `failed to apply patch to template: failed to convert patched object to Unstructured: Object 'Kind' is missing in '${jsonString(patched)}'`,
      };
    }
    out[n] = copyBack(current, patched, record?.rec);
  }
  return { ok: true, templates: out };
}

const NO_NAMES: ReadonlySet<string> = new Set();

type ExternalPatch = Extract<CompiledPatch, { kind: 'external' }>;

/** An error or warning about an external patch of the Cluster, tagged with the extension and hook. */
function patchResult(
  severity: 'error' | 'warning',
  ctx: ApplyContext,
  patch: CompiledPatch,
  path: string,
  message: string,
  extension: string,
  hook: string,
): Result {
  const cluster = clusterKeyOf(ctx.clusterRef);
  return {
    severity,
    message: `Cluster ${cluster}: patch ${goQuote(patch.name)} ${message}`,
    resourceRef: ctx.classRef,
    field: { path },
    tags: { cluster, patch: patch.name, extension, hook },
  };
}

/** A call whose failure the handler's `failurePolicy: Ignore` turned into an empty success (CAPI logs it). */
const ignoredCall = (
  ctx: ApplyContext,
  patch: CompiledPatch,
  path: string,
  extension: string,
  hook: string,
  error: string,
): Result =>
  patchResult(
    'warning',
    ctx,
    patch,
    path,
    `: ${hook} call to ${goQuote(extension)} failed and was ignored (failurePolicy Ignore), as CAPI does: ${error}`,
    extension,
    hook,
  );

/**
 * One external patch of engine.go `Apply`: its variables (addVariablesForPatch with the patch
 * name as definitionFrom), the call (externalPatchGenerator.Generate), the answer applied.
 */
export function applyExternalPatch(
  patch: ExternalPatch,
  request: PatchRequest,
  templates: readonly JsonObject[],
  ctx: ApplyContext,
): { ok: true; templates: JsonObject[]; results: Result[] } | { ok: false; results: Result[] } {
  const at = `spec.patches[${patch.index}].external.generatePatchesExtension`;
  const error = (message: string) => ({
    ok: false as const,
    results: [patchResult('error', ctx, patch, at, message, patch.extension, 'GeneratePatches')],
  });
  if (!ctx.extensions) {
    // Nothing was called: the result names the patch only.
    const r = patchResult(
      'error',
      ctx,
      patch,
      at,
      `uses the external patch extension ${goQuote(patch.extension)}, which needs its ExtensionConfig (--extensions) or recorded answers (--replay-extensions); set skipExternalPatches to render without it`,
      patch.extension,
      'GeneratePatches',
    );
    return { ok: false, results: [{ ...r, tags: { cluster: clusterKeyOf(ctx.clusterRef), patch: patch.name } }] };
  }
  const wire = generatePatchesRequest(
    request,
    templates,
    ctx.externalVariableNames?.get(patch.name) ?? NO_NAMES,
    patch.settings,
    ctx.clusterRef,
  );
  const answer = ctx.extensions.generatePatches(patch.extension, wire, ctx.clusterRef);
  if (!answer.ok) return error(`failed: failed to generate patches for patch ${goQuote(patch.name)}: ${answer.error}`);
  const results =
    answer.ignored === undefined
      ? []
      : [ignoredCall(ctx, patch, at, patch.extension, 'GeneratePatches', answer.ignored)];
  const record = ctx.recorder && {
    rec: ctx.recorder,
    source: { kind: 'externalPatch' as const, patch: patch.name, patchIndex: patch.index, extension: patch.extension },
  };
  const applied = applyGeneratedPatches(
    answer.response,
    templates,
    wire.items.map((i) => i.uid),
    record,
  );
  if (!applied.ok) {
    const failed = applied.item === undefined ? undefined : itemAt(request, templates, applied.item);
    const target = failed ? ` on ${describeTarget(failed.item, failed.template)}` : '';
    return error(`failed: failed to apply patches for patch ${goQuote(patch.name)}${target}: ${applied.error}`);
  }
  return { ok: true, templates: applied.templates, results };
}

/**
 * engine.go `Apply`, after the patch loop: every ValidateTopology extension of the class, in patch
 * order, on the final templates; the first failure fails the Cluster ("validation of patch ... failed").
 */
export function validatePatchedTopology(
  compiled: CompiledPatches,
  request: PatchRequest,
  templates: readonly JsonObject[],
  ctx: ApplyContext,
): Result[] {
  const patches = compiled.patches;
  const last = patches[patches.length - 1];
  // The request keeps the variables computed for the class's last patch (inline unless it is external).
  const lastNames =
    !last || last.kind === 'inline' || last.kind === 'noGenerator'
      ? ctx.inlineVariableNames
      : (ctx.externalVariableNames?.get(last.name) ?? NO_NAMES);
  const results: Result[] = [];
  for (const patch of patches) {
    if (
      (patch.kind !== 'external' && patch.kind !== 'validateOnly') ||
      !patch.validateTopologyExtension ||
      !ctx.extensions
    )
      continue;
    const extension = patch.validateTopologyExtension;
    const at = `spec.patches[${patch.index}].external.validateTopologyExtension`;
    const answer = ctx.extensions.validateTopology(
      extension,
      validateTopologyRequest(request, templates, lastNames, patch.settings, ctx.clusterRef),
      ctx.clusterRef,
    );
    if (!answer.ok) {
      const cluster = clusterKeyOf(ctx.clusterRef);
      results.push({
        ...patchResult('error', ctx, patch, at, '', extension, 'ValidateTopology'),
        message: `Cluster ${cluster}: validation of patch ${goQuote(patch.name)} failed: ${answer.error}`,
      });
      return results;
    }
    if (answer.ignored !== undefined)
      results.push(ignoredCall(ctx, patch, at, extension, 'ValidateTopology', answer.ignored));
  }
  return results;
}
