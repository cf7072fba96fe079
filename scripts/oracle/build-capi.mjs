#!/usr/bin/env node
// Builds the CAPI oracle (oracle/capi) once per supported Cluster API version, into
// .cache/capi-oracle/<minor>/: the binary `capi-oracle`, CAPI's own core CRDs copied from the
// downloaded module (`crds/`), and `build.json` (CAPI version, module versions, Go version, build
// seconds). Nothing of CAPI's is committed: the module comes from the Go module proxy at build time.
// Each minor is built as CAPI builds that release: modules/<minor>.mod carries CAPI's own `go` line
// (it sets the GODEBUG defaults) and a `toolchain` line naming the Go release of CAPI's Makefile
// (GO_VERSION); the go command fetches exactly that release (GOTOOLCHAIN), or the build fails.
//
// Usage (npm run oracle:capi -- ...):
//   node scripts/oracle/build-capi.mjs                  every supported version (oracle/capi/modules/*.mod)
//   node scripts/oracle/build-capi.mjs --version v1.14  one minor (repeatable)
//   node scripts/oracle/build-capi.mjs --default --if-go  the default version, or a SKIPPED line without Go (npm test)
//   node scripts/oracle/build-capi.mjs --cold           measure a cold build: empty temporary GOMODCACHE and GOCACHE
//   node scripts/oracle/build-capi.mjs --pin v1.15.0-beta.0  (re)pin a minor to a CAPI release: writes
//       oracle/capi/modules/<minor>.mod (with that release's go line and Go release) and .sum with
//       `go mod tidy`, then builds it
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_VERSION, capiGo, oracleDir, oracleSourceDir, supportedVersions, toolchainOf } from './capi-versions.mjs';

const { values: options } = parseArgs({
  options: {
    version: { type: 'string', multiple: true, default: [] },
    pin: { type: 'string', multiple: true, default: [] },
    default: { type: 'boolean', default: false },
    'if-go': { type: 'boolean', default: false },
    cold: { type: 'boolean', default: false },
  },
});

// The core CRDs of CAPI's own kinds the oracle validates against: where each release keeps them.
const CRD_DIRS = ['core/config/crd/bases', 'config/crd/bases'];
const CRD_FILES = ['clusterclasses', 'clusters', 'machinedeployments', 'machinepools', 'machinehealthchecks'].map((r) => `cluster.x-k8s.io_${r}.yaml`);

function goAvailable() {
  return spawnSync('go', ['version'], { stdio: 'ignore' }).status === 0;
}

// GOTOOLCHAIN names one exact release: the go command fetches it from the module proxy, or fails.
function go(goArgs, { cwd = oracleSourceDir, env = process.env, toolchain }) {
  return execFileSync('go', goArgs, { cwd, env: { ...env, GOTOOLCHAIN: toolchain }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024 });
}

const modulesFile = (minor) => join(oracleSourceDir, 'modules', `${minor}.mod`);

/** The build tag of a minor: the per-version files (compat_*.go) select on it. */
const buildTag = (minor) => `capi_${minor.replaceAll('.', '_')}`;

/** Pins `minor` to CAPI release `pin`: a go.mod/go.sum pair computed by `go mod tidy` in a scratch copy. */
function pinVersion(pin, env) {
  const minor = pin.split('.').slice(0, 2).join('.');
  const work = mkdtempSync(join(tmpdir(), 'capi-oracle-pin-'));
  try {
    // The Go files this minor builds (go mod tidy ignores build tags, so it gets only these).
    const newest = supportedVersions().at(-1) ?? DEFAULT_VERSION;
    const files = go(['list', `-modfile=modules/${newest}.mod`, '-tags', buildTag(minor), '-f', '{{join .GoFiles "\\n"}}', '.'], { env, toolchain: toolchainOf(modulesFile(newest)) }).trim().split('\n');
    for (const f of files) copyFileSync(join(oracleSourceDir, f), join(work, f));
    writeFileSync(join(work, 'go.mod'), `module render-clusterclass.dev/oracle/capi\n\ngo 1.26.0\n`);
    go(['get', `sigs.k8s.io/cluster-api@${pin}`], { cwd: work, env, toolchain: 'local' });
    const capiDir = go(['list', '-m', '-f', '{{.Dir}}', 'sigs.k8s.io/cluster-api'], { cwd: work, env, toolchain: 'local' }).trim();
    const { goDirective, goVersion } = capiGo(capiDir, pin);
    go(['mod', 'edit', `-go=${goDirective}`, `-toolchain=go${goVersion}`], { cwd: work, env, toolchain: 'local' });
    go(['mod', 'tidy'], { cwd: work, env, toolchain: `go${goVersion}` });
    copyFileSync(join(work, 'go.mod'), join(oracleSourceDir, 'modules', `${minor}.mod`));
    copyFileSync(join(work, 'go.sum'), join(oracleSourceDir, 'modules', `${minor}.sum`));
    console.log(`pinned ${minor} to sigs.k8s.io/cluster-api ${pin} (oracle/capi/modules/${minor}.mod)`);
    return minor;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function build(minor, env) {
  const started = process.hrtime.bigint();
  const out = oracleDir(minor);
  mkdirSync(join(out, 'crds'), { recursive: true });
  const modfile = `-modfile=modules/${minor}.mod`;
  const toolchain = toolchainOf(modulesFile(minor));
  try {
    go(['build', modfile, '-tags', buildTag(minor), '-trimpath', '-o', join(out, 'capi-oracle'), '.'], { env, toolchain });
  } catch {
    throw new Error(`${minor}: the build with ${toolchain} (the toolchain line of oracle/capi/modules/${minor}.mod) failed; see the go command's message above`);
  }
  const moduleDir = go(['list', modfile, '-m', '-f', '{{.Dir}}', 'sigs.k8s.io/cluster-api'], { env, toolchain }).trim();
  const crdDir = CRD_DIRS.map((d) => join(moduleDir, d)).find((d) => existsSync(d));
  if (!crdDir) throw new Error(`${minor}: no CRD directory (${CRD_DIRS.join(', ')}) in ${moduleDir}`);
  for (const f of CRD_FILES) writeFileSync(join(out, 'crds', f), readFileSync(join(crdDir, f)));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const info = JSON.parse(execFileSync(join(out, 'capi-oracle'), ['-version'], { encoding: 'utf8' }));
  if (info.go !== toolchain) throw new Error(`${minor}: built with ${info.go}, not ${toolchain}`);
  const record = { minor, capi: info.capi, go: info.go, buildSeconds: Math.round(seconds * 10) / 10, crdsFrom: crdDir.slice(moduleDir.length + 1), modules: info.modules };
  writeFileSync(join(out, 'build.json'), `${JSON.stringify(record, null, 1)}\n`);
  const key = ['k8s.io/apiextensions-apiserver', 'sigs.k8s.io/controller-runtime', 'k8s.io/apimachinery'].map((m) => `${m} ${info.modules[m]}`).join(', ');
  console.log(`capi-oracle ${minor}: sigs.k8s.io/cluster-api ${info.capi} (${key}; ${info.go}) built in ${record.buildSeconds} s -> ${join(out, 'capi-oracle')}`);
  return record;
}

if (!goAvailable()) {
  const message = 'Go is not installed: the CAPI oracle was not built (its live tests replay recorded answers)';
  if (options['if-go']) {
    console.warn(`SKIPPED: ${message}`);
    process.exit(0);
  }
  console.error(`build-capi: ${message}`);
  process.exit(1);
}

let env = process.env;
let cold;
if (options.cold) {
  cold = mkdtempSync(join(tmpdir(), 'capi-oracle-cold-'));
  env = { ...process.env, GOMODCACHE: join(cold, 'mod'), GOCACHE: join(cold, 'build') };
  console.log(`cold build: GOMODCACHE and GOCACHE under ${cold}`);
}
try {
  const pinned = options.pin.map((pin) => pinVersion(pin, env));
  const requested = [...options.version, ...pinned, ...(options.default ? [DEFAULT_VERSION] : [])];
  const minors = requested.length > 0 ? [...new Set(requested)] : supportedVersions();
  for (const minor of minors) {
    if (!supportedVersions().includes(minor)) throw new Error(`${minor} is not pinned (oracle/capi/modules/${minor}.mod); supported: ${supportedVersions().join(', ')}; pin one with --pin vX.Y.Z`);
    build(minor, env);
  }
} catch (e) {
  console.error(`build-capi: ${e.message}`);
  process.exitCode = 1;
} finally {
  if (cold) {
    spawnSync('go', ['clean', '-modcache'], { env, stdio: 'ignore' });
    rmSync(cold, { recursive: true, force: true });
  }
}
