#!/usr/bin/env node
// Aggregates a V8 .cpuprofile (node --cpu-prof) by function and by file: self time (samples whose
// top frame is the function) and total time (samples with the function anywhere on the stack,
// counted once per sample even when recursive).
//
//   node bench/profile-summary.mjs PROFILE.cpuprofile [--top 25] [--json]
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function shortFile(url) {
  if (!url) return '(native)';
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  if (!path.startsWith('/')) return path;
  const rel = relative(root, path);
  return rel.startsWith('node_modules/')
    ? rel.replace(/^node_modules\/([^/]+(?:\/[^/]+)?)\/.*$/, (m, pkg) => `${pkg}:${m.split('/').pop()}`)
    : rel;
}

/** { byFunction, byFile, totalMs } from a parsed .cpuprofile. */
export function summarise(profile) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const keyOf = (n) => {
    const cf = n.callFrame;
    const name = cf.functionName || '(anonymous)';
    return cf.url ? `${name} ${shortFile(cf.url)}:${cf.lineNumber + 1}` : name;
  };
  const fileOf = (n) => shortFile(n.callFrame.url);
  // Time per sample: deltas between timestamps (the first delta belongs to the first sample).
  const deltas = profile.timeDeltas ?? [];
  const self = new Map();
  const total = new Map();
  const fileSelf = new Map();
  let totalUs = 0;
  const add = (m, k, v) => m.set(k, (m.get(k) ?? 0) + v);
  profile.samples.forEach((id, i) => {
    const us = deltas[i + 1] ?? deltas[i] ?? 0;
    totalUs += us;
    const top = nodes.get(id);
    add(self, keyOf(top), us);
    add(fileSelf, fileOf(top), us);
    const seen = new Set();
    for (let n = top; n; n = nodes.get(parent.get(n.id))) {
      const k = keyOf(n);
      if (!seen.has(k)) {
        seen.add(k);
        add(total, k, us);
      }
    }
  });
  const rows = (m) =>
    [...m.entries()].sort((a, b) => b[1] - a[1]).map(([k, us]) => ({ key: k, ms: us / 1000, share: us / totalUs }));
  return { totalMs: totalUs / 1000, bySelf: rows(self), byTotal: rows(total), byFile: rows(fileSelf) };
}

export function formatSummary(s, top = 25) {
  const line = (r) => `${r.ms.toFixed(0).padStart(8)} ms ${(100 * r.share).toFixed(1).padStart(5)}%  ${r.key}`;
  return [
    `profile: ${s.totalMs.toFixed(0)} ms sampled`,
    '',
    `top ${top} functions by self time:`,
    ...s.bySelf.slice(0, top).map(line),
    '',
    `top ${top} functions by total (inclusive) time:`,
    ...s.byTotal.slice(0, top).map(line),
    '',
    'self time by file:',
    ...s.byFile.slice(0, top).map(line),
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const file = args.find((a) => !a.startsWith('--') && !/^\d+$/.test(a));
  if (!file) {
    console.error('usage: node bench/profile-summary.mjs PROFILE.cpuprofile [--top N] [--json]');
    process.exit(2);
  }
  const topIdx = args.indexOf('--top');
  const top = topIdx >= 0 ? Number(args[topIdx + 1]) : 25;
  const s = summarise(JSON.parse(readFileSync(file, 'utf8')));
  console.log(args.includes('--json') ? JSON.stringify(s, null, 2) : formatSummary(s, top));
}
