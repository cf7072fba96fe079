// Types of scripts/fuzz/model.mjs for the TypeScript test (test/e2e/model.property.test.ts).
export interface ModelViolation {
  seed: number;
  /** The steps of the sequence up to the one that failed. */
  steps: string[];
  message: string;
}
export interface ModelStats {
  sequences: number;
  steps: number;
  runs: number;
  kills: number;
  killsLanded: number;
  refusals: number;
  linkRefusals: number;
  freshRenders: number;
  violations: ModelViolation[];
  /** How many times each command ran. */
  kinds: Map<string, number>;
}
type FastCheck = typeof import('fast-check').default;
export type FreshRenderer = (...args: never[]) => Promise<Map<string, string>>;
export declare function newStats(): ModelStats;
export declare function freshRenderer(stats: ModelStats): FreshRenderer;
export declare function runSequence(
  fc: FastCheck,
  seed: number,
  options: { maxCommands: number; stats: ModelStats; fresh: FreshRenderer },
): Promise<void>;
/** Every command once, in declaration order (each undo after what it undoes). */
export declare function runTour(
  fc: FastCheck,
  seed: number,
  options: { stats: ModelStats; fresh: FreshRenderer },
): Promise<void>;
export declare function summary(stats: ModelStats, seed: number, ms: number): string;
/** The name of every command, as `kinds` counts them. */
export declare const COMMAND_KINDS: readonly string[];
