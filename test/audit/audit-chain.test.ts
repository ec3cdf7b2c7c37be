import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type ChainedFields, canonicalAroundSeq } from '../../src/audit/audit-chain.ts';
import { canonicalJson } from '../../src/canonical-json.ts';

test('the canonical JSON split around seq completes to exactly the hashed text, whatever the details hold', () => {
  const fields: Omit<ChainedFields, 'seq'> = {
    occurred_at: '2026-11-23T04:00:00.000Z',
    actor: { type: 'api_key', id: 'key_1', role: null },
    action: 'screening.created',
    target: { type: 'screening', id: 'scr_1' },
    request_id: 'req_1',
    source_ip: '127.0.0.1',
    outcome: 'success',
    // A nested "seq" and text that looks like JSON must not confuse the split.
    details: { seq: 7, note: '"seq":1,', names: ['Ана', '李'] },
  };
  for (const seq of [1, 42, 9_007_199_254_740_991]) {
    const { before, after } = canonicalAroundSeq(fields);
    assert.equal(`${before}${seq}${after}`, canonicalJson({ ...fields, seq }));
  }
});
