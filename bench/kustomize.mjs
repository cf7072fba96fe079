#!/usr/bin/env node
// kustomize at fleet size: a repository of N Clusters (bench/fleet.mjs) with a kustomization that
// runs the renderer as its exec transformer plugin (examples/kustomize), timed through the real
// `kubectl kustomize --enable-alpha-plugins`, against `render DIR -o OUT` of the same files and
// against plain `kubectl kustomize` of OUT (the rendered files listed as resources: kustomize with
// no plugin at all). Reports wall time, CPU time (user+system of the process tree), the number of
// objects kustomize handles, and the growth exponent between the smallest and the largest size
// (t ∝ n^k). kustomize's cost is its own: after a transformer plugin it matches every output
// object against every input object (UpdateResMapValues in sigs.k8s.io/kustomize/api
// internal/plugins/utils), and every resource it adds is checked against all it holds, so it
// grows with the square of the objects whichever way they reach it (README "kustomize").
//
//   node bench/kustomize.mjs [--plugin N,...] [--rendered N,...] [--render N,...]
//       (defaults: plugin 100,200,300; rendered 200,1000; `render -o` alone 2000; each size also
//       times `render -o`; BENCH_KEEP=1 keeps the repositories). The config sets
//       kustomizeMaxObjects: 0, so the plugin hands kustomize every object: this measures kustomize.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { CLASS_FILE, clusterName, clusterObject } from './fleet.mjs';
import { timed } from './kpt.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const bin = join(root, 'bin', 'render-clusterclass');
/** The plugin of examples/kustomize, for KUSTOMIZE_PLUGIN_HOME. */
export const pluginHome = join(root, 'examples', 'kustomize', 'plugins');
const RENDER_CONFIG =
  'apiVersion: fn.render-clusterclass.dev/v1alpha1\nkind: RenderClusterClass\nmetadata:\n  name: render\n  annotations:\n    config.kubernetes.io/local-config: "true"\nspec:\n  mode: expand\n  keepClassInputs: false\n';

/**
 * A repository with the fleet's class, N Cluster files and a kustomization running the plugin;
 * `spec` adds fields to its transformer config (test/e2e/kustomize.test.ts uses it too).
 */
export function writeRepository(dir, n, spec = {}) {
  mkdirSync(join(dir, 'clusters'), { recursive: true });
  writeFileSync(join(dir, 'clusterclass.yaml'), readFileSync(CLASS_FILE));
  const files = ['clusterclass.yaml'];
  for (let i = 0; i < n; i++) {
    const file = `clusters/${clusterName(i)}.yaml`;
    writeFileSync(join(dir, file), YAML.stringify(clusterObject(i), { lineWidth: 0 }));
    files.push(file);
  }
  writeFileSync(
    join(dir, 'render.yaml'),
    `${RENDER_CONFIG}${Object.entries(spec)
      .map(([k, v]) => `  ${k}: ${v}\n`)
      .join('')}`,
  );
  writeFileSync(join(dir, 'kustomization.yaml'), YAML.stringify({ resources: files, transformers: ['render.yaml'] }));
}

/** Every YAML file under dir, relative to it, sorted. */
function yamlFiles(dir, at = dir) {
  return readdirSync(at, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory()
        ? yamlFiles(dir, join(at, e.name))
        : e.name.endsWith('.yaml')
          ? [relative(dir, join(at, e.name))]
          : [],
    )
    .sort();
}

const countObjects = (file) => readFileSync(file, 'utf8').split(/^kind: /m).length - 1;

export function kustomizeBench(
  { plugin = [100, 200, 300], rendered = [200, 1000], render = [2000] } = {},
  log = (s) => process.stderr.write(`[kustomize bench] ${s}\n`),
) {
  if (!existsSync('/usr/bin/time') || spawnSync('kubectl', ['version', '--client']).status !== 0) {
    return { rows: [], notes: ['kubectl or /usr/bin/time missing: kustomize bench skipped'] };
  }
  const work = mkdtempSync(join(tmpdir(), 'rcc-kustomize-bench-'));
  const env = { ...process.env, KUSTOMIZE_PLUGIN_HOME: pluginHome };
  const rows = [];
  try {
    for (const n of [...new Set([...plugin, ...rendered, ...render])].sort((a, b) => a - b)) {
      const repo = join(work, `repo-${n}`);
      const out = join(work, `out-${n}`);
      writeRepository(repo, n, { kustomizeMaxObjects: 0 });
      const row = { n, render: timed([process.execPath, bin, 'render', repo, '-o', out]) };
      log(`${n}: render -o ${row.render.wall} s, cpu ${row.render.cpu.toFixed(1)} s`);
      if (plugin.includes(n)) {
        const file = join(work, `plugin-${n}.yaml`);
        row.plugin = timed(['kubectl', 'kustomize', '--enable-alpha-plugins', repo], { stdout: file, env });
        row.objects = countObjects(file);
        log(
          `${n}: kubectl kustomize with the plugin ${row.plugin.wall} s, cpu ${row.plugin.cpu.toFixed(1)} s, ${row.objects} objects`,
        );
      }
      if (rendered.includes(n)) {
        writeFileSync(
          join(out, 'kustomization.yaml'),
          YAML.stringify({ resources: yamlFiles(out).filter((f) => f !== 'kustomization.yaml') }),
        );
        const file = join(work, `rendered-${n}.yaml`);
        row.rendered = timed(['kubectl', 'kustomize', out], { stdout: file });
        row.objects = countObjects(file);
        log(
          `${n}: kubectl kustomize of the rendered files ${row.rendered.wall} s, cpu ${row.rendered.cpu.toFixed(1)} s, ${row.objects} objects`,
        );
      }
      rows.push(row);
    }
  } finally {
    if (process.env.BENCH_KEEP === '1') log(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
  return { rows, notes: [] };
}

/** t ∝ n^k between the first and last row that measured `key`. */
function exponent(rows, key) {
  const measured = rows.filter((r) => r[key]);
  if (measured.length < 2) return undefined;
  const [a, b] = [measured[0], measured.at(-1)];
  return Math.log(b[key].cpu / a[key].cpu) / Math.log(b.n / a.n);
}

export function kustomizeReport({ rows, notes }) {
  const cell = (m) => (m ? `${m.wall.toFixed(1)} s (cpu ${m.cpu.toFixed(1)} s)` : '—');
  const lines = [
    '',
    'kustomize at fleet size (wall, cpu = user+system)',
    '| Clusters | objects | render -o | kubectl kustomize, exec plugin | kubectl kustomize of rendered files |',
    '| ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) => `| ${r.n} | ${r.objects ?? '—'} | ${cell(r.render)} | ${cell(r.plugin)} | ${cell(r.rendered)} |`,
    ),
    ...notes,
  ];
  const k = (key) => exponent(rows, key)?.toFixed(2) ?? 'n/a';
  const largestPlugin = rows.filter((r) => r.plugin).at(-1);
  const ratio = largestPlugin ? (largestPlugin.plugin.cpu / largestPlugin.render.cpu).toFixed(1) : 'n/a';
  return {
    lines,
    summary: `kustomize-plugin-exponent=${k('plugin')} kustomize-rendered-exponent=${k('rendered')} kustomize-plugin-vs-render=${ratio}`,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const sizes = (flag, fallback) => {
    const at = process.argv.indexOf(flag);
    return at < 0 ? fallback : process.argv[at + 1].split(',').filter(Boolean).map(Number);
  };
  const report = kustomizeReport(
    kustomizeBench({
      plugin: sizes('--plugin', [100, 200, 300]),
      rendered: sizes('--rendered', [200, 1000]),
      render: sizes('--render', [2000]),
    }),
  );
  process.stdout.write(`${[...report.lines, '', report.summary].join('\n')}\n`);
}
