/**
 * The screening index built without stalling the process that builds it: the same work as
 * buildScreeningIndex, in slices of about `sliceMs` with a turn of the event loop between them,
 * so that a running service keeps answering while it indexes a new list version.
 */
import type { ListEntity } from './model.ts';
import { type IndexOptions, type ScreeningIndex, screeningIndexSteps } from './screening-index.ts';
import { DEFAULT_SLICE_MS, inSlices } from './steps.ts';

export function buildScreeningIndexInSlices(entities: readonly ListEntity[], options: IndexOptions & { sliceMs?: number } = {}): Promise<ScreeningIndex> {
  return inSlices(screeningIndexSteps(entities, options), options.sliceMs ?? DEFAULT_SLICE_MS);
}
