/**
 * How each CAPI version's differential tests run: live against the built oracle
 * (.cache/capi-oracle/<minor>, npm run oracle:capi), else replaying the oracle's recorded answers
 * (test/oracle/recorded/<minor>, npm run oracle:record), else not at all (a visible SKIPPED line).
 * CAPI_ORACLE_RECORDED=1 replays the recordings even where an oracle is built.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { oracleBuilt, pinnedRelease, supportedVersions } from '../../scripts/oracle/capi-versions.mjs';
import { RECORDED_DIR } from '../../scripts/oracle/differential.mjs';

type Mode = 'live' | 'recorded' | 'none';

export interface Version {
  minor: string;
  capi: string;
  mode: Mode;
}

export function versions(what: string): Version[] {
  return supportedVersions().map((minor) => {
    const mode: Mode = oracleBuilt(minor) && !process.env.CAPI_ORACLE_RECORDED ? 'live' : existsSync(join(RECORDED_DIR, minor)) ? 'recorded' : 'none';
    if (mode === 'none') console.warn(`SKIPPED: no CAPI oracle ${minor} is built and none of its answers is recorded; the ${what} did not run for it`);
    return { minor, capi: pinnedRelease(minor) ?? minor, mode };
  });
}
