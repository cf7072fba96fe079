/** Types of scripts/fuzz/core.mjs (plain ESM shared by the fuzz test and the long fuzz run). */
import type { Arbitrary } from 'fast-check';
export interface FuzzInput {
  [k: string]: unknown;
}
export interface FuzzIO {
  readStdin(): Promise<string>;
  stdout(text: string): void;
  stderr(text: string): void;
}
export function arbitraries(fc: unknown): { input: Arbitrary<FuzzInput> };
export function render(input: FuzzInput): string;
export function checkInput(runFunction: (io: FuzzIO) => Promise<number>, text: string): Promise<string[]>;
