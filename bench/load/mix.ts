/**
 * The load run's requests, in the proportions: prescreen 50% (clean names, listed names,
 * typos and transliterations: bench/api/prescreen-mix.ts), GET /screenings/{id} 20% (stored
 * screenings of the caller's organization), check-in 15% (people from the same mix at a gate),
 * the adjudication queue 10% (mostly its first page, some filtered), session update 5% (the exit
 * desk checking visitors out, or adding a note). Each request acts for one of the organizations,
 * drawn at random, with that organization's key, and reads only its own data. Seeded: the same
 * seed plans the same requests in the same order.
 */
import type { PlannedRequest } from '../api/paced-load.ts';
import { seededRandom, shuffled } from '../matching/perturb.ts';

export type MixOrganization = { apiKey: string; screeningIds: string[]; sessions: { id: string; status: string }[] };

/** Out of every 20 requests. */
export const MIX_SHARES = { prescreen: 10, screening: 4, checkin: 3, queue: 2, session_update: 1 } as const;
export type MixTag = keyof typeof MIX_SHARES;

const SITES = ['Plant 7 — north gate', 'HQ lobby', 'Building 12 reception', 'Test range gate B'];
const QUEUE_VIEWS = ['', '', '', '', '', '', '', '?limit=20', '?min_score=0.9', '?status=ESCALATED'];

/** A check-in body for the person a prescreen body names (organizations do not walk through gates). */
export function visitorBody(prescreen: string, n: number): string | undefined {
  const body = JSON.parse(prescreen) as { subject?: string; type?: string; nationality?: string; date_of_birth?: string };
  if (!body.subject || body.type === 'organization') return undefined;
  return JSON.stringify({
    visitor: {
      name: body.subject,
      ...(body.nationality && { citizenship: body.nationality }),
      ...(body.date_of_birth && { date_of_birth: body.date_of_birth }),
    },
    site: SITES[n % SITES.length],
    host: { name: 'R. Alvarez' },
    purpose: 'Supplier quality audit',
    badge_number: `V-${1000 + (n % 9000)}`,
  });
}

export function planMix(organizations: readonly MixOrganization[], prescreens: readonly string[], count: number, seed: number): PlannedRequest[] {
  const random = seededRandom(seed ^ 0x6a09e667);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const visitors = prescreens.map(visitorBody).filter((b): b is string => b !== undefined);
  const deck = Object.entries(MIX_SHARES).flatMap(([tag, share]) => Array<MixTag>(share).fill(tag as MixTag));
  const requests: PlannedRequest[] = [];
  let prescreen = 0;
  let visitor = 0;
  while (requests.length < count) {
    // Each 20 requests hold the exact shares, in a shuffled order.
    for (const tag of shuffled(deck, random)) {
      const org = pick(organizations);
      const headers = { authorization: `Bearer ${org.apiKey}` };
      const request = ((): Omit<PlannedRequest, 'headers'> => {
        switch (tag) {
          case 'prescreen':
            return { tag, method: 'POST', path: '/v1/prescreen', body: prescreens[prescreen++ % prescreens.length] as string };
          case 'screening':
            return { tag, method: 'GET', path: `/v1/screenings/${pick(org.screeningIds)}` };
          case 'checkin':
            return { tag, method: 'POST', path: '/v1/checkin', body: visitors[visitor++ % visitors.length] as string };
          case 'queue':
            return { tag, method: 'GET', path: `/v1/adjudication/queue${pick(QUEUE_VIEWS)}` };
          case 'session_update': {
            const session = pick(org.sessions);
            // A visitor inside leaves (repeated, it only adds the note); one waiting on review gets a note.
            const body =
              session.status === 'checked_in'
                ? { status: 'checked_out', note: 'Badge returned at the exit.' }
                : { metadata: { parking: 'P3' }, note: 'Escort assigned.' };
            return { tag, method: 'POST', path: `/v1/sessions/${session.id}/update`, body: JSON.stringify(body) };
          }
        }
      })();
      requests.push({ ...request, headers });
    }
  }
  return requests;
}
