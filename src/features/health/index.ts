/**
 * Liveness and readiness for load balancers and orchestrators. Public: they carry no data.
 */
import { Type } from 'typebox';
import type { Feature } from '../../http/feature.ts';

const CheckSchema = Type.Object({
  ok: Type.Boolean({ description: 'False: this check stops the service being ready (503).' }),
  degraded: Type.Optional(
    Type.Boolean({ description: 'True: the check passes but reports a problem the service serves through (a stale list, a failing list source).' }),
  ),
  detail: Type.Optional(
    Type.String({ description: 'What the check found, in words.', examples: ['UN_SC was last confirmed current 12 days ago (maximum 3 days)'] }),
  ),
});
const ReadinessSchema = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('degraded'), Type.Literal('not_ready')], {
    description: '`ready` (200); `degraded` (200): serving, with a check reporting a problem; `not_ready` (503): a check failed.',
  }),
  checks: Type.Record(Type.String(), CheckSchema),
});

const health: Feature = {
  name: 'health',
  prefix: '/api',
  async register(api, { db, readiness }) {
    readiness.add('database', async () => {
      await db.ping();
      return { ok: true };
    });
    readiness.add('migrations', async () => {
      const { current, latest } = await db.migrationStatus();
      return current === latest ? { ok: true } : { ok: false, detail: `at ${current}, code expects ${latest}` };
    });

    api.get(
      '/healthz',
      {
        schema: {
          tags: ['operations'],
          summary: 'Liveness: the process is up',
          description: 'Answers 200 while the process can serve HTTP, without touching the database.',
          response: { 200: Type.Object({ status: Type.Literal('ok') }) },
        },
      },
      async () => ({ status: 'ok' as const }),
    );

    api.get(
      '/readyz',
      {
        schema: {
          tags: ['operations'],
          summary: 'Readiness: every dependency is ready',
          description:
            'Runs every readiness check (the database answers, migrations are current, a list is loaded, the lists are current) and answers with each ' +
            "check's result: 200 `ready` when all pass; 200 `degraded` when all pass but one reports a problem the service serves through, so a load " +
            'balancer keeps sending traffic: a list past its maximum age (LISTS_MAX_AGE) or a list source that failed its last LISTS_FAILED_CHECKS_BEFORE_DEGRADED ' +
            'checks, named with the reason in `checks.list_freshness.detail` (URLs without their query); 503 `not_ready` when a check fails. Public: it needs no credential.',
          response: { 200: ReadinessSchema, 503: ReadinessSchema },
        },
      },
      async (_request, reply) => {
        const { status, checks } = await readiness.run();
        return reply.code(status === 'not_ready' ? 503 : 200).send({ status, checks });
      },
    );
  },
};

export default health;
