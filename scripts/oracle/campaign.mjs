// The generated differential campaign: seeded cases (generate.mjs) rendered by the product's CLI
// and answered by the CAPI oracle of one version, in batches (each case in its own namespace, so
// one render and one oracle run cover a batch), compared by compare.mjs. A case with differences
// is run again on its own, so that what is reported is the case's own behaviour and the case's
// files are its minimal reproduction.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { askOracle, compareAnswers, renderWithProduct } from './compare.mjs';
import { classify } from './divergences.mjs';
import { generateCase, generatedCrds, streamOf } from './generate.mjs';

/** The namespace (= case) a difference is about. */
export const caseNamespace = (difference) => /\s(c\d+)\//.exec(` ${difference.subject}`)?.[1];

/** Writes a set of cases as the files both programs read: inputs, previous state, CRDs. */
export function writeCases(dir, cases) {
  mkdirSync(join(dir, 'previous'), { recursive: true });
  writeFileSync(join(dir, 'crds.yaml'), generatedCrds().map((c) => YAML.stringify(c)).join('---\n'));
  writeFileSync(join(dir, 'input.yaml'), streamOf(cases.flatMap((c) => c.objects)));
  const previous = cases.flatMap((c) => c.previous);
  if (previous.length) writeFileSync(join(dir, 'previous', 'previous.yaml'), streamOf(previous));
  return { paths: [join(dir, 'input.yaml')], crds: join(dir, 'crds.yaml'), previous: previous.length ? join(dir, 'previous') : undefined };
}

/** Runs the oracle on cases written by writeCases (the oracle reads the previous file itself). */
function oracleOn(minor, files) {
  return askOracle(minor, { ...files, previous: files.previous && join(files.previous, 'previous.yaml') });
}

/** The commands that reproduce one case's comparison from its directory. */
export function reproduction(dir, minor) {
  // writeCases writes a previous file only for cases with a previous state; the oracle needs it to exist.
  const previous = existsSync(join(dir, 'previous', 'previous.yaml')) ? ` -previous ${dir}/previous/previous.yaml` : '';
  return [
    `bin/render-clusterclass render ${dir}/input.yaml --crds ${dir}/crds.yaml --previous ${dir}/previous --format resourcelist --set outputApiVersion=v1beta2 --capi-version ${minor.replace(/^v/, '')}`,
    `.cache/capi-oracle/${minor}/capi-oracle -capi-crds .cache/capi-oracle/${minor}/crds -crds ${dir}/crds.yaml${previous} ${dir}/input.yaml`,
  ];
}

/**
 * Runs cases `from` .. `from + count - 1` of `seed` against the oracle of `minor` (or against
 * recorded answers: `answers(batchIndexes) → answer`). Returns counts and, per case with
 * differences, the case and its classified differences.
 */
export function runCampaign({ minor, seed, from = 0, count, batch = 50, answers, keep, onBatch = () => {} }) {
  const work = mkdtempSync(join(tmpdir(), 'capi-campaign-'));
  const totals = { cases: 0, broken: 0, updates: 0, clusters: 0, objects: 0, renderedObjects: 0, differences: 0 };
  const byKind = {};
  const byDivergence = {};
  const failing = [];
  try {
    for (let start = from; start < from + count; start += batch) {
      const cases = [];
      for (let i = start; i < Math.min(start + batch, from + count); i++) cases.push(generateCase(seed, i));
      const dir = join(work, `batch-${start}`);
      const files = writeCases(dir, cases);
      const answer = answers ? answers(cases.map((c) => c.index)) : oracleOn(minor, files);
      const { counts, differences } = compareAnswers(answer, renderWithProduct(minor, files));
      totals.cases += cases.length;
      totals.broken += cases.filter((c) => c.broken).length;
      totals.updates += cases.filter((c) => c.previous.length).length;
      totals.clusters += counts.clusters;
      totals.objects += counts.objects;
      totals.renderedObjects += counts.renderedObjects;
      const suspects = new Set(differences.map(caseNamespace));
      for (const c of cases.filter((x) => suspects.has(x.namespace))) {
        const own = join(keep ?? work, `case-${seed}-${c.index}`);
        const ownFiles = writeCases(own, [c]);
        let ownDiffs = differences.filter((d) => caseNamespace(d) === c.namespace);
        // A difference no known divergence explains is confirmed alone (a clean reproduction, and
        // proof the batch did not cause it); recorded answers are the batch's.
        if (!answers && ownDiffs.some((d) => classify(d, { minor, case: c, siblings: ownDiffs }) === 'new')) {
          ownDiffs = compareAnswers(oracleOn(minor, ownFiles), renderWithProduct(minor, ownFiles)).differences.filter((d) => caseNamespace(d) === c.namespace);
        }
        if (ownDiffs.length === 0) continue;
        const classified = ownDiffs.map((d) => ({ ...d, divergence: classify(d, { minor, case: c, siblings: ownDiffs }) }));
        for (const d of classified) {
          byKind[d.kind] = (byKind[d.kind] ?? 0) + 1;
          byDivergence[d.divergence] = (byDivergence[d.divergence] ?? 0) + 1;
        }
        totals.differences += classified.length;
        failing.push({ index: c.index, broken: c.broken, features: c.features, directory: keep ? own : undefined, differences: classified });
      }
      onBatch({ done: totals.cases, totals });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return { totals, byKind, byDivergence, failing };
}
