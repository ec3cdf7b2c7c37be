/**
 * For each rule, the aggregate the verdict rests on with its arithmetic: the target's covered
 * owners and their stakes added up (lower and upper bound when stakes are unknown), how each
 * entity on the way became covered, and the deciding paths from the listed parties down to the
 * target, hop by hop.
 */
import { columns, type EvidenceWriter, type TableRow } from '../../../evidence/evidence-writer.ts';
import { entitySumLine, intermediateSums, targetSums } from './aggregate-arithmetic.ts';
import type { OwnershipEvidenceInput, RuleAnswer as Rule } from './ownership-evidence-input.ts';
import { counted, type Parties, partiesOf, percentWords } from './ownership-words.ts';

const CONTRIBUTOR_COLUMNS = columns(['Covered owner of the target', 5.2], ['Stake', 1.2], ['Covered as', 2.4], ['Certain', 3.6]);
const PATH_WORDS_HEIGHT = 50;
const HOP_COLUMNS = columns(['Party', 5.5], ['Why it counts', 4.5], ['Stake in the next', 2]);

export function writeOfacAggregate(w: EvidenceWriter, input: OwnershipEvidenceInput) {
  writeAggregate(w, input, "OFAC's 50 Percent Rule", input.check.answer.ofac);
}

export function writeBisAggregate(w: EvidenceWriter, input: OwnershipEvidenceInput) {
  writeAggregate(w, input, 'BIS Affiliates Rule', input.check.answer.bis);
}

function writeAggregate(w: EvidenceWriter, { check }: OwnershipEvidenceInput, title: string, rule: Rule) {
  const parties = partiesOf(check);
  const { answer } = check;
  w.heading(`Aggregate percentages: ${title}`);
  if (rule.aggregate_percent === null) {
    w.paragraph(notAggregated(check));
    return;
  }
  const rows: TableRow[] = rule.contributors.map((c) => ({
    cells: [parties.name(c.owner), percentWords(c.percent), c.basis === 'listed' ? 'listed' : 'through ownership', certainWords(c)],
  }));
  w.paragraph(
    "The target's direct owners that this rule covers, and their stakes in it. Stakes are added; a covered owner counts with its whole stake, " +
      'an owner not covered with none, and percentages are never multiplied along a chain.',
  );
  w.tableOr('No covered party holds a stake in the target.', CONTRIBUTOR_COLUMNS, rows);
  const sums = targetSums(rule, parties.name);
  const target = parties.name(answer.target);
  w.paragraph(`${target}: ${sums.lower}${sums.upper ? ' (lower bound: stakes surely held by surely covered owners)' : ''}`, { font: 'bold' });
  if (sums.upper) w.paragraph(`Upper bound, counting what is not known at its largest: ${sums.upper}`, { font: 'bold' });
  writeIntermediates(w, rule, parties);
  writePaths(w, rule, parties);
}

function notAggregated({ answer, request }: OwnershipEvidenceInput['check']): string {
  if (request.entities.find((e) => e.id === answer.target)?.type === 'person') {
    return 'The target is a natural person: the rules reach entities through ownership, and a person is blocked or restricted only when listed. Nothing is aggregated.';
  }
  return `The Affiliates Rule was ${answer.bis.affiliates_rule_status === 'suspended' ? 'suspended' : 'not in effect'} on ${answer.as_of}: nothing is aggregated, and only the parties on the lists it counts are restricted themselves.`;
}

const certainWords = (c: Rule['contributors'][number]) =>
  c.certain ? 'yes' : c.percent === null ? 'no: the stake is of unknown size' : 'no: the owner is covered only if unknown stakes are large enough';

function writeIntermediates(w: EvidenceWriter, rule: Rule, parties: Parties) {
  const sums = intermediateSums(rule.paths);
  if (sums.length === 0) return;
  w.subheading('How each entity on the paths is covered');
  w.paragraph('The stakes its covered owners hold in it, added; 50% or more makes it covered, and it then counts with its whole stake in the next entity.');
  for (const sum of sums) w.paragraph(`${parties.name(sum.entity)}: ${entitySumLine(sum, parties.name)}`);
}

function writePaths(w: EvidenceWriter, rule: Rule, parties: Parties) {
  if (rule.paths.length === 0) {
    w.paragraph('No deciding path: no listed party reaches the target through stakes this rule counts.');
    return;
  }
  w.subheading('Deciding paths');
  w.paragraph(
    `From each listed party down to the target, largest contribution first${rule.paths_truncated ? `: the first ${counted(rule.paths.length, 'path', 'paths')}; there are more` : ''}.`,
  );
  rule.paths.forEach((path, i) => {
    const hops: TableRow[] = path.hops.map((hop) => ({
      cells: [parties.name(hop.entity), hopWords(hop), hop.percent_in_next === undefined ? '— (the target)' : percentWords(hop.percent_in_next)],
    }));
    // A path's title and words stay on the page of its hops (two lines of words for a long chain).
    w.ensureSpace(w.tableHeight(HOP_COLUMNS, hops) + PATH_WORDS_HEIGHT);
    const how = [
      `adds ${percentWords(path.contribution_percent)} to the target`,
      path.certain ? 'certain' : 'not certain',
      path.complete ? '' : 'the chain continues above its first hop',
    ];
    w.paragraph(`Path ${i + 1} of ${rule.paths.length}: ${how.filter(Boolean).join('; ')}`, { font: 'bold' });
    w.paragraph(path.text);
    w.table(HOP_COLUMNS, hops);
  });
}

function hopWords(hop: Rule['paths'][number]['hops'][number]): string {
  if (hop.lists) return `listed: ${hop.lists.join(', ')}${hop.certain ? '' : ' (programs unknown)'}`;
  return `covered owners hold ${hop.aggregate_percent ?? 0}%${hop.certain ? '' : ' (possibly covered)'}`;
}
