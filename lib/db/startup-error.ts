/**
 * A configuration problem found while starting (database unreachable, port taken, data folder
 * unreadable). Entry points print its one-line message and exit non-zero: no stack trace.
 */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StartupError";
  }
}
