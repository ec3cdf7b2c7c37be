/**
 * Continuous monitoring: runs queued when a list version lands, worked in the background by every
 * process (any number; a run is claimed under a lease), and shown to each organization.
 */
import { auditContextOf } from '../../http/audit-context.ts';
import { decodeCursor, isIdPosition } from '../../http/cursor.ts';
import { AppError } from '../../http/errors.ts';
import type { Feature } from '../../http/feature.ts';
import { cursorPage } from '../../http/list-page.ts';
import { RunIdParams, RunListSchema, RunSchema, RunsQuery } from './schemas.ts';
import type { MonitoringService } from './service.ts';
import type { RunRow } from './store.ts';
import { startMonitoringWorker } from './worker.ts';

const TAG = ['monitoring'];

const present = (run: RunRow) => ({
  id: run.id,
  object: 'monitoring_run' as const,
  list: run.list,
  list_version_id: run.list_version_id,
  previous_version_id: run.previous_version_id,
  changed_entries: run.changed_entries,
  status: run.status,
  counts: run.counts,
  error: run.error,
  created_at: run.created_at.toISOString(),
  started_at: run.started_at?.toISOString() ?? null,
  finished_at: run.finished_at?.toISOString() ?? null,
});

const monitoring: Feature<{ monitoring: MonitoringService }> = {
  name: 'monitoring',
  async register(api, { config, lists }, { monitoring: service }) {
    if (config.monitoringIntervalSeconds > 0) {
      let worker: { stop(): Promise<void> } | undefined;
      api.addHook('onReady', async () => {
        worker = startMonitoringWorker(service, lists, config.monitoringIntervalSeconds, api.log);
      });
      api.addHook('onClose', async () => worker?.stop());
    }

    api.get(
      '/monitoring/runs',
      {
        config: { tier: 'enterprise', permission: 'read' },
        schema: {
          tags: TAG,
          summary: 'List monitoring runs',
          description:
            "One run per list version that added or changed entries: the organization's active workforce, vendors and visitors not yet gone are re-screened " +
            'against those entries only. Newest first, with progress (`counts`) while it runs. A re-screen that finds something is stored as a screening ' +
            "(source `rescreen`) and opens a case, or reopens the subject's own; clear ones are counted, not stored. A run for a version of an OFAC or BIS list " +
            'that added, changed or removed entries then re-evaluates the stored ownership determinations with a party among those entries ' +
            '(`graphs_examined`, `graphs_changed`; a version that only removed entries gets a run for this alone).',
          querystring: RunsQuery,
          response: { 200: RunListSchema },
        },
      },
      async (request) => {
        const limit = request.query.limit ?? 20;
        const beforeId = request.query.cursor ? decodeCursor(request.query.cursor, 'the run list', isIdPosition).i : undefined;
        const rows = await service.list(auditContextOf(request), beforeId, limit + 1);
        return cursorPage(rows, limit, present, (r) => ({ i: r.id }));
      },
    );

    api.get(
      '/monitoring/runs/:id',
      {
        config: { tier: 'enterprise', permission: 'read' },
        schema: { tags: TAG, summary: 'Get a monitoring run', params: RunIdParams, response: { 200: RunSchema } },
      },
      async (request) => {
        const run = await service.get(auditContextOf(request), request.params.id);
        if (!run) throw new AppError('not_found', `There is no monitoring run ${request.params.id} in your organization.`);
        return present(run);
      },
    );
  },
};

export default monitoring;
