/**
 * Label and annotation validity (apimachinery `ValidateLabels`, `ValidateAnnotations`), used for
 * `deprecatedV1Beta1Metadata` and `x-metadata` (CAPI internal/topology/variables/clusterclass_variable_validation.go).
 */
import type { Json } from '../core/model.js';
import { child, fieldError, invalid, key, type FieldError } from '../core/fielderror.js';
import { isObject } from '../core/json.js';
import { goMarshal } from '../core/go/json.js';

const NAME_RE = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE_RE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const DNS1123_SUBDOMAIN_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

const QUALIFIED_NAME_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

/**
 * `IsQualifiedName` = `content.IsLabelKey` (apimachinery v0.36.3, CAPI v1.14's): messages for an
 * invalid label/annotation key. An empty name part gets both the "non-empty" and the regex message.
 */
export function qualifiedNameErrors(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) name = parts[0] as string;
  else if (parts.length === 2) {
    const prefix = parts[0] as string;
    name = parts[1] as string;
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else {
      if (prefix.length > 253) errs.push('prefix part must be no more than 253 bytes');
      if (!DNS1123_SUBDOMAIN_RE.test(prefix)) {
        errs.push(
          "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        );
      }
    }
  } else {
    return [
      "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push('name part must be no more than 63 bytes');
  if (!NAME_RE.test(name)) errs.push(QUALIFIED_NAME_MSG);
  return errs;
}

function labelValueErrors(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push('must be no more than 63 bytes');
  if (!LABEL_VALUE_RE.test(v)) {
    errs.push(
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    );
  }
  return errs;
}

function stringMap(m: Json | undefined, path: string, out: FieldError[]): [string, string][] {
  if (m === undefined || m === null) return [];
  if (!isObject(m)) {
    out.push(invalid(path, { go: goMarshal(m) }, 'must be a map of strings'));
    return [];
  }
  const entries: [string, string][] = [];
  for (const k of Object.keys(m)) {
    const v = m[k];
    if (typeof v !== 'string') out.push(invalid(key(path, k), { go: goMarshal(v as Json) }, 'must be a string'));
    else entries.push([k, v]);
  }
  return entries;
}

function validateLabels(labels: Json | undefined, path: string): FieldError[] {
  const out: FieldError[] = [];
  for (const [k, v] of stringMap(labels, path, out)) {
    for (const msg of qualifiedNameErrors(k)) out.push(invalid(path, k, msg));
    for (const msg of labelValueErrors(v)) out.push(invalid(key(path, k), v, msg));
  }
  return out;
}

function validateAnnotations(annotations: Json | undefined, path: string): FieldError[] {
  const out: FieldError[] = [];
  let total = 0;
  for (const [k, v] of stringMap(annotations, path, out)) {
    for (const msg of qualifiedNameErrors(k.toLowerCase())) out.push(invalid(path, k, msg));
    total += Buffer.byteLength(k) + Buffer.byteLength(v);
  }
  if (total > 256 * 1024) out.push(fieldError('Too long', path, `may not be more than ${256 * 1024} bytes`, ''));
  return out;
}

export function validateMetadata(meta: { labels?: Json; annotations?: Json } | undefined, path: string): FieldError[] {
  if (!meta) return [];
  return [
    ...validateLabels(meta.labels, child(path, 'labels')),
    ...validateAnnotations(meta.annotations, child(path, 'annotations')),
  ];
}
