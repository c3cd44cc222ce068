/**
 * Who may use the dashboard. The link `sextant dashboard` prints carries a one-time code; the
 * page swaps it for a cookie (`HttpOnly`, `SameSite=Strict`, 256 random bits) and is sent a CSRF
 * token that every action must carry in a header. Every request must name this server in its
 * `Host` (exactly `127.0.0.1:<port>` or `localhost:<port>`: a DNS-rebinding page reaches the
 * port under a name of its own) and, when it has an `Origin`, come from this very origin.
 * @module
 */

/** The cookie that holds a signed-in page's token. */
export const COOKIE_NAME = "sextant_dashboard";
/** The header an action carries its CSRF token in. */
export const CSRF_HEADER = "x-sextant-csrf";
/** How long a one-time code stays valid (ms). */
export const CODE_LIFETIME_MS = 10 * 60 * 1000;
/** How many signed-in pages (cookies) are kept; a new one beyond drops the oldest. */
const MAX_SIGNED_IN = 32;

/** Compare secrets in time that does not depend on where they differ. */
function sameToken(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** `bytes` random bytes as hex. */
export function randomHex(bytes: number): string {
  return Array.from(
    crypto.getRandomValues(new Uint8Array(bytes)),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
}

/** A signed-in page: its cookie token and the CSRF token its actions carry. */
export interface SignedIn {
  cookie: string;
  csrf: string;
}

/** What a request may do, or the refusal to answer it with. */
export type Verdict =
  | { ok: true; signedIn: SignedIn | null }
  | { ok: false; status: 401 | 403; message: string };

/** The names this server answers to on `port`: exact `Host` values and origins. */
function ownNames(port: number): { hosts: Set<string>; origins: Set<string> } {
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  return { hosts, origins: new Set([...hosts].map((h) => `http://${h}`)) };
}

/** The codes, cookies and CSRF tokens of one dashboard server. */
export class DashboardGuard {
  readonly #hosts: Set<string>;
  readonly #origins: Set<string>;
  /** Unused one-time codes and when they expire. */
  readonly #codes = new Map<string, number>();
  /** Signed-in pages by cookie token, oldest first. */
  readonly #signedIn = new Map<string, SignedIn>();

  constructor(port: number) {
    const names = ownNames(port);
    this.#hosts = names.hosts;
    this.#origins = names.origins;
  }

  /** A new one-time code (128 bits) for a link. */
  newCode(now = Date.now()): string {
    for (const [code, expires] of this.#codes) if (expires <= now) this.#codes.delete(code);
    const code = randomHex(16);
    this.#codes.set(code, now + CODE_LIFETIME_MS);
    return code;
  }

  /** Swap a one-time code for a signed-in page; null when the code is unknown, used or old. */
  redeem(code: string, now = Date.now()): SignedIn | null {
    let match: string | null = null;
    for (const known of this.#codes.keys()) if (sameToken(known, code)) match = known;
    if (match === null) return null;
    const expires = this.#codes.get(match)!;
    this.#codes.delete(match);
    if (expires <= now) return null;
    const signedIn = { cookie: randomHex(32), csrf: randomHex(16) };
    this.#signedIn.set(signedIn.cookie, signedIn);
    if (this.#signedIn.size > MAX_SIGNED_IN) {
      this.#signedIn.delete(this.#signedIn.keys().next().value!);
    }
    return signedIn;
  }

  /** The `Set-Cookie` value for a signed-in page. */
  cookieHeader(signedIn: SignedIn): string {
    return `${COOKIE_NAME}=${signedIn.cookie}; HttpOnly; SameSite=Strict; Path=/`;
  }

  /** The signed-in page whose cookie the request carries, or null. */
  signedInBy(request: Request): SignedIn | null {
    const header = request.headers.get("cookie") ?? "";
    for (const part of header.split(";")) {
      const [name, value] = part.trim().split("=", 2);
      if (name !== COOKIE_NAME || value === undefined) continue;
      for (const [cookie, signedIn] of this.#signedIn) {
        if (sameToken(cookie, value)) return signedIn;
      }
    }
    return null;
  }

  /**
   * Check a request: its `Host` and `Origin` (403), its cookie (401, unless `signInFree`: the
   * page itself, which may be opened with a code) and, for anything but GET, its CSRF token (403).
   */
  check(request: Request, options: { signInFree?: boolean } = {}): Verdict {
    const host = request.headers.get("host");
    if (host === null || !this.#hosts.has(host.toLowerCase())) {
      return {
        ok: false,
        status: 403,
        message: "Forbidden: the Host header does not name this server.",
      };
    }
    const origin = request.headers.get("origin");
    if (origin !== null && !this.#origins.has(origin.toLowerCase())) {
      return {
        ok: false,
        status: 403,
        message: "Forbidden: requests from another origin are refused.",
      };
    }
    const signedIn = this.signedInBy(request);
    if (signedIn === null) {
      if (options.signInFree) return { ok: true, signedIn: null };
      return {
        ok: false,
        status: 401,
        message:
          "Unauthorized: open the link 'sextant dashboard' prints (it carries a one-time code).",
      };
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      const csrf = request.headers.get(CSRF_HEADER) ?? "";
      if (!sameToken(csrf, signedIn.csrf)) {
        return {
          ok: false,
          status: 403,
          message: "Forbidden: the action lacks the page's CSRF token.",
        };
      }
    }
    return { ok: true, signedIn };
  }
}
