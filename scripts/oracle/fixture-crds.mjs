// The real CRDs in ../shared/fixtures/crds/ carry no contract labels; kustomize adds them at
// install time (the fixture README, "Contract labels"). A harness standing in for the API server
// adds the same ones.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

export const CRD_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/fixtures/crds');

const BOTH = { 'cluster.x-k8s.io/v1beta1': 'v1beta1', 'cluster.x-k8s.io/v1beta2': 'v1beta2' };

/** The labels a provider's kustomization gives the CRD `file` of folder `folder` at install time. */
export function installLabels(folder, file) {
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

/** Every fixture CRD file, labelled as installed: [folder, file, crd objects], in a stable order. */
export function labelledFixtureCrds() {
  const out = [];
  for (const folder of readdirSync(CRD_DIR).sort()) {
    if (folder.endsWith('.md')) continue;
    for (const file of readdirSync(join(CRD_DIR, folder)).filter((f) => f.endsWith('.yaml')).sort()) {
      const crds = YAML.parseAllDocuments(readFileSync(join(CRD_DIR, folder, file), 'utf8'))
        .map((d) => d.toJS())
        .filter((d) => d && typeof d === 'object');
      for (const crd of crds) crd.metadata.labels = { ...crd.metadata.labels, ...installLabels(folder, file) };
      out.push([folder, file, crds]);
    }
  }
  return out;
}

/**
 * Writes the labelled provider CRDs to `dir` for a differential run. CAPI's own kinds
 * (cluster.x-k8s.io_*) are left out: the oracle judges them with the CRDs of the version under
 * test, and the product with what it knows of CAPI, as users run it.
 */
export function writeProviderCrds(dir) {
  mkdirSync(dir, { recursive: true });
  for (const [folder, file, crds] of labelledFixtureCrds()) {
    if (folder === 'capi' && file.startsWith('cluster.x-k8s.io_')) continue;
    writeFileSync(join(dir, `${folder}_${file}`), crds.map((c) => YAML.stringify(c)).join('---\n'));
  }
  return dir;
}
