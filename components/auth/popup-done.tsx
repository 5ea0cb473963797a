"use client";

import { useEffect } from "react";
import { Button } from "../ui/button";
import { AUTH_CHANNEL, type PopupResult } from "./sso-popup";

/** Announces the result to the console's tabs and closes this window (it was opened for this). */
export function PopupDone({ purpose, error }: { purpose: PopupResult["for"]; error: string | null }) {
  useEffect(() => {
    if (typeof BroadcastChannel !== "undefined") {
      const channel = new BroadcastChannel(AUTH_CHANNEL);
      channel.postMessage({ for: purpose, error } satisfies PopupResult);
      channel.close();
    }
    // Leave a refusal on screen a moment longer than a success.
    const timer = window.setTimeout(() => window.close(), error ? 4000 : 600);
    return () => window.clearTimeout(timer);
  }, [purpose, error]);

  return (
    <Button type="button" variant="secondary" className="w-full" onClick={() => window.close()}>
      Close this window
    </Button>
  );
}
