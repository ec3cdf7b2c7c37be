/**
 * The screening evidence PDF a compliance officer hands an auditor (issue 5, GET
 * /api/v1/screenings/{id}/evidence), with the organization and screening id atop every page. The
 * document, and how its bytes stay the same for the same record, is evidence-document.ts.
 */
import { renderEvidenceDocument } from './evidence-document.ts';
import type { EvidenceInput, EvidenceRenderOptions } from './evidence-input.ts';
import { writeHolds } from './hold-sections.ts';
import { writeAutoClearedMatches, writeMatches } from './match-sections.ts';
import { writeAdjudication, writeCountryFlags, writeIntegrity } from './record-sections.ts';
import { writeListVersions, writeOutcome, writeRequester, writeScreenedSubject, writeTitle } from './screening-sections.ts';

const SECTIONS = [
  writeTitle,
  writeScreenedSubject,
  writeRequester,
  writeOutcome,
  writeHolds,
  writeListVersions,
  writeMatches,
  writeAutoClearedMatches,
  writeCountryFlags,
  writeAdjudication,
  writeIntegrity,
];

export function renderEvidencePdf(input: EvidenceInput, options: EvidenceRenderOptions = {}): Promise<Buffer> {
  const { screening } = input;
  const info = {
    title: `Restricted-party screening evidence: ${screening.id}`,
    author: input.organization.name,
    subject: `Screening ${screening.id}; record SHA-256 ${input.canonical_sha256}`,
    date: screening.created_at,
    dateField: 'screening.created_at',
    header: `${input.organization.name} · Screening ${screening.id}`,
  };
  return renderEvidenceDocument(info, options, (writer) => {
    for (const section of SECTIONS) section(writer, input);
  });
}
