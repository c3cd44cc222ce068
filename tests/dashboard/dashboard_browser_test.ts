/**
 * The service's dashboard in a real headless browser: Debian's Chromium driven by
 * playwright-core, against a real service started by a real front, with a real language server.
 * The page must show the session and its tool calls live, round-trip a memory edit to its file,
 * restart a language server, and refuse requests without the sign-in cookie (401), from another
 * origin (403) and actions without the CSRF token (403).
 *
 * Waits are deadlines for failure, not performance bounds. With `DASHBOARD_SCREENSHOT=<path>`
 * the test saves a screenshot of the page there (docs/dashboard.png is made so).
 * @module
 */
import { join } from "node:path";
// @ts-types="npm:playwright-core@1.65.1"
import { chromium } from "npm:playwright-core@1.65.1";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { hasServer, processAlive } from "../helpers/lsp.ts";
import {
  call,
  connectFront,
  frontArgs,
  REPO_ROOT,
  serviceRuntime,
  tempProject,
  withLspPath,
} from "../helpers/mcp.ts";

const CHROMIUM = "/usr/bin/chromium";
const hasChromium = (() => {
  try {
    return Deno.statSync(CHROMIUM).isFile;
  } catch {
    return false;
  }
})();
const tsServer = hasServer("typescript-language-server");

/** Chromium's flags: nothing reaches out to the network or keeps state between runs. */
const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** How long a condition may take before the test fails (a deadline, not a bound). */
const DEADLINE_MS = 120_000;

/** Wait until `probe` gives a truthy value (a count above 0, a found text), and return it. */
async function waitFor<T>(
  what: string,
  probe: () => Promise<T | null | false | 0 | undefined>,
): Promise<T> {
  const deadline = Date.now() + DEADLINE_MS;
  let last: unknown = null;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${last}` : ""}`);
}

/** The status of a GET sent over a plain socket, with the `Host` header given. */
async function rawStatus(base: string, path: string, cookie: string, host: string) {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(new URL(base).port) });
  try {
    const request = `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nCookie: ${cookie}\r\n` +
      "Connection: close\r\n\r\n";
    await conn.write(new TextEncoder().encode(request));
    const buffer = new Uint8Array(256);
    const n = await conn.read(buffer);
    const head = new TextDecoder().decode(buffer.subarray(0, n ?? 0));
    return Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  } finally {
    conn.close();
  }
}

const FILES = {
  "package.json": '{ "name": "dash", "private": true }\n',
  "tsconfig.json": '{ "compilerOptions": { "strict": true }, "include": ["src"] }\n',
  "src/shapes.ts": "export class Circle {\n  constructor(public r: number) {}\n}\n",
  ".sextant/memories/notes.md": "# Notes\n\nThe first version.\n",
};

function skipReason(): string | null {
  if (!hasChromium) return `no Chromium at ${CHROMIUM} (apt-get install chromium)`;
  if (!tsServer) return "no typescript-language-server (run 'deno task test')";
  return null;
}
const reason = skipReason();
if (reason) console.log(`skipping the dashboard browser test: ${reason}`);

Deno.test({
  name: "the dashboard shows sessions and calls live, edits memories, restarts servers, and " +
    "refuses strangers",
  ignore: reason !== null,
  // The MCP SDK's StdioClientTransport.close leaves a timer of its own running.
  sanitizeOps: false,
  async fn() {
    await using runtime = await serviceRuntime();
    await using project = await tempProject(FILES);
    const configHome = join(runtime.dir, "config");
    const env = withLspPath({
      ...Deno.env.toObject(),
      ...runtime.env,
      XDG_CONFIG_HOME: configHome,
    });
    const client = await connectFront(project.root, env, {
      name: "dashboard-test",
      logLevel: "info",
      // A shell command gives the test a call that runs until it is cancelled.
      extra: ["--enable-shell"],
    });
    const userData = await Deno.makeTempDir({ prefix: "sextant-chromium-" });
    let context: Awaited<ReturnType<typeof chromium.launchPersistentContext>> | null = null;
    try {
      // `sextant dashboard` as the user runs it: the service is already there (the front's).
      const out = await new Deno.Command(Deno.execPath(), {
        args: frontArgs(["dashboard"]),
        env,
        cwd: REPO_ROOT,
        stdout: "piped",
        stderr: "piped",
      }).output();
      const link = new TextDecoder().decode(out.stdout).trim();
      assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
      const match = /^(http:\/\/127\.0\.0\.1:\d+\/)\?code=[0-9a-f]{32}$/.exec(link);
      assert(match, `not a dashboard link: ${link}`);
      const base = match[1]!;
      // `sextant service status` names the page (without a code).
      const status = await new Deno.Command(Deno.execPath(), {
        args: frontArgs(["service", "status"]),
        env,
        cwd: REPO_ROOT,
        stdout: "piped",
      }).output();
      assertStringIncludes(new TextDecoder().decode(status.stdout), `dashboard: ${base} `);

      // Without the code or the cookie: 401, for the page, its feed and its actions.
      for (const path of ["", "events", "api/settings"]) {
        const response = await fetch(base + path);
        await response.body?.cancel();
        assertEquals(response.status, 401, path);
      }

      // Playwright gives Chromium a fresh --user-data-dir and --headless itself.
      context = await chromium.launchPersistentContext(userData, {
        executablePath: CHROMIUM,
        headless: true,
        args: CHROMIUM_FLAGS,
      });
      const page = context.pages()[0] ?? await context.newPage();
      page.on("dialog", (dialog) => void dialog.accept());
      const loaded = await page.goto(link);
      assertEquals(loaded?.status(), 200);
      assertEquals(new URL(page.url()).search, "", "the code leaves the address bar");
      await waitFor("the live feed", () => page.locator("body[data-live=yes]").count());

      // The code was used: a second use is refused.
      const again = await fetch(link);
      await again.body?.cancel();
      assertEquals(again.status, 401);

      // The session appears, with its client and project.
      const session = page.locator("#sessions tbody tr");
      await waitFor("the session", async () => {
        const text = await session.first().textContent({ timeout: 1000 });
        return text?.includes("dashboard-test") && text.includes(project.root);
      });

      // A tool call appears with its duration once answered.
      const overview = await call(client, "get_symbols_overview", {
        relative_path: "src/shapes.ts",
      });
      assert(!overview.isError, overview.text);
      const duration = await waitFor("the call's duration", async () => {
        const cell = page.locator('#calls tr[data-tool="get_symbols_overview"] .duration');
        const text = (await cell.count()) > 0 ? await cell.first().textContent() : null;
        return text !== null && /\d ms$/.test(text) ? text : null;
      });
      assert(/^\d+(\.\d+)? ms$/.test(duration), duration);
      await waitFor(
        "the per-tool statistics",
        () => page.locator('#stats tr[data-tool="get_symbols_overview"]').count(),
      );

      // The language server the call started, with its pid; a restart shows a new one.
      const serverRow = page.locator("#projects tr[data-server]").first();
      const oldPid = await waitFor("the language server's pid", async () => {
        const pid = await serverRow.getAttribute("data-pid", { timeout: 1000 });
        return pid ? Number(pid) : null;
      });
      await serverRow.locator("button").click();
      await waitFor(
        "the restart's result",
        async () => (await page.locator("#result").textContent())?.includes("Restarted"),
      );
      assertStringIncludes((await page.locator("#result").textContent())!, "pid");
      const newPid = await waitFor("the new pid", async () => {
        const pid = Number(await serverRow.getAttribute("data-pid", { timeout: 1000 }));
        return pid && pid !== oldPid ? pid : null;
      });
      assert(newPid !== oldPid);

      // A memory edit round-trips to its file.
      await waitFor("the memory list", () => page.locator('[data-memory="notes"]').count());
      await page.locator('[data-memory="notes"]').click();
      await waitFor(
        "the memory's text",
        async () =>
          (await page.locator("#memory-text").inputValue()).includes("The first version."),
      );
      await page.locator("#memory-text").fill("# Notes\n\nEdited in the dashboard.\n");
      await page.locator("#memory-save").click();
      await waitFor(
        "the save's result",
        async () => (await page.locator("#result").textContent())?.includes("saved"),
      );
      assertEquals(
        await Deno.readTextFile(join(project.root, ".sextant/memories/notes.md")),
        "# Notes\n\nEdited in the dashboard.\n",
      );
      // And the agent's tools see it.
      const read = await call(client, "read_memory", { memory_name: "notes" });
      assertStringIncludes(read.text, "Edited in the dashboard.");

      // The log's tail, and its level filter.
      const logLines = page.locator("#log-lines");
      await waitFor(
        "the log",
        async () => (await logLines.textContent())?.includes("listening on 127.0.0.1"),
      );
      await page.locator("#log-level").selectOption("error");
      assert(!(await logLines.textContent())?.includes("listening on 127.0.0.1"));
      await page.locator("#log-level").selectOption("info");

      // The configuration panel names where each setting comes from.
      await waitFor(
        "the effective settings",
        () => page.locator('#effective tr[data-key="tool_timeout"][data-source="default"]').count(),
      );

      // A call that runs shows in the list with a Cancel button; cancelling it ends the call,
      // which answers that it was cancelled.
      const running = call(client, "execute_shell_command", { command: "sleep 300" });
      const cancel = page.locator('#calls tr[data-tool="execute_shell_command"] button');
      await waitFor("the running call", () => cancel.count());
      await cancel.click();
      await waitFor(
        "the cancel's result",
        async () => (await page.locator("#result").textContent())?.includes("cancelled"),
      );
      const cancelled = await running;
      assert(cancelled.isError, cancelled.text);
      assertStringIncludes(cancelled.text, "was cancelled");
      await waitFor(
        "the cancelled call's error",
        async () =>
          (await page.locator('#calls tr[data-tool="execute_shell_command"]').textContent())
            ?.includes("was cancelled"),
      );

      // The global config file is checked before it is saved: a wrong value is refused and
      // nothing is written; a right one is saved, and the setting's source says so.
      const globalFile = join(configHome, "sextant", "config.jsonc");
      await page.locator("#global-text").fill('{ "tool_timeout": "soon" }');
      await page.locator("#global-save").click();
      await waitFor(
        "the refusal",
        async () => (await page.locator("#result.error").textContent())?.includes("tool_timeout"),
      );
      assert(!(await Deno.stat(globalFile).then(() => true, () => false)));
      await page.locator("#global-text").fill('// mine\n{ "tool_timeout": 90 }\n');
      await page.locator("#global-save").click();
      await waitFor(
        "the new source",
        () => page.locator('#effective tr[data-key="tool_timeout"][data-source="global"]').count(),
      );
      assertEquals(await Deno.readTextFile(globalFile), '// mine\n{ "tool_timeout": 90 }\n');

      const screenshot = Deno.env.get("DASHBOARD_SCREENSHOT");
      if (screenshot) {
        await waitFor(
          "every tool's statistics",
          () => page.locator('#stats tr[data-tool="execute_shell_command"]').count(),
        );
        await page.screenshot({ path: screenshot, fullPage: true });
      }

      // Ending a session closes its connection; its front reconnects as a new session, which
      // the page shows in its place, and the agent's next call works.
      const first = Number(await session.first().getAttribute("data-session"));
      await session.first().locator("button").click();
      await waitFor(
        "the end's result",
        async () =>
          (await page.locator("#result").textContent())?.includes(`Session ${first} ended`),
      );
      await waitFor(
        "the old session to go",
        async () => (await page.locator(`#sessions tr[data-session="${first}"]`).count()) === 0,
      );
      const afterEnd = await call(client, "read_memory", { memory_name: "notes" });
      assertStringIncludes(afterEnd.text, "Edited in the dashboard.");
      await waitFor(
        "the front's new session",
        async () => (await page.locator("#sessions tbody tr").count()) === 1,
      );

      // With the page's cookie but from another origin: 403. An action without the CSRF token
      // (a forged form post): 403, and nothing happens.
      const cookies = await context.cookies(base);
      const cookie = cookies.map((c) => `${c.name}=${c.value}`).join("; ");
      assertEquals(cookies[0]?.httpOnly, true);
      assertEquals(cookies[0]?.sameSite, "Strict");
      const foreign = await fetch(base + "api/settings", {
        headers: { cookie, origin: "http://evil.example" },
      });
      await foreign.body?.cancel();
      assertEquals(foreign.status, 403);
      const forged = await fetch(base + "api/action/stop-service", {
        method: "POST",
        headers: { cookie, "content-type": "application/json" },
        body: "{}",
      });
      await forged.body?.cancel();
      assertEquals(forged.status, 403);
      // A DNS-rebinding page reaches the port under its own name (fetch cannot set Host).
      assertEquals(await rawStatus(base, "/api/settings", `${cookie}`, "evil.example"), 403);
      assertEquals(
        await rawStatus(base, "/api/settings", `${cookie}`, `127.0.0.1:${new URL(base).port}`),
        200,
      );
      // The service is still there: the forged stop did nothing.
      const still = await call(client, "read_memory", { memory_name: "notes" });
      assert(!still.isError, still.text);

      // Stopping the service from the page: it says so, and the service's process ends.
      const servicePid = Number(
        /pid (\d+)/.exec((await page.locator("#service").textContent())!)?.[1],
      );
      assert(servicePid > 0);
      await page.locator("#stop").click();
      await waitFor(
        "the stop's result",
        async () => (await page.locator("#result").textContent())?.includes("stopping"),
      );
      await waitFor("the service to end", () => Promise.resolve(!processAlive(servicePid)));
      await waitFor("the page to see it", () => page.locator("body[data-live=no]").count());
      // The front starts a new service for the agent's next call (stopped when the test ends).
      const afterStop = await call(client, "read_memory", { memory_name: "notes" });
      assertStringIncludes(afterStop.text, "Edited in the dashboard.");
    } finally {
      await context?.close();
      await client.close();
      await Deno.remove(userData, { recursive: true }).catch(() => {});
    }
  },
});
