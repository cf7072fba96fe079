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
export interface ListItem {
  identity: string;
  /** `render-clusterclass.dev/cluster` of an earlier output of this function. */
  owner?: string;
}
export interface ListItems {
  items: ListItem[];
  results: {
    severity?: string;
    message?: string;
    resourceRef?: Record<string, unknown>;
    field?: { path?: string };
    file?: unknown;
    tags?: Record<string, string>;
  }[];
}
export function listItems(text: string): ListItems | undefined;
export function lostItems(input: ListItems, output: ListItems): string[];
export function resultProblems(results: ListItems['results']): string[];
export function contractProblems(code: number, out: string, err: string, input: ListItems | undefined): string[];
export function streamItems(text: string): ListItems | undefined;
