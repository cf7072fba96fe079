/** Field paths of recorded origins: segments (list items as numbers) ↔ `spec.a[0]['x.y/z']` text. */
export type Seg = string | number;
export type Path = readonly Seg[];

const PLAIN_KEY = /^[^.[\]'\s]+$/;

/** Appends segments to a dotted path. */
export function joinPath(base: string, segs: Path): string {
  let out = base;
  for (const s of segs) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (PLAIN_KEY.test(s)) out += out === '' ? s : `.${s}`;
    else out += `['${s}']`;
  }
  return out;
}

export const formatPath = (segs: Path): string => joinPath('', segs);
