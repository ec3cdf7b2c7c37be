/** SHA-256 of a text as lower-case hex: record hashes, list content hashes. */
import { createHash } from 'node:crypto';

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');
