/**
 * Our Standard Webhooks signer and verifier against an independent implementation: the
 * `standardwebhooks` package (its own base64 and SHA-256 code), so a shared misreading of the
 * spec cannot pass unnoticed.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { generateSigningSecret, signatureHeader, verificationFailure } from '../../src/webhooks/standard-webhooks.ts';

const body = JSON.stringify({
  object: 'event',
  id: 'evt_01',
  type: 'screening.completed',
  timestamp: '2026-11-20T09:31:12.204Z',
  data: { screening_id: 'scr_1' },
});
const now = () => Math.floor(Date.now() / 1000);

describe('secrets', () => {
  test('are whsec_ and base64 of 32 random bytes, each different', () => {
    const a = generateSigningSecret();
    assert.match(a, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(a.slice(6), 'base64').length, 32);
    assert.notEqual(a, generateSigningSecret());
  });
});

describe('outbound signatures', () => {
  test('verify with the reference library', () => {
    const secret = generateSigningSecret();
    const timestamp = now();
    const headers = {
      'webhook-id': 'evt_01',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader([secret], 'evt_01', timestamp, body),
    };
    assert.deepEqual(new Webhook(secret).verify(body, headers), JSON.parse(body));
    assert.equal(headers['webhook-signature'], new Webhook(secret).sign('evt_01', new Date(timestamp * 1000), body));
  });

  test('during a rotation carry one signature per secret, and each secret verifies', () => {
    const [oldSecret, newSecret] = [generateSigningSecret(), generateSigningSecret()];
    const timestamp = now();
    const signature = signatureHeader([newSecret, oldSecret], 'evt_01', timestamp, body);
    assert.equal(signature.split(' ').length, 2);
    for (const secret of [oldSecret, newSecret]) {
      new Webhook(secret).verify(body, { 'webhook-id': 'evt_01', 'webhook-timestamp': String(timestamp), 'webhook-signature': signature });
    }
  });

  test('do not verify with another secret, another body or another id', () => {
    const secret = generateSigningSecret();
    const timestamp = now();
    const signature = signatureHeader([secret], 'evt_01', timestamp, body);
    const verify = (s: string, b: string, id: string) => () =>
      new Webhook(s).verify(b, { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature });
    assert.throws(verify(generateSigningSecret(), body, 'evt_01'));
    assert.throws(verify(secret, body.replace('scr_1', 'scr_2'), 'evt_01'));
    assert.throws(verify(secret, body, 'evt_02'));
  });
});

describe('inbound verification', () => {
  const secret = generateSigningSecret();
  const signed = (timestamp: number, signer = secret, id = 'msg_1') => ({
    id,
    timestamp: String(timestamp),
    signature: new Webhook(signer).sign(id, new Date(timestamp * 1000), body),
    body,
  });

  test('accepts a request signed by the reference library', () => {
    assert.equal(verificationFailure(signed(now()), [secret], now()), undefined);
  });

  test('accepts either secret during a rotation', () => {
    const next = generateSigningSecret();
    assert.equal(verificationFailure(signed(now(), secret), [next, secret], now()), undefined);
    assert.equal(verificationFailure(signed(now(), next), [next, secret], now()), undefined);
  });

  test('refuses another secret, a changed body, a stale or future timestamp, and missing headers', () => {
    assert.equal(verificationFailure(signed(now(), generateSigningSecret()), [secret], now()), 'invalid_signature');
    assert.equal(verificationFailure({ ...signed(now()), body: `${body} ` }, [secret], now()), 'invalid_signature');
    assert.equal(verificationFailure(signed(now() - 301), [secret], now()), 'stale_timestamp');
    assert.equal(verificationFailure(signed(now() + 301), [secret], now()), 'stale_timestamp');
    assert.equal(verificationFailure(signed(now() - 299), [secret], now()), undefined);
    assert.equal(verificationFailure({ body }, [secret], now()), 'missing_headers');
    assert.equal(verificationFailure({ ...signed(now()), timestamp: 'yesterday' }, [secret], now()), 'stale_timestamp');
    assert.equal(verificationFailure({ ...signed(now()), signature: 'v1,!!!' }, [secret], now()), 'invalid_signature');
  });
});
