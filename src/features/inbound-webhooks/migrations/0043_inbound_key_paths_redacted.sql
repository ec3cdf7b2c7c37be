-- Key paths stored before member names that may be personal data were written `<key>` (see
-- src/webhooks/key-path-segment.ts) may hold such names: `attendees.jane.doe@example.com`. Those
-- paths joined names with unescaped dots, so a name cannot be told apart from a path: every
-- stored path with a segment the rule would not keep is dropped, and its receipt is marked
-- truncated (its shape is no longer complete). A segment is kept as the rule keeps a name: an
-- identifier of at most 64 characters with fewer than 7 digits, with any `[]` (array) marks.
-- FORCE ROW LEVEL SECURITY holds the owner to the tenant policy too, so it is lifted for this one
-- statement, which must reach every organization's receipts.
ALTER TABLE inbound_webhook_receipts NO FORCE ROW LEVEL SECURITY;

UPDATE inbound_webhook_receipts AS receipt
   SET key_paths = checked.kept, key_paths_truncated = true
  FROM (SELECT r.organization_id, r.id,
               coalesce(array_agg(path.text ORDER BY path.n) FILTER (WHERE path.ok), '{}') AS kept,
               bool_and(path.ok) AS all_kept
          FROM inbound_webhook_receipts AS r
         CROSS JOIN LATERAL (
               SELECT p.text, p.n,
                      (SELECT bool_and(segment = '<key>'
                                       OR (regexp_replace(segment, '(\[\])+$', '') ~ '^[A-Za-z_][A-Za-z0-9_-]{0,63}$'
                                           AND length(regexp_replace(segment, '[^0-9]', '', 'g')) < 7))
                         FROM unnest(string_to_array(p.text, '.')) AS segment) AS ok
                 FROM unnest(r.key_paths) WITH ORDINALITY AS p(text, n)
               ) AS path
         GROUP BY r.organization_id, r.id) AS checked
 WHERE receipt.organization_id = checked.organization_id
   AND receipt.id = checked.id
   AND NOT checked.all_kept;

ALTER TABLE inbound_webhook_receipts FORCE ROW LEVEL SECURITY;
