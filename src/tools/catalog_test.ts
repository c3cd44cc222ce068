import { assert, assertEquals, assertThrows } from "../../tests/helpers/assert.ts";
import { buildCatalog } from "../../scripts/release/tool_catalog.ts";
import { DEFAULT_SETTINGS } from "../config/schema.ts";
import { knownContexts } from "../config/toolsets.ts";
import { CATALOG_TOOLS, preloadTools } from "./catalog.ts";
import catalog from "./catalog.json" with { type: "json" };
import { describeToolIn, listSize } from "./listing.ts";
import { ALL_TOOLS } from "./mod.ts";
import type { ToolContext } from "./tool.ts";
import { LateReports } from "../session/late_reports.ts";

const STALE = "src/tools/catalog.json is stale: run `deno run -A scripts/release/tool_catalog.ts`";

Deno.test("catalog: catalog.json is the registry's catalog", () => {
  assertEquals(catalog, JSON.parse(JSON.stringify(buildCatalog())), STALE);
});

Deno.test("catalog: every context lists the catalog byte for byte as the registry", () => {
  assertEquals(CATALOG_TOOLS.map((t) => t.name), ALL_TOOLS.map((t) => t.name), STALE);
  for (const context of [undefined, ...knownContexts(DEFAULT_SETTINGS), "a-custom-context"]) {
    for (const [i, tool] of ALL_TOOLS.entries()) {
      const entry = CATALOG_TOOLS[i]!;
      assertEquals(
        JSON.stringify(describeToolIn(entry, context)),
        JSON.stringify(describeToolIn(tool, context)),
        `${tool.name} in ${context ?? "the default listing"}: ${STALE}`,
      );
      assertEquals(entry.markers, tool.markers, tool.name);
      assertEquals(entry.aliases, tool.aliases, tool.name);
    }
    assertEquals(listSize(CATALOG_TOOLS, context), listSize(ALL_TOOLS, context));
  }
});

Deno.test("catalog: an entry stands for its tool once the registry is loaded", async () => {
  const entry = CATALOG_TOOLS.find((t) => t.name === "read_file")!;
  const tools = await preloadTools();
  const real = await entry.load!();
  assert(real === tools.get("read_file"));
  assert(real === ALL_TOOLS.find((t) => t.name === "read_file"), "the registry's own tool");
  assertEquals(real.load, undefined);
  assert(entry.params === real.params);
  // The handler delegates to the tool's own.
  const think = CATALOG_TOOLS.find((t) => t.name === "think_about_collected_information")!;
  const session = { lateReports: new LateReports() };
  const ctx = { session, project: () => ({}) } as unknown as ToolContext;
  const answer = await think.handler({}, ctx);
  assert(typeof answer === "string" && answer.length > 20);
  assertEquals(answer, await tools.get(think.name)!.handler({}, ctx));
});

Deno.test("catalog: an entry's params are refused before the registry is loaded", async () => {
  // A fresh copy of the module: nothing loaded in it yet.
  const fresh = await import(`./catalog.ts?fresh=${Date.now()}`) as typeof import("./catalog.ts");
  const entry = fresh.CATALOG_TOOLS[0]!;
  assertThrows(() => entry.params, "not loaded yet");
  assertEquals(fresh.toolsLoaded(), false);
  await entry.load!();
  assertEquals(fresh.toolsLoaded(), true);
  assert(Object.keys(entry.params).length > 0);
});
