// Checkpoints for the embedded database. PGlite runs Postgres as one process, with no checkpointer
// of its own: nothing checkpoints until the database is closed, so the write-ahead log (pg_wal) grows
// with every write for as long as the server runs (11 GB while loading 300k rows). A checkpoint lets
// Postgres recycle the log it no longer needs. This takes one when at least WAL_BYTES of log were
// written since the last (Postgres's own trigger, max_wal_size, never fires in PGlite) or EVERY_MS
// passed with any write (Postgres's checkpoint_timeout), between two protocol exchanges and never
// inside a transaction: an open one waits for the next check.
import { clearInterval, setInterval } from "node:timers";

const WAL_BYTES = 256 * 1024 * 1024;
const EVERY_MS = 5 * 60_000;
const CHECK_MS = 10_000;

/** Parses a pg_lsn ("16/B374D848") into a byte position. */
const lsnBytes = (lsn) => {
  const [hi, lo] = String(lsn).split("/");
  return Number.parseInt(hi, 16) * 2 ** 32 + Number.parseInt(lo, 16);
};

/**
 * Starts checking `pg` (served by the wire server `server`) every `checkMs`. Returns `stop()`, and
 * `checks()` resolving after the next check (tests).
 */
export function startCheckpoints(pg, server, { walBytes = WAL_BYTES, everyMs = EVERY_MS, checkMs = CHECK_MS } = {}) {
  let last = { at: Date.now(), lsn: null };
  let waiters = [];
  const check = async () => {
    try {
      await server.exclusive(async () => {
        if (pg.isInTransaction()) return; // the connection's transaction is open: next time
        const { rows } = await pg.query("select pg_current_wal_lsn()::text as lsn");
        const lsn = lsnBytes(rows[0].lsn);
        if (last.lsn === null) last.lsn = lsn;
        const written = lsn - last.lsn;
        if (written >= walBytes || (written > 0 && Date.now() - last.at >= everyMs)) {
          await pg.exec("checkpoint");
          const after = await pg.query("select pg_current_wal_lsn()::text as lsn");
          last = { at: Date.now(), lsn: lsnBytes(after.rows[0].lsn) };
        }
      });
    } catch (err) {
      console.error("[memory-hq] embedded database: a checkpoint failed (retried at the next check):", err);
    } finally {
      const done = waiters;
      waiters = [];
      for (const w of done) w();
    }
  };
  const timer = setInterval(check, checkMs);
  timer.unref?.();
  return {
    stop: () => clearInterval(timer),
    checks: () => new Promise((resolve) => waiters.push(resolve)),
  };
}
