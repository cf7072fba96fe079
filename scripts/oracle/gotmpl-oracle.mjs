// Where the template oracle (oracle/gotmpl) lives, is built, and which Go toolchain builds it.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toolchainOf } from './capi-versions.mjs';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const gotmplSourceDir = join(root, 'oracle/gotmpl');
/** The binary; GOTMPL_ORACLE points the scripts and tests at another build. */
export const gotmplOracle = process.env.GOTMPL_ORACLE ?? join(root, '.cache/gotmpl-oracle');

/** The Go release go.mod's `toolchain` line names (the one the default CAPI minor is built with). */
export const pinnedToolchain = (dir = gotmplSourceDir) => toolchainOf(join(dir, 'go.mod'));

/** What an oracle binary was built from: { go, unicode, modules }, or undefined if it is not built. */
export function oracleVersions(binary = gotmplOracle) {
  if (!existsSync(binary)) return undefined;
  return JSON.parse(execFileSync(binary, ['-version'], { encoding: 'utf8' }));
}
