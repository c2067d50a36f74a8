import { AuthCard } from "./auth-card";

/** What the console shows while its server database is not yet migrated or cannot be reached, in place of a failed page. */
export function DatabaseNotReady({ message }: { message: string }) {
  return (
    <AuthCard title="Memory HQ is waiting for its database" description="Nobody can sign in until the database is ready.">
      <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
        {message}
      </p>
      <p className="mt-4 text-sm text-slate-500">Reload this page once the database is ready; the server needs no restart.</p>
    </AuthCard>
  );
}
