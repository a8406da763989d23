import type { LabelSelector } from '../model/index.js';

/**
 * Kubernetes label-selector matching. A missing or empty selector matches nothing here: the MCO
 * only assigns nodes to pools whose nodeSelector is non-empty (docs/domain.md 4.4), and a PDB without a
 * selector protects no pod in practice.
 */
export function selectorMatches(
  selector: LabelSelector | null | undefined,
  labels: Readonly<Record<string, string>>,
): boolean {
  if (!selector) return false;
  const match = Object.entries(selector.matchLabels ?? {});
  const expressions = selector.matchExpressions ?? [];
  if (match.length === 0 && expressions.length === 0) return false;
  for (const [key, value] of match) {
    if (labels[key] !== value) return false;
  }
  for (const e of expressions) {
    const has = Object.hasOwn(labels, e.key);
    const values = e.values ?? [];
    switch (e.operator) {
      case 'In':
        if (!has || !values.includes(labels[e.key] ?? '')) return false;
        break;
      case 'NotIn':
        if (has && values.includes(labels[e.key] ?? '')) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
      default:
        // An operator Kubernetes does not know makes the selector invalid; it selects nothing.
        return false;
    }
  }
  return true;
}
