// Types of bench/fleet.mjs for the TypeScript tests (test/bench/shard.test.ts).
export declare const CLASS_FILE: string;
export declare const NAMESPACE: string;
export declare function clusterName(i: number): string;
export declare function classObjects(): Record<string, unknown>[];
export declare function clusterObject(i: number): Record<string, unknown>;
export declare const CLUSTERS_PER_CLASS: number;
export declare function fleetFiles(
  count: number,
  options?: { perClass?: boolean },
): { path: string; index: number; object: Record<string, unknown> }[];
export declare function fleetStream(count: number): string;
export declare function fleetResourceList(
  count: number,
  config?: Record<string, string>,
  options?: { perClass?: boolean },
): string;
