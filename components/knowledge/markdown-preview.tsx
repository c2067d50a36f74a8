"use client";

import { createElement, type ReactNode } from "react";
import Markdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { cn } from "@/lib/console/cn";

// Raw HTML in entries is never rendered (react-markdown escapes it without a rehype-raw plugin) and
// link targets go through its URL sanitiser, so an entry cannot inject script into the console.
// The entry sits under the page's title (its h1), so its top headings are the outline's h2 and the
// rest follow without skipping a level ("## Steps" first is an h2 too), styled as written.
const HEADING_STYLE = [
  "mt-6 mb-3 text-xl font-semibold text-slate-900 first:mt-0",
  "mt-6 mb-2 text-lg font-semibold text-slate-900 first:mt-0",
  "mt-5 mb-2 text-base font-semibold text-slate-900 first:mt-0",
  "mt-4 mb-1 text-sm font-semibold text-slate-900",
  "mt-4 mb-1 text-sm font-semibold text-slate-900",
  "mt-4 mb-1 text-sm font-semibold text-slate-900",
] as const;

const heading =
  (written: number, shift: number) =>
  ({ children }: { children?: ReactNode }) =>
    createElement(`h${Math.min(6, written + shift)}`, { className: HEADING_STYLE[written - 1] }, children);

/** The smallest heading level the markdown writes (ATX headings; 1 when it writes none). */
function topHeadingLevel(source: string): number {
  let top = 6;
  for (const m of source.matchAll(/^ {0,3}(#{1,6})[ \t]/gm)) top = Math.min(top, m[1]!.length);
  return top === 6 && !/^ {0,3}#{6}[ \t]/m.test(source) ? 1 : top;
}

const byShift = new Map<number, Components>();
function componentsFor(source: string): Components {
  const shift = 2 - topHeadingLevel(source);
  let found = byShift.get(shift);
  if (!found) {
    found = { ...components, h1: heading(1, shift), h2: heading(2, shift), h3: heading(3, shift), h4: heading(4, shift), h5: heading(5, shift), h6: heading(6, shift) };
    byShift.set(shift, found);
  }
  return found;
}

const components: Components = {
  p: ({ children }) => <p className="my-3 leading-relaxed first:mt-0 last:mb-0">{children}</p>,
  ul: ({ children }) => <ul className="my-3 list-disc space-y-1 pl-6">{children}</ul>,
  ol: ({ children }) => <ol className="my-3 list-decimal space-y-1 pl-6">{children}</ol>,
  li: ({ children }) => <li className="leading-relaxed">{children}</li>,
  a: ({ children, href }) => (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow" className="font-medium text-indigo-600 underline hover:text-indigo-500">
      {children}
    </a>
  ),
  blockquote: ({ children }) => <blockquote className="my-3 border-l-4 border-slate-200 pl-4 text-slate-600">{children}</blockquote>,
  hr: () => <hr className="my-6 border-slate-200" />,
  pre: ({ children }) => <pre tabIndex={0} className="my-3 overflow-x-auto rounded-md bg-slate-900 p-3 text-xs leading-relaxed text-slate-100">{children}</pre>,
  // GitHub-flavoured tables scroll sideways on narrow screens instead of widening the page
  table: ({ children }) => (
    <div className="my-3 overflow-x-auto">
      <table className="min-w-full border-collapse text-left text-sm">{children}</table>
    </div>
  ),
  th: ({ children, style }) => (
    <th style={style} className="border border-slate-200 bg-slate-50 px-3 py-1.5 font-semibold text-slate-900">
      {children}
    </th>
  ),
  td: ({ children, style }) => (
    <td style={style} className="border border-slate-200 px-3 py-1.5 align-top">
      {children}
    </td>
  ),
  del: ({ children }) => <del className="text-slate-500">{children}</del>,
  input: ({ checked }) => <input type="checkbox" checked={Boolean(checked)} disabled readOnly className="mr-1.5 align-middle" />,
  img: ({ alt }) => <span className="text-slate-500">[image: {alt}]</span>,
};

const REMARK_PLUGINS = [remarkGfm];

// inline code only: code blocks sit in <pre>, styled above
const INLINE_CODE =
  "[&_:not(pre)>code]:rounded [&_:not(pre)>code]:bg-slate-100 [&_:not(pre)>code]:px-1 [&_:not(pre)>code]:py-0.5 [&_:not(pre)>code]:font-mono [&_:not(pre)>code]:text-[0.85em] [&_:not(pre)>code]:text-slate-800";

/** An entry's markdown as agents will read it, rendered for people. */
export function MarkdownPreview({ source, className }: { source: string; className?: string }) {
  if (!source.trim()) return <p className={cn("text-sm text-slate-500 italic", className)}>Nothing to preview yet.</p>;
  return (
    <div className={cn("text-sm text-slate-700", INLINE_CODE, className)} data-testid="markdown-preview">
      <Markdown components={componentsFor(source)} remarkPlugins={REMARK_PLUGINS} skipHtml>
        {source}
      </Markdown>
    </div>
  );
}
