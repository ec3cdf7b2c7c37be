/**
 * Route schemas (request validators, validation.ts; response serializers, serialization.ts) are
 * compiled when first used, or by `compileRemaining` once a serving process listens. Compiling
 * every route's schemas as the app started took 1.8 s of each start (CPU profile of a test's
 * app: Ajv 1.4 s, fast-json-stringify 0.4 s), mostly for routes that a test file never calls. A
 * serving process compiles the rest in the background, between requests, so that a route's first
 * request does not hold the event loop with its compilation (0.15 s for the first of all).
 */
import { giveWay } from '../background-priority.ts';

type Compiler = () => unknown;

/** Compilers not run yet, held weakly: an app closed and collected leaves nothing behind. */
const waiting = new Set<WeakRef<Compiler>>();
const collected = new FinalizationRegistry<WeakRef<Compiler>>((ref) => waiting.delete(ref));

/** What `compile` makes, made at the first call of the function returned (or by compileRemaining), and kept. */
export function compiledOnFirstUse<T>(compile: () => T): () => T {
  let compiled: { value: T } | undefined;
  const get = (): T => {
    if (!compiled) {
      compiled = { value: compile() };
      waiting.delete(ref);
      collected.unregister(ref);
    }
    return compiled.value;
  };
  const ref = new WeakRef<Compiler>(get);
  waiting.add(ref);
  collected.register(get, ref, ref);
  return get;
}

/** Compiles everything not used yet, one at a time, giving way to requests between (background-priority.ts). Answers how many. */
export async function compileRemaining(): Promise<number> {
  let count = 0;
  for (const ref of [...waiting]) {
    const compile = ref.deref();
    if (!compile) continue;
    compile();
    count += 1;
    await giveWay();
  }
  return count;
}
