/**
 * The evidence PDF of a stored ownership determination (issue 29), in the screening evidence's
 * style (src/evidence/): the organization and determination id atop every page, "page X of Y" at
 * its foot, the same bytes for the same record. A pure function of the record: no database, no
 * clock. The graph's drawing is passed in (options.drawGraph).
 */
import { renderEvidenceDocument } from '../../../evidence/evidence-document.ts';
import type { EvidenceWriter } from '../../../evidence/evidence-writer.ts';
import { writeBisAggregate, writeOfacAggregate } from './aggregate-sections.ts';
import { writeDetermination } from './determination-sections.ts';
import { writeGraph } from './graph-section.ts';
import type { OwnershipEvidenceInput, OwnershipEvidenceOptions } from './ownership-evidence-input.ts';
import { writeParties, writeWarnings } from './party-sections.ts';
import { writeQuestion, writeTitle } from './question-sections.ts';
import { writeIntegrity, writeListVersions } from './record-sections.ts';

const SECTIONS: ((w: EvidenceWriter, input: OwnershipEvidenceInput, options: OwnershipEvidenceOptions) => void)[] = [
  writeTitle,
  writeQuestion,
  writeDetermination,
  writeOfacAggregate,
  writeBisAggregate,
  writeGraph,
  writeParties,
  writeWarnings,
  writeListVersions,
  writeIntegrity,
];

export function renderOwnershipEvidencePdf(input: OwnershipEvidenceInput, options: OwnershipEvidenceOptions = {}): Promise<Buffer> {
  const { organization, check } = input;
  const info = {
    title: `Ownership determination evidence: ${check.id}`,
    author: organization.name,
    subject: `Ownership determination ${check.id}; record SHA-256 ${check.record_sha256}`,
    date: check.checked_at,
    dateField: 'check.checked_at',
    header: `${organization.name} · Ownership determination ${check.id}`,
  };
  return renderEvidenceDocument(info, options, (writer) => {
    for (const section of SECTIONS) section(writer, input, options);
  });
}
