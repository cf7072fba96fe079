import { renderTemplate } from '../../src/gotemplate/index.js';

/** The output of rendering template `t` against `d`; throws with the engine's error otherwise. */
export const out = (t: string, d: unknown = {}): string => {
  const r = renderTemplate(t, d as never);
  if (!r.ok) throw new Error(r.error);
  return (r as { output: string }).output;
};
