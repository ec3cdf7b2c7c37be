/**
 * Audit action names are `<object>.<what was done>`, the second part a verb in the past tense
 * (`api_key.enabled`, `case.decision_proposed`). A few were first recorded under a name that read
 * as a state instead; events stored under it stay exactly as they are (the hash chain covers
 * them), and a filter by the current name finds them as well, so a search of the trail for what
 * happened does not depend on when it happened.
 */
const FORMER_NAMES: Record<string, readonly string[]> = {
  'api_key.enabled': ['api_key.active'],
  'case.decision_proposed': ['case.decision_pending'],
};

/** The stored action names a filter by `action` matches: itself and the names it had before. */
export function storedNamesOf(action: string): string[] {
  return [action, ...(FORMER_NAMES[action] ?? [])];
}
