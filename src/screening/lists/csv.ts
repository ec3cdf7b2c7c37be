/**
 * A reader for the lists' delimited files (comma or tab): RFC 4180 quoting ("" inside quotes),
 * CR LF or LF records, quoted fields spanning lines, and a trailing DOS end-of-file byte (0x1A)
 * ignored.
 */
export function* readCsv(text: string, delimiter = ','): Generator<string[]> {
  let field = '';
  let record: string[] = [];
  let quoted = false;
  let i = 0;
  const end = text.endsWith('\x1a') ? text.length - 1 : text.length;
  while (i < end) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += c;
      i++;
      continue;
    }
    if (c === '"') quoted = true;
    else if (c === delimiter) {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      if (record.length > 1 || record[0] !== '') yield record;
      record = [];
      field = '';
    } else field += c;
    i++;
  }
  if (quoted) throw new Error('The file ends inside a quoted field: it is truncated or malformed');
  if (field !== '' || record.length > 0) {
    record.push(field);
    if (record.length > 1 || record[0]?.trim() !== '') yield record;
  }
}
