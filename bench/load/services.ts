/**
 * What bench:load sends its mix to: one `gatehouse serve` process, or several on the same
 * database behind Debian's HAProxy, round-robin (test/helpers/haproxy.ts, as the tests of many
 * processes run it), each process trusting the balancer to name the client (TRUST_PROXY), so the
 * limits and the audit trail see the generator, not HAProxy. The processes and HAProxy share the
 * CPUs the single process would have had, so that one and several are compared on the same cores.
 */
import { startHaproxy } from '../../test/helpers/haproxy.ts';
import type { BenchDatabase } from '../api/databases.ts';
import { startReadyService } from '../api/prepared-service.ts';
import type { ServiceProcess, StartOptions } from '../api/service-process.ts';

export type Services = {
  /** Where requests go: the one process, or the balancer. */
  baseUrl: string;
  /** Every process that serves (the balancer's too): what a step costs is their sum. */
  pids: number[];
  processes: ServiceProcess[];
  stop(): Promise<void>;
};

/** Where HAProxy says it comes from; the services trust it for the client's address. */
const BALANCER_ADDRESS = '127.0.0.1';

export async function startServices(database: BenchDatabase, count: number, options: StartOptions = {}): Promise<Services> {
  const processes: ServiceProcess[] = [];
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    while (stops.length > 0) await stops.pop()?.();
  };
  try {
    const env = count > 1 ? { ...database.env, TRUST_PROXY: BALANCER_ADDRESS } : database.env;
    // One after the other: each builds its own list index, and two building at once on one core only take longer.
    for (let n = 0; n < count; n++) {
      const { service } = await startReadyService({ ...database, env }, options);
      processes.push(service);
      stops.push(service.stop);
    }
    const only = processes[0] as ServiceProcess;
    if (count === 1) return { baseUrl: only.baseUrl, pids: [only.pid], processes, stop };
    const balancer = await startHaproxy(
      processes.map((p) => p.baseUrl),
      options.cpus ? { cpus: options.cpus } : {},
    );
    stops.push(balancer.stop);
    return { baseUrl: balancer.baseUrl, pids: [...processes.map((p) => p.pid), balancer.pid], processes, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
