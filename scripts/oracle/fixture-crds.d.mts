export const CRD_DIR: string;
export function installLabels(folder: string, file: string): Record<string, string>;
export function labelledFixtureCrds(): Array<[string, string, Record<string, unknown>[]]>;
export function writeProviderCrds(dir: string): string;
