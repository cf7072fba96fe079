/**
 * metav1.LabelSelector matching (apimachinery `LabelSelectorAsSelector`): every matchLabels pair
 * and every matchExpressions requirement (In, NotIn, Exists, DoesNotExist) must hold. An
 * invalid selector is an error, as the conversion would return one.
 */
import { asObject, isObject } from '../core/json.js';
import type { JsonObject } from '../core/model.js';

export function matchesLabelSelector(
  selector: JsonObject,
  labels: Readonly<Record<string, string>>,
): { ok: true; matches: boolean } | { ok: false; error: string } {
  const has = (k: string) => Object.hasOwn(labels, k);
  for (const [k, v] of Object.entries(asObject(selector.matchLabels) ?? {})) {
    if (typeof v !== 'string')
      return { ok: false, error: `invalid namespaceSelector: matchLabels[${JSON.stringify(k)}] must be a string` };
    if (!has(k) || labels[k] !== v) return { ok: true, matches: false };
  }
  const expressions = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  for (const e of expressions) {
    if (!isObject(e) || typeof e.key !== 'string')
      return { ok: false, error: 'invalid namespaceSelector: every matchExpressions entry needs a key' };
    const values = Array.isArray(e.values) ? e.values.filter((v): v is string => typeof v === 'string') : [];
    switch (e.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0)
          return {
            ok: false,
            error: `"${e.operator}": values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty`,
          };
        if ((e.operator === 'In') !== (has(e.key) && values.includes(labels[e.key] ?? '')))
          return { ok: true, matches: false };
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0)
          return {
            ok: false,
            error: `"${e.operator}": values: Invalid value: ${JSON.stringify(values)}: values set must be empty for exists and does not exist`,
          };
        if ((e.operator === 'Exists') !== has(e.key)) return { ok: true, matches: false };
        break;
      default:
        return { ok: false, error: `${JSON.stringify(e.operator)} is not a valid label selector operator` };
    }
  }
  return { ok: true, matches: true };
}
