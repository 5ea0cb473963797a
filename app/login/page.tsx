import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentUser, safeCallbackPath } from "@/server/account/session";
import { Brand } from "@/components/brand";
import { LoginForm } from "@/components/auth/login-form";
import { signInErrorMessage, ssoErrorMessage } from "@/components/auth/messages";
import { SsoForm } from "@/components/auth/sso-form";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export default async function LoginPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const callbackUrl = safeCallbackPath(first(params.callbackUrl)) ?? "/";
  if (await currentUser()) redirect(callbackUrl);

  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <div className="mb-8 flex flex-col items-center text-center">
          <Brand />
          <h1 className="mt-8 text-xl font-semibold tracking-tight text-slate-900">Sign in to your console</h1>
          <p className="mt-1 text-sm text-slate-600">Manage tenants, SSO, audit logs and webhooks.</p>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          <LoginForm
            callbackUrl={callbackUrl}
            initialError={signInErrorMessage(first(params.error)) ?? ssoErrorMessage(first(params.sso_error))}
          />
          <div className="my-6 flex items-center gap-3 text-xs text-slate-500" aria-hidden="true">
            <span className="h-px flex-1 bg-slate-200" />
            or
            <span className="h-px flex-1 bg-slate-200" />
          </div>
          {/* Only a page the visitor asked for: else SSO lands in the provider's tenant. */}
          <SsoForm callbackUrl={safeCallbackPath(first(params.callbackUrl)) ?? ""} open={Boolean(first(params.sso_error))} />
        </div>
        <p className="mt-6 text-center text-sm text-slate-600">
          Building an integration?{" "}
          <a href="/docs" className="font-medium text-indigo-700 hover:text-indigo-800 hover:underline">
            Read the API docs
          </a>
        </p>
      </div>
    </main>
  );
}
