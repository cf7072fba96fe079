#!/usr/bin/env node
// Builds the template oracle (oracle/gotmpl: Go text/template + sprig the way Cluster API calls them)
// into .cache/gotmpl-oracle, with the Go toolchain named by the `toolchain` line of
// oracle/gotmpl/go.mod and the module versions of oracle/gotmpl/go.sum: the Go and sprig that the
// default CAPI minor is built with, so the goldens of test/golden/gotemplate/ and the isPrint table
// of src/gotemplate/unicode-print.ts come from exactly that. Only the Go source is committed.
//
// Usage (npm run oracle:gotmpl -- ...):
//   node scripts/oracle/build-gotmpl.mjs            build .cache/gotmpl-oracle
//   node scripts/oracle/build-gotmpl.mjs --if-go    the same, or a SKIPPED line without Go (npm test)
//   node scripts/oracle/build-gotmpl.mjs --capi v1.13
//       build it as another CAPI minor builds sprig (its module versions and Go release, unpinned)
//       into .cache/gotmpl-oracle-v1.13, to compare with the goldens:
//       node scripts/gotemplate/generate-goldens.mjs --check --oracle .cache/gotmpl-oracle-v1.13
//   node scripts/oracle/build-gotmpl.mjs --pin
//       re-pin go.mod/go.sum to the default CAPI minor: its module versions
//       (oracle/capi/modules/<minor>.mod) and the Go release its Makefile builds with (GO_VERSION)
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_VERSION, capiGo, oracleSourceDir as capiSourceDir, pinnedRelease } from './capi-versions.mjs';
import { gotmplOracle, gotmplSourceDir, pinnedToolchain, root } from './gotmpl-oracle.mjs';

const { values: options } = parseArgs({
  options: {
    'if-go': { type: 'boolean', default: false },
    capi: { type: 'string' },
    pin: { type: 'boolean', default: false },
  },
});

function go(goArgs, { cwd, toolchain }) {
  // GOTOOLCHAIN names one exact release: the go command fetches it from the module proxy if needed.
  const env = { ...process.env, GOTOOLCHAIN: toolchain, CGO_ENABLED: '0' };
  return execFileSync('go', goArgs, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
}

/**
 * A module directory for the oracle as CAPI `minor` builds sprig: its go.mod (from
 * oracle/capi/modules/<minor>.mod) tidied down to what sprig needs, keeping CAPI's versions, CAPI's
 * go line, and a toolchain line naming the Go release CAPI's Makefile builds with (GO_VERSION).
 */
function moduleAs(minor, work) {
  const release = pinnedRelease(minor);
  const capiDir = JSON.parse(go(['mod', 'download', '-json', `sigs.k8s.io/cluster-api@${release}`], { cwd: root, toolchain: 'local' })).Dir;
  const { goDirective, goVersion } = capiGo(capiDir, release);
  copyFileSync(join(gotmplSourceDir, 'main.go'), join(work, 'main.go'));
  const capiMod = readFileSync(join(capiSourceDir, 'modules', `${minor}.mod`), 'utf8');
  writeFileSync(join(work, 'go.mod'), capiMod
    .replace(/^module .*$/m, `// Pinned by scripts/oracle/build-gotmpl.mjs --pin from sigs.k8s.io/cluster-api ${release}:\n// its module versions and the Go release its Makefile builds with.\nmodule render-clusterclass.dev/oracle/gotmpl`)
    // CAPI's own go line: it sets the GODEBUG defaults (Go 1.26's urlstrictcolons changes urlParse).
    .replace(/^go .*$/m, `go ${goDirective}\n\ntoolchain go${goVersion}`));
  copyFileSync(join(capiSourceDir, 'modules', `${minor}.sum`), join(work, 'go.sum'));
  go(['mod', 'tidy'], { cwd: work, toolchain: `go${goVersion}` });
  return `sigs.k8s.io/cluster-api ${release} (go${goVersion})`;
}

function build(dir, out) {
  mkdirSync(join(root, '.cache'), { recursive: true });
  go(['build', '-trimpath', '-o', out, '.'], { cwd: dir, toolchain: pinnedToolchain(dir) });
  const info = JSON.parse(execFileSync(out, ['-version'], { encoding: 'utf8' }));
  console.log(`gotmpl-oracle: ${info.go} (Unicode ${info.unicode}), sprig ${info.modules['github.com/Masterminds/sprig/v3']} -> ${out}`);
}

if (spawnSync('go', ['version'], { stdio: 'ignore' }).status !== 0) {
  const message = 'Go is not installed: the template oracle was not built (the goldens still run)';
  if (options['if-go']) {
    console.warn(`SKIPPED: ${message}`);
    process.exit(0);
  }
  console.error(`build-gotmpl: ${message}`);
  process.exit(1);
}
const work = options.pin || options.capi ? mkdtempSync(join(tmpdir(), 'gotmpl-oracle-')) : undefined;
try {
  if (options.capi) {
    console.log(`as ${moduleAs(options.capi, work)}`);
    build(work, `${gotmplOracle}-${options.capi}`);
  } else {
    if (options.pin) {
      const from = moduleAs(DEFAULT_VERSION, work);
      for (const f of ['go.mod', 'go.sum']) copyFileSync(join(work, f), join(gotmplSourceDir, f));
      console.log(`pinned oracle/gotmpl to ${from}`);
    }
    build(gotmplSourceDir, gotmplOracle);
  }
} catch (e) {
  console.error(`build-gotmpl: ${e.message}`);
  process.exitCode = 1;
} finally {
  if (work) rmSync(work, { recursive: true, force: true });
}
