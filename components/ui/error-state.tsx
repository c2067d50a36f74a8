"use client";

import type { ReactNode } from "react";
import { errorMessage, isApiError } from "@/lib/console/api";
import { cn } from "@/lib/console/cn";
import { Button } from "./button";

/**
 * What a failed query shows: the reason and a retry. A 401 (session ended) offers to sign in again;
 * a 403 explains the role is not enough rather than suggesting a retry.
 */
export function ErrorState({
  error,
  title,
  onRetry,
  retrying,
  className,
}: {
  error: unknown;
  title?: ReactNode;
  onRetry?: () => void;
  retrying?: boolean;
  className?: string;
}) {
  const signedOut = isApiError(error, 401);
  const forbidden = isApiError(error, 403);
  const heading = title ?? (signedOut ? "Your session has ended" : forbidden ? "You don't have access to this" : "Couldn't load this");
  return (
    <div role="alert" className={cn("flex flex-col items-center justify-center px-6 py-10 text-center", className)}>
      <div className="mb-3 flex size-10 items-center justify-center rounded-full bg-red-50 text-red-500" aria-hidden="true">
        <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" className="size-5">
          <path d="M12 9v4m0 4h.01M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </div>
      <p className="text-sm font-semibold text-slate-900">{heading}</p>
      <p className="mt-1 max-w-md text-sm text-slate-500">{signedOut ? "Sign in again to continue." : errorMessage(error)}</p>
      <div className="mt-4">
        {signedOut ? (
          <a href="/login" className="text-sm font-medium text-indigo-600 hover:text-indigo-500">
            Sign in
          </a>
        ) : (
          onRetry &&
          !forbidden && (
            <Button variant="secondary" size="sm" onClick={onRetry} loading={retrying}>
              Try again
            </Button>
          )
        )}
      </div>
    </div>
  );
}
