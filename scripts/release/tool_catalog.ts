/**
 * Writes `src/tools/catalog.json`, the tool catalog a session is built on before any tool module
 * loads (src/tools/catalog.ts): every tool of the registry with its description, markers,
 * annotations and the input schemas tools/list shows, per context where a context lists its own
 * parameters. Run it after changing a tool's name, description, markers or parameters:
 *
 *     deno run -A scripts/release/tool_catalog.ts
 *
 * src/tools/catalog_test.ts fails while the file is stale.
 * @module
 */
import { fileURLToPath } from "node:url";
import { DEFAULT_SETTINGS } from "../../src/config/schema.ts";
import { knownContexts } from "../../src/config/toolsets.ts";
import type { CatalogEntry } from "../../src/tools/catalog.ts";
import { describeToolIn } from "../../src/tools/listing.ts";
import { ALL_TOOLS } from "../../src/tools/mod.ts";

/** The catalog of the registry as it is now. */
export function buildCatalog(): CatalogEntry[] {
  return ALL_TOOLS.map((tool) => {
    const listed = describeToolIn(tool, undefined);
    const inputSchema = listed.inputSchema;
    const contexts: Record<string, CatalogEntry["inputSchema"]> = {};
    for (const context of knownContexts(DEFAULT_SETTINGS)) {
      const own = describeToolIn(tool, context).inputSchema;
      if (JSON.stringify(own) !== JSON.stringify(inputSchema)) contexts[context] = own;
    }
    return {
      name: tool.name,
      description: tool.description,
      markers: [...tool.markers],
      readOnly: tool.readOnly,
      destructive: tool.destructive,
      ...(tool.aliases ? { aliases: { ...tool.aliases } } : {}),
      inputSchema,
      ...(Object.keys(contexts).length > 0 ? { contexts } : {}),
    };
  });
}

export const CATALOG_PATH = fileURLToPath(new URL("../../src/tools/catalog.json", import.meta.url));

if (import.meta.main) {
  await Deno.writeTextFile(CATALOG_PATH, JSON.stringify(buildCatalog(), null, 2) + "\n");
  await new Deno.Command(Deno.execPath(), { args: ["fmt", "--quiet", CATALOG_PATH] }).output();
  console.log(`wrote ${CATALOG_PATH}`);
}
