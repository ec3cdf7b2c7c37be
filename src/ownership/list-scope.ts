/**
 * Which listings make a party count for which rule (ownership-rules.md §0, §2 R-O6, §3.2), as data
 * with sources. A party counts for a rule as a "seed": its stakes, and those of entities it makes
 * covered, are added up. Listings on other lists are reported but never added.
 */

/** The designation codes a caller may give, and the codes screening maps list entries to. */
export const DESIGNATION_LISTS = ['OFAC_SDN', 'OFAC_SSI', 'OFAC_CONS', 'BIS_EL', 'BIS_MEU', 'BIS_UVL', 'BIS_DPL'] as const;
export type DesignationList = (typeof DESIGNATION_LISTS)[number];

export type Designation = {
  list: DesignationList;
  /** OFAC program tags as in the SDN list (`RUSSIA-EO14024`); decide whether an SDN counts for BIS. */
  programs?: string[];
};

/**
 * SDN programs whose designees count for the BIS Affiliates Rule: the programs of 15 CFR
 * 744.8(a)(1) as consolidated by 89 FR 20107 (21 Mar 2024). SDNs under other programs (IRAN,
 * VENEZUELA-EO13850, GLOMAG, …) do not count for BIS. Re-verify against the current §744.8(a)(1).
 */
export const BIS_SDN_PROGRAMS: ReadonlySet<string> = new Set([
  'BELARUS',
  'UKRAINE-EO13660',
  'UKRAINE-EO13661',
  'UKRAINE-EO13662',
  'UKRAINE-EO13685',
  'RUSSIA-EO14024',
  'BELARUS-EO14038',
  'FTO',
  'SDGT',
  'NPWMD',
  'TCO',
  'ILLICIT-DRUGS-EO14059',
  'SDNT',
  'SDNTK',
]);

/**
 * SDN programs whose listings do not make an owned entity blocked, e.g. 31 CFR 550.406(a)
 * (Ethiopia, menu-based sanctions). Empty by default, as ownership-rules.md R-O6 recommends;
 * configurable per evaluation.
 */
export const OFAC_NON_TRIGGER_PROGRAMS: ReadonlySet<string> = new Set();

/**
 * What each list does for each rule. `programs` means: only for SDNs with a program in
 * BIS_SDN_PROGRAMS. Lists that count for neither are kept apart, never aggregated (§0.3):
 * SSI and other non-SDN OFAC lists are not blocking, and BIS adopted the rule for neither the
 * Unverified List nor the Denied Persons List.
 */
export const LIST_SCOPE: Readonly<Record<DesignationList, { ofac: boolean; bis: boolean | 'programs'; source: string }>> = {
  OFAC_SDN: { ofac: true, bis: 'programs', source: 'OFAC guidance of 13 Aug 2014 (79 FR 47726); 15 CFR 744.8(a)(1) via Supp. No. 8 to Part 744 ¶(b)' },
  OFAC_SSI: {
    ofac: false,
    bis: false,
    source: 'Sectoral sanctions are not blocking; no guidance combines SDN and SSI stakes (ownership-rules.md §2 R-O2, §4.4)',
  },
  OFAC_CONS: { ofac: false, bis: false, source: 'Non-SDN lists (FSE, NS-PLC, NS-MBS, NS-CMIC, CAPTA) are not blocking' },
  BIS_EL: { ofac: false, bis: true, source: 'Supp. No. 8 to Part 744 ¶(b): "entities listed on the Entity List"' },
  BIS_MEU: { ofac: false, bis: true, source: 'Supp. No. 8 to Part 744 ¶(b): "\'military end-users\' on the MEU List"' },
  BIS_UVL: { ofac: false, bis: false, source: 'Not adopted for the Unverified List (IFR, as summarized by Thompson Coburn)' },
  BIS_DPL: { ofac: false, bis: false, source: 'Not adopted for parties under Denial Orders (IFR, as summarized by Thompson Coburn)' },
};

/** Whether a party counts: surely, possibly (an SDN whose programs are not known), or not. */
export const SeedLevel = { None: 0, Possible: 1, Definite: 2 } as const;
export type SeedLevel = (typeof SeedLevel)[keyof typeof SeedLevel];

/** `[RUSSIA-EO14024]` and `russia-eo14024` are the same program tag. */
export const normalizeProgram = (program: string): string =>
  program
    .trim()
    .replace(/^\[|\]$/g, '')
    .trim()
    .toUpperCase();

export type ScopeOptions = { ofacNonTriggerPrograms?: ReadonlySet<string> };

export function ofacSeedLevel(designations: readonly Designation[], options: ScopeOptions = {}): SeedLevel {
  const nonTrigger = options.ofacNonTriggerPrograms ?? OFAC_NON_TRIGGER_PROGRAMS;
  let level: SeedLevel = SeedLevel.None;
  for (const d of designations) {
    if (!LIST_SCOPE[d.list].ofac) continue;
    const programs = d.programs ?? [];
    if (programs.length === 0 && nonTrigger.size === 0) return SeedLevel.Definite;
    if (programs.length === 0) level = SeedLevel.Possible;
    else if (programs.some((p) => !nonTrigger.has(normalizeProgram(p)))) return SeedLevel.Definite;
  }
  return level;
}

export function bisSeedLevel(designations: readonly Designation[]): SeedLevel {
  let level: SeedLevel = SeedLevel.None;
  for (const d of designations) {
    const scope = LIST_SCOPE[d.list].bis;
    if (scope === true) return SeedLevel.Definite;
    if (scope !== 'programs') continue;
    const programs = d.programs ?? [];
    if (programs.length === 0) level = SeedLevel.Possible;
    else if (programs.some((p) => BIS_SDN_PROGRAMS.has(normalizeProgram(p)))) return SeedLevel.Definite;
  }
  return level;
}

/** The designations that make a party count for a rule (for `inherited_from` and paths). */
export const countedLists = (designations: readonly Designation[], rule: 'ofac' | 'bis', options: ScopeOptions = {}): DesignationList[] => [
  ...new Set(designations.filter((d) => (rule === 'ofac' ? ofacSeedLevel([d], options) : bisSeedLevel([d])) !== SeedLevel.None).map((d) => d.list)),
];
