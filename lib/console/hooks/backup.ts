"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiCall, ApiClientError, toClientError } from "@/lib/console/api";
import { auditKeys } from "@/lib/console/query-keys";
import { backupContracts } from "@/lib/backup/contracts";
import { systemContracts } from "@/lib/http/system-contracts";

/** Which database this instance runs on: only the embedded one is backed up from the console. */
export function useDatabaseKind() {
  return useQuery({
    queryKey: ["system", "health"],
    queryFn: ({ signal }) => apiCall(systemContracts.health, {}, { signal }).then((r) => r.database),
    staleTime: Infinity,
  });
}

/**
 * Downloads a backup of the embedded database: streams the answer, reporting the bytes received so
 * far, then hands the file to the browser. A server database answers 409 with how to back it up.
 */
export function useDownloadBackup(onProgress: (bytes: number) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      let res: Response;
      try {
        res = await fetch(backupContracts.download.path, { credentials: "same-origin" });
      } catch {
        throw new ApiClientError(0, "network_error", "Could not reach the server. Check your connection and try again.");
      }
      if (!res.ok || !res.body) throw toClientError(res.status, await res.json().catch(() => undefined));
      const reader = res.body.getReader();
      const chunks: Uint8Array[] = [];
      let received = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        received += value.length;
        onProgress(received);
      }
      const filename = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "memory-hq-backup.tar.gz";
      const url = URL.createObjectURL(new Blob(chunks as BlobPart[], { type: "application/gzip" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = filename;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      return { filename, bytes: received };
    },
    // the backup is on the audit log
    onSuccess: () => queryClient.invalidateQueries({ queryKey: auditKeys.all }),
  });
}
