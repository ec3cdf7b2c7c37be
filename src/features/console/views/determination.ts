/**
 * The ownership determination a case is about, as its case page shows it: the target, what each
 * rule decided, and the way to the drawn graph and the record. The decision is the case's; the
 * graph and its paths are on the determination's own page.
 */
import type { presentStoredCheck } from '../../ownership/check-present.ts';
import { bisVerdictWords, ofacVerdictWords } from '../../ownership/evidence/ownership-words.ts';
import { badge, when } from '../format.ts';
import { type Html, html } from '../html.ts';

export type PresentedDetermination = ReturnType<typeof presentStoredCheck>;

export const determinationTarget = (d: PresentedDetermination) => `${d.target.name ?? d.target.id} (ownership)`;

export function determinationSection(d: PresentedDetermination): Html {
  const { ofac, bis } = d.answer;
  const listed = d.answer.entities.filter((e) => e.designations.length > 0);
  return html`<section aria-labelledby="determination-heading">
<h2 id="determination-heading">Ownership determination</h2>
<dl>
<dt>Target</dt><dd>${d.target.name ?? '(unnamed)'} <span class="help">your id ${d.target.id}</span></dd>
<dt>Status</dt><dd>${badge(d.status)}</dd>
<dt>OFAC 50 Percent Rule</dt><dd>${ofacVerdictWords(ofac)}${ofac.aggregate_percent !== null && `; covered owners hold ${ofac.aggregate_percent}%`}</dd>
<dt>BIS Affiliates Rule</dt><dd>${bisVerdictWords(bis, d.as_of)}</dd>
<dt>Listed parties</dt><dd>${listed.length === 0 ? 'none' : listed.map((e) => `${e.id}: ${e.designations.map((x) => x.list).join(', ')}`).join('; ')}</dd>
<dt>Determination</dt><dd><a href="/console/ownership/${d.id}"><code>${d.id}</code></a>, ${when(d.checked_at)}${d.supersedes && html`, re-evaluating <a href="/console/ownership/${d.supersedes}"><code>${d.supersedes}</code></a>`}: the graph and the paths that decided it</dd>
<dt>Record</dt><dd>SHA-256 <code>${d.record_sha256}</code> ${d.record_sha256_verified ? '(verified)' : html`<strong>(does not match the record)</strong>`}</dd>
</dl>
</section>`;
}
