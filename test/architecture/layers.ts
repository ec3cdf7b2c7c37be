/**
 * The declared order of src/'s parts, lowest first. A part imports only parts of layers below its
 * own: never one of its own layer, never one above. test/architecture.test.ts holds src/ to it.
 *
 * A part is a feature (a folder of src/features/), the platform every feature stands on (the
 * rest of src/: http, db, auth, audit, lists, screening, …), or the entry points that put the
 * features together and start them.
 */
export const LAYERS = [
  ['platform'],
  // The cases screenings open, the rules that decide when, and the suppressions that keep a cleared subject quiet;
  // and the organization's own watchlists, screened beside the public lists.
  ['cases', 'watchlists'],
  // Screening a subject under those rules, opening its case in the same transaction.
  ['screenings'],
  // The API's other features: those that work cases or screen their own subjects, and those that stand alone.
  [
    'adjudication',
    'monitoring',
    'visitor-sessions',
    'workforce',
    'api-keys',
    'audit-export',
    'caller',
    'events',
    'health',
    'inbound-webhooks',
    'lists',
    'ownership',
    'sign-out',
    'webhooks',
  ],
  // Pages for people, over the services the API's routes call.
  ['console'],
  ['entry points'],
] as const satisfies readonly (readonly string[])[];

/** The files that put the application together and start it: above every feature. */
const ENTRY_POINTS = ['src/app.ts', 'src/composition.ts', 'src/server.ts', 'src/cli/'];

/** The part a file of src/ belongs to. */
export function partOf(file: string): string {
  if (ENTRY_POINTS.some((entry) => (entry.endsWith('/') ? file.startsWith(entry) : file === entry))) return 'entry points';
  const feature = /^src\/features\/([^/]+)\//.exec(file);
  return feature ? (feature[1] as string) : 'platform';
}
