// The Postgres wire protocol in front of an embedded PGlite, on a Unix socket (see ./engine-worker.mjs).
//
// - One session: PGlite is a single Postgres backend, so one connection is served at a time; a second
//   one waits (paused) until the first closes. When a connection closes, an open transaction is rolled
//   back and the session reset (DISCARD ALL: its prepared statements and settings), so the next
//   connection starts clean.
// - Everything that arrived together is one call: all complete messages in the buffer (a query's
//   Parse/Bind/Describe/Execute/Sync, or several pipelined queries) run in one pass of Postgres's
//   main loop, and the answer goes back in one write.
// - `exclusive(fn)` runs `fn` (a snapshot of the files) with no protocol traffic processed meanwhile.
import { Buffer } from "node:buffer";
import net from "node:net";

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const TERMINATE = 0x58; // 'X'
const EMPTY = new Uint8Array(0);
const FORGET_EVERY = 64;

/** A simple-protocol Query message. */
function queryMessage(text) {
  const body = Buffer.from(`${text}\0`, "utf8");
  const msg = Buffer.alloc(5 + body.length);
  msg[0] = 0x51; // 'Q'
  msg.writeInt32BE(4 + body.length, 1);
  body.copy(msg, 5);
  return new Uint8Array(msg.buffer, msg.byteOffset, msg.length);
}

/**
 * Serves `pg` at `listen`: a Unix socket's path, or `{ host, port }` (port 0: any free one; tests).
 * Resolves once listening, with the address it listens at.
 */
export async function serveWire(pg, listen) {
  let active = null; // the connection being served
  const waiting = []; // connections waiting for their turn
  let held = null; // a promise while `exclusive` runs
  let closing = false;
  const sockets = new Set();

  // Raw protocol calls leave every parsed answer in PGlite's result list until its next own query;
  // an empty execProtocol empties it (it runs nothing), so a long-lived server does not keep them all.
  // (every FORGET_EVERY calls, which bounds what is kept without a second call per query).
  let calls = 0;
  function run(bytes) {
    const out = pg.execProtocolRawSync(bytes);
    if (++calls % FORGET_EVERY === 0) pg.execProtocol(EMPTY, { throwOnError: false }).catch(() => {});
    return out;
  }

  function resetSession() {
    try {
      if (pg.isInTransaction()) run(queryMessage("ROLLBACK"));
      run(queryMessage("DISCARD ALL"));
    } catch (err) {
      console.error("[memory-hq] embedded database: resetting the session failed:", err);
    }
  }

  function activateNext() {
    active = null;
    while (waiting.length && !active) {
      const next = waiting.shift();
      if (next.socket.destroyed) continue;
      active = next;
      next.socket.resume();
      serve(next);
    }
  }

  /** Runs every complete message buffered on `conn`, if it is the one being served. */
  function serve(conn) {
    if (conn !== active || held || closing) return;
    const { socket } = conn;
    const out = [];
    let buf = conn.buf;
    let at = 0;
    try {
      while (at < buf.length) {
        if (!conn.started) {
          if (buf.length - at < 8) break;
          const len = buf.readInt32BE(at);
          if (buf.length - at < len) break;
          const msg = buf.subarray(at, at + len);
          at += len;
          const code = msg.readInt32BE(4);
          if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
            out.push(Buffer.from("N")); // no encryption on a local socket
            continue;
          }
          if (code === CANCEL_REQUEST) {
            socket.end(); // PGlite cannot interrupt a running query
            at = buf.length;
            break;
          }
          conn.started = true;
          out.push(run(new Uint8Array(msg)));
          continue;
        }
        // typed messages: [type][int32 length incl. itself][body]; take all complete ones up to a Terminate
        let end = at;
        let terminate = false;
        while (buf.length - end >= 5) {
          if (buf[end] === TERMINATE) {
            terminate = true;
            break;
          }
          const len = buf.readInt32BE(end + 1);
          if (buf.length - end < len + 1) break;
          end += len + 1;
        }
        if (end > at) {
          const batch = buf.subarray(at, end);
          out.push(run(new Uint8Array(batch.buffer, batch.byteOffset, batch.length)));
          at = end;
        }
        if (terminate) {
          at = buf.length;
          socket.end();
        }
        break;
      }
    } catch (err) {
      console.error("[memory-hq] embedded database: a protocol exchange failed:", err);
      socket.destroy();
      return;
    }
    conn.buf = at >= buf.length ? EMPTY_BUFFER : buf.subarray(at);
    const bytes = out.filter((b) => b.length);
    if (bytes.length && !socket.destroyed) socket.write(bytes.length === 1 ? bytes[0] : Buffer.concat(bytes));
  }

  const server = net.createServer((socket) => {
    if (closing) return socket.destroy();
    sockets.add(socket);
    socket.setNoDelay?.(true);
    const conn = { socket, buf: EMPTY_BUFFER, started: false };
    socket.on("data", (data) => {
      conn.buf = conn.buf.length ? Buffer.concat([conn.buf, data]) : data;
      serve(conn);
    });
    socket.on("error", () => {}); // a client that went away: 'close' follows
    socket.on("close", () => {
      sockets.delete(socket);
      const i = waiting.indexOf(conn);
      if (i >= 0) waiting.splice(i, 1);
      if (conn === active) {
        if (conn.started && !closing) resetSession();
        activateNext();
      }
    });
    if (active) {
      socket.pause();
      waiting.push(conn);
    } else {
      active = conn;
    }
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    const done = () => {
      server.off("error", reject);
      resolve();
    };
    if (typeof listen === "string") server.listen(listen, done);
    else server.listen(listen.port, listen.host, done);
  });

  return {
    /** The socket's path, or the TCP address and port it listens at. */
    address: server.address(),
    /** Runs `fn` while no protocol message is processed; what arrives meanwhile waits its turn. */
    async exclusive(fn) {
      while (held) await held;
      let release;
      held = new Promise((r) => (release = r));
      try {
        return await fn();
      } finally {
        held = null;
        release();
        if (active) serve(active);
      }
    },
    /** Stops listening and closes every connection. */
    async close() {
      closing = true;
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const EMPTY_BUFFER = Buffer.alloc(0);
