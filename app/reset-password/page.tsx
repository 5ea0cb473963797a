import type { Metadata } from "next";
import { PublicPage } from "@/components/auth/public-page";
import { ResetPasswordForm } from "@/components/auth/reset-password-form";

export const metadata: Metadata = { title: "Set a new password", referrer: "no-referrer" };

export default function ResetPasswordPage() {
  return (
    <PublicPage
      title="Set a new password"
      footer={
        <a href="/login" className="font-medium text-indigo-700 hover:underline">
          Back to sign in
        </a>
      }
    >
      <ResetPasswordForm />
    </PublicPage>
  );
}
