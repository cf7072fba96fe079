// Builds the single-file CLI the bin runs, and a V8 code cache for it. Start-up is most of the
// cost of a one-Cluster render (kpt runs the function once per package), and module resolution
// plus compilation dominate it: one bundle removes the resolution, the code cache the compilation.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fleetResourceList } from '../bench/fleet.mjs';
import { lazyBuiltins } from './lazy-builtins.mjs';
import { lazyCel } from './lazy-cel.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = join(root, 'dist', 'render-clusterclass.cjs');

// The renderer's build: a digest of its sources and locked dependencies (src/cli/build.ts). A kpt
// re-render reuses earlier objects only when the same build rendered them.
const sourceDigest = createHash('sha256');
const sources = readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile())
  .map((e) => join(e.parentPath, e.name))
  .sort();
for (const file of [...sources, join(root, 'package-lock.json')])
  sourceDigest.update(`${relative(root, file)}\n`).update(readFileSync(file));

await build({
  plugins: [lazyCel(root), lazyBuiltins(root)],
  entryPoints: [join(root, 'src', 'cli', 'main.ts')],
  bundle: true,
  minify: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outfile,
  logLevel: 'warning',
  define: { __RENDER_CLUSTERCLASS_BUILD__: JSON.stringify(sourceDigest.digest('hex').slice(0, 16)) },
});

// The bin reads the bundle as Latin-1, which V8 keeps as a one-byte string without decoding: one
// non-ASCII character would make it decode all 1.3 MB of UTF-8 into a two-byte string, ~3% of a
// one-Cluster run. esbuild escapes strings, not regular expressions: write \u00b5 there.
const bundled = readFileSync(outfile, 'latin1');
const nonAscii = /[^\x00-\x7f]/.exec(bundled);
if (nonAscii) {
  const line = bundled.slice(0, nonAscii.index).split('\n').length;
  throw new Error(`${relative(root, outfile)}:${line}: a character outside ASCII; escape it in the source`);
}

// Warm the code cache with representative runs, so that it holds the bytecode of every function a
// run executes, not only the top level: a render of the bundled example (the file-reading path),
// then the KRM function on a one-Cluster ResourceList of the bench's class (14 variables, 19
// patches: the schema keywords, patch kinds and template functions a real class uses, and the
// ResourceList reader and writer). The second run starts from the first run's cache and writes
// it back with what it compiled on top; a function neither run executed is compiled on first use.
rmSync(`${outfile}.cache`, { force: true });
const warm = (args, input) =>
  execFileSync(process.execPath, [join(root, 'bin', 'render-clusterclass'), ...args], {
    env: { ...process.env, RENDER_CLUSTERCLASS_WRITE_CODE_CACHE: '1' },
    input,
    stdio: ['pipe', 'ignore', 'inherit'],
  });
warm(['render', join(root, 'examples', 'basic')], '');
warm([], fleetResourceList(1));
