/**
 * Reads of personal data, as the audit trail names them. The list is closed so that reads and
 * everything else can be told apart by action alone (the export's `kind=read|write`), in old
 * events as in new ones: the chain's hashed fields stay what they were.
 */
export const READ_ACTIONS = [
  'screening.viewed',
  'screening.evidence_downloaded',
  'case.viewed',
  'case.listed',
  'visitor_session.viewed',
  'visitor_session.listed',
  'workforce_profile.listed',
  'watchlist_entry.listed',
  'watchlist_entry.viewed',
  'watchlist_entry.exported',
  'ownership_check.viewed',
  'ownership_check.listed',
  'ownership_check.evidence_downloaded',
  'audit.viewed',
  'audit.exported',
] as const;

export type ReadAction = (typeof READ_ACTIONS)[number];

/** `read`: the actions above; `write`: every other event (changes, sign-ins, refusals to authenticate). */
export type EventKind = 'read' | 'write';
