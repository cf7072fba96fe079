/**
 * The YAML structure of a `valueFrom.template` before evaluation, when it has one: every Go
 * template action stands inside a one-line scalar and nothing decides structure at render time
 * (no if/range/with, no whitespace trimming, no indent/nindent/toYaml). Such a template can be
 * converted like a literal value — the conversion moves and renames around the actions — and
 * written back with each action where it was, inside the same quoting.
 */
import YAML from 'yaml';
import type { Json } from '../core/model.js';
import { isObject } from '../core/json.js';
import { PARSE_OPTIONS } from './yamltree.js';
import { KUBERNETES_YAML } from '../yaml/kubernetes.js';

const ACTION = /\{\{([\s\S]*?)\}\}/g;
const TOKEN = /RCCT(\d+)X/g;
const CONTROL = /^-?\s*(if|else|end|range|with|define|template|block|break|continue)\b|^-?\s*\/\*/;
const STRUCTURAL_FUNCS = /\b(indent|nindent|toYaml|toPrettyJson)\b/;

/** True for text that came from a template action (conversion rules must not interpret it). */
export const hasAction = (text: string): boolean => /RCCT\d+X/.test(text);

export type Skeleton = { ok: true; value: Json; render: (value: Json) => string } | { ok: false; why: string };

export function templateSkeleton(template: string): Skeleton {
  const actions: string[] = [];
  for (const [action, body = ''] of template.matchAll(ACTION)) {
    if (body.startsWith('-') || body.endsWith('-')) return { ok: false, why: `its action ${action} trims whitespace` };
    if (CONTROL.test(body.trim())) return { ok: false, why: `its action ${action} decides the structure when it runs` };
    if (STRUCTURAL_FUNCS.test(body)) return { ok: false, why: `its action ${action} produces YAML structure` };
    actions.push(action);
  }
  let n = 0;
  const tokenized = template.replace(ACTION, () => `RCCT${n++}X`);
  const doc = YAML.parseDocument(tokenized, PARSE_OPTIONS);
  if (doc.errors.length > 0) return { ok: false, why: 'it is not YAML before evaluation' };
  // Each token must sit in a one-line flow scalar, whose source text is kept for writing back.
  const sources = new Map<string, string>();
  let seen = 0;
  let bad: string | undefined;
  YAML.visit(doc, {
    Scalar(_, node) {
      // eslint-disable-next-line @typescript-eslint/no-non-null-assertion -- a parsed document's nodes have their range
      const [start, end] = node.range!;
      const src = tokenized.slice(start, end);
      const tokens = src.match(TOKEN)?.length ?? 0;
      if (tokens === 0) return;
      if (String(node.type).startsWith('BLOCK') || src.includes('\n')) bad = 'an action sits in a multi-line scalar';
      seen += tokens;
      sources.set(
        String(node.value),
        src.replace(TOKEN, (token, i: string) => actions[Number(i)] ?? token),
      );
    },
  });
  if (bad) return { ok: false, why: bad };
  if (seen !== actions.length) return { ok: false, why: 'an action sits outside a value (a key or a comment)' };
  const value = doc.toJS() as Json;
  return {
    ok: true,
    value,
    render(next) {
      // Each templated scalar is written as it was; everything else as YAML.
      const markers = new Map<string, string>();
      const mark = (v: Json): Json => {
        if (typeof v === 'string' && hasAction(v)) {
          const marker = `RCCS${markers.size}X`;
          markers.set(marker, sources.get(v) ?? v);
          return marker;
        }
        if (Array.isArray(v)) return v.map(mark);
        if (isObject(v))
          return Object.fromEntries(
            Object.entries(v).map(([k, x]) => [hasAction(k) ? (mark(k) as string) : k, mark(x)]),
          );
        return v;
      };
      const text = YAML.stringify(mark(next), { ...KUBERNETES_YAML, lineWidth: 0, indentSeq: false });
      return text.replace(/RCCS\d+X/g, (m) => markers.get(m) ?? m);
    },
  };
}
