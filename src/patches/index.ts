/**
 * Patch engine (CAPI core/reconcilers/topology/cluster/patches/engine.go `Apply`): inline JSON patches of ClusterClass templates and the
 * write-back into desired objects, reproducing CAPI's topology controller offline.
 *
 * Usage per ClusterClass: `compilePatches` once; per Cluster: build a `PatchRequest` (CAPI core/reconcilers/topology/cluster/patches/engine.go `createRequest`),
 * `applyPatches`, and if it did not fail, `updateDesiredObject` for every item.
 */
export type { PatchTargetRole, PatchRequestItem, PatchRequest } from './types.js';
export { compilePatches } from './compile.js';
export type { CompiledPatches } from './compile.js';
export { applyPatches, mergeVariables } from './apply.js';
export { validatePatchedTopology } from './external.js';
export type { ApplyContext } from './types.js';
export { updateDesiredObject } from './writeback.js';
