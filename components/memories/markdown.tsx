import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { cn } from "@/lib/console/cn";

const REMARK_PLUGINS = [remarkGfm];

// A document shown in a page sits under the page's own title: its headings are one level down in the
// outline (its "# Title" is an h2), styled as they were written.
const HEADINGS: Components = {
  h1: ({ node: _node, ...props }) => <h2 {...props} className="text-lg font-semibold text-slate-900" />,
  h2: ({ node: _node, ...props }) => <h3 {...props} className="mt-4 text-base font-semibold text-slate-900" />,
  h3: ({ node: _node, ...props }) => <h4 {...props} className="font-semibold" />,
  h4: ({ node: _node, ...props }) => <h5 {...props} className="font-semibold" />,
  h5: ({ node: _node, ...props }) => <h6 {...props} className="font-semibold" />,
};

/** Read-only markdown (agent documents), styled without a typography plugin. */
export function Markdown({ children, className }: { children: string; className?: string }) {
  return (
    <div
      className={cn(
        "space-y-3 text-sm leading-6 text-slate-700",
        "[&_h6]:font-semibold [&_ul]:list-disc [&_ul]:pl-5 [&_ol]:list-decimal [&_ol]:pl-5 [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_code]:text-xs",
        "[&_table]:block [&_table]:max-w-full [&_table]:overflow-x-auto [&_table]:border-collapse [&_th]:border [&_th]:border-slate-200 [&_th]:bg-slate-50 [&_th]:px-2 [&_th]:py-1 [&_th]:text-left [&_td]:border [&_td]:border-slate-200 [&_td]:px-2 [&_td]:py-1 [&_del]:text-slate-500",
        "[&_a]:text-indigo-600 [&_a]:underline [&_blockquote]:border-l-2 [&_blockquote]:border-slate-300 [&_blockquote]:pl-3",
        className,
      )}
    >
      <ReactMarkdown remarkPlugins={REMARK_PLUGINS} components={HEADINGS} skipHtml>
        {children}
      </ReactMarkdown>
    </div>
  );
}
