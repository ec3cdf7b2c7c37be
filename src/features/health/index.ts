/**
 * Liveness and readiness for load balancers and orchestrators. Public: they carry no data.
 */
import { Type } from 'typebox';
import type { Feature } from '../../http/feature.ts';

const CheckSchema = Type.Object({ ok: Type.Boolean(), detail: Type.Optional(Type.String()) });
const ReadinessSchema = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]),
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
            'Runs every readiness check (today: the database answers, migrations are current) and answers 200 when all pass, ' +
            '503 otherwise, with each check\'s result.',
          response: { 200: ReadinessSchema, 503: ReadinessSchema },
        },
      },
      async (_request, reply) => {
        const { ready, checks } = await readiness.run();
        return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', checks });
      },
    );
  },
};

export default health;
