"use client";

import { createContext, useContext, type ReactNode } from "react";
import type { ConsoleUser } from "@/server/account/session";

const UserContext = createContext<ConsoleUser | null>(null);

/** Makes the signed-in user (looked up by the console layout on the server) known to pages. */
export function ConsoleUserProvider({ user, children }: { user: ConsoleUser; children: ReactNode }) {
  return <UserContext.Provider value={user}>{children}</UserContext.Provider>;
}

export function useConsoleUser(): ConsoleUser {
  const user = useContext(UserContext);
  if (!user) throw new Error("useConsoleUser must be used inside the console layout");
  return user;
}
