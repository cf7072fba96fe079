/**
 * `plan --format sarif`: the files plan read, as SARIF names them — URIs relative to the
 * repository root (`SRCROOT`: the git work tree plan runs in, else the working directory), lines
 * and columns of the fields and results its findings point at.
 */
import { execFileSync } from 'node:child_process';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RenderConfig } from '../krm/config.js';
import type { PipelineExtras } from '../pipeline/types.js';
import { planCauses } from '../plan/causes.js';
import type { Plan, PlanSide } from '../plan/plan.js';
import type { ArtifactPlace, SarifInputs } from '../plan/sarif.js';
import { TOOL_VERSION } from './commands.js';
import type { InputFile } from './inputs.js';
import { positions, type Position } from './locate.js';
import { withFiles } from '../pipeline/results.js';

/** The top of the git work tree around the working directory, else the working directory. */
function repositoryRoot(): string {
  try {
    return execFileSync('git', ['rev-parse', '--show-toplevel'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return process.cwd();
  }
}

/** A file's URI: relative to `root` (percent-encoded segments), or absolute when it lies outside. */
function placeAt(root: string, p: Position | undefined): ArtifactPlace | undefined {
  if (!p || p.path === '<stdin>') return undefined;
  const rel = relative(root, resolve(p.path));
  const outside = rel === '' || rel.startsWith('..') || isAbsolute(rel);
  const place: ArtifactPlace = outside
    ? { uri: pathToFileURL(resolve(p.path)).href, base: false }
    : { uri: rel.split(sep).map(encodeURIComponent).join('/'), base: true };
  if (p.line !== undefined) place.line = p.line;
  if (p.column !== undefined) place.column = p.column;
  return place;
}

/** What `formatSarif` needs: the causes of the plan's findings and where they are written. */
export function sarifInputs(
  plan: Plan,
  base: PlanSide,
  head: PlanSide & { files: readonly InputFile[] },
  config: RenderConfig,
  extras: PipelineExtras,
): SarifInputs {
  const traced = new Set(plan.clusters.filter((c) => c.rollouts.length > 0).map((c) => c.cluster));
  const causes = planCauses(head, base, config, extras, traced);
  const root = repositoryRoot();
  const at = positions(head.files);
  return {
    causes,
    placeOf: (f) => placeAt(root, at.ofField(f.item, f.path)),
    // Update rules name their object without its file: found as the pipeline finds it for its own results.
    placeOfResult: (r) => placeAt(root, at.ofResult(withFiles([r], head.items, config.defaultNamespace)[0] ?? r)),
    toolVersion: TOOL_VERSION,
  };
}
