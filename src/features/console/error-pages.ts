/**
 * Failures in the console answer as pages a person can act on, with the status the API would give
 * (the same AppError catalogue, the same mapping of Fastify's own errors), never a stack trace.
 */
import type { FastifyError } from 'fastify';
import { toAppError } from '../../http/error-handler.ts';
import { AppError } from '../../http/errors.ts';
import type { Api } from '../../http/feature.ts';
import { html } from './html.ts';
import { sendPage } from './layout.ts';

/** @fastify/csrf-protection's refusals: no CSRF secret cookie, or a token that does not match it. */
const CSRF_CODES = new Set(['FST_CSRF_MISSING_SECRET', 'FST_CSRF_INVALID_TOKEN']);

export function installErrorPages(api: Api, bodyLimit: number) {
  api.setErrorHandler((error: FastifyError, request, reply) => {
    const problem = CSRF_CODES.has(error.code)
      ? new AppError('forbidden', 'This form did not come from a console page of this server, or it is too old. Go back, reload the page and send it again.')
      : toAppError(error, request, bodyLimit);
    for (const [name, value] of Object.entries(problem.extras.headers ?? {})) reply.header(name, value);
    const fields = problem.extras.errors ?? [];
    return sendPage(request, reply, {
      title: problem.title,
      status: problem.status,
      body: html`<p>${problem.detail}</p>
${fields.length > 0 && html`<ul>${fields.map((f) => html`<li><code>${f.pointer || '(the form)'}</code> ${f.detail}</li>`)}</ul>`}
<p><a href="/console">Back to the console</a></p>
<p class="help">Request id: <code>${String(request.id)}</code></p>`,
    });
  });

  api.setNotFoundHandler((request, reply) =>
    sendPage(request, reply, {
      title: 'Page not found',
      status: 404,
      body: html`<p>There is no such page in your organization's console.</p><p><a href="/console">Back to the console</a></p>`,
    }),
  );
}
