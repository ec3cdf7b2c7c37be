/**
 * The dates the rules depend on, as data with their sources. When BIS extends the stay, lifts it
 * early or changes the rule, the change is an edit to this table (and to the test that pins its
 * boundaries), not to the evaluation. Dates are inclusive calendar dates, US Eastern
 * (ownership-rules.md §3.1); re-verify them against the Federal Register before each release.
 */

export type AffiliatesRuleStatus = 'not_in_effect' | 'in_force' | 'suspended';

export type RuleWindow = {
  /** First day of the window, YYYY-MM-DD; null: since always. */
  from: string | null;
  /** Last day of the window, inclusive; null: until further notice. */
  to: string | null;
  status: AffiliatesRuleStatus;
  /** True where the status is announced for the future rather than in effect when the table was written. */
  scheduled: boolean;
  source: string;
};

/** The BIS Affiliates Rule (Supp. No. 8 to Part 744), day by day. Windows are ordered and touch. */
export const BIS_AFFILIATES_RULE: readonly RuleWindow[] = [
  {
    from: null,
    to: '2025-09-28',
    status: 'not_in_effect',
    scheduled: false,
    source: 'Before the interim final rule: the "legally distinct" standard reaches only the listed entity and its branches.',
  },
  {
    from: '2025-09-29',
    to: '2025-11-09',
    status: 'in_force',
    scheduled: false,
    source: 'Interim final rule, 90 FR 47201 (FR Doc. 2025-19001, published 2025-09-30): "This rule is effective September 29, 2025."',
  },
  {
    from: '2025-11-10',
    to: '2026-11-09',
    status: 'suspended',
    scheduled: false,
    source:
      'Final rule, 90 FR 50857 (FR Doc. 2025-19846, published 2025-11-12): "Effective November 10, 2025, the amendments … in the interim final rule published at 90 FR 47201 … are stayed until November 9, 2026."',
  },
  {
    from: '2026-11-10',
    to: null,
    status: 'in_force',
    scheduled: true,
    source: '90 FR 50857: the stay is "set to end November 9, 2026, absent a future extension"; no extension was found as of 2026-05.',
  },
];

/**
 * The Temporary General License of Supp. No. 1 to Part 736 (ownership-rules.md §3.1): it
 * authorized some transactions with affiliates while in force; it never changed an entity's
 * status, and the stay of 2025-11-10 suspended it with the rule. Its own expiry (28 Nov or
 * 1 Dec 2025 in the secondary sources) falls inside the stay, so the stay bounds it.
 */
export const BIS_TGL_WINDOW = {
  from: '2025-09-29',
  to: '2025-11-09',
  source: 'Supp. No. 1 to Part 736, added by 90 FR 47201; stayed by 90 FR 50857.',
} as const;

/**
 * OFAC's aggregation standard dates from its revised guidance of 13 August 2014 (79 FR 47726);
 * the 2008 guidance was read as covering single owners only (ownership-rules.md R-O7).
 */
export const OFAC_AGGREGATION_GUIDANCE_FROM = '2014-08-13';

/** The window holding `asOf` (YYYY-MM-DD; such strings compare as dates). */
export function affiliatesRuleWindow(asOf: string, table: readonly RuleWindow[] = BIS_AFFILIATES_RULE): RuleWindow {
  const window = table.find((w) => (w.from === null || w.from <= asOf) && (w.to === null || asOf <= w.to));
  if (!window) throw new Error(`The rule-status table has no window for ${asOf}`);
  return window;
}

export const inWindow = (asOf: string, window: { from: string; to: string }) => window.from <= asOf && asOf <= window.to;
