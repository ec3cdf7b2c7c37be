/**
 * Visitor sessions for the mix's session updates to act on, made the way a gate makes them: real
 * check-ins over HTTP (each screens its visitor and opens its session), a few at a time.
 */
export type SeededSession = { id: string; status: string };

export async function checkInVisitors(baseUrl: string, apiKey: string, bodies: readonly string[], parallel = 4): Promise<SeededSession[]> {
  const sessions: SeededSession[] = [];
  let next = 0;
  const worker = async () => {
    while (next < bodies.length) {
      const body = bodies[next++] as string;
      const response = await fetch(`${baseUrl}/v1/checkin`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body,
      });
      const text = await response.text();
      if (response.status !== 201) throw new Error(`check-in answered ${response.status}: ${text.slice(0, 500)}`);
      const session = JSON.parse(text) as SeededSession;
      sessions.push({ id: session.id, status: session.status });
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return sessions;
}
