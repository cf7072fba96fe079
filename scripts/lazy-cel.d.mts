// Types of scripts/lazy-cel.mjs for the TypeScript test (test/cli/bundle.test.ts).
import type { Plugin } from 'esbuild';

export declare function lazyCel(root: string): Plugin;
