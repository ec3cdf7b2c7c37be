/** The vendor batch endpoint's shapes. */
import { Type } from 'typebox';
import { identifiersField } from '../../http/identifier-fields.ts';
import { countryCode, text } from '../../http/text-fields.ts';
import { ListCodes } from './schemas.ts';

export const VENDORS_PER_REQUEST = 1000;

const Vendor = Type.Object(
  {
    name: text(300, "The vendor's legal name."),
    country: Type.Optional(countryCode('Country of registration.')),
    address: Type.Optional(text(500, 'The registered address as free text, screened for sanctioned regions it names.')),
    external_id: Type.Optional(text(128, 'Your id for the vendor; a vendor with the same id is updated.')),
    identifiers: Type.Optional(
      identifiersField(
        "The vendor's identifiers: tax and registration numbers (a D-U-N-S number is a `registration`), its LEI, a shipping company's IMO company number; a SAM.gov UEI or CAGE code as `other`",
      ),
    ),
    reference: Type.Optional(text(128, 'Your own id for this screening, returned as given.')),
  },
  { additionalProperties: false },
);

export const VendorScreenBody = Type.Object(
  {
    vendors: Type.Array(Vendor, { minItems: 1, maxItems: VENDORS_PER_REQUEST, description: `1 to ${VENDORS_PER_REQUEST} vendors.` }),
    lists: Type.Optional(ListCodes),
  },
  {
    additionalProperties: false,
    examples: [
      {
        vendors: [
          {
            name: 'Harmless Widgets GmbH',
            country: 'DE',
            external_id: 'SUP-0001',
            identifiers: [
              { type: 'registration', value: 'HRB 123456', country: 'DE' },
              { type: 'registration', value: '123456789' },
            ],
          },
          { name: 'Example Trading Co., Ltd.', country: 'AE', external_id: 'SUP-0002', reference: 'PO-77' },
        ],
      },
    ],
  },
);

export const VendorScreenResult = Type.Object({
  object: Type.Literal('vendor_screening'),
  results: Type.Array(
    Type.Object({
      index: Type.Integer({ description: "The vendor's position in the request." }),
      vendor_id: Type.String({ description: 'The stored vendor, `ven_…`.' }),
      external_id: Type.Union([Type.String(), Type.Null()]),
      screening: Type.Ref('Screening'),
    }),
  ),
  totals: Type.Object({ vendors: Type.Integer(), potential_match: Type.Integer(), clear: Type.Integer() }),
});
