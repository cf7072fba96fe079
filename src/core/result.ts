/**
 * KRM function results (the `results` field of kustomize cmd/config/docs/api-conventions/functions-spec.md): every problem any stage finds becomes one of
 * these, flowing to the end of the pipeline. Stages never throw for bad input.
 */
export type Severity = 'error' | 'warning' | 'info';

export interface ResourceRef {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
}

export interface Result {
  message: string;
  severity: Severity;
  resourceRef?: ResourceRef;
  field?: { path: string; currentValue?: unknown; proposedValue?: unknown };
  file?: { path: string; index?: number };
  tags?: Record<string, string>;
}

/** Builds results about one object; `path` is a dotted Kubernetes field path. */
export function resultAt(
  severity: Severity,
  ref: ResourceRef | undefined,
  path: string | undefined,
  message: string,
  rule?: string,
): Result {
  const result: Result = { message, severity };
  if (ref) result.resourceRef = ref;
  if (path !== undefined && ref) result.field = { path };
  if (rule) result.tags = { rule };
  return result;
}

export const hasErrors = (results: readonly Result[]): boolean => results.some((r) => r.severity === 'error');
