/** What a scan needs to know about where the text came from, to make paths absolute. */
export interface ScanContext {
  cwd?: string;
  home: string;
}
