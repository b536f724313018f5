/**
 * A bench child process (a server the bench runs) ends cleanly on SIGTERM or SIGINT, and dies
 * with the bench even if the bench is killed without a chance to stop it (its parent changes).
 * `close` stops what it serves; past 5 s the process exits anyway.
 */
export function endWithParent(close: () => Promise<void>): void {
  let stopping = false;
  const shutdown = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    const timer = setTimeout(() => process.exit(1), 5000);
    timer.unref();
    await close();
    process.exit(0);
  };
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void shutdown();
  }, 500).unref();
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
}
