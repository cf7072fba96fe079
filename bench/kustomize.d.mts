// Types of bench/kustomize.mjs for the TypeScript tests (test/e2e/kustomize.test.ts).
export declare const pluginHome: string;
export declare function writeRepository(dir: string, n: number, spec?: Record<string, string | number>): void;
