/**
 * The matches, each with its explanation in words: the engine's summary, then word by word how the
 * subject's name met the listed name, then what each qualifier (date of birth, country, type,
 * identifier, kind of name) did to the score. Then the matches cleared without a person, each
 * with what cleared it (the band, a clearing rule, a suppression), the rules version and why,
 * explained the same way: nothing seen is left out of the record.
 */
import type { QualifierExplanation, TokenExplanation } from '../screening/match-types.ts';
import { formatContribution, formatScore, formatSimilarity } from './evidence-format.ts';
import type { EvidenceAutoClearedMatch, EvidenceClearedBy, EvidenceInput, EvidenceMatch } from './evidence-input.ts';
import { columns, type EvidenceWriter } from './evidence-writer.ts';

export const HOW_WORDS: Record<TokenExplanation['how'], string> = {
  exact: 'exact',
  phonetic: 'by sound',
  nickname: 'same given name',
  word_form: 'same trade word',
  transliterated: 'across scripts',
  typo: 'within a typo',
  initial: 'as an initial',
  merged: 'spacing merged',
  legal_form: 'legal form',
  unmatched_query: 'only in the query',
  unmatched_list: 'only on the list',
};

export const FACTOR_WORDS: Record<QualifierExplanation['factor'], string> = {
  date_of_birth: 'date of birth',
  country: 'country',
  type: 'subject type',
  identifier: 'identifier',
  name_kind: 'kind of name',
  alert_threshold: 'threshold hold',
};

export const NAME_KIND_WORDS: Record<string, string> = {
  primary: 'the listed name',
  strong_alias: 'a strong a.k.a.',
  weak_alias: 'a weak a.k.a.',
  former_name: 'a former name',
  original_script: 'the name in its original script',
};

export const FIELD_WORDS: Record<EvidenceMatch['field'], string> = {
  subject: "the subject's name",
  company: 'the company',
  alias: 'an alias of the subject',
};

export const CLEARED_BY_WORDS: Record<EvidenceClearedBy['kind'], string> = {
  band: 'the auto-clear band',
  rule: 'a clearing rule',
  suppression: 'a suppression (an earlier clearing)',
};

export function writeMatches(w: EvidenceWriter, { screening }: EvidenceInput) {
  w.heading('Matches');
  if (screening.matches.length === 0) {
    const threshold = formatScore(screening.thresholds.match);
    const ruleCleared = screening.auto_cleared_matches.some((m) => m.cleared_by?.kind === 'rule');
    w.paragraph(
      ruleCleared
        ? `No match is left alerting: each that reached its threshold was cleared by a clearing rule, listed under the auto-cleared matches.`
        : `No list entry scored at or above the threshold of ${threshold}.`,
    );
  }
  screening.matches.forEach((match, i) => {
    const suppressed: [string, string][] = match.suppressed_by
      ? [['Suppressed by', `${match.suppressed_by}: it alerts no one (see the auto-cleared matches)`]]
      : [];
    writeMatch(w, match, `Match ${i + 1} of ${screening.matches.length}`, suppressed);
  });
}

export function writeAutoClearedMatches(w: EvidenceWriter, { screening }: EvidenceInput) {
  const cleared = screening.auto_cleared_matches;
  w.heading('Auto-cleared matches');
  if (cleared.length === 0) {
    w.paragraph('No match was cleared without a person.');
    return;
  }
  w.paragraph('Matches cleared without a person: kept in the record, each with what cleared it, under which rules version, and why.');
  cleared.forEach((match, i) => writeMatch(w, match, `Auto-cleared ${i + 1} of ${cleared.length}`, clearedFields(match)));
}

function clearedFields(match: EvidenceAutoClearedMatch): [string, string][] {
  const by = match.cleared_by;
  if (!by) return [['Cleared by', 'the auto-clear band (recorded before the reason was kept)']];
  return [
    ['Cleared by', `${CLEARED_BY_WORDS[by.kind]}${by.rule ? ` "${by.rule}"` : ''}${by.suppression_id ? ` ${by.suppression_id}` : ''}`],
    ['Rules version', String(by.rules_version)],
    ['Reason', by.reason],
  ];
}

function writeMatch(w: EvidenceWriter, match: EvidenceMatch, title: string, first: [string, string][]) {
  w.subheading(`${title}: ${match.entry_name}`);
  w.fields([
    ...first,
    ['Score', `${formatScore(match.score)} (threshold ${formatScore(match.threshold)})`],
    ['List', `${match.list}, version ${match.list_version}`],
    ['Entry id', match.entry_id],
    ['Entry SHA-256', match.entry_sha256],
    ['Listed name', match.entry_name],
    ['Matched name', `${match.matched_name} (${NAME_KIND_WORDS[match.name_kind] ?? match.name_kind})`],
    ['Input that matched', FIELD_WORDS[match.field] ?? match.field],
    ['Found by', match.explanation.found_by_identifier ? `identifier: ${match.explanation.found_by_identifier}; the names alone are no match` : 'the name'],
    ['Programs', match.programs.length > 0 ? match.programs.join(', ') : 'none listed'],
    ['Match id', match.id],
  ]);
  w.paragraph(`Explanation: ${match.explanation.summary}`);
  writeTokens(w, match.explanation.tokens);
  writeQualifiers(w, match.explanation.qualifiers);
}

const TOKEN_COLUMNS = columns(['Query word', 3], ['List word', 3], ['How', 3], ['Similarity', 1.6], ['Weight', 1.4]);
const QUALIFIER_COLUMNS = columns(['Qualifier', 2], ['Effect', 2], ['Contribution', 1.6], ['Detail', 6.4]);

function writeTokens(w: EvidenceWriter, tokens: TokenExplanation[]) {
  if (tokens.length === 0) return;
  const rows = tokens.map((t) => ({
    cells: [t.query ?? '—', t.list ?? '—', HOW_WORDS[t.how] ?? t.how, formatSimilarity(t.similarity), formatSimilarity(t.weight)],
  }));
  w.table(TOKEN_COLUMNS, rows);
}

function writeQualifiers(w: EvidenceWriter, qualifiers: QualifierExplanation[]) {
  const rows = qualifiers.map((q) => ({ cells: [FACTOR_WORDS[q.factor] ?? q.factor, q.effect, formatContribution(q.contribution), q.detail] }));
  w.tableOr('No qualifier (date of birth, country, type, identifier) changed the score.', QUALIFIER_COLUMNS, rows);
}
