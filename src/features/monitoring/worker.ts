/**
 * The background half of monitoring in a serving process: queue runs whenever the loaded lists
 * change (and once at start, for versions imported while no process ran), and work claimable
 * runs every few seconds. One pass at a time; a failed pass is logged and tried again.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { ListCatalog } from '../../lists/catalog.ts';
import type { MonitoringService } from './service.ts';

export function startMonitoringWorker(service: MonitoringService, lists: ListCatalog, intervalSeconds: number, log: FastifyBaseLogger) {
  let queueAgain = true;
  let running: Promise<void> | undefined;
  const pass = async () => {
    if (queueAgain) {
      queueAgain = false;
      const queued = await service.queueRuns();
      if (queued > 0) log.info({ queued }, 'monitoring runs queued for new list versions');
    }
    const batches = await service.workRuns();
    if (batches > 0) log.info({ batches }, 'monitoring batches worked');
  };
  const tick = () => {
    running ??= pass()
      .catch((error) => log.error({ err: error }, 'a monitoring pass failed; trying again at the next one'))
      .finally(() => (running = undefined));
  };
  const unsubscribe = lists.subscribe(() => {
    queueAgain = true;
    tick();
  });
  const timer = setInterval(tick, intervalSeconds * 1000);
  timer.unref();
  tick();
  return {
    async stop() {
      clearInterval(timer);
      unsubscribe();
      await running;
    },
  };
}
