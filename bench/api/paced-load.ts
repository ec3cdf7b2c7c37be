/**
 * Drives an HTTP service at a fixed arrival rate with autocannon, cycling through planned requests,
 * and measures each response's latency from the moment its request was due.
 *
 * Why not autocannon's own `overallRate`: it gives each connection a quota per second and lets it
 * send that quota back to back from the top of the second, then idle. Measured against a server
 * answering in 2 ms, 200/s over 10 connections arrived as about 22 requests per 50 ms for the first
 * 450 ms of each second and none for the rest, and its latency histogram (which back-fills values at
 * a 1 ms "expected interval") read p50 12 ms, p99 58 ms. That measures bursts, not a rate.
 *
 * Here each connection sends on its own schedule instead: request k of the run is due at
 * start + k / rate, the dues dealt round-robin to the connections, through autocannon's
 * `setupClient` hook replacing the client's `_doRequest` (an internal of autocannon 8.0, which
 * package.json pins). A connection still waiting for its previous answer when the next request is
 * due sends it late, and the lateness counts in that request's latency, so a slow server cannot
 * hide its queue (no coordinated omission). The achieved rate shows whether the offered one held.
 */
import autocannon from 'autocannon';

export type PlannedRequest = {
  tag: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: string;
  /** Added to the run's headers for this request (e.g. the key of the organization it acts for). */
  headers?: Record<string, string>;
};

export type LoadOptions = {
  baseUrl: string;
  headers: Record<string, string>;
  requests: readonly PlannedRequest[];
  /** Arrivals per second, across all connections. */
  rate: number;
  seconds: number;
  connections: number;
  /** Where in `requests` to start (a warm-up run and the measured run should not send the same ones). */
  firstRequest?: number;
  /** Called with every answer, e.g. to count outcomes; keep it cheap, it runs in the load generator. */
  onAnswer?: (tag: string, status: number, body: string) => void;
  /** Called with every answer's due time and latency (performance.now() milliseconds), to split a run into periods. */
  onTimedAnswer?: (answer: TimedAnswer) => void;
};

export type TimedAnswer = { tag: string; status: number; dueAt: number; latencyMs: number };

export type LoadResult = {
  offeredRate: number;
  achievedRate: number;
  completed: number;
  /** Milliseconds from due time to a 2xx answer, by request tag, each array sorted. */
  latenciesMs: Map<string, number[]>;
  statusCounts: Map<number, number>;
  /** A body for each non-2xx status, to say what went wrong. */
  sampleErrorBodies: Map<number, string>;
  connectionErrors: number;
  timeouts: number;
  /** Requests sent more than 1 ms after they were due: their connection was still waiting for an answer, or the generator was busy. */
  lateSends: number;
  nextRequest: number;
};

type PacedClient = autocannon.Client & { _doRequest(): void; destroyed: boolean };
/** autocannon's per-connection context: set when a request is built, handed back with its answer. */
type RequestContext = { planned?: PlannedRequest };

export async function driveAtFixedRate(options: LoadOptions): Promise<LoadResult> {
  const { requests, rate, connections } = options;
  if (requests.length === 0) throw new Error('no requests to send');
  const url = new URL(options.baseUrl);
  const intervalMs = 1000 / rate;
  let firstDue: number | undefined;
  let clientsMade = 0;
  let built = options.firstRequest ?? 0;
  let justAnswered: PlannedRequest | undefined;
  const latenciesMs = new Map<string, number[]>();
  const statusCounts = new Map<number, number>();
  const sampleErrorBodies = new Map<number, string>();
  let lateSends = 0;

  const result = await autocannon({
    url: url.origin,
    connections,
    duration: options.seconds,
    headers: options.headers,
    requests: [
      {
        setupRequest: (request, context) => {
          const planned = requests[built++ % requests.length] as PlannedRequest;
          (context as RequestContext).planned = planned;
          // A copy every time: autocannon writes the body's Content-Length into the headers it is handed, and
          // this request object is reused, so a GET after a POST would otherwise announce the POST's body.
          const headers = { ...request.headers, ...planned.headers };
          return { ...request, method: planned.method, path: `${url.pathname}${planned.path}`, body: planned.body ?? '', headers };
        },
        onResponse: (status, body, context) => {
          // autocannon calls this, then emits 'response' on the same client, synchronously, before that
          // client sends again: the 'response' listener below reads which request this was from here.
          justAnswered = (context as RequestContext).planned;
          if (status >= 300 && !sampleErrorBodies.has(status)) sampleErrorBodies.set(status, body.slice(0, 500));
          if (justAnswered) options.onAnswer?.(justAnswered.tag, status, body);
        },
      },
    ],
    setupClient: (client) => {
      const paced = client as PacedClient;
      const send = Object.getPrototypeOf(paced)._doRequest as (() => void) | undefined;
      // Without the hook the clients would send as fast as they can, and the figures would mean nothing.
      if (typeof send !== 'function') throw new Error('autocannon has no Client.prototype._doRequest to pace: check the version pinned in package.json');
      firstDue ??= performance.now() + 100; // time for every connection to open before its first request is due
      let due = firstDue + clientsMade++ * intervalMs;
      let lateness = 0;
      let dueAt = 0;
      paced._doRequest = () => {
        const scheduled = due;
        dueAt = scheduled;
        due += connections * intervalMs;
        const fire = () => {
          if (paced.destroyed) return;
          lateness = Math.max(0, performance.now() - scheduled);
          if (lateness > 1) lateSends++;
          send.call(paced);
        };
        const wait = scheduled - performance.now();
        if (wait > 0) setTimeout(fire, wait);
        else fire();
      };
      paced.on('response', (status: number, _bytes: number, durationMs: number) => {
        const tag = justAnswered?.tag ?? 'unknown';
        // Latency of answers only, as autocannon counts it: a refusal's speed says nothing about the work.
        if (status < 300) (latenciesMs.get(tag) ?? latenciesMs.set(tag, []).get(tag))?.push(lateness + durationMs);
        options.onTimedAnswer?.({ tag, status, dueAt, latencyMs: lateness + durationMs });
        statusCounts.set(status, (statusCounts.get(status) ?? 0) + 1);
        justAnswered = undefined;
      });
    },
  });
  const activeSeconds = (performance.now() - (firstDue ?? 0)) / 1000;
  for (const values of latenciesMs.values()) values.sort((a, b) => a - b);
  const completed = [...statusCounts.values()].reduce((sum, n) => sum + n, 0);
  return {
    offeredRate: rate,
    achievedRate: completed / Math.min(activeSeconds, result.duration),
    completed,
    latenciesMs,
    statusCounts,
    sampleErrorBodies,
    connectionErrors: result.errors - result.timeouts,
    timeouts: result.timeouts,
    lateSends,
    nextRequest: built,
  };
}
