/**
 * Where webhooks may be sent (SSRF protection), as pure decisions: a URL's shape, and the
 * addresses its host resolves to. Loopback, private, link-local (cloud metadata), carrier-grade
 * NAT, documentation, multicast and reserved ranges are refused unless the operator's allow-list
 * (WEBHOOK_ALLOWED_HOSTS) names the host, the host and port, or a range holding the address.
 * Resolution itself is I/O and lives with the caller (see destination.ts).
 */
import net from 'node:net';

/** Ranges a webhook must never reach by default (IPv4-mapped IPv6 addresses are checked as IPv4). */
const FORBIDDEN_RANGES: [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'], // "this network"
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'], // IETF protocol assignments
  ['192.0.2.0', 24, 'ipv4'], // documentation
  ['192.88.99.0', 24, 'ipv4'], // 6to4 relay anycast
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'], // benchmarking
  ['198.51.100.0', 24, 'ipv4'], // documentation
  ['203.0.113.0', 24, 'ipv4'], // documentation
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, broadcast
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['64:ff9b::', 96, 'ipv6'], // NAT64: could reach any IPv4 address, private ones included
  ['64:ff9b:1::', 48, 'ipv6'],
  ['100::', 64, 'ipv6'], // discard
  ['2001:db8::', 32, 'ipv6'], // documentation
  ['2002::', 16, 'ipv6'], // 6to4: embeds an IPv4 address
  ['fc00::', 7, 'ipv6'], // unique local (AWS metadata fd00:ec2::254 is here)
  ['fe80::', 10, 'ipv6'], // link-local
  ['ff00::', 8, 'ipv6'], // multicast
];

const forbidden = new net.BlockList();
for (const [address, prefix, family] of FORBIDDEN_RANGES) forbidden.addSubnet(address, prefix, family);

const familyOf = (address: string): 'ipv4' | 'ipv6' => (net.isIPv6(address) ? 'ipv6' : 'ipv4');

/** True for an address no webhook may reach unless allow-listed. */
export function isForbiddenAddress(address: string): boolean {
  return forbidden.check(address, familyOf(address));
}

/** A URL's host as compared: lower case, no brackets around IPv6, no trailing dot. */
export const normalHost = (hostname: string): string =>
  hostname
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');

/** The operator's exceptions: hosts (any port), host:port pairs, and CIDR ranges. */
export class AllowList {
  private readonly hosts = new Set<string>();
  private readonly hostPorts = new Set<string>();
  private readonly ranges = new net.BlockList();
  private hasRanges = false;
  readonly entries: string[] = [];

  /** Parses `WEBHOOK_ALLOWED_HOSTS`; each entry it cannot read is described in `problems`. */
  static parse(text: string | undefined, problems: string[] = []): AllowList {
    const list = new AllowList();
    for (const entry of (text ?? '')
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean)) {
      const problem = list.add(entry);
      if (problem) problems.push(`WEBHOOK_ALLOWED_HOSTS: ${problem}`);
    }
    return list;
  }

  private add(entry: string): string | undefined {
    const cidr = /^(.+)\/(\d{1,3})$/.exec(entry);
    if (cidr) {
      const [, address = '', prefixText = ''] = cidr;
      const prefix = Number(prefixText);
      const family = net.isIP(address);
      if (family === 0 || prefix > (family === 4 ? 32 : 128)) return `"${entry}" is not a CIDR range`;
      this.ranges.addSubnet(address, prefix, family === 4 ? 'ipv4' : 'ipv6');
      this.hasRanges = true;
    } else {
      let url: URL;
      try {
        url = new URL(`http://${entry}`);
      } catch {
        return `"${entry}" is not a host, host:port or CIDR range`;
      }
      if (url.pathname !== '/' || url.username || url.search || url.hash) return `"${entry}" is not a host, host:port or CIDR range`;
      const host = normalHost(url.hostname);
      if (url.port || /:\d+$/.test(entry)) this.hostPorts.add(`${host}:${url.port || '80'}`);
      else this.hosts.add(host);
    }
    this.entries.push(entry);
    return undefined;
  }

  /** The host (with the URL's effective port) is named by the operator. */
  permitsHost(hostname: string, port: number): boolean {
    const host = normalHost(hostname);
    return this.hosts.has(host) || this.hostPorts.has(`${host}:${port}`);
  }

  permitsAddress(address: string): boolean {
    return this.hasRanges && this.ranges.check(address, familyOf(address));
  }
}

export type AddressPolicy = {
  allowList: AllowList;
  /** Plain http for every host (otherwise only for allow-listed ones). */
  allowHttp: boolean;
};

/** A webhook URL that passed the shape checks: what the resolver and `refusedAddress` need. */
export type WebhookTarget = { url: URL; host: string; port: number; allowListed: boolean };

const effectivePort = (url: URL) => Number(url.port || (url.protocol === 'https:' ? 443 : 80));

/** Checks everything about a URL but its addresses; a string says why it is refused. */
export function checkWebhookUrl(text: string, policy: AddressPolicy): WebhookTarget | string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an https URL';
  if (url.username || url.password) return 'must not carry a user name or password; the signature authenticates us';
  if (url.hash) return 'must not have a fragment';
  const port = effectivePort(url);
  const host = normalHost(url.hostname);
  const allowListed = policy.allowList.permitsHost(host, port);
  if (url.protocol === 'http:' && !policy.allowHttp && !allowListed) return 'must use https (plain http is allowed only for hosts the operator allow-listed)';
  return { url, host, port, allowListed };
}

/** The first resolved address the policy refuses, if any: every address must pass, or a later lookup could pick a refused one. */
export function refusedAddress(target: WebhookTarget, addresses: string[], policy: AddressPolicy): string | undefined {
  if (target.allowListed) return undefined;
  return addresses.find((address) => isForbiddenAddress(address) && !policy.allowList.permitsAddress(address));
}
