// POST /api/v1/review/run — the manager pass: refuse violations, auto-approve confident ones, leave the rest
import { route } from "@/lib/http/route";
import { runManagerPass } from "@/lib/review/manager-pass";
import { runReviewBody } from "@/lib/review/schemas";

export const POST = route({ permission: "review.run", body: runReviewBody }, async ({ caller, body }) =>
  runManagerPass(caller, body),
);
