import Link from "next/link";
import { buttonClasses } from "../ui/button";
import { consoleUrl } from "./urls";

/**
 * The console's "not found": unknown paths, and tenants (or their pages) the user cannot see,
 * which answer the same so a URL does not reveal whether another tenant exists.
 */
export function NotFoundView({ signedIn = true }: { signedIn?: boolean }) {
  return (
    <section aria-labelledby="not-found-title" className="mx-auto max-w-lg py-16 text-center">
      <p className="text-sm font-semibold text-indigo-700">404</p>
      <h1 id="not-found-title" className="mt-2 text-2xl font-semibold tracking-tight text-slate-900">
        Page not found
      </h1>
      <p className="mt-3 text-sm text-slate-600">
        This page does not exist, or you do not have access to it. Check the link, or go back to your tenants.
      </p>
      <div className="mt-8 flex flex-wrap items-center justify-center gap-3">
        <Link href={signedIn ? consoleUrl.tenants() : consoleUrl.login()} className={buttonClasses("primary")}>
          {signedIn ? "Go to tenants" : "Sign in"}
        </Link>
        <a href={consoleUrl.docs()} className={buttonClasses("secondary")}>
          API docs
        </a>
      </div>
    </section>
  );
}
