/**
 * A list version as its readers see it. Its own file because the store (list-store.ts), the rows
 * it is read from (list-version-rows.ts) and the staging that writes it (list-staging.ts) all
 * speak of it, and the store is built on the other two.
 */
import type { ListCode } from '../screening/model.ts';
import type { CountsByType } from './list-content.ts';

export type ListVersion = {
  id: string;
  list: ListCode;
  format: string;
  sourceSha256: string;
  contentSha256: string;
  /** YYYY-MM-DD, when the source says (OFAC's legacy files do not). */
  publishedOn: string | null;
  /** When it became active: its activation committed (its import may have begun a little earlier). */
  importedAt: Date;
  entityCount: number;
  countsByType: CountsByType;
  previousVersionId: string | null;
  changes: { added: number; removed: number; changed: number };
  files: string[];
  warnings: string[];
};

export type NewListVersion = Omit<ListVersion, 'importedAt' | 'changes'>;
