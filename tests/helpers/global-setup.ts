// Integration suite, once per run: on the `postgres` transport, the server must answer and carry the
// roles every test database's migrations expect. A missing server is a failure here, never a skip.
import { prepareServer, serverReachable, testServerUrl } from "./postgres-server";

export default async function setup(): Promise<void> {
  if (process.env.TEST_TRANSPORT !== "postgres") return;
  if (!(await serverReachable())) {
    throw new Error(
      `TEST_TRANSPORT=postgres but no PostgreSQL answers at ${testServerUrl()}. Start one with ` +
        "`sudo .ci/postgres.sh install && sudo .ci/postgres.sh start`, or set TEST_DATABASE_URL.",
    );
  }
  await prepareServer();
}
