// Used by scripts/bundle.mjs, and by test/cli/bundle.test.ts to build the bundle it checks.
import { createRequire } from 'node:module';

/**
 * Node built-in modules a one-Cluster KRM run needs late or not at all: the file reader and
 * writer of `render`/`convert` (fs/promises), `--base` (child_process, os), extensions
 * (worker_threads), hashing and the deflated outputs of a fleet (crypto, zlib). Node compiles a
 * built-in, and the internal modules it needs, when it is first required: a few milliseconds
 * each, for every run that never calls them if they are required at the top of the bundle.
 */
export const LAZY_BUILTINS = [
  'node:child_process',
  'node:crypto',
  'node:fs/promises',
  'node:os',
  'node:worker_threads',
  'node:zlib',
];

/**
 * A module with the built-in's functions (its classes included), each requiring the built-in on
 * its first call: the bundle's imports of it are bound to these. Importing a name that is not a
 * function (a constant such as `os.EOL`) fails the build: it would need the module at load.
 */
function proxy(id) {
  const exports = Object.entries(createRequire(import.meta.url)(id)).filter(([, v]) => typeof v === 'function');
  const lines = [`let m;`, `const load = () => (m ??= require(${JSON.stringify(id)}));`];
  for (const [name] of exports)
    lines.push(
      `export function ${name}(...a) { return new.target ? Reflect.construct(load().${name}, a) : load().${name}(...a); }`,
    );
  return `${lines.join('\n')}\n`;
}

/** The esbuild plugin that binds the imports of those built-ins in the sources under `root` to the proxies. */
export const lazyBuiltins = (root) => ({
  name: 'lazy-builtins',
  setup(b) {
    const filter = new RegExp(`^(${LAZY_BUILTINS.map((id) => id.replace('/', '\\/')).join('|')})$`);
    b.onResolve({ filter, namespace: 'file' }, ({ path, importer }) =>
      importer.startsWith(`${root}/src/`) ? { path, namespace: 'lazy-builtin' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, ({ path }) => ({ contents: proxy(path), loader: 'js' }));
  },
});
