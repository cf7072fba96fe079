// The cold-start floor: bench/floor.mjs on the one-Cluster input as a whole process, loaded the
// way bin/render-clusterclass loads the renderer (the bin's own text pointed at an esbuild bundle
// of the floor, with a V8 code cache made by one run and the bin's V8 flags). What it costs over
// `node -e 0` is what reading and writing the ResourceList with the `yaml` package costs on a cold
// VM, whatever renders it: no renderer built on that package starts faster.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = join(here, '..', 'bin', 'render-clusterclass');
const BUNDLE_LINE = "const file = join(__dirname, '..', 'dist', 'render-clusterclass.cjs');";

/**
 * Prepares the floor for INPUT (whose render is RENDERED) in WORK; returns the argv that runs it
 * with INPUT on stdin.
 */
export async function coldFloorCommand(work, input, rendered) {
  const pre = join(work, 'cold-floor.json');
  writeFileSync(
    pre,
    execFileSync(process.execPath, [join(here, 'floor.mjs'), '--prepare', input, rendered], { maxBuffer: 1 << 30 }),
  );
  const entry = join(work, 'cold-floor-entry.mjs');
  writeFileSync(
    entry,
    `import { readFileSync } from 'node:fs';
import { floor } from ${JSON.stringify(join(here, 'floor.mjs'))};
export function main([pre]) {
  process.stdout.write(floor(readFileSync(0, 'utf8'), JSON.parse(readFileSync(pre, 'utf8'))).text);
}
export function internalError(error) {
  process.stderr.write(\`\${error}\\n\`);
  process.exitCode = 2;
}
`,
  );
  const bundle = join(work, 'cold-floor.cjs');
  await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: bundle,
    logLevel: 'error',
  });
  const binText = readFileSync(BIN, 'utf8');
  if (!binText.includes(BUNDLE_LINE)) throw new Error(`${BIN} no longer names its bundle as the cold floor expects`);
  const loader = join(work, 'cold-floor-bin.cjs');
  writeFileSync(loader, binText.replace(BUNDLE_LINE, `const file = ${JSON.stringify(bundle)};`));
  const argv = [process.execPath, loader, pre];
  execFileSync(argv[0], argv.slice(1), {
    input: readFileSync(input),
    env: { ...process.env, RENDER_CLUSTERCLASS_WRITE_CODE_CACHE: '1' },
    stdio: ['pipe', 'ignore', 'inherit'],
  });
  return argv;
}
