/**
 * Just enough of a browser for sign-in flows over real HTTP: a cookie jar per host (as browsers
 * do, ports share cookies) and redirects followed by hand, so a test can stop at any hop (say,
 * the callback to our app) and tamper with it.
 */
export interface Hop {
  url: string;
  status: number;
  location: string | null;
  headers: Headers;
  text: string;
}

export class TestBrowser {
  private readonly jar = new Map<string, Map<string, string>>();

  cookie(host: string, name: string): string | undefined {
    return this.jar.get(host)?.get(name);
  }

  setCookie(host: string, name: string, value: string) {
    const cookies = this.jar.get(host) ?? new Map<string, string>();
    cookies.set(name, value);
    this.jar.set(host, cookies);
  }

  /** Drops the cookies whose names start with `prefix` (e.g. an IdP's session, to sign in as someone else). */
  forget(host: string, prefix: string) {
    for (const name of [...(this.jar.get(host)?.keys() ?? [])]) if (name.startsWith(prefix)) this.jar.get(host)!.delete(name);
  }

  private store(url: URL, headers: Headers) {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const at = pair!.indexOf("=");
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === "";
      const cookies = this.jar.get(url.hostname) ?? new Map<string, string>();
      if (expired) cookies.delete(name);
      else cookies.set(name, value);
      this.jar.set(url.hostname, cookies);
    }
  }

  async request(
    url: string,
    init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<Hop> {
    const target = new URL(url);
    const cookies = [...(this.jar.get(target.hostname) ?? new Map<string, string>()).entries()].map(([k, v]) => `${k}=${v}`).join("; ");
    const res = await fetch(target, {
      method: init.method ?? (init.form ? "POST" : "GET"),
      redirect: "manual",
      headers: {
        ...(cookies ? { cookie: cookies } : {}),
        ...(init.form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
        ...init.headers,
      },
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
    });
    this.store(target, res.headers);
    const location = res.headers.get("location");
    return {
      url: target.toString(),
      status: res.status,
      location: location ? new URL(location, target).toString() : null,
      headers: res.headers,
      text: await res.text(),
    };
  }

  /** Follows redirects from `hop` while `follow(next)` says so; returns the last hop and the URL it points at. */
  async follow(hop: Hop, follow: (next: URL) => boolean, max = 15): Promise<{ last: Hop; next: string | null }> {
    let current = hop;
    for (let i = 0; i < max && current.location && follow(new URL(current.location)); i++) {
      current = await this.request(current.location);
    }
    return { last: current, next: current.location };
  }
}
