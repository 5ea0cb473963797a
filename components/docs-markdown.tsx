import type { ReactNode } from "react";

/**
 * The Markdown of docs/*.md as React elements, for the console's /docs/guides: the subset those
 * guides use (headings, paragraphs, fenced code, lists, pipe tables, code spans, bold, emphasis,
 * links). Text is never parsed as HTML: React escapes it. Links to another guide open that guide;
 * links to files the app does not serve (the README, tests, screenshots) keep their text only.
 * Code blocks and tables scroll sideways, so they take the keyboard's focus.
 */
export function Markdown({ source, guides }: { source: string; guides: readonly string[] }) {
  return <>{blocks(source.replace(/\r\n?/g, "\n").split("\n"), { guides, key: "b" })}</>;
}

interface Context {
  guides: readonly string[];
  key: string;
}

/** The id GitHub gives a heading: lower case, punctuation dropped, spaces as dashes. */
export function headingId(text: string): string {
  return text
    .replace(/`/g, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .trim()
    .replace(/\s/g, "-");
}

const HEADING = /^(#{1,6}) (.*)$/;
const FENCE = /^```/;
const ITEM = /^(\s*)(?:[-*]|\d+\.) (.*)$/;
const TABLE_RULE = /^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;

const HEADING_CLASS = [
  "",
  "text-3xl font-semibold tracking-tight text-slate-900",
  "mt-10 text-2xl font-semibold text-slate-900",
  "mt-8 text-lg font-semibold text-slate-900",
  "mt-6 text-base font-semibold text-slate-900",
  "mt-6 text-sm font-semibold text-slate-900",
  "mt-6 text-sm font-semibold text-slate-700",
];

function blocks(lines: string[], context: Context): ReactNode[] {
  const out: ReactNode[] = [];
  let i = 0;
  const key = () => `${context.key}-${out.length}`;
  /** Line `n`; past the end, a blank line. */
  const at = (n: number): string => lines[n] ?? "";
  while (i < lines.length) {
    const line = at(i);
    if (line.trim() === "") {
      i++;
      continue;
    }
    if (FENCE.test(line.trim())) {
      const code: string[] = [];
      i++;
      while (i < lines.length && !FENCE.test(at(i).trim())) code.push(at(i++));
      i++;
      out.push(
        <pre key={key()} tabIndex={0} className="mt-4 overflow-x-auto rounded-lg bg-code p-4 text-xs leading-relaxed text-code-fg">
          <code>{code.join("\n")}</code>
        </pre>,
      );
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const level = heading[1]!.length as 1 | 2 | 3 | 4 | 5 | 6;
      const Tag = `h${level}` as const;
      out.push(
        <Tag key={key()} id={headingId(heading[2]!)} className={`scroll-mt-6 ${HEADING_CLASS[level]}`}>
          {inline(heading[2]!, { ...context, key: key() })}
        </Tag>,
      );
      i++;
      continue;
    }
    if (line.trimStart().startsWith("|") && i + 1 < lines.length && TABLE_RULE.test(at(i + 1).trim())) {
      const rows: string[][] = [cells(line)];
      i += 2;
      while (i < lines.length && at(i).trimStart().startsWith("|")) rows.push(cells(at(i++)));
      const [head = [], ...body] = rows;
      const k = key();
      out.push(
        <div key={k} tabIndex={0} className="mt-4 overflow-x-auto rounded-lg border border-slate-200">
          <table className="min-w-full divide-y divide-slate-200 text-left text-sm">
            <thead className="bg-slate-50">
              <tr>
                {head.map((cell, c) => (
                  <th key={c} scope="col" className="px-3 py-2 font-semibold text-slate-900">
                    {inline(cell, { ...context, key: `${k}-h${c}` })}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {body.map((row, r) => (
                <tr key={r}>
                  {row.map((cell, c) => (
                    <td key={c} className="px-3 py-2 align-top text-slate-700">
                      {inline(cell, { ...context, key: `${k}-${r}-${c}` })}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>,
      );
      continue;
    }
    const first = ITEM.exec(line);
    if (first) {
      const indent = first[1]!.length;
      const ordered = /^\s*\d+\./.test(line);
      const items: string[][] = [];
      while (i < lines.length) {
        const item = ITEM.exec(at(i));
        if (item && item[1]!.length === indent) {
          items.push([item[2]!]);
          i++;
        } else if (at(i).trim() === "") {
          // A blank line ends the list unless the next line goes on with the item (indented) or is the next item.
          const next = i + 1 < lines.length ? at(i + 1) : undefined;
          const nextItem = next === undefined ? null : ITEM.exec(next);
          if (next !== undefined && (leading(next) > indent || (nextItem && nextItem[1]!.length === indent))) {
            items[items.length - 1]?.push("");
            i++;
          } else break;
        } else if (leading(at(i)) > indent) {
          items[items.length - 1]?.push(at(i).slice(Math.min(leading(at(i)), indent + 2)));
          i++;
        } else break;
      }
      const k = key();
      const List = ordered ? "ol" : "ul";
      out.push(
        <List key={k} className={`mt-4 space-y-2 pl-6 text-sm leading-6 text-slate-700 ${ordered ? "list-decimal" : "list-disc"}`}>
          {items.map((item, n) => (
            <li key={n}>{itemContent(item, { ...context, key: `${k}-${n}` })}</li>
          ))}
        </List>,
      );
      continue;
    }
    const paragraph: string[] = [];
    while (
      i < lines.length &&
      at(i).trim() !== "" &&
      !FENCE.test(at(i).trim()) &&
      !HEADING.test(at(i)) &&
      !(paragraph.length > 0 && ITEM.test(at(i)) && leading(at(i)) === 0)
    ) {
      paragraph.push(at(i++).trim());
    }
    const k = key();
    out.push(
      <p key={k} className="mt-4 text-sm leading-6 text-slate-700">
        {inline(paragraph.join(" "), { ...context, key: k })}
      </p>,
    );
  }
  return out;
}

/** A list item: its first paragraph inline, anything after it (code, a nested list) as blocks. */
function itemContent(lines: string[], context: Context): ReactNode {
  const end = lines.findIndex((line, n) => n > 0 && (line.trim() === "" || FENCE.test(line.trim()) || ITEM.test(line)));
  const head = end === -1 ? lines : lines.slice(0, end);
  const rest = end === -1 ? [] : lines.slice(end);
  return (
    <>
      {inline(head.map((line) => line.trim()).join(" "), context)}
      {rest.length > 0 && blocks(rest, context)}
    </>
  );
}

function leading(line: string): number {
  return line.length - line.trimStart().length;
}

/** The cells of a table row; `\|` is a pipe inside a cell. */
function cells(row: string): string[] {
  const trimmed = row.trim().replace(/^\|/, "").replace(/\|$/, "");
  return trimmed.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, "|"));
}

const INLINE =
  /(`+)([\s\S]*?[^`])\1(?!`)|\*\*([^*]+?)\*\*|(?<![\w*])\*(?![\s*])([^*]+?)\*(?![\w*])|!\[([^\]]*)\]\(([^)\s]+)\)|\[([^\]]+)\]\(([^)\s]+)\)|<(https?:\/\/[^>\s]+)>/g;

function inline(text: string, context: Context): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  let n = 0;
  for (const match of text.matchAll(INLINE)) {
    if (match.index > last) out.push(text.slice(last, match.index));
    const k = `${context.key}-i${n++}`;
    const [, ticks, code, strong, em, alt, , label, href, autolink] = match;
    if (ticks) {
      out.push(
        <code key={k} className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.85em] text-slate-800">
          {(code ?? "").trim()}
        </code>,
      );
    } else if (strong !== undefined) {
      out.push(
        <strong key={k} className="font-semibold text-slate-900">
          {inline(strong, { ...context, key: k })}
        </strong>,
      );
    } else if (em !== undefined) {
      out.push(<em key={k}>{inline(em, { ...context, key: k })}</em>);
    } else if (alt !== undefined) {
      out.push(
        <span key={k} className="text-slate-500 italic">
          [picture: {alt}]
        </span>,
      );
    } else if (label !== undefined) {
      const target = linkTarget(href ?? "", context.guides);
      const children = inline(label, { ...context, key: k });
      out.push(
        target ? (
          <a key={k} href={target} className="font-medium text-indigo-700 hover:underline">
            {children}
          </a>
        ) : (
          <span key={k}>{children}</span>
        ),
      );
    } else if (autolink) {
      out.push(
        <a key={k} href={autolink} className="font-medium text-indigo-700 hover:underline">
          {autolink}
        </a>,
      );
    }
    last = match.index + match[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** Where a link of a guide goes in the console, or null for a file the app does not serve. */
export function linkTarget(href: string, guides: readonly string[]): string | null {
  if (/^(https?:|mailto:)/.test(href)) return href;
  if (href.startsWith("#")) return href;
  if (href === "../README.md") return "/docs/guides";
  const guide = /^([a-z0-9-]+)\.md(#[^\s]*)?$/.exec(href);
  if (guide?.[1] && guides.includes(guide[1])) return `/docs/guides/${guide[1]}${guide[2] ?? ""}`;
  return null;
}
