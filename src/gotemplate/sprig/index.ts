/** sprig's HermeticTxtFuncMap (v3), as far as a deterministic offline renderer can provide it. */
import type { GoFunc } from '../values.js';
import { collectionFuncs } from './collections.js';
import { dateFuncs } from './dates.js';
import { encodingFuncs } from './encoding.js';
import { miscFuncs } from './misc.js';
import { numericFuncs } from './numeric.js';
import { regexFuncs } from './regex.js';
import { semverFuncs } from './semver.js';
import { stringFuncs } from './strings.js';

let all: GoFunc[] | undefined;

export function sprigFuncs(): GoFunc[] {
  all ??= [
    ...stringFuncs(),
    ...collectionFuncs(),
    ...numericFuncs(),
    ...encodingFuncs(),
    ...regexFuncs(),
    ...semverFuncs(),
    ...dateFuncs(),
    ...miscFuncs(),
  ];
  return all;
}

/** Functions that mutate their map arguments in place (data must be copied before evaluation). */
export const MUTATING_FUNCS: ReadonlySet<string> = new Set([
  'set',
  'unset',
  'merge',
  'mergeOverwrite',
  'mustMerge',
  'mustMergeOverwrite',
]);
