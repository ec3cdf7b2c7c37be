/**
 * The determination: the check's status, then each rule's verdict on the target with the rule as
 * applied and its dated status: OFAC's aggregation standard since its 2014 guidance, and the BIS
 * Affiliates Rule on the date asked with its whole dated history (effective, suspended,
 * reinstated) and sources, so an auditor sees which version of the law decided.
 */
import { type Column, columns, type EvidenceWriter, type TableRow } from '../../../evidence/evidence-writer.ts';
import { BIS_SDN_PROGRAMS, DESIGNATION_LISTS, LIST_SCOPE } from '../../../ownership/list-scope.ts';
import { BIS_AFFILIATES_RULE, BIS_TGL_WINDOW, OFAC_AGGREGATION_GUIDANCE_FROM, type RuleWindow } from '../../../ownership/rule-status.ts';
import type { OwnershipAnswer, OwnershipEvidenceInput } from './ownership-evidence-input.ts';
import { BASIS_WORDS, bisVerdictWords, counted, ofacVerdictWords, type Parties, partiesOf, RULE_STATUS_WORDS, STATUS_WORDS, yesNo } from './ownership-words.ts';

const OFAC_RULE =
  "OFAC's 50 Percent Rule (revised guidance of 13 August 2014, 79 FR 47726): an entity owned 50% or more, directly or indirectly, " +
  'individually or in the aggregate, by one or more blocked persons is itself blocked. Stakes of different owners are added; ' +
  'a covered entity counts with its whole stake and percentages are never multiplied along a chain; control alone never counts.';

const BIS_RULE =
  'BIS Affiliates Rule (Supp. No. 8 to Part 744): a foreign entity owned 50% or more, directly or indirectly, individually or in the aggregate, ' +
  'by parties on the lists it counts, or by entities they cover in turn, is subject to the same restrictions. It reaches foreign (non-U.S.) entities only, ' +
  'and applies only on the dates it is in force.';

/** The lists a rule counts, from the scope table the evaluation reads. */
function countedListsWords(rule: 'ofac' | 'bis'): string {
  return DESIGNATION_LISTS.filter((list) => LIST_SCOPE[list][rule] !== false)
    .map((list) => (LIST_SCOPE[list][rule] === 'programs' ? `${list} under the 15 CFR 744.8(a)(1) programs (${[...BIS_SDN_PROGRAMS].join(', ')})` : list))
    .join('; ');
}

export function writeDetermination(w: EvidenceWriter, { check }: OwnershipEvidenceInput) {
  const { ofac, bis } = check.answer;
  w.heading('The determination');
  w.fields([
    ['Status', STATUS_WORDS[check.status]],
    ['OFAC 50 Percent Rule', ofacVerdictWords(ofac)],
    ['BIS Affiliates Rule', bisVerdictWords(bis, check.answer.as_of)],
  ]);
  writeOfacVerdict(w, check.answer);
  writeBisVerdict(w, check.answer, partiesOf(check));
}

const determinateWords = (determinate: boolean) =>
  yesNo(determinate, 'yes', "no: stakes of unknown size (or an SDN's unknown programs) could change the answer; review before relying on it");

function writeOfacVerdict(w: EvidenceWriter, answer: OwnershipAnswer) {
  const { ofac, as_of: asOf } = answer;
  w.subheading("OFAC's 50 Percent Rule");
  w.fields([
    ['Blocked', yesNo(ofac.blocked)],
    ['Determinate', determinateWords(ofac.determinate)],
    ['Basis', BASIS_WORDS[ofac.basis]],
    ['Rule applied', OFAC_RULE],
    ['Lists counted', countedListsWords('ofac')],
    [
      `Status on ${asOf}`,
      asOf >= OFAC_AGGREGATION_GUIDANCE_FROM
        ? `in force: the aggregation standard applies from ${OFAC_AGGREGATION_GUIDANCE_FROM}`
        : `${asOf} is before the revised guidance of ${OFAC_AGGREGATION_GUIDANCE_FROM}, which first added the stakes of different owners (see the warnings)`,
    ],
  ]);
}

function writeBisVerdict(w: EvidenceWriter, answer: OwnershipAnswer, parties: Parties) {
  const { bis, as_of: asOf } = answer;
  const window = bis.affiliates_rule_window;
  w.subheading('BIS Affiliates Rule');
  w.fields([
    ['Restricted', yesNo(bis.restricted)],
    ['Determinate', determinateWords(bis.determinate)],
    ['Basis', BASIS_WORDS[bis.basis]],
    [
      'Foreign entity',
      yesNo(bis.foreign_entity, 'yes: the rule can reach the target', 'no: a U.S. entity or a natural person, which the rule does not reach through ownership'),
    ],
    [
      'Red Flag 29',
      yesNo(
        bis.red_flag_29,
        'yes: the target could be covered, but percentages that are not known keep it from being determined (resolve the ownership or apply for a license)',
        'no',
      ),
    ],
    [
      'Inherited from',
      bis.inherited_from.length === 0 ? 'none' : `${counted(bis.inherited_from.length, 'listed party', 'listed parties')}, in the table below`,
    ],
    ['Rule applied', BIS_RULE],
    ['Lists counted', countedListsWords('bis')],
    [
      `Status on ${asOf}`,
      `${RULE_STATUS_WORDS[bis.affiliates_rule_status]}, ${windowWords(window)}${window.scheduled ? ' (announced for the future when the table was written)' : ''}`,
    ],
    ['Source', window.source],
    [
      'Temporary General License',
      `${BIS_TGL_WINDOW.from} to ${BIS_TGL_WINDOW.to}: ${BIS_TGL_WINDOW.source} It authorized some transactions; it never changed a status.`,
    ],
  ]);
  const inherited = bis.inherited_from.map((i) => ({ cells: [parties.name(i.entity), i.lists.join(', ')] }));
  if (inherited.length > 0) w.table(INHERITED_COLUMNS, inherited);
  const history = historyRows(BIS_AFFILIATES_RULE, window);
  w.ensureSpace(w.tableHeight(HISTORY_COLUMNS, history) + 20); // the sentence stays with its table
  w.paragraph("The rule's dated status, as Gatehouse's rule table holds it (dates inclusive, US Eastern):");
  w.table(HISTORY_COLUMNS, history);
}

const windowWords = (window: { from: string | null; to: string | null }) => `from ${window.from ?? 'the start'} to ${window.to ?? 'further notice'}`;

const INHERITED_COLUMNS: Column[] = columns(['Restrictions inherited from', 8], ['Lists', 4]);
const HISTORY_COLUMNS: Column[] = columns(['From', 2], ['To', 2], ['Event', 2], ['Status', 2.4], ['Applied', 2.6]);

/** Each window with what changed on its first day: the rule took effect, was suspended, was reinstated. */
function historyRows(table: readonly RuleWindow[], applied: OwnershipAnswer['bis']['affiliates_rule_window']): TableRow[] {
  return table.map((window, i) => {
    const before = table[i - 1]?.status;
    const event =
      before === undefined
        ? 'before the rule'
        : window.status === 'suspended'
          ? 'suspended'
          : window.status === 'in_force'
            ? before === 'suspended'
              ? 'reinstated'
              : 'effective'
            : RULE_STATUS_WORDS[window.status];
    const isApplied = window.from === applied.from && window.to === applied.to;
    return {
      cells: [
        window.from ?? '—',
        window.to ?? 'further notice',
        event,
        `${RULE_STATUS_WORDS[window.status]}${window.scheduled ? ' (scheduled)' : ''}`,
        isApplied ? "this check's date" : '',
      ],
      note: `Source: ${window.source}`,
    };
  });
}
