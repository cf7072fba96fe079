/** Types of scripts/oracle/gotmpl-oracle.mjs. */
export interface OracleVersions {
  go: string;
  unicode: string;
  modules: Record<string, string>;
}
export const root: string;
export const gotmplSourceDir: string;
export const gotmplOracle: string;
export function pinnedToolchain(dir?: string): string;
export function oracleVersions(binary?: string): OracleVersions | undefined;
