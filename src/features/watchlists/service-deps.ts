/** What the watchlist services are built from (src/composition.ts builds them once). */
import type { WithTenant } from '../../db/tenant.ts';
import type { WatchlistChangeHook } from './change-hook.ts';

export type WatchlistDeps = {
  withTenant: WithTenant;
  /** Run with each new version, in its transaction: what reacts to a change subscribes to it in the composition root. */
  changed: WatchlistChangeHook;
  clock?: () => Date;
};
