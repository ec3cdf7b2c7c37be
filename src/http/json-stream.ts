/**
 * A JSON body parsed as it streams in, for bulk endpoints: the elements of each array at the top
 * level of the body (`{"profiles": [ … 50,000 objects … ]}`) are parsed one at a time as their
 * text completes, and that text is dropped at once. So a 25 MiB body is never held as one string
 * beside the objects parsed from it, and a body past the limit is refused as soon as it passes it.
 *
 * The scanner only follows strings and bracket depth; each element and the small skeleton around
 * the arrays (`{"mode":"full","profiles":[]}`) go to JSON.parse, so what is accepted is exactly JSON.
 */
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { AppError } from './errors.ts';
import { parseJsonText } from './json-body.ts';
import { pointerSegment } from './json-pointer.ts';

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

export async function parseJsonStream(stream: Readable, limitBytes: number): Promise<unknown> {
  const decoder = new StringDecoder('utf8');
  const scanner = new TopLevelArrayScanner();
  let bytes = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > limitBytes) {
      stream.destroy();
      throw new AppError(
        'payload_too_large',
        `The body is larger than ${limitBytes.toLocaleString('en-US')} bytes (${Math.round(limitBytes / 1_048_576)} MiB), the most this endpoint accepts; send it in parts.`,
      );
    }
    scanner.feed(decoder.write(chunk));
  }
  scanner.feed(decoder.end());
  return scanner.finish();
}

class TopLevelArrayScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private isObject: boolean | undefined;
  /** The body's text outside the top-level arrays' elements. */
  private skeleton: string[] = [];
  /** The last string closed at depth 1: the key of the value that follows. */
  private lastString: string[] = [];
  private lastKey: string | undefined;
  private arrayKey: string | undefined;
  private readonly arrays = new Map<string, unknown[]>();
  private element: string[] | undefined;
  /** The element began with a bracket, so it ends when the depth comes back to 2. */
  private elementIsContainer = false;
  /** Between `[` or `,` and the next element: a comma or `]` there is not JSON. */
  private awaitingElement = false;
  private elementsSeen = 0;

  feed(text: string): void {
    let from = 0; // where the text not yet copied to the skeleton or the element begins
    const flush = (to: number) => {
      if (to > from) (this.element ?? this.skeleton).push(text.slice(from, to));
      from = to;
    };
    for (let i = 0; i < text.length; i++) {
      const c = text[i] as string;
      if (this.isObject === undefined && !WHITESPACE.has(c)) this.isObject = c === '{';
      if (this.inString) {
        if (this.depth === 1 && this.element === undefined) this.lastString.push(c);
        if (this.escaped) this.escaped = false;
        else if (c === '\\') this.escaped = true;
        else if (c === '"') {
          this.inString = false;
          if (this.element && !this.elementIsContainer && this.depth === 2) this.endElement(i + 1, flush);
        }
        continue;
      }
      const inArray = this.isObject && this.depth === 2 && this.arrayKey !== undefined;
      if (inArray && this.element === undefined && !WHITESPACE.has(c) && c !== ']') {
        if (c === ',') {
          if (this.awaitingElement) throw malformed('a comma where an array element should be');
          this.awaitingElement = true;
          from = i + 1; // the comma between elements leaves with them
          continue;
        }
        if (!this.awaitingElement) throw malformed('two array elements without a comma between them');
        flush(i);
        this.awaitingElement = false;
        this.elementsSeen += 1;
        this.element = [];
        this.elementIsContainer = c === '{' || c === '[';
      } else if (inArray && this.element && !this.elementIsContainer && (c === ',' || c === ']' || WHITESPACE.has(c))) {
        this.endElement(i, flush); // a number, true, false or null ends where its text does
        if (c === ',') {
          this.awaitingElement = true;
          from = i + 1;
          continue;
        }
      }
      if (inArray && c === ']' && this.awaitingElement && this.elementsSeen > 0) throw malformed('a comma before the end of an array');
      if (c === '"') {
        this.inString = true;
        if (this.depth === 1) this.lastString = [c];
      } else if (c === ':' && this.depth === 1) {
        this.lastKey = JSON.parse(this.lastString.join('')) as string;
      } else if (c === '{' || c === '[') {
        this.depth += 1;
        if (this.depth === 2 && c === '[' && this.isObject) {
          this.arrayKey = this.lastKey;
          this.awaitingElement = true;
          this.elementsSeen = 0;
        }
      } else if (c === '}' || c === ']') {
        this.depth -= 1;
        if (this.depth === 2 && this.element && this.elementIsContainer) this.endElement(i + 1, flush);
        else if (this.depth === 1) this.arrayKey = undefined;
      }
    }
    flush(text.length);
  }

  private endElement(end: number, flush: (to: number) => void) {
    flush(end);
    const parts = this.element as string[];
    this.element = undefined;
    const key = this.arrayKey as string;
    if (!this.arrays.has(key)) this.arrays.set(key, []);
    const elements = this.arrays.get(key) as unknown[];
    elements.push(parseJsonText(parts.join(''), `/${pointerSegment(key)}/${elements.length}`));
  }

  finish(): unknown {
    if (this.depth !== 0 || this.inString || this.element) throw malformed('the body ends before its JSON does');
    const value = parseJsonText(this.skeleton.join(''));
    for (const [key, elements] of this.arrays) (value as Record<string, unknown>)[key] = elements;
    return value;
  }
}

const malformed = (why: string) => new AppError('malformed_json', `The body is not valid JSON: ${why}.`);
