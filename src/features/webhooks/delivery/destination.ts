/**
 * Where a webhook goes, decided at creation and again before every delivery: the URL's shape,
 * then every address its host resolves to (so a name that later resolves to a private address,
 * DNS rebinding, is caught when it matters). The checked address is what the sender connects
 * to, so no second lookup can swap it.
 */
import dns from 'node:dns';
import net from 'node:net';
import { type AddressPolicy, checkWebhookUrl, refusedAddress, type WebhookTarget } from '../../../webhooks/address-policy.ts';

export type ResolvedAddress = { address: string; family: 4 | 6 };
/** Resolves a host name to its addresses; injectable, so tests control DNS as they control time. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await dns.promises.lookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

export type Destination = WebhookTarget & { address: ResolvedAddress };

/** Why a URL may not receive webhooks: said to the person who gave it, or recorded on the attempt. */
export class RefusedDestination extends Error {
  override name = 'RefusedDestination';
}

export async function resolveDestination(urlText: string, policy: AddressPolicy, resolve: Resolver, timeoutMs: number): Promise<Destination> {
  const target = checkWebhookUrl(urlText, policy);
  if (typeof target === 'string') throw new RefusedDestination(`The URL ${target}.`);
  const literal = net.isIP(target.host);
  const addresses = literal ? [{ address: target.host, family: literal as 4 | 6 }] : await resolveWithin(resolve, target.host, timeoutMs);
  if (addresses.length === 0) throw new RefusedDestination(`The host ${target.host} has no address.`);
  const refused = refusedAddress(
    target,
    addresses.map((a) => a.address),
    policy,
  );
  if (refused !== undefined) {
    throw new RefusedDestination(
      `The host ${target.host} resolves to ${refused}, a loopback, private, link-local or reserved address; webhooks are sent to public addresses only ` +
        '(the operator may allow a host with WEBHOOK_ALLOWED_HOSTS).',
    );
  }
  return { ...target, address: addresses[0] as ResolvedAddress };
}

async function resolveWithin(resolve: Resolver, host: string, timeoutMs: number): Promise<ResolvedAddress[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RefusedDestination(`The host ${host} could not be resolved within ${timeoutMs} ms.`)), timeoutMs);
  });
  try {
    return await Promise.race([resolve(host), timeout]);
  } catch (error) {
    if (error instanceof RefusedDestination) throw error;
    throw new RefusedDestination(`The host ${host} could not be resolved (${(error as NodeJS.ErrnoException).code ?? 'lookup failed'}).`);
  } finally {
    clearTimeout(timer);
  }
}
