/**
 * Readiness checks: each part that must be working before the service takes traffic registers a
 * named check (the database, migrations, the loaded lists). /api/readyz runs them all.
 *
 * A check that fails (`ok: false`) makes the service not ready: it should get no traffic. A check
 * that passes but says `degraded` (stale lists) makes it degraded: it serves, and says what is wrong.
 */
export type CheckResult = { ok: boolean; degraded?: boolean; detail?: string };
export type ReadinessCheck = () => Promise<CheckResult>;
export type ReadinessStatus = 'ready' | 'degraded' | 'not_ready';

export class Readiness {
  private readonly checks = new Map<string, ReadinessCheck>();

  add(name: string, check: ReadinessCheck) {
    if (this.checks.has(name)) throw new Error(`Readiness check "${name}" is registered twice`);
    this.checks.set(name, check);
  }

  async run(timeoutMs = 2_000): Promise<{ status: ReadinessStatus; checks: Record<string, CheckResult> }> {
    const entries = await Promise.all([...this.checks].map(async ([name, check]) => [name, await withTimeout(check, timeoutMs)] as const));
    const results = entries.map(([, result]) => result);
    const status = results.some((r) => !r.ok) ? 'not_ready' : results.some((r) => r.degraded) ? 'degraded' : 'ready';
    return { status, checks: Object.fromEntries(entries) };
  }
}

async function withTimeout(check: ReadinessCheck, ms: number): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, detail: `no answer within ${ms} ms` }), ms);
  });
  try {
    // A failing check reports its class of failure, not its message: readyz is public.
    return await Promise.race([check().catch(() => ({ ok: false, detail: 'check failed' })), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
