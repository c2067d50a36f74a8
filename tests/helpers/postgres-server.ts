// The real PostgreSQL server the `postgres` test transport uses: found through TEST_DATABASE_URL (an
// admin URL: a superuser, or a role that may create databases and extensions), else the throwaway
// cluster `.ci/postgres.sh start` runs on 127.0.0.1:54329.
import postgres from "postgres";

export const DEFAULT_TEST_DATABASE_URL = "postgres://postgres@127.0.0.1:54329/postgres";

/** The non-superuser that owns each test database and applies the migrations. */
export const OWNER_ROLE = "mhq_test_owner";
const OWNER_PASSWORD = "mhq_test_owner";

export function testServerUrl(): string {
  return process.env.TEST_DATABASE_URL || DEFAULT_TEST_DATABASE_URL;
}

export function ownerUrl(adminUrl: string): string {
  const u = new URL(adminUrl);
  u.username = OWNER_ROLE;
  u.password = OWNER_PASSWORD;
  return u.toString();
}

/** True when the server answers; used to say loudly that the suite was not run on it. */
export async function serverReachable(url = testServerUrl()): Promise<boolean> {
  const sql = postgres(url, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/**
 * Once per run, as the admin: the owner role (login, no superuser) and the app role it switches to.
 * Roles are cluster-wide, so this is done before any test file creates its database; a lock keeps
 * concurrent runs from racing on `create role`.
 */
export async function prepareServer(url = testServerUrl()): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql.begin(async (tx) => {
      await tx`select pg_advisory_xact_lock(727275)`;
      await tx.unsafe(`
        do $$
        begin
          if not exists (select 1 from pg_roles where rolname = '${OWNER_ROLE}') then
            create role ${OWNER_ROLE} login nosuperuser nocreatedb nocreaterole password '${OWNER_PASSWORD}';
          end if;
          if not exists (select 1 from pg_roles where rolname = 'mhq_app') then
            create role mhq_app nologin noinherit;
          end if;
        end $$;
        grant mhq_app to ${OWNER_ROLE};`);
    });
  } finally {
    await sql.end({ timeout: 5 });
  }
}
