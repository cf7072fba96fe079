// Differential fuzzing against gotmpl-oracle: random sprig/builtin pipelines over the golden data.
// Usage: npx tsc -p tsconfig.build.json && node scripts/gotemplate/fuzz-differential.mjs [seed] [count]
import { spawnSync } from 'node:child_process';
import { parseTemplate, executeTemplate } from '../../dist/gotemplate/index.js';
import { gotmplOracle } from '../oracle/gotmpl-oracle.mjs';
import { D } from './cases/_data.mjs';
const fns = [
  'upper',
  'lower',
  'title',
  'trim',
  'quote',
  'squote',
  'len',
  'first',
  'last',
  'rest',
  'initial',
  'reverse',
  'uniq',
  'compact',
  'toJson',
  'toString',
  'int',
  'int64',
  'float64',
  'add1',
  'empty',
  'kindOf',
  'typeOf',
  'toStrings',
  'sortAlpha',
  'b64enc',
  'sha1sum',
  'keys',
  'values',
  'deepCopy',
  'not',
  'print',
  'html',
  'js',
  'urlquery',
  'toPrettyJson',
  'nospace',
  'initials',
  'swapcase',
  'snakecase',
  'camelcase',
  'kebabcase',
  'ceil',
  'floor',
  'atoi',
  'toDecimal',
  'base',
  'dir',
  'ext',
  'clean',
];
const fns2 = [
  'add',
  'sub',
  'mul',
  'max',
  'min',
  'eq',
  'ne',
  'lt',
  'gt',
  'and',
  'or',
  'default',
  'coalesce',
  'list',
  'dict',
  'cat',
  'join',
  'split',
  'splitList',
  'contains',
  'hasPrefix',
  'trimSuffix',
  'trimPrefix',
  'repeat',
  'trunc',
  'indent',
  'nindent',
  'has',
  'without',
  'append',
  'prepend',
  'index',
  'slice',
  'pluck',
  'get',
  'hasKey',
  'printf',
  'addf',
  'mulf',
  'divf',
  'subf',
  'maxf',
  'minf',
  'ternary',
  'regexMatch',
  'regexFind',
  'semverCompare',
  'plural',
  'wrap',
  'abbrev',
  'chunk',
  'until',
  'concat',
  'pick',
  'omit',
  'merge',
];
const args = [
  '.s',
  '.S',
  '.e',
  '.n',
  '.f',
  '.z',
  '.neg',
  '.big',
  '.t',
  '.fl',
  '.nil',
  '.l',
  '.ls',
  '.ln',
  '.el',
  '.m',
  '.em',
  '.missing',
  '.uni',
  '.ml',
  '.sp',
  '1',
  '0',
  '-2',
  '2.5',
  '"a"',
  '"1.2.3"',
  '""',
  '"a,b"',
  'true',
  'nil',
  '(list 1 2)',
  '(dict "k" 1)',
  '.m.d',
  '.ver',
  '"^v"',
];
let seed = Number(process.argv[2] ?? 987);
const rnd = (n) => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed % n;
};
const pick = (a) => a[rnd(a.length)];
const cases = [];
for (let i = 0; i < Number(process.argv[3] ?? 3000); i++) {
  let t;
  switch (rnd(4)) {
    case 0:
      t = `{{ ${pick(fns)} ${pick(args)} }}`;
      break;
    case 1:
      t = `{{ ${pick(fns2)} ${pick(args)} ${pick(args)} }}`;
      break;
    case 2:
      t = `{{ ${pick(args)} | ${pick(fns)} | ${pick(fns)} }}`;
      break;
    default:
      t = `{{ ${pick(fns2)} ${pick(args)} (${pick(fns)} ${pick(args)}) ${pick(args)} }}`;
  }
  if (/\b(randInt|shuffle)\b/.test(t)) continue;
  cases.push(t);
}
const input = cases.map((t, i) => JSON.stringify({ id: i, template: t, data: D })).join('\n') + '\n';
const r = spawnSync(gotmplOracle, [], { input, maxBuffer: 1 << 28 });
const lines = r.stdout
  .toString()
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));
let bad = 0;
for (const o of lines) {
  if (o.invalid_utf8 || o.phase === 'input' || (o.error ?? '').startsWith('panic')) continue;
  const t = cases[o.id];
  const p = parseTemplate(t);
  const g = p.ok ? executeTemplate(p.template, D) : p;
  const ok = o.phase ? !g.ok && g.phase === o.phase : g.ok && g.output === o.output;
  if (!ok) {
    bad++;
    if (bad <= 40)
      console.log(
        JSON.stringify(t),
        '\n  go:',
        JSON.stringify(o.output ?? o.error).slice(0, 200),
        '\n  ts:',
        JSON.stringify(g.ok ? g.output : g.error).slice(0, 200),
      );
  }
}
console.log(
  'mismatches',
  bad,
  'of',
  lines.length,
  'outputs',
  lines.filter((o) => o.output !== undefined).length,
  'panics',
  lines.filter((o) => (o.error ?? '').startsWith('panic')).length,
);
