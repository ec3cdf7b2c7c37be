/**
 * Reading a list's XML with fast-xml-parser: the document checked to be well formed first (the
 * parser alone would read a truncated file as a shorter list), then an element's text, and an
 * element that may occur once or many times as a list.
 */
import { XMLValidator } from 'fast-xml-parser';
import { ListFormatError } from './list-format-error.ts';

export type XmlNode = Record<string, unknown>;

/** An element's text with its white space collapsed (the lists wrap and indent some names), or undefined when empty. */
export function text(node: unknown): string | undefined {
  if (typeof node === 'string') return node.replace(/\s+/g, ' ').trim() || undefined;
  if (typeof node === 'number') return String(node);
  if (node && typeof node === 'object' && '#text' in node) return text((node as XmlNode)['#text']);
  return undefined;
}

/** The element(s) as a list of nodes: none, one or many. */
export function nodes(node: unknown): XmlNode[] {
  const list = Array.isArray(node) ? node : node === undefined ? [] : [node];
  return list.filter((n): n is XmlNode => n !== null && typeof n === 'object');
}

/** Refuses XML that is not well formed, saying where. */
export function assertWellFormed(xml: string): void {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new ListFormatError(`The XML is malformed or truncated at line ${valid.err.line}: ${valid.err.msg}`);
}
