"use client";

import { useState } from "react";
import { signOut } from "next-auth/react";
import { Button } from "../ui/button";
import { SignOutIcon } from "../icons";
import { consoleUrl } from "./urls";

/**
 * Ends the session; next-auth then loads /login as a fresh page, which drops every cached query,
 * so nothing of the signed-out user stays in memory.
 */
export function SignOutButton() {
  const [pending, setPending] = useState(false);
  return (
    <Button
      variant="secondary"
      size="sm"
      loading={pending}
      onClick={async () => {
        setPending(true);
        await signOut({ callbackUrl: consoleUrl.login() });
      }}
    >
      {pending ? null : <SignOutIcon className="size-4" />}
      Sign out
    </Button>
  );
}
