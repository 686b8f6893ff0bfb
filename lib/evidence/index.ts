/**
 * The evidence engine's public API: pure functions over span facts, usable on the server and in
 * the browser alike. Import from here rather than from individual files.
 */
export * from "./types";
export * from "./classes";
export { analyzeSpan, classifySpan, extractAtoms, MAX_SCAN_BYTES } from "./analyze";
export { cellSafety, type Safety } from "./safety";
export * from "./path-prefix";
export * from "./policy";
export * from "./provenance";
export * from "./manifest";
export { containsBounded, prepareSummaryText, textContainsAtom, type SummaryText } from "./summary-text";
export * from "./gate";
export * from "./lineage";
export * from "./questions";
