/**
 * Every tag an operation may carry, declared once with what it groups: generators make a module
 * or class of each, and the reference page a section. An operation whose tag is not here fails
 * the OpenAPI test (test/http/openapi.test.ts), so a new group is declared where readers look.
 */
export const TAGS = [
  {
    name: 'screening',
    description: 'Screen a person, an organization or a batch of vendors against the restricted-party lists; read a screening back and its evidence PDF.',
  },
  {
    name: 'adjudication',
    description:
      'The queue of potential matches: cases, their dispositions (with four-eyes rules), assignment and notes, and the organization’s adjudication rules.',
  },
  { name: 'visitors', description: 'Visitor check-in (screening at the door), check-out and the roll-call of sessions on site.' },
  {
    name: 'watchlists',
    description:
      'The organization’s own watchlists, screened beside the public lists: their entries (one at a time, or imported and exported as CSV or JSON) and their versions.',
  },
  { name: 'workforce', description: 'Bulk sync of workforce profiles and their latest screening outcome.' },
  { name: 'monitoring', description: 'Re-screening runs started when a list changes, over the workforce and recent visitors.' },
  { name: 'ownership', description: 'Ownership-rule checks (such as OFAC’s 50 percent rule) over a graph of owners.' },
  { name: 'lists', description: 'The restricted-party lists screened against: versions, counts, and how current they are.' },
  {
    name: 'webhooks',
    description: 'Outbound events: the events feed, webhook endpoints subscribed to them, and their deliveries (signed per Standard Webhooks).',
  },
  { name: 'inbound webhooks', description: 'Events other systems send to Gatehouse (visitor management, screening), and the secret that signs them.' },
  { name: 'api keys', description: 'The organization’s API keys: create, list, disable, enable and revoke.' },
  { name: 'authentication', description: 'Who is calling and what it may do, and signing a person’s token out.' },
  { name: 'audit', description: 'Export of the tamper-evident audit trail.' },
  { name: 'operations', description: 'Health, readiness, metrics and this description.' },
] as const satisfies readonly { name: string; description: string }[];
