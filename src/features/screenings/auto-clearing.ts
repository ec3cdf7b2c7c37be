/**
 * Nothing is cleared silently: which of a screening's matches alert, and which are cleared without
 * a person and why. A match below its threshold but within the auto-clear band is cleared by the
 * band; a match at or above it by the first of the organization's clearing rules whose conditions
 * its qualifiers meet; a match an earlier false-positive decision covers, by that suppression. Each
 * cleared match is kept in `auto_cleared_matches` with `cleared_by`: the kind, the rule, the rules
 * version and the reason in words.
 */
import type { QualifierExplanation } from '../../screening/match-types.ts';
import { scoreInWords } from '../../screening/score-words.ts';
import type { ClearingQualifier, ClearingRule } from '../cases/rules.ts';
import type { ClearedBy, MatchRecord, ScreeningRecord, Thresholds } from './screening-record.ts';

const QUALIFIER_WORDS: Record<ClearingQualifier, string> = { date_of_birth: 'date of birth', country: 'country', type: 'type' };
/** The order conditions are read and said in, whatever order the stored rule keeps its keys in. */
const QUALIFIER_ORDER = Object.keys(QUALIFIER_WORDS) as ClearingQualifier[];

const rulesIn = (version: number) => `rules v${version}${version === 0 ? ', the defaults' : ''}`;

/** The matches that alert, and those the band or a clearing rule clears, each best first. */
export function sortMatches(
  matches: MatchRecord[],
  thresholds: Thresholds,
  rules: readonly ClearingRule[],
): { alerting: MatchRecord[]; autoCleared: MatchRecord[] } {
  const alerting: MatchRecord[] = [];
  const autoCleared: MatchRecord[] = [];
  for (const match of matches) {
    if (match.score < match.threshold) {
      if (match.score >= match.threshold - thresholds.auto_clear_band) autoCleared.push({ ...match, cleared_by: byBand(match, thresholds) });
      continue;
    }
    const cleared = byRule(match, rules, thresholds.rules_version);
    if (cleared) autoCleared.push({ ...match, cleared_by: cleared });
    else alerting.push(match);
  }
  return { alerting, autoCleared };
}

function byBand(match: MatchRecord, thresholds: Thresholds): ClearedBy {
  const reason = `scored ${match.score.toFixed(3)}, within the auto-clear band ${scoreInWords(thresholds.auto_clear_band)} below the threshold ${scoreInWords(match.threshold)} (${rulesIn(thresholds.rules_version)})`;
  return { kind: 'band', rules_version: thresholds.rules_version, reason };
}

/**
 * The first rule whose every condition the match's qualifiers meet, within its name-score limit.
 * A match a listed identifier corroborates is never cleared on other qualifiers: the identifier
 * says it is the listed party whatever the date of birth or country say.
 */
function byRule(match: MatchRecord, rules: readonly ClearingRule[], version: number): ClearedBy | undefined {
  const { qualifiers, name_score: nameScore } = match.explanation;
  if (qualifiers.some((q) => q.factor === 'identifier' && q.effect === 'corroborates')) return undefined;
  for (const rule of rules) {
    const conditions = QUALIFIER_ORDER.filter((factor) => rule.when[factor] === 'contradicts');
    const met = conditions.map((factor) => qualifiers.find((q) => q.factor === factor && q.effect === 'contradicts'));
    if (conditions.length === 0 || met.some((q) => q === undefined)) continue;
    if (rule.max_name_score !== undefined && nameScore > rule.max_name_score) continue;
    const why = (met as QualifierExplanation[]).map((q) => `${QUALIFIER_WORDS[q.factor as ClearingQualifier]} contradicts (${q.detail})`);
    const limit = rule.max_name_score === undefined ? '' : `; name score ${nameScore.toFixed(3)}, at most ${scoreInWords(rule.max_name_score)}`;
    return {
      kind: 'rule',
      rule: rule.name,
      rules_version: version,
      reason: `cleared by the rule "${rule.name}" (${rulesIn(version)}): ${why.join('; ')}${limit}`,
    };
  }
  return undefined;
}

/**
 * The record with each suppressed match also listed among the auto-cleared ones, under the same
 * match id, saying which suppression cleared it. It stays in `matches` with `suppressed_by` too
 * (the outcome still says a list entry scored at or above its threshold; it opens no case).
 */
export function listSuppressedAsCleared(record: ScreeningRecord): ScreeningRecord {
  const suppressed = record.matches.filter((m) => m.suppressed_by !== null);
  if (suppressed.length === 0) return record;
  const version = record.thresholds.rules_version;
  const cleared = suppressed.map(
    (m): MatchRecord => ({
      ...m,
      cleared_by: {
        kind: 'suppression',
        rules_version: version,
        suppression_id: m.suppressed_by as string,
        reason:
          `covered by suppression ${m.suppressed_by}: this subject was cleared against this same entry content before, ` +
          `which holds until the subject or the entry changes or the suppression expires (${rulesIn(version)})`,
      },
    }),
  );
  return { ...record, auto_cleared_matches: [...record.auto_cleared_matches, ...cleared].sort((a, b) => b.score - a.score) };
}
