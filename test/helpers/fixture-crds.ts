/**
 * The real CRDs in `../shared/fixtures/crds/`, read in place with the contract labels kustomize
 * adds at install time (the fixture README, "Contract labels": the files carry none, so a harness
 * standing in for the API server adds them in memory; the labels are scripts/oracle/fixture-crds.mjs's,
 * which the CAPI oracle's differential runs use too).
 */
import { existsSync } from 'node:fs';
import type { JsonObject } from '../../src/core/model.js';
import { CRD_DIR, labelledFixtureCrds } from '../../scripts/oracle/fixture-crds.mjs';

export { CRD_DIR };

/** True (and a visible warning) when the CRD fixtures are not there: use with describe.skipIf. */
export function fixtureCrdsMissing(): boolean {
  const missing = !existsSync(CRD_DIR);
  if (missing) console.warn(`SKIPPED: ${CRD_DIR} is not available; the CRD fixture tests did not run`);
  return missing;
}

/** Every fixture CRD, labelled as installed, in a stable order (folder, then file). */
export function loadFixtureCrds(): JsonObject[] {
  return labelledFixtureCrds().flatMap(([, , crds]) => crds as JsonObject[]);
}
