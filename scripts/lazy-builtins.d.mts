// Types of scripts/lazy-builtins.mjs for the TypeScript test (test/cli/bundle.test.ts).
import type { Plugin } from 'esbuild';

export declare const LAZY_BUILTINS: readonly string[];
export declare function lazyBuiltins(root: string): Plugin;
