#!/usr/bin/env node
// Benchmark of the Go-template engine: evaluations per second of typical ClusterClass templates,
// each compiled once. Build first: npx tsc -p tsconfig.build.json
// The last line is `gotemplate-evals-per-second=<n>` for the 3-action template.
import { fileURLToPath } from 'node:url';
import { parseTemplate, executeTemplate } from '../dist/gotemplate/index.js';

export const DATA = {
  builtin: {
    cluster: { name: 'my-cluster', namespace: 'default', topology: { version: 'v1.29.3', class: 'quick-start' } },
    controlPlane: { version: 'v1.29.3', replicas: 3, name: 'my-cluster-cp' },
    machineDeployment: { version: 'v1.29.3', class: 'default-worker', topologyName: 'md-0', replicas: 2 },
  },
  region: 'us-east-1',
  imageRepository: 'registry.k8s.io',
  httpProxy: { enabled: true, noProxy: ['10.0.0.0/8', '.svc'] },
  files: [
    { path: '/etc/a', content: 'x: 1\ny: 2' },
    { path: '/etc/b', content: 'hello' },
  ],
};

export const TEMPLATES = {
  'three-actions': '{{ .builtin.cluster.name }}-{{ .builtin.controlPlane.version }}-{{ .region }}',
  'enabledIf-semver': '{{ semverCompare ">= v1.28.0" .builtin.controlPlane.version }}',
  'enabledIf-and': '{{ and .httpProxy.enabled (ne .region "") }}',
  'yaml-block': '{{- range .files }}\n- path: {{ .path }}\n  content: |\n{{ .content | indent 4 }}\n{{- end }}',
  'join-quote': 'NO_PROXY={{ join "," .httpProxy.noProxy | quote }}',
};

/** Evaluations per second of `template` (compiled once) against `data`, measured for ~durationMs. */
export function measureEvalsPerSecond(template, data = DATA, { durationMs = 1000, options } = {}) {
  const parsed = parseTemplate(template);
  if (!parsed.ok) throw new Error(parsed.error);
  const tpl = parsed.template;
  for (let i = 0; i < 2000; i++) executeTemplate(tpl, data, options); // warm up
  let n = 0;
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(durationMs) * 1_000_000n;
  let now = start;
  while (now < deadline) {
    for (let i = 0; i < 1000; i++) {
      const r = executeTemplate(tpl, data, options);
      if (!r.ok) throw new Error(r.error);
    }
    n += 1000;
    now = process.hrtime.bigint();
  }
  return Math.round(n / (Number(now - start) / 1e9));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const durationMs = Number(process.env.BENCH_MS ?? 1000);
  for (const [name, t] of Object.entries(TEMPLATES)) {
    console.log(
      `${name.padEnd(18)} ${measureEvalsPerSecond(t, DATA, { durationMs }).toLocaleString('en-US').padStart(12)} evals/s`,
    );
  }
  console.log(`gotemplate-evals-per-second=${measureEvalsPerSecond(TEMPLATES['three-actions'], DATA, { durationMs })}`);
}
