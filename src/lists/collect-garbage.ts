/**
 * A full collection of the calling thread's heap, now. For the background threads only (the index
 * thread, the list-reading thread), which know when they have just left a great deal of garbage
 * behind; the service's thread leaves collections to V8.
 *
 * Node collects on demand only with the --expose-gc flag, which a worker thread cannot be given
 * alone. Setting it exposes `gc` to contexts made afterwards, as test runners do: to the one made
 * here, not to any thread's global scope.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

export function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}
