/**
 * A vendor batch checked whole before anything is screened or stored: every problem is
 * reported with its pointer (`/vendors/17/country`), and duplicate external ids are refused.
 */

import { checkIdentifiers, type IdentifierBody } from '../../http/identifier-fields.ts';
import { InputChecker } from '../../http/input-checker.ts';
import type { VendorInput } from './service.ts';

type VendorBody = {
  name: string;
  country?: string;
  address?: string;
  external_id?: string;
  identifiers?: IdentifierBody[];
  reference?: string;
};

export function vendorInputs(vendors: VendorBody[], loadedLists: readonly string[], lists?: string[]): VendorInput[] {
  const check = new InputChecker();
  const listCodes = check.lists(lists, '/lists', loadedLists);
  const seen = new Map<string, number>();
  const inputs = vendors.map((vendor, i): VendorInput => {
    const at = `/vendors/${i}`;
    const name = check.name(vendor.name, `${at}/name`) ?? vendor.name;
    const country = check.country(vendor.country, `${at}/country`);
    const reference = check.text(vendor.reference, `${at}/reference`);
    const address = check.text(vendor.address, `${at}/address`);
    const externalId = check.text(vendor.external_id, `${at}/external_id`);
    if (externalId !== undefined) {
      const first = seen.get(externalId);
      if (first !== undefined) check.errors.push({ pointer: `${at}/external_id`, detail: `repeats /vendors/${first}/external_id` });
      else seen.set(externalId, i);
    }
    const identifiers = checkIdentifiers(check, vendor.identifiers, `${at}/identifiers`, 'organization');
    return {
      input: {
        company: name,
        type: 'organization',
        ...(country && { country }),
        ...(address && { address }),
        ...(reference && { reference }),
        ...(listCodes && { lists: listCodes }),
        ...(identifiers && { identifiers }),
      },
      ...(externalId && { externalId }),
    };
  });
  check.refuseIfAny('vendor batch');
  return inputs;
}
