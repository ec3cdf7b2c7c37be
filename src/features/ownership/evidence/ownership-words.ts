/**
 * How an ownership check's parties, statuses and percentages read in its evidence. A party is
 * named by its name and the caller's id for it ("Helios Holding Ltd (H1)"): the answer speaks in
 * ids, an auditor reads names, and the id is what finds the party in the record.
 */
import { formatCount } from '../../../evidence/evidence-format.ts';
import type { AffiliatesRuleStatus } from '../../../ownership/rule-status.ts';
import type { OwnershipStatus } from '../../cases/rules.ts';
import type { EvidenceOwnershipCheck, OwnershipAnswer } from './ownership-evidence-input.ts';

type Party = EvidenceOwnershipCheck['request']['entities'][number];

export type Parties = { name: (id: string) => string; get: (id: string) => Party | undefined };

export function partiesOf(check: EvidenceOwnershipCheck): Parties {
  const byId = new Map(check.request.entities.map((entity) => [entity.id, entity]));
  return {
    name: (id) => {
      const name = byId.get(id)?.name?.trim();
      return name ? `${name} (${id})` : id;
    },
    get: (id) => byId.get(id),
  };
}

export const STATUS_WORDS: Record<OwnershipStatus, string> = {
  blocked: "BLOCKED under OFAC's 50 Percent Rule",
  restricted: 'RESTRICTED under the BIS Affiliates Rule (not blocked by OFAC)',
  indeterminate: "INDETERMINATE: stakes or programs that are not known could change a rule's answer; review before relying on it",
  clear: 'CLEAR: neither rule reaches the target on this date',
};

export const RULE_STATUS_WORDS: Record<AffiliatesRuleStatus, string> = {
  not_in_effect: 'not in effect',
  in_force: 'in force',
  suspended: 'suspended (stayed)',
};

/** Each rule's verdict on the target in one line, as the evidence and a determination's case (determination-cases.ts) state it. */
export const ofacVerdictWords = (ofac: Pick<OwnershipAnswer['ofac'], 'blocked' | 'determinate' | 'basis'>) =>
  `${ofac.blocked ? 'blocked' : 'not blocked'}${ofac.determinate ? '' : ', not determinate'}; basis: ${ofac.basis}`;

export const bisVerdictWords = (bis: Pick<OwnershipAnswer['bis'], 'restricted' | 'determinate' | 'basis' | 'affiliates_rule_status'>, asOf: string) =>
  `${bis.restricted ? 'restricted' : 'not restricted'}${bis.determinate ? '' : ', not determinate'}; basis: ${bis.basis}; rule ${RULE_STATUS_WORDS[bis.affiliates_rule_status]} on ${asOf}`;

export const BASIS_WORDS: Record<'listed' | 'ownership' | 'none', string> = {
  listed: 'listed: on a list this rule counts',
  ownership: 'ownership: owned 50% or more by covered parties',
  none: 'none: neither listed nor covered through ownership',
};

export const yesNo = (value: boolean, yes = 'yes', no = 'no') => (value ? yes : no);

/** A stake as the answer gives it: "30%", or "?%" when its size is unknown. */
export const percentWords = (percent: number | null | undefined) => (percent === null || percent === undefined ? '?%' : `${percent}%`);

/** "2 parties", "1 party". */
export const counted = (count: number, one: string, many: string) => `${formatCount(count)} ${count === 1 ? one : many}`;
