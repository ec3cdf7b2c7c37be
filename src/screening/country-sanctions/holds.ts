/**
 * Country holds: which of a screening's country flags hold the subject for a person's decision on
 * their own, with no name match. A flag is a fact about a place ("Iran is under a comprehensive
 * embargo"); a hold is what an organization's rules make of it ("a national of Iran waits at the
 * door until someone decides"). Two rules hold:
 *
 * - `escalation.country_flags`: the organization named the regime; any flag of it holds, whatever
 *   its severity (the case then opens ESCALATED).
 * - `country_holds.prohibited_regimes`: the table itself; a `prohibited` flag (a comprehensive
 *   embargo, an ITAR §126.1(d)(1) policy of denial, EAR E:2) of one of these regimes holds.
 *
 * Each hold says which of the subject's facts raised it (nationality, country, a region named in
 * the address), so a reviewer reads why without recomputing anything. Pure.
 */
import type { CountryFlag } from './lookup.ts';
import type { CountryRegime } from './table.ts';

/** The rule that made a flag a hold, named as the field of the adjudication rules that sets it. */
export type HoldRule = 'escalation.country_flags' | 'country_holds.prohibited_regimes';

export type CountryHold = {
  kind: 'country';
  regime: CountryRegime;
  /** ISO 3166-1 alpha-2; for a region, the country it lies in. */
  country: string;
  region?: string;
  severity: CountryFlag['severity'];
  rule: HoldRule;
  /** Which of the subject's facts raised the flag, e.g. `nationality IR`, `address names "sevastopol" (crimea)`. */
  detail: string;
};

/** What holds, under an organization's rules, for one kind of screening. */
export type HoldPolicy = {
  /** Regimes whose flags hold at any severity (the rules' `escalation.country_flags`). */
  escalate: readonly CountryRegime[];
  /** Regimes whose `prohibited` flags hold (the rules' `country_holds.prohibited_regimes`). */
  prohibited: readonly CountryRegime[];
};

/** No holds: a screening the rules leave to name matching alone (a re-screen, or a source the rules exclude). */
export const NO_HOLDS: HoldPolicy = Object.freeze({ escalate: [], prohibited: [] });

/** The subject's facts a country flag can come from (a screening's input). */
export type HoldSubject = { country?: string; nationality?: string };

/** The flags that hold under `policy`, in the flags' order, each with its rule and what raised it. */
export function countryHolds(flags: readonly CountryFlag[], subject: HoldSubject, policy: HoldPolicy): CountryHold[] {
  return flags.flatMap((flag): CountryHold[] => {
    const rule = ruleFor(flag, policy);
    if (!rule) return [];
    return [
      {
        kind: 'country',
        regime: flag.regime,
        country: flag.country,
        ...(flag.region && { region: flag.region }),
        severity: flag.severity,
        rule,
        detail: raisedBy(flag, subject),
      },
    ];
  });
}

function ruleFor(flag: CountryFlag, policy: HoldPolicy): HoldRule | undefined {
  if (policy.escalate.includes(flag.regime)) return 'escalation.country_flags';
  if (flag.severity === 'prohibited' && policy.prohibited.includes(flag.regime)) return 'country_holds.prohibited_regimes';
  return undefined;
}

function raisedBy(flag: CountryFlag, subject: HoldSubject): string {
  if (flag.region) return `address names ${flag.matched_term ? `"${flag.matched_term}" (${flag.region})` : flag.region}`;
  const fields = [subject.nationality === flag.country && 'nationality', subject.country === flag.country && 'country'].filter(Boolean);
  return `${fields.length > 0 ? fields.join(' and ') : 'country'} ${flag.country}`;
}

/** A hold in one line, as case reasons, the console and the evidence PDF write it: `OFAC_COMPREHENSIVE (IR) — nationality IR`. */
export const describeHold = (hold: Pick<CountryHold, 'regime' | 'country' | 'region' | 'detail'>): string =>
  `${hold.regime} (${hold.region ?? hold.country}) — ${hold.detail}`;
