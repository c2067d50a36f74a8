// What a photo, file or voice note in a message showed, as a chat integration records it: a caption
// or alt text, a name, a link. Plain data and pure functions; the database checks the same limits
// (mhq.valid_attachments) and composes the same searchable text (mhq.interaction_text).

export const ATTACHMENT_KINDS = ["image", "file", "audio"] as const;
export type AttachmentKind = (typeof ATTACHMENT_KINDS)[number];

/** most attachments one message carries */
export const ATTACHMENTS_MAX = 10;
export const ATTACHMENT_CAPTION_MAX_CHARS = 2000;
export const ATTACHMENT_URL_MAX_CHARS = 2000;
export const ATTACHMENT_NAME_MAX_CHARS = 255;
export const ATTACHMENT_MIME_TYPE_MAX_CHARS = 255;

export interface Attachment {
  kind: AttachmentKind;
  caption?: string;
  name?: string;
  url?: string;
  mimeType?: string;
}

/**
 * The text a turn is searched by: who said it, what was said, then each caption on a line of its own
 * as "[image: a photo of a red bike]". A turn is its speaker's words ("Andrew: I went hiking"), so a
 * question that names the speaker finds what they said though they never say their own name; a text
 * that already opens with "Andrew:" is not given the name twice, and a turn without a speaker is its
 * text alone. Captions are searched with the turn (its words and its vector), so a question about
 * what a photo showed finds the message that carried it.
 */
export function searchableText(speaker: string | null | undefined, content: string, attachments: readonly Attachment[] | null | undefined): string {
  const name = (speaker ?? "").trim();
  // compared by characters (code points), as the database's left() and char_length() count them
  const opening = Array.from(content).slice(0, Array.from(name).length + 1).join("");
  const said = !name || opening.toLowerCase() === `${name.toLowerCase()}:` ? content : `${name}: ${content}`;
  // captions arrive trimmed (the API's schema trims them)
  const captions = (attachments ?? []).filter((a) => a.caption).map((a) => `[${a.kind}: ${a.caption}]`);
  return captions.length ? `${said}\n${captions.join("\n")}` : said;
}
