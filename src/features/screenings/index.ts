/**
 * Screening endpoints: prescreen a visitor or subject, read a screening back, download its
 * evidence as PDF, screen a batch of vendors. Every answer names the list versions it used.
 */
import { Type } from 'typebox';
import { auditContextOf } from '../../http/audit-context.ts';
import type { Feature } from '../../http/feature.ts';
import { presentScreening } from './present.ts';
import { PrescreenBody, ScreeningIdParams, ScreeningSchema } from './schemas.ts';
import { prescreenInput } from './screening-input.ts';
import type { ScreeningService } from './service.ts';
import { vendorInputs } from './vendor-input.ts';
import { VendorScreenBody, VendorScreenResult } from './vendor-schemas.ts';

const DESCRIPTION_PRESCREEN = [
  'Screens a person (and the company they work for) or an organization against every loaded restricted-party list, and the organization’s own',
  'active watchlists (matches labelled `ORG:<slug>`, with the watchlist, severity and reason), synchronously.',
  "The answer is the stored screening: `potential_match` with each match explained word by word, or `clear`, under the organization's",
  'adjudication rules (thresholds per list, auto-clear band). A potential match opens an adjudication case (`case_id`), unless every',
  'match is covered by an earlier false-positive decision (`matches[].suppressed_by`).',
  'A subject whose nationality, country or address falls under a prohibition (a comprehensive embargo, ITAR §126.1(d)(1)), or under a',
  "regime the rules' `escalation.country_flags` names, is held even with no name match: `potential_match` with `holds[]` naming the rule,",
  'and a case, never a bare `clear` (rules `country_holds` decide which regimes and screenings hold). With no list loaded the answer is 503',
  '`lists_unavailable`, never a false `clear`.',
  'Send an `Idempotency-Key` header to retry safely: the same key and body return the first answer.',
].join(' ');

const screenings: Feature<{ screenings: ScreeningService }> = {
  name: 'screenings',
  async register(api, _context, { screenings: service }) {
    api.addSchema(ScreeningSchema);

    api.post(
      '/prescreen',
      {
        config: { tier: 'defense', permission: 'operate', idempotent: true, problems: ['lists_unavailable'] },
        schema: {
          tags: ['screening'],
          summary: 'Screen a person or an organization',
          description: DESCRIPTION_PRESCREEN,
          body: PrescreenBody,
          response: { 201: Type.Ref('Screening') },
        },
      },
      async (request, reply) => {
        const input = prescreenInput(request.body, service.loadedLists(), new Date());
        const stored = await service.screen(auditContextOf(request), input);
        return reply.code(201).header('location', `/api/v1/screenings/${stored.record.id}`).send(presentScreening(stored));
      },
    );

    api.get(
      '/screenings/:id',
      {
        config: { tier: 'defense', permission: 'read', auditRead: { action: 'screening.viewed', target: 'screening' } },
        schema: {
          tags: ['screening'],
          summary: 'Get a screening',
          description: "The screening as it was answered, with its case's status once adjudication has one. Another organization's id answers 404.",
          params: ScreeningIdParams,
          response: { 200: Type.Ref('Screening') },
        },
      },
      async (request) => presentScreening(await service.get(auditContextOf(request), request.params.id)),
    );

    api.get(
      '/screenings/:id/evidence',
      {
        config: { tier: 'defense', permission: 'read', auditRead: { action: 'screening.evidence_downloaded', target: 'screening', recordedByHandler: true } },
        schema: {
          tags: ['screening'],
          summary: "Download a screening's evidence as PDF",
          description:
            'A PDF for an auditor: what was screened, when and by whom, every list version consulted with its hash, each match explained, ' +
            'country flags, the adjudication history, the audit chain hash and the SHA-256 of the record. The same record renders to the same ' +
            "bytes while the organization's name is unchanged (the header shows its current name). Each download is audited.",
          params: ScreeningIdParams,
          produces: ['application/pdf'],
          response: { 200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'The PDF.' }) },
        },
      },
      async (request, reply) => {
        const pdf = await service.evidencePdf(auditContextOf(request), request.params.id);
        return reply.type('application/pdf').header('content-disposition', `attachment; filename="gatehouse-evidence-${request.params.id}.pdf"`).send(pdf);
      },
    );

    api.post(
      '/vendors/screen',
      {
        config: { tier: 'enterprise', permission: 'operate', idempotent: true, problems: ['lists_unavailable'] },
        schema: {
          tags: ['screening'],
          summary: 'Screen a batch of vendors',
          description:
            'Stores each vendor (updating the one with the same `external_id`) and screens it as an organization. Results come in input order. ' +
            'A batch with any invalid vendor is refused whole, each problem pointed at (`/vendors/17/country`), and nothing is stored.',
          body: VendorScreenBody,
          response: { 201: VendorScreenResult },
        },
      },
      async (request, reply) => {
        const inputs = vendorInputs(request.body.vendors, service.loadedLists(), request.body.lists);
        const results = await service.screenVendors(auditContextOf(request), inputs);
        const matched = results.filter((r) => r.stored.record.outcome === 'potential_match').length;
        return reply.code(201).send({
          object: 'vendor_screening' as const,
          results: results.map(({ vendorId, stored }, i) => ({
            index: i,
            vendor_id: vendorId,
            external_id: inputs[i]?.externalId ?? null,
            screening: presentScreening(stored),
          })),
          totals: { vendors: results.length, potential_match: matched, clear: results.length - matched },
        });
      },
    );
  },
};

export default screenings;
