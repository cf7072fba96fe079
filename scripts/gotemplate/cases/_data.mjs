// Shared data for the golden case tables: a JSON document as CAPI would pass it (numbers are float64).
export const D = {
  s: 'hello',
  S: 'Hello World',
  e: '',
  n: 3,
  f: 2.5,
  z: 0,
  neg: -7,
  big: 1000000,
  huge: 12345678,
  t: true,
  fl: false,
  nil: null,
  l: [1, 'two', 3.5, null, true],
  ls: ['b', 'a', 'c'],
  ln: [3, 1, 2],
  el: [],
  m: { a: 1, b: 'x', c: [1, 2], d: { e: 'f' } },
  em: {},
  k8s: { 'http-proxy': 'p', 'no-proxy': '' },
  ver: 'v1.29.3',
  uni: 'héllo wörld ✓',
  ml: 'line1\nline2\nline3',
  sp: '  padded  ',
  builtin: {
    cluster: { name: 'c1', namespace: 'ns', topology: { version: 'v1.29.3', class: 'quick-start' } },
    controlPlane: { version: 'v1.29.3', replicas: 3, name: 'c1-cp' },
    machineDeployment: { version: 'v1.28.0', class: 'default-worker', name: 'md-0', topologyName: 'md-0', replicas: 2 },
  },
};

/** D restricted to the top-level keys a template references as `.key` (keeps golden files small). */
export function dataFor(template) {
  const out = {};
  for (const k of Object.keys(D)) if (new RegExp(`\\.${k}\\b`).test(template)) out[k] = D[k];
  return out;
}
