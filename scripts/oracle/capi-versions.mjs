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

export const oracleDir = (minor) => join(root, '.cache/capi-oracle', minor);
export const oracleBinary = (minor) => join(oracleDir(minor), 'capi-oracle');

/** Whether the oracle of a minor is built (binary and CAPI's CRDs). */
export const oracleBuilt = (minor) => existsSync(oracleBinary(minor)) && existsSync(join(oracleDir(minor), 'crds'));
