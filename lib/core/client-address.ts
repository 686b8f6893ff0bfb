import { BlockList, isIP } from "node:net";

/**
 * Where a request comes from. A client that talks to the server directly can write any
 * X-Forwarded-For it likes, so that header names the client only when the connection itself comes
 * from a proxy the operator named (CUSTODIAN_TRUSTED_PROXIES); otherwise the socket's own address
 * is the client's. The server (lib/runner/serve-next.ts) resolves the address once per request and
 * hands it on in CLIENT_ADDRESS_HEADER, after deleting whatever the client sent under that name;
 * throttles and the sign-in library read only that header.
 */
export const CLIENT_ADDRESS_HEADER = "x-custodian-client-address";

/** What a request carries when no server stamped it (a handler called in process). */
export const UNKNOWN_ADDRESS = "unknown";

/** One entry of CUSTODIAN_TRUSTED_PROXIES: an IPv4 or IPv6 address, or a range in CIDR form. */
export interface ProxyEntry {
  address: string;
  prefix: number | null;
  family: 4 | 6;
}

/** "::ffff:10.0.0.1" (an IPv4 peer on a dual-stack socket) is 10.0.0.1. */
export function normalizeAddress(address: string): string {
  const trimmed = address.trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(trimmed);
  return mapped ? mapped[1]! : trimmed;
}

/** Parses the comma-separated list; throws with the entry at fault. */
export function parseTrustedProxies(text: string): ProxyEntry[] {
  return text
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .map((entry) => {
      const [raw, bits, extra] = entry.split("/");
      const address = normalizeAddress(raw ?? "");
      const family = isIP(address);
      if (extra !== undefined || (family !== 4 && family !== 6))
        throw new Error(`"${entry}" is not an IP address or a CIDR range (e.g. 10.0.0.0/8, ::1)`);
      if (bits === undefined) return { address, prefix: null, family };
      const prefix = Number(bits);
      if (!/^\d+$/.test(bits) || prefix > (family === 4 ? 32 : 128))
        throw new Error(`"${entry}": the prefix length must be 0 to ${family === 4 ? 32 : 128}`);
      return { address, prefix, family };
    });
}

/** The proxies as one matcher; null when none is trusted (the default). */
export function trustedProxyMatcher(text: string | undefined): BlockList | null {
  const entries = text ? parseTrustedProxies(text) : [];
  if (entries.length === 0) return null;
  const list = new BlockList();
  for (const e of entries) {
    const type = e.family === 4 ? "ipv4" : "ipv6";
    if (e.prefix === null) list.addAddress(e.address, type);
    else list.addSubnet(e.address, e.prefix, type);
  }
  return list;
}

function isTrusted(list: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 4 ? "ipv4" : "ipv6");
}

/**
 * The client's address: the socket's peer, unless the peer is a trusted proxy; then the
 * X-Forwarded-For entries are read from the nearest (last) back, skipping trusted proxies, and the
 * first one that is not trusted is the client (entries left of it were written by the client and
 * prove nothing). An entry that is no address stops the walk at the last trusted hop.
 */
export function resolveClientAddress(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trusted: BlockList | null,
): string {
  const socket = peer ? normalizeAddress(peer) : "";
  if (!socket) return UNKNOWN_ADDRESS;
  if (!trusted || !isTrusted(trusted, socket)) return socket;
  const hops = (forwardedFor ?? "")
    .split(",")
    .map((part) => normalizeAddress(part))
    .filter(Boolean);
  let client = socket;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (isIP(hop) === 0) break;
    client = hop;
    if (!isTrusted(trusted, hop)) break;
  }
  return client;
}

let matcherCache: { text: string | undefined; matcher: BlockList | null } | undefined;

/**
 * What the server stamps on a request under CLIENT_ADDRESS_HEADER: the client's address by the
 * trusted proxies' list as configured now (parsed again only when the setting changed).
 */
export function stampedAddress(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trustedProxies: string | undefined,
): string {
  let cache = matcherCache;
  if (!cache || cache.text !== trustedProxies) {
    cache = { text: trustedProxies, matcher: trustedProxyMatcher(trustedProxies) };
    matcherCache = cache;
  }
  return resolveClientAddress(peer, forwardedFor, cache.matcher);
}

/** The address the server stamped on the request (see CLIENT_ADDRESS_HEADER). */
export function clientAddress(headers: Headers): string {
  return headers.get(CLIENT_ADDRESS_HEADER)?.trim().slice(0, 100) || UNKNOWN_ADDRESS;
}
