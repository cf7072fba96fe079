/** Types of scripts/gotemplate/generate-goldens.mjs. */
export const goldenDir: string;
export function tableNames(): string[];
export function answer(oracle: string, name: string): Promise<{ lines: string[]; skipped: number }>;
