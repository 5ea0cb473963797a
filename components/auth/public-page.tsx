import type { ReactNode } from "react";
import { Brand } from "../brand";

/** The frame of the signed-out pages (invitation, forgot and reset password): brand, title, one card. */
export function PublicPage({
  title,
  description,
  children,
  footer,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <div className="mb-8 flex flex-col items-center text-center">
          <Brand />
          <h1 className="mt-8 text-xl font-semibold tracking-tight text-slate-900">{title}</h1>
          {description ? <p className="mt-1 text-sm text-slate-600">{description}</p> : null}
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm sm:p-8">{children}</div>
        {footer ? <p className="mt-6 text-center text-sm text-slate-600">{footer}</p> : null}
      </div>
    </main>
  );
}
