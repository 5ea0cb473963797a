import type { Metadata } from "next";
import { PublicPage } from "@/components/auth/public-page";
import { ForgotPasswordForm } from "@/components/auth/forgot-password-form";

export const metadata: Metadata = { title: "Forgot password" };

export default function ForgotPasswordPage() {
  return (
    <PublicPage
      title="Forgot your password?"
      description="We will email you a link to set a new one."
      footer={
        <a href="/login" className="font-medium text-indigo-700 hover:underline">
          Back to sign in
        </a>
      }
    >
      <ForgotPasswordForm />
    </PublicPage>
  );
}
