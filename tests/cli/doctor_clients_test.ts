/** `sextant doctor`'s client lines against a temporary HOME set up by `sextant setup`. */
import { join } from "node:path";
import { assertEquals, assertMatch } from "../helpers/assert.ts";
import type { ClientEnv } from "../../src/cli/clients.ts";
import { clientLines } from "../../src/cli/doctor_clients.ts";
import { runSetup } from "../../src/cli/setup.ts";

Deno.test("doctor lists the clients found, their sextant entry and whether it starts", async () => {
  const home = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-home-" }));
  try {
    const project = join(home, "app");
    await Deno.mkdir(project);
    const env: ClientEnv = { home, os: "linux", get: () => undefined };
    assertMatch(clientLines(env, project, "")[0]!, /no MCP client config found/);
    const bin = join(home, "bin");
    await Deno.mkdir(bin);
    await Deno.writeTextFile(join(bin, "sextant"), "#!/bin/sh\n", { mode: 0o755 });
    const quiet = { env, project, useClaudeCli: false, write: () => {} };
    await runSetup({ client: "cursor", launch: { command: "sextant", args: [] }, ...quiet });
    await runSetup({ client: "codex", launch: { command: "/gone/sextant", args: [] }, ...quiet });
    await Deno.mkdir(join(project, ".vscode"));
    await Deno.writeTextFile(join(project, ".vscode", "mcp.json"), '{ "servers": {} }');
    await Deno.mkdir(join(home, ".gemini"));
    await Deno.writeTextFile(join(home, ".gemini", "settings.json"), "{ not json");
    const lines = clientLines(env, project, bin);
    assertEquals(lines.length, 4, lines.join("\n"));
    assertMatch(lines.find((l) => l.includes("Codex"))!, /'\/gone\/sextant', which is not found/);
    assertMatch(
      lines.find((l) => l.includes("Cursor"))!,
      new RegExp(`sextant entry ok, starts ${join(bin, "sextant")}`),
    );
    assertMatch(lines.find((l) => l.includes("VS Code"))!, /\(project\).*no sextant entry/);
    assertMatch(lines.find((l) => l.includes("Gemini"))!, /cannot read its sextant entry/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
