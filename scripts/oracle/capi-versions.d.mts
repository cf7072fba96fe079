/** Types of scripts/oracle/capi-versions.mjs. */
export const oracleSourceDir: string;
export const DEFAULT_VERSION: string;
export function supportedVersions(): string[];
export function pinnedRelease(minor: string): string | undefined;
export function oracleDir(minor: string): string;
export function oracleBinary(minor: string): string;
export function oracleBuilt(minor: string): boolean;
