/**
 * The shape of a received payload without its content: its key paths (`visitor.documents[].type`),
 * to a bounded depth and count. What the interface spec allows us to log and keep from an inbound
 * webhook: the keys, never a value, and of the keys only those that look like field names
 * (key-path-segment.ts): a member name that could be personal data is written `<key>`.
 */
import { keyPathSegment } from './key-path-segment.ts';

/** Nesting levels listed; deeper keys are left out (and `truncated` says so). */
export const KEY_PATH_DEPTH = 5;
/** Paths listed at most. */
export const MAX_KEY_PATHS = 200;

export type KeyPaths = { paths: string[]; truncated: boolean };

export function payloadKeyPaths(payload: unknown): KeyPaths {
  const paths = new Set<string>();
  let truncated = false;
  const walk = (value: unknown, prefix: string, depth: number) => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item, `${prefix}[]`, depth);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value)) {
      if (depth > KEY_PATH_DEPTH || paths.size >= MAX_KEY_PATHS) {
        truncated = true;
        return;
      }
      const name = keyPathSegment(key);
      const path = prefix ? `${prefix}.${name}` : name;
      paths.add(path);
      walk(child, path, depth + 1);
    }
  };
  walk(payload, '', 1);
  return { paths: [...paths].sort(), truncated };
}
