// Comparisons (eq ne lt le gt ge) across the value kinds: float64 data vs int literals, strings,
// booleans, nil/missing values, lists and maps.
import { dataFor } from './_data.mjs';

const OPS = ['eq', 'ne', 'lt', 'le', 'gt', 'ge'];
const OPERANDS = [
  '.n',
  '3',
  '3.0',
  '.f',
  '.s',
  '"hello"',
  '.t',
  'true',
  '.nil',
  '.missing',
  '(len .ls)',
  '.ls',
  '.m',
  '(int64 3)',
  '"b"',
  '.z',
];

export function cases() {
  const out = [];
  for (const op of OPS) {
    for (const a of OPERANDS) {
      for (const b of OPERANDS) {
        if (op !== 'eq' && op !== 'lt' && Math.abs(OPERANDS.indexOf(a) - OPERANDS.indexOf(b)) > 3) continue;
        out.push({ id: `${op} ${a} ${b}`, template: `{{ ${op} ${a} ${b} }}`, data: dataFor(`${a} ${b}`) });
      }
    }
  }
  for (const t of [
    '{{ eq .n 3.0 1 }}',
    '{{ eq .s "x" "hello" }}',
    '{{ eq .s }}',
    '{{ eq }}',
    '{{ eq .n .n .s }}',
    '{{ eq 1 1.0 }}',
    '{{ eq .replicas 3 }}',
    '{{ eq (int .n) 3 }}',
    '{{ eq (float64 3) .n }}',
    '{{ lt .missing 1 }}',
    '{{ ne .s }}',
    '{{ lt 1 }}',
    '{{ eq .builtin.controlPlane.replicas 3.0 }}',
    '{{ gt (len .ls) 2 }}',
    '{{ le "a" "b" }}',
    '{{ lt "B" "a" }}',
    '{{ eq .m.d .m.d }}',
    '{{ eq .l .l }}',
    '{{ eq .nil .missing }}',
    '{{ ne .nil 1 }}',
    '{{ lt .t .fl }}',
    '{{ eq 1i 1i }}',
    '{{ lt 1i 2i }}',
    '{{ eq (semver "1.0.0") (semver "1.0.0") }}',
    '{{ if eq .builtin.cluster.name "c1" }}match{{ end }}',
    '{{ if and (eq .s "hello") (gt .n 2.0) }}ok{{ end }}',
    '{{ lt -1 (len .s) }}',
    '{{ eq "é" "é" }}',
    '{{ lt "é" "z" }}',
    '{{ eq .big 1e6 }}',
    '{{ eq .big 1000000.0 }}',
    '{{ eq 0x10 16 }}',
    "{{ eq 'a' 97 }}",
  ]) {
    out.push({ id: t, template: t, data: dataFor(t) });
  }
  return out;
}
