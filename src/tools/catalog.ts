/**
 * Every tool of the registry (mod.ts) as a catalog entry that does not load the tool's module:
 * name, description, markers, annotations and the input schema tools/list shows, read from
 * `catalog.json`. A session is built on these entries, so answering `initialize` and
 * `tools/list` loads no tool family, no language-server client and builds no zod schema; the
 * first call (or {@linkcode preloadTools}) loads the whole registry once, and from then on each
 * entry stands for its tool (`params`, `handler`).
 *
 * `catalog.json` is generated from the registry by `deno run -A scripts/release/tool_catalog.ts`;
 * `catalog_test.ts` fails, naming that command, when it no longer matches.
 * @module
 */
import type { McpTool } from "../deps_start.ts";
import type { ProjectHost } from "../project_host.ts";
import type { Marker } from "../config/schema.ts";
import type { Tool } from "./tool.ts";
import catalog from "./catalog.json" with { type: "json" };

/** One tool as the catalog holds it. */
export interface CatalogEntry {
  name: string;
  description: string;
  markers: Marker[];
  readOnly: boolean;
  destructive: boolean;
  aliases?: Record<string, string>;
  /** The input schema of the default listing. */
  inputSchema: McpTool["inputSchema"];
  /** The contexts that list the tool with a schema of their own (shared/alias.ts listedIn). */
  contexts?: Record<string, McpTool["inputSchema"]>;
}

let loaded: ReadonlyMap<string, Tool> | null = null;
let loading: Promise<ReadonlyMap<string, Tool>> | null = null;
let hostModule: typeof import("../project_host.ts") | null = null;

/**
 * Load the registry (every tool family) and the project services the tools reach, once; the
 * catalog entries then stand for the tools.
 */
export function preloadTools(): Promise<ReadonlyMap<string, Tool>> {
  loading ??= Promise.all([import("./mod.ts"), import("../project_host.ts")]).then(
    ([mod, host]) => {
      hostModule = host;
      loaded = new Map(mod.ALL_TOOLS.map((tool) => [tool.name, tool]));
      return loaded;
    },
  );
  return loading;
}

/**
 * A new project host, for a session built on the catalog that has a host of its own
 * (`SessionOptions.host`). A session calls it when a tool first asks for a project's services;
 * the catalog loaded that tool's module, and the host's with it, before running it.
 */
export function catalogProjectHost(): ProjectHost {
  if (!hostModule) throw new Error("The project services are not loaded yet (preloadTools)");
  return new hostModule.ProjectHost();
}

/** Whether the registry has been loaded in this process. */
export function toolsLoaded(): boolean {
  return loaded !== null;
}

function entryTool(entry: CatalogEntry): Tool {
  const name = entry.name;
  const real = (tools: ReadonlyMap<string, Tool>): Tool => {
    const tool = tools.get(name);
    if (!tool) throw new Error(`The tool catalog names ${name}, which the registry lacks`);
    return tool;
  };
  const load = async () => real(loaded ?? await preloadTools());
  return {
    name,
    description: entry.description,
    markers: entry.markers,
    readOnly: entry.readOnly,
    destructive: entry.destructive,
    ...(entry.aliases ? { aliases: entry.aliases } : {}),
    listing: { "": entry.inputSchema, ...entry.contexts },
    get params() {
      if (!loaded) throw new Error(`${name}: its module is not loaded yet (await tool.load())`);
      return real(loaded).params;
    },
    load,
    async handler(args, ctx) {
      return await (await load()).handler(args, ctx);
    },
  };
}

/** Every tool, in registry order, as catalog entries (see the module's documentation). */
export const CATALOG_TOOLS: readonly Tool[] = (catalog as CatalogEntry[]).map(entryTool);
