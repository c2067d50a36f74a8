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
 * The text a turn is searched by: what was said, then each caption on a line of its own as
 * "[image: a photo of a red bike]". Captions are searched with the turn (its words and its vector),
 * so a question about what a photo showed finds the message that carried it.
 */
export function searchableText(content: string, attachments: readonly Attachment[] | null | undefined): string {
  // captions arrive trimmed (the API's schema trims them)
  const captions = (attachments ?? []).filter((a) => a.caption).map((a) => `[${a.kind}: ${a.caption}]`);
  return captions.length ? `${content}\n${captions.join("\n")}` : content;
}
