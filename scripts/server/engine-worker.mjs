// The embedded database's own thread (started by ./engine.mjs): PGlite opens DATA_DIR/pglite here and
// serves it over the Postgres wire protocol on a Unix socket, so its queries — which hold the thread
// they run on — never delay accepting, authenticating or answering requests on the main thread.
// One connection at a time (the socket server mixes the messages of concurrent connections), which
// is also how PGlite works: one transaction at a time.
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { vector } from "@electric-sql/pglite/vector";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

const { dataDir, socketPath, sharedBuffers } = workerData;
const startParams = sharedBuffers ? [...PGlite.defaultStartParams, "-c", `shared_buffers=${sharedBuffers}`] : undefined;
const pg = await PGlite.create(dataDir, { extensions: { vector, pg_trgm }, ...(startParams ? { startParams } : {}) });
const server = new PGLiteSocketServer({ db: pg, path: socketPath, maxConnections: 1 });
await server.start();

// control messages from the host: { id, op: "dump" | "close" }
parentPort.on("message", async ({ id, op, compression }) => {
  try {
    if (op === "dump") {
      // a snapshot of the data directory, taken between two queries (PGlite runs one at a time)
      const file = await pg.dumpDataDir(compression ?? "gzip");
      const data = await file.arrayBuffer();
      parentPort.postMessage({ id, ok: true, data, name: file.name }, [data]);
    } else if (op === "close") {
      await server.stop();
      await pg.close(); // a clean shutdown of Postgres: everything committed is on disk
      parentPort.postMessage({ id, ok: true });
    } else {
      throw new Error(`unknown operation ${op}`);
    }
  } catch (err) {
    parentPort.postMessage({ id, ok: false, error: err instanceof Error ? err.message : String(err) });
  }
});
parentPort.postMessage({ ready: true });
