/**
 * What a benchmark started and must stop (servers, databases, publishers): stopped in reverse
 * order at the end, on failure, or on Ctrl-C, so no run leaves a process behind.
 */
export const running: (() => unknown)[] = [];

export async function stopEverything() {
  while (running.length > 0) await running.pop()?.();
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void stopEverything().finally(() => process.exit(130)));
}
