/**
 * Loopback addresses the browser tests send from (Linux routes all of 127.0.0.0/8 to the host), so
 * that a test which exhausts a per-address throttle exhausts its own address, not 127.0.0.1 where
 * every browser signs in. The e2e server trusts E2E_TRUSTED_PROXY as a proxy.
 */
export const E2E_TRUSTED_PROXY = "127.0.0.77";
