/**
 * Counts the turns of the event loop from now until `stop()`, which answers how many ran: a
 * measure in turns, not milliseconds, so a loaded machine stretches a turn but never adds one.
 */
export function countTurns(): { stop(): number } {
  let turns = 0;
  let counting = true;
  const count = () => {
    turns += 1;
    if (counting) setImmediate(count);
  };
  setImmediate(count);
  return {
    stop() {
      counting = false;
      return turns;
    },
  };
}
