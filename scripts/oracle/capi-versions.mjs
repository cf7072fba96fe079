// Where the CAPI oracle lives and which Cluster API versions it is built for: one pinned module
// file per minor, oracle/capi/modules/<minor>.mod (with its .sum). The default is the newest GA
// minor, the one `npm test` runs live.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const oracleSourceDir = join(root, 'oracle/capi');
export const DEFAULT_VERSION = 'v1.14';

const minorKey = (m) => m.slice(1).split('.').map(Number);

/** Every pinned minor, oldest first (v1.12, v1.13, ...). */
export function supportedVersions() {
  return readdirSync(join(oracleSourceDir, 'modules'))
    .filter((f) => /^v\d+\.\d+\.mod$/.test(f))
    .map((f) => f.slice(0, -'.mod'.length))
    .sort((a, b) => minorKey(a)[0] - minorKey(b)[0] || minorKey(a)[1] - minorKey(b)[1]);
}

/** The CAPI release a minor is pinned to, from its module file. */
export function pinnedRelease(minor) {
  const mod = readFileSync(join(oracleSourceDir, 'modules', `${minor}.mod`), 'utf8');
  return /^\s*sigs\.k8s\.io\/cluster-api (v\S+)/m.exec(mod)?.[1];
}

/**
 * The Go of a CAPI release, from its downloaded module directory: the `go` line of its go.mod (it
 * sets the GODEBUG defaults, e.g. Go 1.26's urlstrictcolons) and the Go release its Makefile builds
 * with (GO_VERSION), as { goDirective, goVersion }.
 */
export function capiGo(capiDir, release) {
  const goVersion = /^GO_VERSION \?= (\S+)/m.exec(readFileSync(join(capiDir, 'Makefile'), 'utf8'))?.[1];
  const goDirective = /^go (\S+)/m.exec(readFileSync(join(capiDir, 'go.mod'), 'utf8'))?.[1];
  if (!goVersion || !goDirective) throw new Error(`no GO_VERSION in the Makefile or no go line in go.mod of sigs.k8s.io/cluster-api ${release}`);
  return { goDirective, goVersion };
}

/** The Go release the `toolchain` line of a go.mod file names (the one it must be built with). */
export function toolchainOf(goModPath) {
  const toolchain = /^toolchain (go\S+)/m.exec(readFileSync(goModPath, 'utf8'))?.[1];
  if (!toolchain) throw new Error(`${goModPath} names no toolchain`);
  return toolchain;
}

export const oracleDir = (minor) => join(root, '.cache/capi-oracle', minor);
export const oracleBinary = (minor) => join(oracleDir(minor), 'capi-oracle');

/** Whether the oracle of a minor is built (binary and CAPI's CRDs). */
export const oracleBuilt = (minor) => existsSync(oracleBinary(minor)) && existsSync(join(oracleDir(minor), 'crds'));
