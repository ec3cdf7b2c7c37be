/** A list file that cannot be read as its format: refused whole, with what is wrong and where. */
export class ListFormatError extends Error {
  override name = 'ListFormatError';
}
