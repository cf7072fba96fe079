/**
 * Patch engine (CAPI core/reconcilers/topology/cluster/patches/engine.go `Apply`): inline JSON patches of ClusterClass templates and the
 * write-back into desired objects, reproducing CAPI's topology controller offline.
 *
 * Usage per ClusterClass: `compilePatches` once; per Cluster: build a `PatchRequest` (CAPI core/reconcilers/topology/cluster/patches/engine.go `createRequest`),
 * `applyPatches`, and if it did not fail, `updateDesiredObject` for every item.
 */
export type { PatchTargetRole, PatchHolder, PatchRequestItem, PatchRequest } from './types.js';
export { compilePatches } from './compile.js';
export type { CompiledPatches, CompiledPatch, CompiledDefinition, CompiledOp, ValueSource } from './compile.js';
export { applyPatches, mergeVariables } from './apply.js';
export { validatePatchedTopology } from './external.js';
export type { ApplyPatchesResult } from './apply.js';
export type { ApplyContext } from './types.js';
export {
  updateDesiredObject,
  writeBackPatchedTemplate,
  ALWAYS_PRESERVED,
  CONTROL_PLANE_PRESERVED,
} from './writeback.js';
export type { WriteBackResult } from './writeback.js';
export { applyJsonPatch, decodePointerSegment } from './jsonpatch.js';
export type { JsonPatchOp, ApplyPatchResult } from './jsonpatch.js';
export { parseVariablePath, lookupVariable } from './variablepath.js';
export type { ParsedVariablePath, LookupResult } from './variablepath.js';
export { engineAvailable as templateEngineAvailable } from './templates.js';
