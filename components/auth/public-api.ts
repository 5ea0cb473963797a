"use client";

/**
 * Calls one tRPC procedure from the signed-out pages, which have no tRPC provider (and must not
 * reload on a 401 as the console does). Errors keep tRPC's shape (`message`, `data.httpStatus`,
 * `data.errors`), so statusOf/messageOf/fieldErrorsOf read them as in the console.
 */
export class PublicApiError extends Error {
  constructor(
    message: string,
    readonly data: { httpStatus: number; errors?: Array<{ path: string; message: string }> },
  ) {
    super(message);
  }
}

export async function callProcedure<T>(path: string, input: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/api/trpc/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(input),
    });
  } catch {
    throw new PublicApiError("", { httpStatus: 0 });
  }
  const body = (await response.json().catch(() => null)) as {
    result?: { data: T };
    error?: { message: string; data?: { httpStatus?: number; errors?: Array<{ path: string; message: string }> } };
  } | null;
  if (response.ok && body?.result) return body.result.data;
  throw new PublicApiError(body?.error?.message ?? "", {
    httpStatus: body?.error?.data?.httpStatus ?? response.status,
    errors: body?.error?.data?.errors,
  });
}

/** The token of an emailed link: it rides in the fragment (#token=…), which browsers never send to servers. */
export function linkToken(): string | null {
  return new URLSearchParams(window.location.hash.slice(1)).get("token");
}
