/**
 * Where webhooks may go: private, loopback, link-local and reserved addresses are refused unless
 * the operator allow-listed them; URLs must be https unless allowed otherwise.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AllowList, checkWebhookUrl, isForbiddenAddress, refusedAddress, type WebhookTarget } from '../../src/webhooks/address-policy.ts';

const policy = (allowed = '', allowHttp = false) => ({ allowList: AllowList.parse(allowed), allowHttp });
const target = (url: string, p = policy()) => {
  const checked = checkWebhookUrl(url, p);
  assert.equal(typeof checked, 'object', String(checked));
  return checked as WebhookTarget;
};

describe('addresses', () => {
  test('loopback, private, link-local (cloud metadata), CGNAT, reserved and multicast are forbidden, IPv4-mapped IPv6 included', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '198.18.0.1',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      'fc00::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      'ff02::1',
    ]) {
      assert.equal(isForbiddenAddress(address), true, address);
    }
  });

  test('public addresses are not', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
      assert.equal(isForbiddenAddress(address), false, address);
  });

  test('every resolved address must pass: one private address among public ones refuses the host', () => {
    const t = target('https://hooks.example.com/x');
    assert.equal(refusedAddress(t, ['93.184.216.34', '10.0.0.7'], policy()), '10.0.0.7');
    assert.equal(refusedAddress(t, ['93.184.216.34'], policy()), undefined);
  });
});

describe('URLs', () => {
  test('must be https, without credentials or fragment', () => {
    assert.match(String(checkWebhookUrl('http://hooks.example.com/x', policy())), /https/);
    assert.match(String(checkWebhookUrl('https://user:pw@hooks.example.com/x', policy())), /user name or password/);
    assert.match(String(checkWebhookUrl('ftp://hooks.example.com/x', policy())), /https/);
    assert.match(String(checkWebhookUrl('hooks.example.com/x', policy())), /absolute URL/);
    assert.match(String(checkWebhookUrl('https://hooks.example.com/x#frag', policy())), /fragment/);
    assert.equal(target('http://hooks.example.com/x', policy('', true)).port, 80, 'WEBHOOK_ALLOW_HTTP permits http');
  });

  test('numeric host spellings are read as the address they mean', () => {
    for (const url of ['https://2130706433/', 'https://0x7f.1/', 'https://[::ffff:127.0.0.1]/']) {
      const t = target(url);
      assert.ok(isForbiddenAddress(t.host), `${url} → ${t.host}`);
    }
  });
});

describe('the allow-list (WEBHOOK_ALLOWED_HOSTS)', () => {
  test('a host permits any port, plain http and any address', () => {
    const p = policy('receiver.internal, LOCALHOST.');
    const t = target('http://localhost:4567/hook', p);
    assert.equal(t.allowListed, true);
    assert.equal(refusedAddress(t, ['127.0.0.1'], p), undefined);
    assert.equal(target('https://receiver.internal/x', p).allowListed, true);
  });

  test('a host:port permits that port only', () => {
    const p = policy('127.0.0.1:4567');
    assert.equal(target('http://127.0.0.1:4567/hook', p).allowListed, true);
    assert.match(String(checkWebhookUrl('http://127.0.0.1:4568/hook', p)), /https/);
    assert.equal(refusedAddress(target('https://127.0.0.1:4568/hook', p), ['127.0.0.1'], p), '127.0.0.1');
  });

  test('a CIDR range permits the addresses in it, still over https', () => {
    const p = policy('10.20.0.0/16');
    const t = target('https://hooks.corp.example/x', p);
    assert.equal(refusedAddress(t, ['10.20.3.4'], p), undefined);
    assert.equal(refusedAddress(t, ['10.21.3.4'], p), '10.21.3.4');
  });

  test('an entry it cannot read is reported, not ignored', () => {
    const problems: string[] = [];
    AllowList.parse('good.example, 10.0.0.0/99, bad host/x, https://x.example/path', problems);
    assert.equal(problems.length, 3, problems.join('\n'));
  });
});
