/**
 * The canonical form an export's hash is taken over: the project's one canonical JSON
 * (lib/core/canonical-json.ts, where the form is described), named here for the export's readers.
 */
export { canonicalChunks, canonicalJson, canonicalSha256 } from "@/lib/core/canonical-json";
