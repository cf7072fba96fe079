/**
 * The real CRDs in `../shared/fixtures/crds/`, read in place with the contract labels kustomize
 * adds at install time (the fixture README, "Contract labels": the files carry none, so a harness
 * standing in for the API server adds them in memory).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import YAML from 'yaml';
import type { JsonObject } from '../../src/api/model.js';

export const CRD_DIR = resolve(import.meta.dirname, '../../../shared/fixtures/crds');

/** True (and a visible warning) when the CRD fixtures are not there: use with describe.skipIf. */
export function fixtureCrdsMissing(): boolean {
  const missing = !existsSync(CRD_DIR);
  if (missing) console.warn(`SKIPPED: ${CRD_DIR} is not available; the CRD fixture tests did not run`);
  return missing;
}

const BOTH = { 'cluster.x-k8s.io/v1beta1': 'v1beta1', 'cluster.x-k8s.io/v1beta2': 'v1beta2' };

function installLabels(folder: string, file: string): Record<string, string> {
  switch (folder) {
    case 'capi':
      return file.startsWith('cluster.x-k8s.io_') ? {} : BOTH;
    case 'capa':
      return { 'cluster.x-k8s.io/v1alpha3': 'v1alpha3', 'cluster.x-k8s.io/v1alpha4': 'v1alpha4', 'cluster.x-k8s.io/v1beta1': 'v1beta1_v1beta2' };
    case 'capz':
    case 'byoh':
      return { 'cluster.x-k8s.io/v1beta1': 'v1beta1' };
    case 'rke2':
      return { 'cluster.x-k8s.io/v1beta2': 'v1beta1_v1beta2' };
    case 'k3s':
      return { 'cluster.x-k8s.io/v1beta1': 'v1beta1_v1beta2', 'clusterctl.cluster.x-k8s.io': '' };
    case 'capibm':
      // `labels[].pairs` on every CRD plus the inline patch on the `ibmpowervs.*` CRDs (all of them here).
      return { 'cluster.x-k8s.io/v1beta1': 'v1beta2', 'cluster.x-k8s.io/v1beta2': 'v1beta3' };
    default:
      return BOTH;
  }
}

/** Every fixture CRD, labelled as installed, in a stable order (folder, then file). */
export function loadFixtureCrds(): JsonObject[] {
  const out: JsonObject[] = [];
  for (const folder of readdirSync(CRD_DIR).sort()) {
    const dir = join(CRD_DIR, folder);
    if (folder.endsWith('.md')) continue;
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort()) {
      const docs = YAML.parseAllDocuments(readFileSync(join(dir, file), 'utf8')).map((d) => d.toJS() as JsonObject).filter((d) => d && typeof d === 'object');
      for (const crd of docs) {
        const meta = crd.metadata as JsonObject;
        meta.labels = { ...(meta.labels as Record<string, string> | undefined), ...installLabels(folder, file) };
        out.push(crd);
      }
    }
  }
  return out;
}
