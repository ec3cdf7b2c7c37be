/**
 * A prescreen standing for the screening at the door: only for the same person, with the same
 * identifiers, while fresh and while the lists have not changed.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadTestLists, SDN_ROWS, sdnList, uvlList } from '../../helpers/test-lists.ts';
import { openDesk } from './desk.ts';

const desk = openDesk();
const { call, checkIn } = desk;

describe('prescreen reuse', () => {
  const visitor = { name: 'Harriet Quimby-Lindqvist', company: 'Aero Club', citizenship: 'SE', date_of_birth: '1980-04-01' };
  const prescreenOf = async (v: typeof visitor) =>
    (await call('POST', '/prescreen', { subject: v.name, company: v.company, nationality: v.citizenship, date_of_birth: v.date_of_birth })).json();

  test('a fresh prescreen of the same person stands for the screening; another person, an old one or changed lists do not', async () => {
    const prescreen = await prescreenOf(visitor);
    const reused = await checkIn(visitor, { prescreen_id: prescreen.id });
    assert.deepEqual([reused.screening_id, reused.prescreen_reused, reused.prescreen], [prescreen.id, true, { prescreen_id: prescreen.id, reused: true }]);

    const spelledOtherwise = await checkIn({ ...visitor, name: 'quimby-lindqvist harriet' }, { prescreen_id: prescreen.id });
    assert.equal(spelledOtherwise.prescreen_reused, true, 'case and word order do not make another person');

    const otherPerson = await checkIn({ ...visitor, date_of_birth: '1981-04-01' }, { prescreen_id: prescreen.id });
    assert.deepEqual([otherPerson.prescreen_reused, otherPerson.prescreen.reason], [false, 'not_same_person']);
    assert.notEqual(otherPerson.screening_id, prescreen.id);

    await desk.harness.database.owner(
      "UPDATE screenings SET record = jsonb_set(record, '{created_at}', to_jsonb((now() - interval '25 hours')::text)) WHERE id = $1",
      [prescreen.id],
    );
    const stale = await checkIn(visitor, { prescreen_id: prescreen.id });
    assert.deepEqual([stale.prescreen_reused, stale.prescreen.reason], [false, 'stale']);

    const fresh = await prescreenOf(visitor);
    await loadTestLists(desk.harness, [sdnList([...SDN_ROWS, `30001,"NEWLY LISTED TRADING",-0- ,"IRAN",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- `])]);
    const afterUpdate = await checkIn(visitor, { prescreen_id: fresh.id });
    assert.deepEqual([afterUpdate.prescreen_reused, afterUpdate.prescreen.reason], [false, 'lists_changed']);
    await loadTestLists(desk.harness, [sdnList(), uvlList()]);

    const unknown = await checkIn(visitor, { prescreen_id: 'scr_00000000000000000000000000' });
    assert.deepEqual([unknown.prescreen_reused, unknown.prescreen.reason], [false, 'not_found']);
  });

  test('a prescreen stands for the door only with the same identifiers, however spaced', async () => {
    const person = { name: 'Harriet Quimby-Lindqvist', citizenship: 'SE', identifiers: [{ type: 'passport', value: 'SE 1234567', country: 'SE' }] };
    const prescreen = (await call('POST', '/prescreen', { subject: person.name, nationality: 'SE', identifiers: person.identifiers })).json();
    const same = await checkIn({ ...person, identifiers: [{ type: 'passport', value: 'se1234567', country: 'SE' }] }, { prescreen_id: prescreen.id });
    assert.equal(same.prescreen_reused, true);
    for (const identifiers of [undefined, [{ type: 'passport', value: 'SE7654321', country: 'SE' }]]) {
      const other = await checkIn({ ...person, identifiers }, { prescreen_id: prescreen.id });
      assert.deepEqual([other.prescreen_reused, other.prescreen.reason], [false, 'not_same_person'], JSON.stringify(identifiers));
    }
  });

  test('a reused prescreen with an open case puts the visitor in review on that case', async () => {
    const listed = { name: 'Karim Yusuf Abu-Ali', company: 'Reuse Test Co', citizenship: 'LB', date_of_birth: '1961' };
    const prescreen = (await call('POST', '/prescreen', { subject: listed.name, company: listed.company, nationality: 'LB', date_of_birth: '1961' })).json();
    assert.ok(prescreen.case_id);
    const waiting = await checkIn(listed, { prescreen_id: prescreen.id });
    assert.deepEqual([waiting.status, waiting.case_id, waiting.prescreen_reused], ['pending_review', prescreen.case_id, true]);
  });
});
