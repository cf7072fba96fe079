// Types of bench/kill.mjs for the TypeScript test (test/e2e/kill.test.ts).
export interface KillFigures {
  clusters: number;
  kills: number;
  killsLanded: number;
  violations: string[];
  litterAfterKill: number;
  litterAfterRerun: number;
  filesChecked: number;
  /** The first render (every file new), a run on unchanged inputs, and the first render's time from its lock, and from its first rename, to its end. */
  firstMs: number;
  runMs: number;
  writeMs: number;
  renameMs: number;
  steps: string[];
}
export declare const BIN: string;
export declare function hashTree(dir: string): Map<string, string>;
export declare function killCampaign(options: {
  clusters: number;
  kills: number;
  seed: number;
  log?: (line: string) => void;
}): Promise<KillFigures>;
