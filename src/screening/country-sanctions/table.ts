/**
 * Which countries and regions U.S. law restricts as a whole, whoever the person is: the dated,
 * cited table behind country screening. A name match says "this party is listed"; this table says
 * "this place is embargoed", and the two are separate alerts (matching.md §6.4).
 *
 * Every row names its regime, a reason in plain words, the legal citation and where to read it.
 * Rows are never deleted when the law changes: a lifted measure gets an `until`, so a screening
 * replayed for an earlier date sees the table as it stood then (Syria, Cambodia).
 *
 * Dates are U.S. Eastern calendar dates (orders take effect at 12:01 a.m. Eastern). `from` is the
 * first day a row applies and `until` the first day it no longer does. Where this review could
 * confirm that a row was in force on some date but not when it began, `fromExact` is false: `from`
 * is then "in force no later than", and the lookup flags earlier dates too rather than clear them.
 *
 * What this review could not confirm from a source is said next to the row, not guessed.
 */

export const COUNTRY_REGIMES = ['OFAC_COMPREHENSIVE', 'OFAC_REGION', 'ITAR_126_1', 'EAR_E1', 'EAR_E2'] as const;
export type CountryRegime = (typeof COUNTRY_REGIMES)[number];

/**
 * `prohibited`: a comprehensive embargo or a policy of denial without exceptions. `restricted`: a
 * policy of denial with case-by-case exceptions, or a country group that narrows license
 * exceptions; a license may still be had.
 */
export type CountrySeverity = 'prohibited' | 'restricted';

/** Regions sanctioned apart from their country; their parent country is not sanctioned as a whole. */
export type SanctionedRegionId = 'crimea' | 'dnr' | 'lnr';

export type CountrySanction = {
  /** ISO 3166-1 alpha-2; for a region, the country it lies in. */
  country: string;
  region?: SanctionedRegionId;
  regime: CountryRegime;
  severity: CountrySeverity;
  reason: string;
  citation: string;
  sourceUrl: string;
  /** YYYY-MM-DD, the first day the row applies (or, with `fromExact: false`, a day it is known to apply). */
  from: string;
  fromExact: boolean;
  /** YYYY-MM-DD, the first day the row no longer applies. */
  until?: string;
};

/** When this table was last checked against its sources. The API shows it so staleness is visible. */
export const COUNTRY_SANCTIONS_REVIEWED_ON = '2026-11-22';

const OFAC = 'https://ofac.treasury.gov/sanctions-programs-and-country-information';
const ITAR_126_1 = 'https://www.ecfr.gov/current/title-22/chapter-I/subchapter-M/part-126/section-126.1';
const EAR_GROUPS = 'https://www.ecfr.gov/current/title-15/subtitle-B/chapter-VII/subchapter-C/part-740/appendix-Supplement%20No.%201%20to%20Part%20740';

const ofac: CountrySanction[] = [
  {
    country: 'CU',
    regime: 'OFAC_COMPREHENSIVE',
    severity: 'prohibited',
    reason: 'Comprehensive U.S. embargo on Cuba: nearly all trade, financial and travel-related dealings need an OFAC authorization.',
    citation: '31 CFR Part 515 (Cuban Assets Control Regulations)',
    sourceUrl: `${OFAC}/cuba-sanctions`,
    // Effective 12:01 a.m. EST, July 8, 1963 (Federal Reserve Bank of New York circular 5353).
    from: '1963-07-08',
    fromExact: true,
  },
  {
    country: 'IR',
    regime: 'OFAC_COMPREHENSIVE',
    severity: 'prohibited',
    reason: 'Comprehensive U.S. embargo on Iran: exports, imports, new investment and facilitation by U.S. persons are prohibited.',
    citation: '31 CFR Part 560 (Iranian Transactions and Sanctions Regulations); E.O. 12959',
    sourceUrl: `${OFAC}/iran-sanctions`,
    // E.O. 12959 of May 6, 1995, effective 12:01 a.m. EDT, May 7, 1995 (60 FR 24757; its transmittal letter).
    from: '1995-05-07',
    fromExact: true,
  },
  {
    country: 'KP',
    regime: 'OFAC_COMPREHENSIVE',
    severity: 'prohibited',
    reason: 'Comprehensive U.S. embargo on North Korea: all exports and new investment by U.S. persons are prohibited and the government is blocked.',
    citation: '31 CFR Part 510 (North Korea Sanctions Regulations); E.O. 13722',
    sourceUrl: `${OFAC}/north-korea-sanctions`,
    // E.O. 13722 is dated March 15, 2016 (81 FR 14943) and made the export ban comprehensive;
    // secondary sources report it issued on the 16th. The earlier date is kept: it errs toward a flag.
    from: '2016-03-15',
    fromExact: true,
  },
  {
    country: 'SY',
    regime: 'OFAC_COMPREHENSIVE',
    severity: 'prohibited',
    reason: 'Former comprehensive U.S. embargo on Syria (government blocked, new investment and exports of services prohibited), revoked from July 1, 2025.',
    citation: '31 CFR Part 542 (Syrian Sanctions Regulations, removed in 2025); E.O. 13582, revoked by E.O. 14312',
    sourceUrl: 'https://www.govinfo.gov/content/pkg/FR-2025-07-03/html/2025-12506.htm',
    // E.O. 13582 is dated August 17, 2011 (reported signed on the 18th; the earlier date errs toward
    // a flag). E.O. 14312 of June 30, 2025 terminated the emergency and revoked it "effective July
    // 1, 2025"; OFAC removed Part 542 on August 26, 2025. Persons still listed under E.O. 13894
    // (Assad and associates) are name-screening hits, not a country flag.
    from: '2011-08-17',
    fromExact: true,
    until: '2025-07-01',
  },
  {
    country: 'UA',
    region: 'crimea',
    regime: 'OFAC_REGION',
    severity: 'prohibited',
    reason: 'Crimea region of Ukraine: comprehensive U.S. embargo on new investment, imports, exports and facilitation. Ukraine itself is not embargoed.',
    citation: 'E.O. 13685; 31 CFR Part 589 (Ukraine-/Russia-Related Sanctions Regulations); EAR 15 CFR 746.6',
    sourceUrl: `${OFAC}/ukraine-russia-related-sanctions`,
    // E.O. 13685 of December 19, 2014, effective 3:30 p.m. Eastern that day (Morgan Lewis, Jan 2015).
    from: '2014-12-19',
    fromExact: true,
  },
  {
    country: 'UA',
    region: 'dnr',
    regime: 'OFAC_REGION',
    severity: 'prohibited',
    reason: 'So-called Donetsk People’s Republic (DNR) region of Ukraine: comprehensive U.S. embargo. It is not the whole Donetsk oblast (OFAC FAQ 1009).',
    citation: 'E.O. 14065; 31 CFR Part 589 (Ukraine-/Russia-Related Sanctions Regulations); EAR 15 CFR 746.6',
    sourceUrl: 'https://ofac.treasury.gov/faqs/1009',
    // E.O. 14065 of February 21, 2022, effective immediately (87 FR 10293). Treasury may add "such
    // other regions of Ukraine"; none added was found in this review.
    from: '2022-02-21',
    fromExact: true,
  },
  {
    country: 'UA',
    region: 'lnr',
    regime: 'OFAC_REGION',
    severity: 'prohibited',
    reason: 'So-called Luhansk People’s Republic (LNR) region of Ukraine: comprehensive U.S. embargo. It is not the whole Luhansk oblast (OFAC FAQ 1009).',
    citation: 'E.O. 14065; 31 CFR Part 589 (Ukraine-/Russia-Related Sanctions Regulations); EAR 15 CFR 746.6',
    sourceUrl: 'https://ofac.treasury.gov/faqs/1009',
    from: '2022-02-21',
    fromExact: true,
  },
];

/*
 * ITAR §126.1. Paragraph (d)(1): a policy of denial with no exceptions. Paragraph (d)(2): a policy
 * of denial with the country-specific exceptions of later paragraphs. Membership was confirmed from
 * secondary summaries of the current section (cmmccompliance.us, fluet.law, Fenwick 2026) and from
 * 90 FR 29720 (effective July 7, 2025), which amended the (d)(2) table and re-inserted Cambodia.
 * When each country entered §126.1 was not confirmed, so those rows carry "in force by
 * 2025-07-07"; the country-specific paragraph letters were not confirmed either, except
 * Nicaragua's (p).
 */
const ITAR_CONFIRMED_BY = '2025-07-07';
const itarDenial = (country: string, name: string): CountrySanction => ({
  country,
  regime: 'ITAR_126_1',
  severity: 'prohibited',
  reason: `${name} is an ITAR proscribed country: U.S. policy is to deny every license and approval for defense articles and services.`,
  citation: '22 CFR 126.1(d)(1) (ITAR proscribed countries)',
  sourceUrl: ITAR_126_1,
  from: ITAR_CONFIRMED_BY,
  fromExact: false,
});
const itarEmbargo = (country: string, name: string, extra: Partial<CountrySanction> = {}): CountrySanction => ({
  country,
  regime: 'ITAR_126_1',
  severity: 'restricted',
  reason: `${name} is under a U.S. arms embargo: defense articles and services are denied except as §126.1 allows case by case.`,
  citation: '22 CFR 126.1(d)(2) (ITAR arms-embargoed countries)',
  sourceUrl: ITAR_126_1,
  from: ITAR_CONFIRMED_BY,
  fromExact: false,
  ...extra,
});

const itar: CountrySanction[] = [
  itarDenial('BY', 'Belarus'),
  itarDenial('MM', 'Burma'),
  itarDenial('CN', 'China'),
  itarDenial('CU', 'Cuba'),
  itarDenial('IR', 'Iran'),
  itarDenial('KP', 'North Korea'),
  // Still listed after E.O. 14312: no removal of Syria from §126.1 was found in this review.
  itarDenial('SY', 'Syria'),
  itarDenial('VE', 'Venezuela'),
  itarEmbargo('AF', 'Afghanistan'),
  itarEmbargo('CF', 'The Central African Republic'),
  itarEmbargo('CY', 'Cyprus', {
    // §126.1(r): the denial policy for Cyprus has been suspended one year at a time since 2020, the
    // latest renewal to September 30, 2026 (Export Compliance Daily). Cyprus stays in the table.
    reason:
      'Cyprus is listed in ITAR §126.1, but the policy of denial has been suspended one year at a time since 2020 (latest renewal to 2026-09-30): check the current suspension.',
  }),
  itarEmbargo('CD', 'The Democratic Republic of the Congo'),
  itarEmbargo('ER', 'Eritrea'),
  itarEmbargo('ET', 'Ethiopia'),
  itarEmbargo('HT', 'Haiti'),
  itarEmbargo('IQ', 'Iraq'),
  itarEmbargo('LB', 'Lebanon'),
  itarEmbargo('LY', 'Libya'),
  itarEmbargo('RU', 'Russia'),
  itarEmbargo('SO', 'Somalia'),
  itarEmbargo('SS', 'South Sudan'),
  itarEmbargo('SD', 'Sudan'),
  itarEmbargo('ZW', 'Zimbabwe'),
  // Added by 89 FR 18796, effective March 15, 2024, in paragraph (p) (case-by-case exception for
  // non-lethal equipment for humanitarian assistance).
  itarEmbargo('NI', 'Nicaragua', { citation: '22 CFR 126.1(d)(2) and (p) (ITAR arms-embargoed countries)', from: '2024-03-15', fromExact: true }),
  // Removed by a DDTC final rule published November 7, 2025 (Crowell & Moring, Nov 2025); the rule
  // is taken to be effective on publication, which was not confirmed from the rule itself.
  itarEmbargo('KH', 'Cambodia', { until: '2025-11-07' }),
];

/*
 * EAR Country Groups, Supplement No. 1 to Part 740. The current eCFR table could not be read in this
 * review. E:1 (terrorist supporting countries) follows the State Department's state sponsors of
 * terrorism; Iran, North Korea and Syria were designated in 2025 (May 2025 reports), and BIS's
 * Syria rule effective September 2, 2025 explicitly left Syria in E:1 (Covington, Sept 2025); a later
 * rescission of Syria's designation was under review but not found. Cuba left E:1 on July 22, 2015
 * (80 FR 43314) and stayed in E:2; whether BIS put Cuba back in E:1 after its 2021 re-designation
 * as a state sponsor was not confirmed, so no E:1 row is kept for Cuba (its other rows flag it).
 */
const EAR_CONFIRMED_BY = '2025-09-02';
const earTerrorist = (country: string, name: string): CountrySanction => ({
  country,
  regime: 'EAR_E1',
  severity: 'restricted',
  reason: `${name} is in EAR Country Group E:1 (terrorist supporting countries): most license exceptions are unavailable and a 10% de minimis rule applies.`,
  citation: '15 CFR Part 740, Supplement No. 1, Country Group E:1 (terrorist supporting countries)',
  sourceUrl: EAR_GROUPS,
  from: EAR_CONFIRMED_BY,
  fromExact: false,
});

const ear: CountrySanction[] = [
  earTerrorist('IR', 'Iran'),
  earTerrorist('KP', 'North Korea'),
  earTerrorist('SY', 'Syria'),
  {
    country: 'CU',
    regime: 'EAR_E2',
    severity: 'prohibited',
    reason:
      'Cuba is in EAR Country Group E:2 (unilateral embargo): a license is required for nearly every item subject to the EAR, under a general policy of denial.',
    citation: '15 CFR Part 740, Supplement No. 1, Country Group E:2 (unilateral embargo); 15 CFR 746.2',
    sourceUrl: EAR_GROUPS,
    // Confirmed in E:2 by the 2015 rule that removed it from E:1; when E:2 began was not confirmed.
    from: '2015-07-22',
    fromExact: false,
  },
];

export const COUNTRY_SANCTIONS: readonly CountrySanction[] = Object.freeze([...ofac, ...itar, ...ear]);
