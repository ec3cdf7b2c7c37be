/**
 * What a failed check's error may show outside the operator's log: URLs without their query,
 * fragment or credentials, the rest of the text as it was.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withoutUrlSecrets } from '../../src/lists/url-secrets.ts';

test('a token in the query, a user and password, and a fragment are removed; scheme, host and path stay', () => {
  assert.equal(
    withoutUrlSecrets('https://webgate.ec.europa.eu/fsd/fsf/public/files/xmlFullSanctionsList_1_1/content?token=abc123: the server answered 403 Forbidden'),
    'https://webgate.ec.europa.eu/fsd/fsf/public/files/xmlFullSanctionsList_1_1/content?…: the server answered 403 Forbidden',
  );
  assert.equal(withoutUrlSecrets('http://feed:hunter2@lists.corp.example:8443/sdn.csv timed out'), 'http://lists.corp.example:8443/sdn.csv?… timed out');
  assert.equal(withoutUrlSecrets('see https://example.org/a#key=1.'), 'see https://example.org/a?….');
});

test('every URL in the text is cleaned, a redirect target too, and text without secrets is unchanged', () => {
  const text =
    "https://a.example/x?k=1: refused a redirect to https://b.example/y?sig=2: b.example is not one of the publisher's hosts; then https://c.example/z: the server answered 503";
  assert.equal(
    withoutUrlSecrets(text),
    "https://a.example/x?…: refused a redirect to https://b.example/y?…: b.example is not one of the publisher's hosts; then https://c.example/z: the server answered 503",
  );
  const plain = 'https://scsanctions.un.org/resources/xml/en/consolidated.xml: ECONNREFUSED';
  assert.equal(withoutUrlSecrets(plain), plain);
});
