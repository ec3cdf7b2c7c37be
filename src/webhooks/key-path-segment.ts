/**
 * How one JSON member name of an inbound payload is written in a key path. Senders sometimes use
 * personal data as member names (`{"attendees": {"jane.doe@example.com": {…}}}`); the interface
 * spec allows keeping the payload's shape and no personal data, so only names that look like
 * field names are kept:
 * - a name is kept when it is made of dot-separated parts, each an identifier
 *   (`^[A-Za-z_][A-Za-z0-9_-]{0,63}$`), is at most 64 characters long and has fewer than 7 digits
 *   (a phone number, a date or an id written as a name is data, not a field name). An email
 *   address (`@`), a name with spaces or anything else fails this and is written `<key>`;
 * - a dot inside a kept name is written `\.`, so that `.` in a path always separates levels
 *   (`{"com.acme.badge": 1}` is `com\.acme\.badge`, `{"com": {"acme": 1}}` is `com.acme`).
 * None of `\`, `<`, `>`, `[` or `]` can appear in a kept name, so paths stay unambiguous.
 * A single-word name (`JaneDoe`, `jane_doe`) cannot be told from a field name and is kept.
 */

/** What a member name that is not kept is written as. */
export const REPLACED_KEY = '<key>';

const MAX_KEY_LENGTH = 64;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
const DIGITS_OF_A_NUMBER = 7;

export function keyPathSegment(key: string): string {
  if (key.length > MAX_KEY_LENGTH || !key.split('.').every((part) => IDENTIFIER.test(part))) return REPLACED_KEY;
  if ((key.match(/[0-9]/g)?.length ?? 0) >= DIGITS_OF_A_NUMBER) return REPLACED_KEY;
  return key.replaceAll('.', '\\.');
}
