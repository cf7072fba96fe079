#!/usr/bin/env node
// Runs the unbundled CLI (dist/cli/main.js), as bin/render-clusterclass did before the bundle:
// the bench's fallback while dist/render-clusterclass.cjs is not built.
import('../dist/cli/main.js').then((m) => m.main(process.argv.slice(2)));
