/**
 * Request bodies for POST /api/v1/prescreen built from real data, the same four kinds of subject
 * bench:screening measures in-process (bench/screening/query-mix.ts): names as listed (OFAC SDN
 * and UN), typos of them, transliterations (the UN's original-script names, Cyrillic spellings of
 * listed people) and clean names (yente's synthetic global negatives, with their date of birth
 * and nationality). Vessels and aircraft are left out: nobody prescreens a ship at a gate.
 * Seeded and shuffled, so two runs send the same requests in the same order, the kinds interleaved;
 * each body carries its own `reference`, so no two are alike.
 */
import type { SubjectQuery } from '../../src/screening/match-types.ts';
import { partialDateText } from '../../src/screening/model.ts';
import { loadSdnMainFile, loadUnList } from '../matching/list-loading.ts';
import { seededRandom, shuffled } from '../matching/perturb.ts';
import { readNegatives } from '../matching/sets/negatives.ts';
import { buildQueryMix, type Category } from '../screening/query-mix.ts';

export type PrescreenRequest = { category: Category; body: string };

/** The API's limit on `subject` (src/features/screenings/schemas.ts): longer names would only measure 400s. */
const SUBJECT_MAX_LENGTH = 200;

export async function buildPrescreenMix(dataDir: string, perCategory: number, seed: number): Promise<PrescreenRequest[]> {
  const listed = [...loadSdnMainFile(dataDir, 'ofac_sdn_2024-05/sdn.csv'), ...((await loadUnList(dataDir)) ?? [])].filter(
    (entity) => entity.type === 'person' || entity.type === 'organization',
  );
  const clean = readNegatives(dataDir).filter((subject) => subject.key.startsWith('negatives_global.csv'));
  const requests = buildQueryMix(listed, clean, perCategory, seed)
    .map(({ category, query }) => ({ category, query: { ...query, name: asTyped(query.name) } }))
    .filter(({ query }) => query.name.length <= SUBJECT_MAX_LENGTH)
    .map(({ category, query }, i) => ({ category, body: JSON.stringify(prescreenBody(query, `bench-${category}-${i}`)) }));
  return shuffled(requests, seededRandom(seed ^ 0x5bd1e995));
}

/**
 * A name as a person types it into a form: some of the UN's original-script names keep the XML
 * file's line breaks and indentation, which the API rightly refuses as control characters.
 */
function asTyped(name: string): string {
  return name.replace(/\s+/g, ' ').trim();
}

export function prescreenBody(query: SubjectQuery, reference: string): Record<string, string> {
  const country = query.countries?.[0];
  return {
    subject: query.name,
    ...(query.kind === 'organization' && { type: 'organization' }),
    ...(country && (query.kind === 'organization' ? { country } : { nationality: country })),
    ...(query.dateOfBirth && { date_of_birth: partialDateText(query.dateOfBirth) }),
    reference,
  };
}
