/**
 * The rules' `country_holds` section: which screenings a country flag holds on its own, with no
 * name match. By default every first screening (prescreen, check-in, vendor, workforce) of a
 * subject with a `prohibited` flag of any regime is held: a national of an embargoed country, or of
 * an ITAR §126.1(d)(1) country, is a deemed-export question at a defense site before it is anything
 * else, and sanctions are strict liability. An organization that decides otherwise says so here
 * (narrower regimes, fewer sources, or none), in a versioned and audited rule.
 *
 * A re-screen (monitoring, source `rescreen`) never holds: it looks only at list entries that
 * changed, and the country was weighed when the subject was first screened; holding again would
 * reopen every decided case of such a subject at each list update.
 */

import type { HoldPolicy } from '../../screening/country-sanctions/holds.ts';
import { NO_HOLDS } from '../../screening/country-sanctions/holds.ts';
import { COUNTRY_REGIMES, type CountryRegime } from '../../screening/country-sanctions/table.ts';

export const HOLD_SOURCES = ['prescreen', 'checkin', 'vendor', 'workforce'] as const;
export type HoldSource = (typeof HOLD_SOURCES)[number];

export type CountryHoldRules = {
  /** Regimes whose `prohibited` flags hold the subject with no name match; [] holds only what `escalation.country_flags` names. */
  prohibited_regimes: CountryRegime[];
  /** The screenings country holds apply to (those of `escalation.country_flags` too). */
  sources: HoldSource[];
};

export const DEFAULT_COUNTRY_HOLDS: CountryHoldRules = { prohibited_regimes: [...COUNTRY_REGIMES], sources: [...HOLD_SOURCES] };

/** The section from a rules body: a field left out takes its default. */
export function completeCountryHolds(body: Partial<CountryHoldRules> | undefined): CountryHoldRules {
  return {
    prohibited_regimes: [...new Set(body?.prohibited_regimes ?? DEFAULT_COUNTRY_HOLDS.prohibited_regimes)],
    sources: [...new Set(body?.sources ?? DEFAULT_COUNTRY_HOLDS.sources)],
  };
}

/** What holds in a screening from `source` under these rules. */
export function holdPolicyFor(rules: { escalation: { country_flags: CountryRegime[] }; country_holds: CountryHoldRules }, source: string): HoldPolicy {
  if (!(rules.country_holds.sources as string[]).includes(source)) return NO_HOLDS;
  return { escalate: rules.escalation.country_flags, prohibited: rules.country_holds.prohibited_regimes };
}
