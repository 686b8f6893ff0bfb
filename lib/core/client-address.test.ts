import { describe, expect, it } from "vitest";
import { parseEnv } from "./env";
import { parseTrustedProxies, resolveClientAddress, stampedAddress, trustedProxyMatcher } from "./client-address";

describe("the client's address", () => {
  it("is the socket's peer when no proxy is trusted, whatever X-Forwarded-For says", () => {
    expect(resolveClientAddress("10.1.2.3", "203.0.113.9", null)).toBe("10.1.2.3");
    expect(stampedAddress("::ffff:10.1.2.3", "203.0.113.9, 198.51.100.1", undefined)).toBe("10.1.2.3");
    expect(stampedAddress(undefined, "203.0.113.9", undefined)).toBe("unknown");
  });

  it("is the peer when the peer is not one of the trusted proxies", () => {
    expect(stampedAddress("10.9.9.9", "203.0.113.9", "10.0.0.0/24, ::1")).toBe("10.9.9.9");
  });

  it("behind trusted proxies, is the nearest X-Forwarded-For entry that is not a trusted proxy", () => {
    const trusted = trustedProxyMatcher("10.0.0.0/8, 2001:db8::/32")!;
    expect(resolveClientAddress("10.0.0.1", "198.51.100.7", trusted)).toBe("198.51.100.7");
    // The client's own forged entries sit left of what the proxies appended: never read.
    expect(resolveClientAddress("10.0.0.1", "1.1.1.1, 198.51.100.7, 10.0.0.2", trusted)).toBe("198.51.100.7");
    expect(resolveClientAddress("2001:db8::5", "2001:db8::6, 198.51.100.8", trusted)).toBe("198.51.100.8");
    // Nothing forwarded: the proxy itself; garbage stops the walk at the last trusted hop.
    expect(resolveClientAddress("10.0.0.1", undefined, trusted)).toBe("10.0.0.1");
    expect(resolveClientAddress("10.0.0.1", "198.51.100.7, not-an-ip, 10.0.0.3", trusted)).toBe("10.0.0.3");
  });

  it("CUSTODIAN_TRUSTED_PROXIES takes addresses and CIDR ranges, and names an entry that is neither", () => {
    expect(parseTrustedProxies("10.0.0.0/8, ::1 ,192.168.1.1")).toHaveLength(3);
    expect(() => parseEnv({ CUSTODIAN_TRUSTED_PROXIES: "10.0.0.0/33" })).toThrow(/CUSTODIAN_TRUSTED_PROXIES.*prefix length/);
    expect(() => parseEnv({ CUSTODIAN_TRUSTED_PROXIES: "proxy.local" })).toThrow(/not an IP address or a CIDR range/);
    expect(parseEnv({ CUSTODIAN_TRUSTED_PROXIES: "10.0.0.1" }).CUSTODIAN_TRUSTED_PROXIES).toBe("10.0.0.1");
  });
});
