/**
 * What the evidence PDF is rendered from: the stored screening record with its matches, country
 * flags and list versions, the adjudication case when there is one, and the two hashes an auditor
 * checks. Built from storage by the HTTP feature; the renderer reads nothing else, so the same
 * input always gives the same document.
 */

import type { CountryHold } from '../screening/country-sanctions/holds.ts';
import type { CountryFlag } from '../screening/country-sanctions/lookup.ts';
import type { QualifierExplanation, TokenExplanation } from '../screening/match-types.ts';

export type EvidenceMatch = {
  id: string;
  list: string;
  entry_id: string;
  entry_name: string;
  matched_name: string;
  name_kind: string;
  field: 'subject' | 'company' | 'alias';
  score: number;
  programs: string[];
  list_version: string;
  /** The entry's content hash as imported, and the threshold the match was held to. */
  entry_sha256: string;
  threshold: number;
  /** The earlier false-positive decision that covers it, if any. */
  suppressed_by?: string | null;
  explanation: { summary: string; found_by_identifier?: string; tokens: TokenExplanation[]; qualifiers: QualifierExplanation[] };
};
/** What cleared a match without a person (absent on screenings recorded before it was kept). */
export type EvidenceClearedBy = { kind: 'band' | 'rule' | 'suppression'; rule?: string; rules_version: number; suppression_id?: string; reason: string };
export type EvidenceAutoClearedMatch = EvidenceMatch & { cleared_by?: EvidenceClearedBy };
/** An identifier as screened; records made before identifiers were typed hold bare values. */
export type EvidenceIdentifier = { type: string; value: string; country?: string } | string;
export type EvidenceListVersion = { list: string; version_id: string; published_on: string | null; imported_at: string; sha256: string; entity_count: number };
/** A list consulted past its maximum age, as the screening recorded it. */
export type EvidenceStaleList = { list: string; version_id: string; confirmed_at: string; age_hours: number; max_age_hours: number };
export type EvidenceInput = {
  organization: { id: string; name: string };
  screening: {
    id: string;
    created_at: string;
    request_id: string;
    actor: { kind: string; id: string };
    source: 'prescreen' | 'vendor' | 'checkin' | 'workforce' | 'rescreen';
    input: {
      subject?: string;
      company?: string;
      country?: string;
      type: 'person' | 'organization' | 'vessel';
      date_of_birth?: string;
      nationality?: string;
      aliases?: string[];
      identifiers?: EvidenceIdentifier[];
      reference?: string;
    };
    outcome: 'clear' | 'potential_match';
    score: number;
    thresholds: { match: number; lists: Record<string, number>; auto_clear_band: number; rules_version: number };
    matches: EvidenceMatch[];
    auto_cleared_matches: EvidenceAutoClearedMatch[];
    country_flags: CountryFlag[];
    list_versions: EvidenceListVersion[];
    holds?: CountryHold[]; // the country rules that held the subject; absent in records made before holds existed
    lists_stale?: boolean; // whether a list was past its maximum age; absent in records made before it was recorded
    stale_lists?: EvidenceStaleList[];
  };
  adjudication?: {
    case_id: string;
    status: string;
    /** What gave the case its current status, and when: a decision (with its disposition), or its opening or reopening. */
    status_since?: { at: string; actor: string; disposition?: string };
    history: { at: string; actor: string; action: string; disposition?: string; reason?: string }[];
  };
  audit_chain_hash: string; // the hash of the audit-chain event that recorded the screening
  canonical_sha256: string; // SHA-256 of the screening record's canonical JSON (I compute it)
};

/**
 * How to render, beyond the record. The vendored DejaVu Sans draws Latin, Greek, Cyrillic, Arabic
 * and Hebrew; characters it has no glyph for (Chinese, Japanese, Korean, most Indic scripts) are
 * drawn from `fallbackFont` when given and when it has them, and otherwise shown transliterated
 * between ‹ › (the record's JSON keeps the original). The path would come from a setting read in
 * src/config.ts (say EVIDENCE_FALLBACK_FONT=/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc)
 * and be passed here by the feature; a CJK font is 10 to 20 MB, too large to vendor.
 */
export type EvidenceRenderOptions = {
  fallbackFont?: {
    path: string;
    /** The font's PostScript name inside a collection (.ttc), e.g. NotoSansCJKsc-Regular. */
    family?: string;
  };
};
