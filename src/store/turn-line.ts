// What makes a line of a feature's turn log (.knowledge/turns/<project>/<feature>.ndjson) usable:
// the turn-state schema, and a feature_id naming the feature of the file it is in. Readers skip
// other lines; `lore validate` reports them.
import { validateAgainst } from '../schema/validate.js';

/** Why `value` cannot be a line of `feature`'s turn log, or undefined when it can. */
export function turnLineProblem(value: unknown, feature: string): string | undefined {
  const issues = validateAgainst('turn-state', value);
  if (issues.length > 0) return `is invalid: ${issues.map((i) => i.message).join('; ')}`;
  const owner = (value as { feature_id?: string }).feature_id;
  return owner !== undefined && owner !== feature ? `belongs to feature ${owner}, not ${feature}` : undefined;
}
