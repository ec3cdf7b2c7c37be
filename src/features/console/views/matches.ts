/**
 * A case's matches as an adjudicator compares them: for each, why the engine matched it (its
 * summary, word by word, and what each qualifier did to the score) beside the list entry itself
 * (as the loaded list version holds it), then the matches cleared without a person (each with what
 * cleared it and why, explained the same way), then the country flags of the screening. A match
 * on one of the organization's watchlists also names the watchlist, the severity and the reason
 * (watchlist-match.ts). The words are the evidence PDF's, so the page and the document an
 * auditor reads say the same thing.
 */

import { formatContribution, formatScore, formatSimilarity } from '../../../evidence/evidence-format.ts';
import { CLEARED_BY_WORDS, FACTOR_WORDS, FIELD_WORDS, HOW_WORDS, NAME_KIND_WORDS } from '../../../evidence/match-sections.ts';
import type { ListSnapshot } from '../../../lists/catalog.ts';
import { type DateOfBirth, type ListEntity, partialDateText } from '../../../screening/model.ts';
import type { PresentedScreening as Screening } from '../../screenings/present.ts';
import { badge } from '../format.ts';
import { type Html, html } from '../html.ts';
import { watchlistNote } from './watchlist-match.ts';

type Match = Screening['matches'][number];
type ClearedMatch = Screening['auto_cleared_matches'][number];

export function matchesSection(screening: Screening, decisions: Record<string, string>, snapshot: ListSnapshot | undefined): Html {
  const matches = screening.matches;
  return html`<section aria-labelledby="matches-heading">
<h2 id="matches-heading">Matches (${matches.length})</h2>
${matches.length === 0 && html`<p>No list entry scored at or above its threshold.</p>`}
${matches.map((m, i) => {
  const note = html`${m.suppressed_by && html`<p>${badge('suppressed', 'closed')} An earlier clearing of this subject against this same entry covers it (${m.suppressed_by}).</p>`}
${decisions[m.id] && html`<p>Decided so far: ${badge(decisions[m.id] === 'true_match' ? 'true match' : 'false positive', decisions[m.id] === 'true_match' ? 'denied' : 'cleared')}</p>`}`;
  return matchSection(m, { id: `match-${i + 1}`, title: `Match ${i + 1} of ${matches.length}` }, note, snapshot, screening.list_versions);
})}
</section>
${autoClearedSection(screening, snapshot)}
${countryFlagsSection(screening.country_flags)}`;
}

/** Every match cleared without a person, with what cleared it, the rules version and the reason. */
function autoClearedSection(screening: Screening, snapshot: ListSnapshot | undefined): Html {
  const cleared = screening.auto_cleared_matches;
  return html`<section aria-labelledby="auto-cleared-heading">
<h2 id="auto-cleared-heading">Auto-cleared matches (${cleared.length})</h2>
${cleared.length === 0 && html`<p>No match was cleared without a person.</p>`}
${cleared.map((m, i) => matchSection(m, { id: `auto-cleared-${i + 1}`, title: `Auto-cleared ${i + 1} of ${cleared.length}` }, clearedNote(m), snapshot, screening.list_versions))}
</section>`;
}

function clearedNote(match: ClearedMatch): Html {
  const by = match.cleared_by;
  if (!by) return html`<p>${badge('auto-cleared', 'closed')} Within the auto-clear band (recorded before the reason was kept).</p>`;
  const what = `${CLEARED_BY_WORDS[by.kind]}${by.rule ? ` “${by.rule}”` : ''}${by.suppression_id ? ` ${by.suppression_id}` : ''}`;
  return html`<p>${badge('auto-cleared', 'closed')} Cleared by ${what}, rules version ${by.rules_version}: ${by.reason}.</p>`;
}

function matchSection(
  match: Match,
  heading: { id: string; title: string },
  note: Html,
  snapshot: ListSnapshot | undefined,
  versions: Screening['list_versions'],
): Html {
  const { id } = heading;
  const entry = snapshot?.entity(match.list, match.entry_id);
  const loaded = snapshot?.versions.find((v) => v.list === match.list)?.id;
  const { watchlist } = match;
  return html`<section class="match" aria-labelledby="${id}">
<h3 id="${id}">${heading.title}: ${match.entry_name} <span class="list-code">${match.list}</span> <span class="score">score ${formatScore(match.score)}</span></h3>
${note}
${watchlist && watchlistNote(watchlist)}
<div class="side-by-side">
<div class="explanation">
<h4>Why it matched</h4>
${match.explanation.found_by_identifier && html`<p><strong>Found by identifier:</strong> ${match.explanation.found_by_identifier}; the names alone are no match.</p>`}
<p>${match.explanation.summary}</p>
${
  match.explanation.tokens.length > 0 &&
  html`<table>
<caption>Word by word</caption>
<thead><tr><th scope="col">Subject's word</th><th scope="col">Listed word</th><th scope="col">How</th><th scope="col">Similarity</th><th scope="col">Weight</th></tr></thead>
<tbody>${match.explanation.tokens.map((t) => html`<tr><td>${t.query ?? '—'}</td><td>${t.list ?? '—'}</td><td>${HOW_WORDS[t.how as keyof typeof HOW_WORDS] ?? t.how}</td><td>${formatSimilarity(t.similarity)}</td><td>${formatSimilarity(t.weight)}</td></tr>`)}</tbody>
</table>`
}
${
  match.explanation.qualifiers.length === 0
    ? html`<p>No qualifier (date of birth, country, type, identifier) changed the score.</p>`
    : html`<table>
<caption>What else counted</caption>
<thead><tr><th scope="col">Qualifier</th><th scope="col">Effect</th><th scope="col">Change</th><th scope="col">Detail</th></tr></thead>
<tbody>${match.explanation.qualifiers.map((q) => html`<tr><td>${FACTOR_WORDS[q.factor as keyof typeof FACTOR_WORDS] ?? q.factor}</td><td>${q.effect}</td><td>${formatContribution(q.contribution)}</td><td>${q.detail}</td></tr>`)}</tbody>
</table>`
}
</div>
<div class="entry">
<h4>The list entry</h4>
<dl>
<dt>List</dt><dd>${match.list}, version <code>${match.list_version}</code>${watchlist ? '' : versionNote(match, loaded, versions)}</dd>
<dt>Entry id</dt><dd>${match.entry_id}</dd>
<dt>Entry SHA-256</dt><dd><code>${match.entry_sha256}</code></dd>
<dt>Threshold</dt><dd>${formatScore(match.threshold)}</dd>
<dt>Listed name</dt><dd>${match.entry_name}</dd>
<dt>Type</dt><dd>${match.entry_type}</dd>
<dt>Name that matched</dt><dd>${match.matched_name} (${NAME_KIND_WORDS[match.name_kind] ?? match.name_kind}), against ${FIELD_WORDS[match.field] ?? match.field}</dd>
<dt>Programs</dt><dd>${match.programs.length > 0 ? match.programs.join(', ') : 'none listed'}</dd>
${entry && entryDetails(entry)}
</dl>
</div>
</div>
</section>`;
}

/** Whether the entry shown is from the version the match was made against. */
function versionNote(match: Match, loaded: string | undefined, versions: Screening['list_versions']): Html | string {
  if (loaded === match.list_version) return '';
  const screened = versions.find((v) => v.version_id === match.list_version);
  const published = screened?.published_on ? `, published ${screened.published_on}` : '';
  return html` <span class="help">(screened against that version${published}; ${loaded ? html`the details below are from the version loaded now, <code>${loaded}</code>` : 'this list is not loaded now'})</span>`;
}

const dateOfBirth = (d: DateOfBirth) => `${d.circa ? 'circa ' : ''}${partialDateText(d)}${d.until ? ` to ${partialDateText(d.until)}` : ''}`;

function entryDetails(entry: ListEntity): Html {
  const others = entry.names.filter((n) => n.kind !== 'primary');
  const rows: [string, string | Html][] = [
    ['Other names', others.map((n) => `${n.full} (${NAME_KIND_WORDS[n.kind] ?? n.kind})`).join('; ')],
    ['Dates of birth', entry.datesOfBirth.map(dateOfBirth).join('; ')],
    ['Places of birth', entry.placesOfBirth.join('; ')],
    ['Nationalities', entry.nationalities.join(', ')],
    ['Countries', [...entry.countries, ...entry.unmappedCountries].join(', ')],
    ['Identifiers', entry.identifiers.map((i) => `${i.type} ${i.value}${i.country ? ` (${i.country})` : ''}`).join('; ')],
    ['Addresses', entry.addresses.map((a) => [a.street, a.cityStatePostal, a.countryName ?? a.country].filter(Boolean).join(', ')).join('; ')],
    ['Linked to', entry.linkedTo.join('; ')],
    ['Listed on', entry.listedOn ? partialDateText(entry.listedOn) : ''],
    ['Remarks', entry.remarks ?? ''],
  ];
  return html`${rows.filter(([, value]) => value !== '').map(([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`)}`;
}

function countryFlagsSection(flags: Screening['country_flags']): Html {
  return html`<section aria-labelledby="flags-heading">
<h2 id="flags-heading">Country flags (${flags.length})</h2>
${
  flags.length === 0
    ? html`<p>No sanctioned or restricted country or region was found in what was screened.</p>`
    : html`<table>
<thead><tr><th scope="col">Country</th><th scope="col">Regime</th><th scope="col">Severity</th><th scope="col">Why</th><th scope="col">Source</th></tr></thead>
<tbody>${flags.map(
        (f) =>
          html`<tr><td>${f.country}${f.region && html` (${f.region})`}${f.matched_term && html` <span class="help">named as “${f.matched_term}”</span>`}</td><td>${f.regime}</td><td>${badge(f.severity, f.severity === 'prohibited' ? 'denied' : 'escalated')}</td><td>${f.reason}</td><td><a href="${f.source_url}" rel="noreferrer">${f.citation}</a>, from ${f.effective_from}</td></tr>`,
      )}</tbody>
</table>`
}
</section>`;
}
