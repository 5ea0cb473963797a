import type { Metadata } from "next";
import { PublicPage } from "@/components/auth/public-page";
import { InviteForm } from "@/components/auth/invite-form";

export const metadata: Metadata = { title: "Accept your invitation", referrer: "no-referrer" };

export default function InvitePage() {
  return (
    <PublicPage
      title="Accept your invitation"
      footer={
        <a href="/login" className="font-medium text-indigo-700 hover:underline">
          Back to sign in
        </a>
      }
    >
      <InviteForm />
    </PublicPage>
  );
}
