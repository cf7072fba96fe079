/**
 * The list caps of the ClusterClass CRD (`+kubebuilder:validation:MaxItems` in CAPI's
 * api/core/v1beta2/clusterclass_types.go, the same in v1beta1; config/crd/bases/
 * cluster.x-k8s.io_clusterclasses.yaml): at most 1,000 variables and 1,000 patches, 100
 * definitions per patch and 100 jsonPatches per definition. The API server checks the schema
 * before any webhook runs, so a class past a cap is refused with the schema error alone
 * (apimachinery `field.TooMany`) and its variables and patches are never compiled or applied.
 */
import type { ClusterClass, ObjectRef } from '../core/model.js';
import type { Result } from '../core/result.js';
import { fieldError, index, type FieldError } from '../core/fielderror.js';
import { FIX, toResults, withFix } from '../core/fixes.js';

const tooMany = (field: string, actual: number, max: number): FieldError[] =>
  actual > max ? [fieldError('Too many', field, withFix(`must have at most ${max} items`, FIX.listCap), actual)] : [];

export function clusterClassListCaps(cc: ClusterClass, ref: ObjectRef): Result[] {
  const errors = [
    ...tooMany('spec.variables', cc.variables.length, 1000),
    ...tooMany('spec.patches', cc.patches.length, 1000),
  ];
  cc.patches.forEach((patch, i) => {
    const definitions = patch.definitions ?? [];
    const path = `${index('spec.patches', i)}.definitions`;
    errors.push(...tooMany(path, definitions.length, 100));
    definitions.forEach((d, j) => errors.push(...tooMany(`${index(path, j)}.jsonPatches`, d.jsonPatches.length, 100)));
  });
  return toResults(errors, ref, 'crd-schema');
}
