/** Types of scripts/yaml/cases.mjs. */
export const HAND_LIST: string[];
export function randomScalars(seed: number, count: number): string[];
export function isSafePlain(s: string): boolean;
export function isFlowSafe(s: string): boolean;
export const CI_SAMPLE: { seed: number; scalars: number };
export const LIVE_CAMPAIGN: { seed: number; scalars: number };
