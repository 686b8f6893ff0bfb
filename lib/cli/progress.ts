/** A one-line progress bar on stderr (redrawn in place on a terminal, a line per 10% otherwise). */
export function progressBar(label: string, unit = "spans") {
  const tty = process.stderr.isTTY;
  let lastDecile = -1;
  return {
    update(done: number, total: number) {
      const share = total > 0 ? Math.min(1, done / total) : 0;
      if (tty) {
        const width = 30;
        const filled = Math.round(share * width);
        process.stderr.write(`\r${label} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${total} ${unit}`);
      } else if (Math.floor(share * 10) > lastDecile) {
        lastDecile = Math.floor(share * 10);
        process.stderr.write(`${label}: ${done}/${total} ${unit}\n`);
      }
    },
    done() {
      if (tty) process.stderr.write("\n");
    },
  };
}
