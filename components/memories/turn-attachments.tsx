import type { Interaction } from "@/lib/console/memory-types";

const LABELS = { image: "Image", file: "File", audio: "Audio" } as const;

/** The icon of an attachment's kind: a picture, a page, a sound wave. */
function KindIcon({ kind }: { kind: keyof typeof LABELS }) {
  const common = { viewBox: "0 0 20 20", fill: "none", stroke: "currentColor", strokeWidth: 1.5, className: "size-4 shrink-0", "aria-hidden": true } as const;
  if (kind === "image") {
    return (
      <svg {...common}>
        <rect x="2.5" y="3.5" width="15" height="13" rx="2" />
        <circle cx="7" cy="8" r="1.5" />
        <path d="m3 15 4.5-4.5 3 3 2-2 4.5 4.5" />
      </svg>
    );
  }
  if (kind === "audio") {
    return (
      <svg {...common}>
        <path d="M4 8v4M7 5v10M10 7v6M13 4v12M16 8v4" strokeLinecap="round" />
      </svg>
    );
  }
  return (
    <svg {...common}>
      <path d="M5 2.5h6.5L15 6v11.5H5z" />
      <path d="M11.5 2.5V6H15" />
    </svg>
  );
}

/**
 * A turn's photos, files and voice notes, one small line each: the kind's icon (named for screen
 * readers) and what it showed — its caption, else its name. A link opens the file where its
 * integration keeps it.
 */
export function TurnAttachments({ attachments }: { attachments: Interaction["attachments"] }) {
  if (!attachments?.length) return null;
  return (
    <ul className="mt-1 space-y-0.5" aria-label="Attachments">
      {attachments.map((a, i) => {
        const text = a.caption || a.name || `${LABELS[a.kind]} without a caption`;
        return (
          <li key={i} className="flex items-start gap-1.5 text-xs text-slate-600">
            <KindIcon kind={a.kind} />
            <span className="sr-only">{LABELS[a.kind]}:</span>
            {a.url ? (
              <a href={a.url} target="_blank" rel="noopener noreferrer nofollow" className="break-words underline decoration-slate-300 hover:text-slate-900">
                {text}
              </a>
            ) : (
              <span className="break-words">{text}</span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
