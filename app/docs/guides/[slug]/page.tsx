import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { DocsHeader } from "@/components/docs-header";
import { Markdown } from "@/components/docs-markdown";
import { describe, guideSlugs, guideSource } from "../guides";

type Props = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { slug } = await params;
  const source = await guideSource(slug);
  if (source === null) return {};
  const guide = describe(slug, source);
  return { title: guide.title, description: guide.summary };
}

/** One guide, docs/<slug>.md, read when asked for; a slug that is not a guide is a 404. */
export default async function GuidePage({ params }: Props) {
  const { slug } = await params;
  const source = await guideSource(slug);
  if (source === null) notFound();
  return (
    <div className="min-h-screen bg-white">
      <DocsHeader current={`/docs/guides/${slug}`} />
      <main className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
        <nav aria-label="Breadcrumb" className="mb-4 text-sm">
          <Link href="/docs/guides" className="font-medium text-indigo-700 hover:underline">
            All guides
          </Link>
        </nav>
        <article>
          <Markdown source={source} guides={await guideSlugs()} />
        </article>
      </main>
    </div>
  );
}
