/**
 * A typed client generated from the served OpenAPI description (openapi-typescript, as an
 * integrator would run it) drives prescreen → case → disposition against the service running as
 * its own process (openapi-fetch over real HTTP). The client's code is type-checked against the
 * generated types first: a description that does not say what the service takes and answers fails
 * here, before any request.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { processDatabase, type ServerProcess, startWithAdminKey } from '../helpers/server-process.ts';

/** Inside node_modules, so the generated client resolves openapi-fetch as an integrator's would; never committed. */
const WORK_DIR = path.resolve('node_modules/.cache/gatehouse-typed-client');

let storage: Awaited<ReturnType<typeof processDatabase>>;
let server: ServerProcess;
let key: string;

before(async () => {
  storage = await processDatabase();
  const env = { ...storage.env, LISTS_DIR: path.resolve('test/fixtures/ofac'), WEBHOOK_WORKER: 'false' };
  ({ server, key } = await startWithAdminKey(storage, env));
});
after(async () => {
  await server?.stop();
  await storage?.cleanup();
});

test('a client generated from the description runs prescreen → case → disposition, type-checked', async () => {
  const origin = new URL(server.baseUrl).origin;
  const description = (await (await fetch(`${origin}/api/v1/openapi.json`)).json()) as Parameters<typeof openapiTS>[0];
  fs.rmSync(WORK_DIR, { recursive: true, force: true });
  fs.mkdirSync(WORK_DIR, { recursive: true });
  fs.writeFileSync(path.join(WORK_DIR, 'api.d.ts'), astToString(await openapiTS(description)));
  fs.copyFileSync(path.resolve('test/http/typed-client/flow.ts.txt'), path.join(WORK_DIR, 'flow.ts'));

  const program = ts.createProgram([path.join(WORK_DIR, 'flow.ts')], {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    allowImportingTsExtensions: true,
    skipLibCheck: true,
    types: [],
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
  });
  const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  assert.deepEqual(problems, [], 'the client compiles against the generated types');

  const flow = (await import(pathToFileURL(path.join(WORK_DIR, 'flow.ts')).href)) as { prescreenToDisposition(baseUrl: string, key: string): Promise<unknown> };
  const result = await flow.prescreenToDisposition(origin, key);
  assert.deepEqual(result, { outcome: 'potential_match', statusBefore: 'OPEN', statusAfter: 'CLEARED', refusal: { status: 409, code: 'invalid_transition' } });
});
