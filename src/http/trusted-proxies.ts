/**
 * Which peers may say who the client is (`TRUST_PROXY`, `TRUST_PROXY_HOPS`). Behind a load
 * balancer every connection comes from the balancer, so the client's own address is only in the
 * `X-Forwarded-For` header the balancer appends to. Fastify reads that header for `request.ip`
 * (and so for the audit trail's `source_ip`, the failed-authentication limits and the request
 * log) when it is given this module's trust function, and ignores it otherwise.
 *
 * Trust starts at the immediate peer, which must be one of the addresses named: anyone who
 * reaches the service directly can write any `X-Forwarded-For` they like, so a header is believed
 * only from a peer known to be a proxy. Hence two settings Fastify would take are refused:
 * `true` (every peer is a proxy: each client chooses its own address), and a hop count alone
 * (it cannot tell the balancer from a client connecting directly; Fastify 5.12.1 turned it off
 * for that reason). A count is accepted with the addresses, for chains whose farther proxies
 * (a CDN's edges) have no address one could list.
 */
import net from 'node:net';
import type { EnvReader } from '../env-reader.ts';

export type TrustedProxies = {
  /** The addresses and CIDR ranges of the proxies, as written in TRUST_PROXY. */
  entries: string[];
  /** How many proxies every request passes, the nearest of them named in `entries`; undefined: each listed address is a proxy, however many. */
  hops: number | undefined;
};

const MAX_HOPS = 10;

/** Reads TRUST_PROXY and TRUST_PROXY_HOPS; undefined (trust no peer) when TRUST_PROXY is unset, `false` or `0`. */
export function readTrustedProxies(read: EnvReader): TrustedProxies | undefined {
  const raw = read.optionalString('TRUST_PROXY');
  const text = raw === undefined || ['false', 'no', 'off', '0'].includes(raw.toLowerCase()) ? undefined : raw;
  const hops = read.optionalString('TRUST_PROXY_HOPS') === undefined ? undefined : read.integer('TRUST_PROXY_HOPS', 1, 1, MAX_HOPS);
  if (text === undefined) {
    if (hops !== undefined)
      read.problem('TRUST_PROXY_HOPS needs TRUST_PROXY: the nearest proxy must be named by its address, or a client could claim any address');
    return undefined;
  }
  if (['true', 'yes', 'on', '*'].includes(text.toLowerCase())) {
    read.problem(
      `TRUST_PROXY=${text} would trust every peer as a proxy, so any client could choose the address the service records ` +
        `(the audit trail, the failed-authentication limit) by sending X-Forwarded-For; name the load balancer's addresses instead, e.g. TRUST_PROXY=10.0.0.0/8`,
    );
    return undefined;
  }
  if (/^\d+$/.test(text)) {
    read.problem(
      `TRUST_PROXY=${text}: a hop count alone cannot tell the load balancer from a client that connects directly and writes its own X-Forwarded-For; ` +
        `name the balancer's addresses in TRUST_PROXY (e.g. 10.0.0.0/8) and put the count in TRUST_PROXY_HOPS=${text}`,
    );
    return undefined;
  }
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const problems = entries.map(entryProblem).filter((problem) => problem !== undefined);
  if (entries.length === 0) problems.push(`"${text}" names no address`);
  for (const problem of problems) read.problem(`TRUST_PROXY: ${problem}`);
  return problems.length === 0 ? { entries, hops } : undefined;
}

/** Why an entry of TRUST_PROXY cannot be used, if it cannot. */
function entryProblem(entry: string): string | undefined {
  const cidr = /^(.+)\/(\d{1,3})$/.exec(entry);
  const address = cidr ? (cidr[1] as string) : entry;
  const family = net.isIP(address);
  if (family === 0) return `"${entry}" is not an IP address or CIDR range (host names are not resolved)`;
  if (!cidr) return undefined;
  const prefix = Number(cidr[2]);
  if (prefix > (family === 4 ? 32 : 128)) return `"${entry}" is not a CIDR range: the prefix is longer than ${family === 4 ? 32 : 128} bits`;
  if (prefix === 0) return `"${entry}" holds every address, so any client could choose its own by sending X-Forwarded-For; name the load balancer's range`;
  return undefined;
}

/**
 * Fastify's `trustProxy`: false when no peer is trusted; otherwise whether the address `hop`
 * steps from the service (0: the peer, 1: the last address in X-Forwarded-For, …) is a proxy,
 * whose report of the next address is believed. The client is the first address that is not.
 */
export function trustProxyOption(trusted: TrustedProxies | undefined): false | ((address: string, hop: number) => boolean) {
  if (!trusted) return false;
  const listed = new net.BlockList(); // IPv4-mapped IPv6 peers (a dual-stack listener's) match IPv4 entries
  for (const entry of trusted.entries) {
    const [address = '', prefix] = entry.split('/');
    const family = net.isIPv6(address) ? 'ipv6' : 'ipv4';
    if (prefix === undefined) listed.addAddress(address, family);
    else listed.addSubnet(address, Number(prefix), family);
  }
  const isListed = (address: string) => {
    const family = net.isIP(address);
    return family !== 0 && listed.check(address, family === 6 ? 'ipv6' : 'ipv4');
  };
  const { hops } = trusted;
  // With a count, the farther proxies are taken on the nearest one's word: exactly `hops` of them.
  if (hops !== undefined) return (address, hop) => hop < hops && (hop > 0 || isListed(address));
  return (address) => isListed(address);
}
