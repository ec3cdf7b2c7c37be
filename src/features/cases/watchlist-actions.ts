/**
 * What a screening's standing matches do at the door under the rules, pure: a public-list match
 * or a country hold holds the subject for a decision, as it always has; a match on one of the
 * organization's watchlists does what the rules map its severity to (`watchlists`: deny, hold or
 * review). Where several meet, the strictest wins: deny over hold over review.
 *
 * A DENIED the rules make is not a reviewer's disposition: a person put the entry on the
 * watchlist at its severity, and the organization's rules say what that severity does, both
 * recorded. It needs no reviewer, unless the rules ask a second one for every DENIED
 * (`four_eyes.denied`): then the rules' DENIED is recorded as the first review, pending, the case
 * stays OPEN and the subject is held, and one person confirms it (adjudication/decision.ts).
 */
import type { PendingDecision } from './case-record.ts';
import type { AdjudicationRules, WatchlistAction, WatchlistSeverity } from './rules.ts';

export type DoorAction = WatchlistAction;

const STRICTNESS: Record<DoorAction, number> = { review: 1, hold: 2, deny: 3 };

/** A match as the door reads it: a watchlist's carries its entry's severity. */
export type StandingMatch = { list: string; entry_id: string; suppressed_by: string | null; watchlist?: { severity: WatchlistSeverity } };

/** The strictest action the unsuppressed matches and the holds call for; null when nothing stands. */
export function doorAction(screening: { matches: readonly StandingMatch[]; holds?: readonly unknown[] }, rules: AdjudicationRules): DoorAction | null {
  let strictest: DoorAction | null = (screening.holds?.length ?? 0) > 0 ? 'hold' : null;
  for (const match of screening.matches) {
    if (match.suppressed_by !== null) continue;
    const action = match.watchlist ? rules.watchlists[match.watchlist.severity] : 'hold';
    if (strictest === null || STRICTNESS[action] > STRICTNESS[strictest]) strictest = action;
  }
  return strictest;
}

/** Actor of what the rules decide on their own, as case histories and pending decisions name it. */
const RULES_ACTOR = 'rules:watchlists';

/** The rules' DENIED in words: which rule, which entries (list codes and entry ids, never names). */
export function ruleDenialReason(matches: readonly StandingMatch[], rules: AdjudicationRules, rulesVersion: number): string {
  const denying = matches.filter((m) => m.suppressed_by === null && m.watchlist && rules.watchlists[m.watchlist.severity] === 'deny');
  const severities = [...new Set(denying.map((m) => m.watchlist?.severity))];
  const entries = denying.map((m) => `${m.list} ${m.entry_id}`).join(', ');
  return `Denied by the adjudication rules (v${rulesVersion}): ${severities.map((s) => `watchlists.${s} is deny`).join('; ')}; matched ${entries}.`;
}

/** The rules' DENIED as the first of two reviews, when every DENIED needs a second reviewer. */
export function ruleDenialPending(reason: string, now: Date): PendingDecision {
  return {
    disposition: 'DENIED',
    reason,
    actor: RULES_ACTOR,
    at: now.toISOString(),
    match_decisions: {},
    requires_second_reviewer: 'every DENIED needs a second reviewer',
    person: null,
  };
}
