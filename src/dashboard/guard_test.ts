import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { COOKIE_NAME, CSRF_HEADER, DashboardGuard } from "./guard.ts";

const PORT = 4321;

function request(headers: Record<string, string>, method = "GET"): Request {
  return new Request(`http://127.0.0.1:${PORT}/`, {
    method,
    headers: { host: `127.0.0.1:${PORT}`, ...headers },
  });
}

Deno.test("a one-time code is redeemed once, for a cookie of 256 bits and a CSRF token", () => {
  const guard = new DashboardGuard(PORT);
  const code = guard.newCode();
  assertEquals(code.length, 32);
  const signedIn = guard.redeem(code);
  assert(signedIn !== null);
  assertEquals(signedIn.cookie.length, 64);
  assertEquals(guard.redeem(code), null);
  assertEquals(guard.redeem("0".repeat(32)), null);
  const header = guard.cookieHeader(signedIn);
  assert(header.includes("HttpOnly") && header.includes("SameSite=Strict"), header);
});

Deno.test("an expired code is refused", () => {
  const guard = new DashboardGuard(PORT);
  const code = guard.newCode(0);
  assertEquals(guard.redeem(code, 11 * 60 * 1000), null);
});

Deno.test("requests without the cookie get 401, foreign hosts and origins 403", () => {
  const guard = new DashboardGuard(PORT);
  const signedIn = guard.redeem(guard.newCode())!;
  const cookie = `${COOKIE_NAME}=${signedIn.cookie}`;
  assertEquals(guard.check(request({})), {
    ok: false,
    status: 401,
    message: "Unauthorized: open the link 'sextant dashboard' prints (it carries a one-time code).",
  });
  assertEquals(guard.check(request({ cookie })).ok, true);
  assertEquals(guard.check(request({ cookie: `${COOKIE_NAME}=${"a".repeat(64)}` })).ok, false);
  // Exact names: neither a prefix nor another port passes.
  for (
    const host of [`127.0.0.1:${PORT}0`, `127.0.0.1.evil.com:${PORT}`, "evil.com", "127.0.0.1"]
  ) {
    const verdict = guard.check(request({ cookie, host }));
    assert(!verdict.ok && verdict.status === 403, host);
  }
  for (const origin of [`http://127.0.0.1:${PORT}.evil.com`, "http://evil.com", "null"]) {
    const verdict = guard.check(request({ cookie, origin }));
    assert(!verdict.ok && verdict.status === 403, origin);
  }
  assertEquals(
    guard.check(request({ cookie, origin: `http://localhost:${PORT}`, host: `localhost:${PORT}` }))
      .ok,
    true,
  );
});

Deno.test("an action needs the page's CSRF token", () => {
  const guard = new DashboardGuard(PORT);
  const signedIn = guard.redeem(guard.newCode())!;
  const cookie = `${COOKIE_NAME}=${signedIn.cookie}`;
  const forged = guard.check(request({ cookie }, "POST"));
  assert(!forged.ok && forged.status === 403);
  const wrong = guard.check(request({ cookie, [CSRF_HEADER]: "0".repeat(32) }, "POST"));
  assert(!wrong.ok && wrong.status === 403);
  assertEquals(guard.check(request({ cookie, [CSRF_HEADER]: signedIn.csrf }, "POST")).ok, true);
});
