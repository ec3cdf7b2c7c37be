/**
 * How many turns of the event loop went by while some work ran: a callback queued with
 * setImmediate again and again counts them. Counted in turns, not milliseconds (a loaded machine
 * stretches a turn, never adds one): work that holds the event loop from start to end lets none by.
 */
export async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let counting = true;
  const count = () => {
    if (!counting) return;
    turns += 1;
    setImmediate(count);
  };
  setImmediate(count);
  try {
    return { result: await work(), turns };
  } finally {
    counting = false;
  }
}
