/**
 * Country holds and flags as the console shows them: on a case, the country rule that holds its
 * subject, above everything else when no name matched (otherwise a case with no match would read
 * as empty); on the roll-call, a visitor's flags in one short line a guard can read.
 */
import { type CountryHold, describeHold } from '../../../screening/country-sanctions/holds.ts';
import { badge } from '../format.ts';
import { type Html, html } from '../html.ts';

const RULE_WORDS: Record<CountryHold['rule'], string> = {
  'escalation.country_flags': 'your escalation rules name this regime',
  'country_holds.prohibited_regimes': 'a prohibited country or region holds by default',
};

/** The holds of a case's screening, or nothing when none. */
export function holdsSection(screening: { holds?: CountryHold[]; matches: unknown[] }): Html | string {
  const holds = screening.holds ?? [];
  if (holds.length === 0) return '';
  return html`<section class="hold" aria-labelledby="hold-heading">
<h2 id="hold-heading">Held for a country rule</h2>
<p>${screening.matches.length === 0 ? 'No name match: the subject is held for the country rule below.' : 'Besides the matches, the subject is held for the country rule below.'} Clearing the case lets them through; denying it turns them away.</p>
<ul>${holds.map((h) => html`<li>${badge(h.severity, h.severity === 'prohibited' ? 'denied' : 'escalated')} <strong>${describeHold(h)}</strong>: ${RULE_WORDS[h.rule] ?? h.rule} (<code>${h.rule}</code>)</li>`)}</ul>
</section>`;
}

type Flag = { regime: string; severity: string; country: string; region?: string };

/** `IR: OFAC_COMPREHENSIVE, ITAR_126_1 prohibited; EAR_E1 restricted`, or "none". */
export function flagsLine(flags: readonly Flag[] | undefined): Html | string {
  if (!flags) return 'not recorded';
  if (flags.length === 0) return 'none';
  const places = [...new Set(flags.map((f) => f.region ?? f.country))];
  return html`${places.map((place, i) => {
    const here = flags.filter((f) => (f.region ?? f.country) === place);
    const bySeverity = ['prohibited', 'restricted']
      .map((severity) => [severity, here.filter((f) => f.severity === severity).map((f) => f.regime)] as const)
      .filter(([, r]) => r.length > 0);
    return html`${i > 0 ? '; ' : ''}${place}: ${bySeverity.map(([severity, regimes], j) => html`${j > 0 ? ', ' : ''}${regimes.join(', ')} ${badge(severity, severity === 'prohibited' ? 'denied' : 'escalated')}`)}`;
  })}`;
}
