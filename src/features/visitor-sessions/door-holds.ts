/**
 * A prescreen stands for the screening at the door only if the door would hold no more than it
 * did. The rules may hold country flags at check-in and not at prescreen (`country_holds.sources`),
 * or may have changed since: a prescreen that was not held for a flag the door holds would let a
 * national of an embargoed country walk in on an earlier, laxer answer. Pure.
 */
import { type CountryHold, countryHolds, type HoldPolicy, type HoldSubject } from '../../screening/country-sanctions/holds.ts';
import type { CountryFlag } from '../../screening/country-sanctions/lookup.ts';

type Screened = { country_flags: CountryFlag[]; input: HoldSubject; holds?: Pick<CountryHold, 'regime' | 'country' | 'region'>[] };

/** Whether the door's policy holds a flag of this screening that the screening itself was not held for. */
export function doorHoldsMore(screened: Screened, atTheDoor: HoldPolicy): boolean {
  const held = screened.holds ?? [];
  return countryHolds(screened.country_flags, screened.input, atTheDoor).some(
    (h) => !held.some((k) => k.regime === h.regime && k.country === h.country && k.region === h.region),
  );
}
