/**
 * Exports are signed with the instance's own Ed25519 key, so an edited export fails whatever hash
 * it carries: anyone can recompute a SHA-256, only the instance can sign. The key is made once and
 * kept like the sign-in secret: CUSTODIAN_EXPORT_SIGNING_KEY (a PKCS#8 PEM, to share it between
 * servers), else a file beside the embedded data, created on first use. Its public half is shown on
 * the Evidence page and carried in every export; verification trusts only the instance's own.
 */
import { env } from "@/lib/core/env";
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from "node:crypto";
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { canonicalJson } from "./export-canonical";

export interface ExportSignature {
  algorithm: "Ed25519";
  /** The first 16 hex digits of the SHA-256 of the public key: what people compare by eye. */
  keyId: string;
  /** The public key, SPKI DER in base64. */
  publicKey: string;
  /** The signature over the canonical form of the document without this member, base64. */
  value: string;
}

export interface InstancePublicKey {
  keyId: string;
  publicKey: string;
}

const holder = globalThis as unknown as {
  custodianExportKey?: { source: string; key: KeyObject; publicKey: InstancePublicKey };
};

function keyFile(): string {
  return path.resolve(process.cwd(), ".custodian", "export-signing-key");
}

/** The instance's private key and its public half (loaded once per configured source). */
function signingKey(): { key: KeyObject; publicKey: InstancePublicKey } {
  const configured = env().CUSTODIAN_EXPORT_SIGNING_KEY;
  const source = configured ? "env" : keyFile();
  if (holder.custodianExportKey?.source === source) return holder.custodianExportKey;
  let pem: string;
  if (configured) pem = configured;
  else if (existsSync(source)) pem = readFileSync(source, "utf8");
  else {
    pem = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    mkdirSync(path.dirname(source), { recursive: true });
    // Written whole under another name, then linked into place, which fails if the key exists: of
    // two processes making it at once, the second reads the first's, never a half-written file.
    const draft = `${source}.${process.pid}.${Date.now()}`;
    writeFileSync(draft, pem, { mode: 0o600 });
    try {
      linkSync(draft, source);
    } catch {
      pem = readFileSync(source, "utf8");
    } finally {
      rmSync(draft, { force: true });
    }
  }
  const key = createPrivateKey(pem);
  if (key.asymmetricKeyType !== "ed25519") throw new Error("The export signing key must be an Ed25519 private key (PKCS#8 PEM)");
  holder.custodianExportKey = { source, key, publicKey: describeKey(createPublicKey(key)) };
  return holder.custodianExportKey;
}

function describeKey(publicKey: KeyObject): InstancePublicKey {
  const der = publicKey.export({ type: "spki", format: "der" });
  return { keyId: createHash("sha256").update(der).digest("hex").slice(0, 16), publicKey: der.toString("base64") };
}

/** The public half of the instance's key, as the Evidence page shows it. */
export function instancePublicKey(): InstancePublicKey {
  return signingKey().publicKey;
}

/** The signature of a document (its canonical form, without any `signature` member). */
export function signExport(document: object): ExportSignature {
  const { key, publicKey } = signingKey();
  const { signature: _, ...body } = document as { signature?: unknown };
  const value = sign(null, Buffer.from(canonicalJson(body), "utf8"), key).toString("base64");
  return { algorithm: "Ed25519", ...publicKey, value };
}

export type SignatureCheck = "valid" | "missing" | "invalid" | "another key";

/**
 * Whether a document carries a signature by this instance's key over exactly its content. A
 * signature by any other key fails, however valid: an editor can sign with a key of their own.
 */
export function checkExportSignature(document: object): SignatureCheck {
  const { signature, ...body } = document as { signature?: Partial<ExportSignature> };
  if (!signature || typeof signature !== "object" || typeof signature.value !== "string") return "missing";
  const own = instancePublicKey();
  if (signature.publicKey !== own.publicKey) return "another key";
  try {
    const ok = verify(
      null,
      Buffer.from(canonicalJson(body), "utf8"),
      createPublicKey({ key: Buffer.from(own.publicKey, "base64"), format: "der", type: "spki" }),
      Buffer.from(signature.value, "base64"),
    );
    return ok ? "valid" : "invalid";
  } catch {
    return "invalid";
  }
}
