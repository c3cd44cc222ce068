/**
 * The shared service spawns a project's language server when a session opens the project
 * (src/lsp/prestart.ts), the first call takes that process rather than starting another, and a
 * second session on the same project spawns nothing more.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { serverGroupsOf } from "../helpers/lang.ts";
import { FIXTURES, hasServer, LSP_CACHE, skipUnless } from "../helpers/lsp.ts";
import { call, connectFront, serviceRuntime, servicesOf, withLspPath } from "../helpers/mcp.ts";

Deno.test({
  name: "the service spawns a project's server when a session opens it; calls use that one",
  ignore: skipUnless(
    hasServer("typescript-language-server") && Deno.build.os === "linux",
    "typescript-language-server on Linux",
  ),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using runtime = await serviceRuntime();
  const parent = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-ahead-" }));
  const root = join(parent, "typescript");
  await new Deno.Command("cp", { args: ["-r", join(FIXTURES, "typescript"), root] }).output();
  const env = withLspPath({
    ...Deno.env.toObject(),
    ...runtime.env,
    SEXTANT_LSP_PATH: LSP_CACHE,
    XDG_CONFIG_HOME: join(parent, "xdg"),
  });
  const first = await connectFront(root, env, { name: "ahead-1" });
  try {
    const [service] = servicesOf(runtime.dir);
    assert(service !== undefined, "no service");
    // Spawned while the session opened, before `initialize` was answered.
    const ahead = serverGroupsOf(service);
    assertEquals(ahead.length, 1, `one server spawned ahead: ${ahead}`);
    const answer = await call(first, "get_symbols_overview", { relative_path: "src/shapes.ts" });
    assert(answer.text.includes("Circle"), answer.text);
    assertEquals(serverGroupsOf(service), ahead, "the call took the process spawned ahead");
    const second = await connectFront(root, env, { name: "ahead-2" });
    try {
      assertEquals(serverGroupsOf(service), ahead, "a second session spawned nothing more");
      const again = await call(second, "get_symbols_overview", { relative_path: "src/shapes.ts" });
      assert(again.text.includes("Circle"), again.text);
    } finally {
      await second.close();
    }
  } finally {
    await first.close();
    await Deno.remove(parent, { recursive: true }).catch(() => {});
  }
});
