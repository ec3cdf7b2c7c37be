/**
 * A structure of 1,000 parties for the evidence's long tables: ten holding companies hold 5% of
 * the target each, and each is owned by 48 persons with 2%, 25 of them listed (50%: covered);
 * 490 more persons hold 0.1% of the target directly, 245 of them listed, and 19 hold 0.05%.
 * The target's covered owners are the ten holdings and the 245 listed persons: 74.5%.
 */
const LISTED = [{ list: 'OFAC_SDN', programs: ['RUSSIA-EO14024'] }];

export function thousandParties() {
  const entities: object[] = [{ id: 'T', name: 'Target Trading Limited', type: 'entity', country: 'CY' }];
  const ownerships: object[] = [];
  const person = (id: string, name: string, listed: boolean) =>
    entities.push({ id, name, type: 'person', country: 'RU', ...(listed && { designations: LISTED }) });
  for (let h = 0; h < 10; h++) {
    entities.push({ id: `H${h}`, name: `Holding ${h} Limited`, type: 'entity', country: 'CY' });
    ownerships.push({ owner: `H${h}`, owned: 'T', percent: 5 });
    for (let o = 0; o < 48; o++) {
      person(`H${h}-P${o}`, `Owner ${o} of Holding ${h}`, o < 25);
      ownerships.push({ owner: `H${h}-P${o}`, owned: `H${h}`, percent: 2 });
    }
  }
  for (let d = 0; d < 490; d++) {
    person(`D${d}`, `Direct owner ${d}`, d < 245);
    ownerships.push({ owner: `D${d}`, owned: 'T', percent: 0.1 });
  }
  for (let m = 0; m < 19; m++) {
    person(`M${m}`, `Minor owner ${m}`, false);
    ownerships.push({ owner: `M${m}`, owned: 'T', percent: 0.05 });
  }
  return { target: 'T', as_of: '2026-11-22', screen_names: false, entities, ownerships };
}
