/**
 * Which renderer this is: a digest of its sources that scripts/bundle.mjs writes into the bundle
 * the bin runs. A kpt re-render reuses earlier objects only when they were rendered by the same
 * build (pipeline/reuse.ts); code run unbundled (tests, dist/) has none and reuses nothing.
 */
declare const __RENDER_CLUSTERCLASS_BUILD__: string | undefined;

export const RENDERER_BUILD: string | undefined =
  typeof __RENDER_CLUSTERCLASS_BUILD__ === 'string' ? __RENDER_CLUSTERCLASS_BUILD__ : undefined;
