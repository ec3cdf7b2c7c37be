/**
 * The console's style sheet and script, read once at start and served from this server, the only
 * origin the Content-Security-Policy allows.
 */
import fs from 'node:fs';
import { Type } from 'typebox';
import type { Api } from '../../http/feature.ts';

const FILES = { 'console.css': 'text/css; charset=utf-8', 'console.js': 'text/javascript; charset=utf-8' } as const;

export function registerAssets(api: Api) {
  const contents = new Map(Object.keys(FILES).map((name) => [name, fs.readFileSync(new URL(`./assets/${name}`, import.meta.url))]));
  api.get(
    '/assets/:name',
    { config: { public: true }, schema: { params: Type.Object({ name: Type.String({ enum: Object.keys(FILES) }) }) } },
    async (request, reply) =>
      reply
        .type(FILES[request.params.name as keyof typeof FILES])
        .header('cache-control', 'public, max-age=3600')
        .send(contents.get(request.params.name)),
  );
}
