/** Types of scripts/prng.mjs. */
export function prng(seed: number): () => number;
