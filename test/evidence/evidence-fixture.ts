/**
 * A realistic evidence input: a person with an Arabic-script alias and a company, two matches (one
 * on the Arabic original-script name of a UN entry, one on the Cyrillic name of an OFAC entity),
 * two auto-cleared ones (one by a clearing rule, one within the band), the country flags the
 * sanctions table raises for Iran and Crimea, and an adjudication case with its history. The
 * names and ids are made up; their shapes are the lists'.
 */

import type { EvidenceInput } from '../../src/evidence/evidence-input.ts';
import { countryFlags } from '../../src/screening/country-sanctions/lookup.ts';

export const ARABIC_NAME = 'عبد الرحمن محمد';
export const CYRILLIC_NAME = 'ООО Петров Логистика';

const SCREENED_AT = '2025-03-14T09:21:07.412Z';

export function evidenceFixture(): EvidenceInput {
  return {
    organization: { id: 'org_01JQ4K8Z2R7M3X5V9T1B6N0C4D', name: 'Northwind Defense Systems' },
    screening: {
      id: 'scr_01JQ4MA5E2Y8W7P3K6H1G9F0DS',
      created_at: SCREENED_AT,
      request_id: 'req_7f3c2a91d4e84b0c',
      actor: { kind: 'api_key', id: 'key_01JQ4KB0X8N2' },
      source: 'prescreen',
      input: {
        subject: 'Abdul Rahman Mohammed',
        company: 'Petrov Logistics LLC',
        country: 'IR',
        type: 'person',
        date_of_birth: '1971-04',
        nationality: 'IR',
        aliases: ['Abd al-Rahman Muhammad', ARABIC_NAME],
        reference: 'VIS-2025-00417',
      },
      outcome: 'potential_match',
      score: 0.962,
      thresholds: { match: 0.8, lists: {}, auto_clear_band: 0.05, rules_version: 3 },
      matches: [
        {
          id: 'mat_01JQ4MA5F0K1',
          list: 'UN_SC',
          entry_id: 'QDi.990',
          entry_name: 'ABD AL-RAHMAN MUHAMMAD',
          matched_name: ARABIC_NAME,
          name_kind: 'original_script',
          field: 'alias',
          score: 0.962,
          programs: ['AL-QAIDA'],
          list_version: 'lv_un_sc_20250310',
          entry_sha256: '5f0c7b1e9a3d4c2b8e6f0a1d3c5b7e9f2a4c6e8b0d1f3a5c7e9b2d4f6a8c0e1b',
          threshold: 0.8,
          suppressed_by: null,
          explanation: {
            summary: `"${ARABIC_NAME}" matched the name in its original script "${ARABIC_NAME}" (name score 1.00); words: عبد, الرحمن, محمد; born 1971 as listed (+0.020)`,
            tokens: [
              { query: 'عبد', list: 'عبد', how: 'exact', similarity: 1, weight: 0.21 },
              { query: 'الرحمن', list: 'الرحمن', how: 'exact', similarity: 1, weight: 0.43 },
              { query: 'محمد', list: 'محمد', how: 'exact', similarity: 1, weight: 0.36 },
            ],
            qualifiers: [
              { factor: 'date_of_birth', effect: 'corroborates', contribution: 0.02, detail: 'born 1971 as listed' },
              { factor: 'country', effect: 'unknown', contribution: 0, detail: 'the entry lists no country' },
            ],
          },
        },
        {
          id: 'mat_01JQ4MA5F0K2',
          list: 'OFAC_SDN',
          entry_id: '58214',
          entry_name: 'PETROV LOGISTIKA OOO',
          matched_name: CYRILLIC_NAME,
          name_kind: 'strong_alias',
          field: 'company',
          score: 0.871,
          programs: ['RUSSIA-EO14024'],
          list_version: 'lv_ofac_sdn_20250312',
          entry_sha256: 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90',
          threshold: 0.8,
          suppressed_by: null,
          explanation: {
            summary: `"Petrov Logistics LLC" matched an a.k.a. "${CYRILLIC_NAME}" (name score 0.87); words: Petrov≈Петров across scripts, Logistics≈Логистика across scripts, LLC≈ООО as a legal form; country not corroborated (−0.020)`,
            tokens: [
              { query: 'Petrov', list: 'Петров', how: 'transliterated', similarity: 1, weight: 0.52 },
              { query: 'Logistics', list: 'Логистика', how: 'transliterated', similarity: 0.86, weight: 0.38 },
              { query: 'LLC', list: 'ООО', how: 'legal_form', similarity: 1, weight: 0.1 },
            ],
            qualifiers: [{ factor: 'country', effect: 'contradicts', contribution: -0.02, detail: 'listed in RU, subject in IR' }],
          },
        },
      ],
      auto_cleared_matches: [
        {
          id: 'mat_01JQ4MA5F0K3',
          list: 'OFAC_SDN',
          entry_id: '41177',
          entry_name: 'MOHAMMED, Abdul Rahman',
          matched_name: 'MOHAMMED, Abdul Rahman',
          name_kind: 'primary',
          field: 'subject',
          score: 0.8,
          programs: ['SDGT'],
          list_version: 'lv_ofac_sdn_20250312',
          entry_sha256: '0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e9d',
          threshold: 0.8,
          suppressed_by: null,
          explanation: {
            summary:
              '"Abdul Rahman Mohammed" matched the listed name "MOHAMMED, Abdul Rahman" (name score 1.00); words: abdul, rahman, mohammed; ' +
              "born 1971-04; the entry gives 1958-06-01: more than 2 years apart (-0.25); country IR is not among the entry's (SY) (-0.10); held at the alert threshold 0.80 (+0.15)",
            tokens: [
              { query: 'Abdul', list: 'Abdul', how: 'exact', similarity: 1, weight: 0.2 },
              { query: 'Rahman', list: 'Rahman', how: 'exact', similarity: 1, weight: 0.35 },
              { query: 'Mohammed', list: 'Mohammed', how: 'exact', similarity: 1, weight: 0.45 },
            ],
            qualifiers: [
              {
                factor: 'date_of_birth',
                effect: 'contradicts',
                contribution: -0.25,
                detail: 'born 1971-04; the entry gives 1958-06-01: more than 2 years apart',
              },
              { factor: 'country', effect: 'contradicts', contribution: -0.1, detail: "country IR is not among the entry's (SY)" },
              {
                factor: 'alert_threshold',
                effect: 'holds',
                contribution: 0.15,
                detail:
                  "held at the alert threshold 0.80 (the qualifiers gave 0.65): an exact name (1.00) is not cleared by a disagreeing date of birth and country alone; the organization's clearing rules may clear it",
              },
            ],
          },
          cleared_by: {
            kind: 'rule',
            rule: 'other person by date and nationality',
            rules_version: 3,
            reason:
              'cleared by the rule "other person by date and nationality" (rules v3): date of birth contradicts (born 1971-04; the entry gives 1958-06-01: more than 2 years apart); ' +
              "country contradicts (country IR is not among the entry's (SY))",
          },
        },
        {
          id: 'mat_01JQ4MA5F0K4',
          list: 'BIS_EL',
          entry_id: 'el-2291',
          entry_name: 'PETROVA LOGISTIC GROUP',
          matched_name: 'PETROVA LOGISTIC GROUP',
          name_kind: 'primary',
          field: 'company',
          score: 0.772,
          programs: ['EAR'],
          list_version: 'lv_bis_el_20250301',
          entry_sha256: '7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c',
          threshold: 0.8,
          suppressed_by: null,
          explanation: {
            summary:
              '"Petrov Logistics LLC" matched the listed name "PETROVA LOGISTIC GROUP" (name score 0.77); words: Petrov≈PETROVA within a typo, Logistics≈LOGISTIC within a typo; only on the list name: GROUP',
            tokens: [
              { query: 'Petrov', list: 'PETROVA', how: 'typo', similarity: 0.9, weight: 0.5 },
              { query: 'Logistics', list: 'LOGISTIC', how: 'typo', similarity: 0.9, weight: 0.35 },
              { list: 'GROUP', how: 'unmatched_list', similarity: 0, weight: 0.15 },
            ],
            qualifiers: [{ factor: 'country', effect: 'unknown', contribution: 0, detail: 'the entry has no country' }],
          },
          cleared_by: { kind: 'band', rules_version: 3, reason: 'scored 0.772, within the auto-clear band 0.05 below the threshold 0.80 (rules v3)' },
        },
      ],
      country_flags: countryFlags({ countries: ['IR'], regions: ['crimea'] }, new Date(SCREENED_AT)),
      list_versions: [
        {
          list: 'UN_SC',
          version_id: 'lv_un_sc_20250310',
          published_on: '2025-03-10',
          imported_at: '2025-03-10T22:04:51.000Z',
          sha256: '3b9f1c0e5a7d4e2f8c6b0a9d1e3f5a7c9b2d4f6e8a0c1e3b5d7f9a2c4e6b8d0f',
          entity_count: 1021,
        },
        {
          list: 'OFAC_SDN',
          version_id: 'lv_ofac_sdn_20250312',
          published_on: null,
          imported_at: '2025-03-12T14:30:00.000Z',
          sha256: 'c4d2e8f0a6b4c2d0e8f6a4b2c0d8e6f4a2b0c8d6e4f2a0b8c6d4e2f0a8b6c4d2',
          entity_count: 17684,
        },
      ],
      lists_stale: true,
      stale_lists: [{ list: 'UN_SC', version_id: 'lv_un_sc_20250310', confirmed_at: '2025-03-10T22:04:51.000Z', age_hours: 83.3, max_age_hours: 72 }],
    },
    adjudication: {
      case_id: 'case_01JQ4MA5G7T3',
      status: 'closed',
      history: [
        { at: '2025-03-14T09:21:07.412Z', actor: 'system', action: 'opened' },
        { at: '2025-03-14T10:02:45.118Z', actor: 'user:j.alvarez@northwind.example', action: 'assigned' },
        {
          at: '2025-03-14T11:37:19.904Z',
          actor: 'user:j.alvarez@northwind.example',
          action: 'dispositioned',
          disposition: 'false_positive',
          reason: 'Passport AB1234567 shows date of birth 1988-09-02; the listed person was born in 1971.',
        },
      ],
    },
    audit_chain_hash: '9e107d9d372bb6826bd81d3542a419d6e277d4d731479571562f82f1a8a0b1c2',
    canonical_sha256: 'd2a84f4b8b650937ec8f73cd8be2c74add5a911ba64df27458ed8229da804a26',
  };
}
