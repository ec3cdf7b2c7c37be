/**
 * A console session for a benchmark that reads console pages over real HTTP: a viewer created with
 * `gatehouse users create` (as an operator does, before the service starts: the embedded database
 * serves one process), whose one-time setup link is then followed and a password set as a browser
 * would (the CSRF cookie and the form's token), which signs them in.
 */
import { gatehouse } from '../api/service-process.ts';

const PASSWORD = 'benchmark viewer passphrase 29';

/** A viewer of the organization; answers their one-time setup link. */
export function createConsoleViewer(env: Record<string, string>, organizationId: string, email: string): string {
  return gatehouse<{ setup_url: string }>(['users', 'create', '--org', organizationId, '--email', email, '--role', 'viewer'], env).setup_url;
}

/** Sets the viewer's password through their setup link on the running service; answers the Cookie header to send with later requests. */
export async function consoleSession(origin: string, setupUrl: string): Promise<string> {
  const setup = new URL(setupUrl);
  const token = setup.searchParams.get('token') as string;
  const jar = new Map<string, string>();
  const keep = (response: Response) => {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  };
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');

  const form = keep(await fetch(`${origin}${setup.pathname}${setup.search}`, { headers: { cookie: cookie() } }));
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1];
  if (form.status !== 200 || !csrf) throw new Error(`the console's setup page answered ${form.status} without a form`);
  const done = keep(
    await fetch(`${origin}/console/setup`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, token, password: PASSWORD, confirm: PASSWORD }).toString(),
    }),
  );
  if (done.status !== 303) throw new Error(`setting the console password answered ${done.status}: ${(await done.text()).slice(0, 500)}`);
  return cookie();
}
