/**
 * A tool under another name, sharing its handler (the `ada` context's Ada MCP setup names).
 * And parameters listed only in some contexts ({@linkcode listedIn}), accepted in all.
 * @module
 */
import { z } from "../../deps_start.ts";
import type { Marker } from "../../config/schema.ts";
import type { Tool } from "../tool.ts";

const FILE_DESCRIPTION = "The file: relative to the project root, or absolute inside it.";

/**
 * A copy of `tool` under another name, sharing its handler; parameters named in `renames`
 * (`{ relative_path: "file" }`) are exposed under the new name and mapped back before the
 * handler runs. The alias carries the `optional` marker.
 */
export function aliasTool(
  tool: Tool,
  name: string,
  renames: Readonly<Record<string, string>> = {},
): Tool {
  const params: Record<string, z.ZodType> = {};
  for (const [key, schema] of Object.entries(tool.params)) {
    const renamed = renames[key];
    if (renamed === undefined) params[key] = schema as z.ZodType;
    else {
      const optional = (schema as z.ZodType).safeParse(undefined).success;
      params[renamed] = optional
        ? z.string().optional().describe(FILE_DESCRIPTION)
        : z.string().describe(FILE_DESCRIPTION);
    }
  }
  const markers: Marker[] = [...new Set<Marker>([...tool.markers, "optional"])];
  return {
    name,
    description: `${tool.description} (Alias of ${tool.name}.)`,
    params,
    markers,
    readOnly: tool.readOnly,
    destructive: tool.destructive,
    ...(tool.aliases ? { aliases: tool.aliases } : {}),
    handler(args, ctx) {
      const mapped: Record<string, unknown> = { ...args };
      for (const [original, renamed] of Object.entries(renames)) {
        if (renamed in mapped) {
          mapped[original] = mapped[renamed];
          delete mapped[renamed];
        }
      }
      return tool.handler(mapped, ctx);
    },
  };
}

/** How a parameter is listed: as it is in `contexts`, elsewhere as `otherwise` (or not at all). */
interface ParamListing {
  contexts: readonly string[];
  otherwise?: z.ZodType;
}

const listings = new WeakMap<z.ZodType, ParamListing>();

/**
 * A parameter every context accepts but lists only in `contexts` (the dev-tools workflow's form of
 * rename_symbol, listed in `devtools`); in the other contexts it is listed as `otherwise`, or
 * left out of the schema when that is omitted. Returns `schema`, registered.
 */
export function listedIn<T extends z.ZodType>(
  schema: T,
  contexts: readonly string[],
  otherwise?: z.ZodType,
): T {
  listings.set(schema, { contexts, ...(otherwise ? { otherwise } : {}) });
  return schema;
}

/**
 * The parameters a tool lists in `context` (undefined: the default listing, no context's own
 * parameters); `shape` itself when none of its parameters is listed per context.
 */
export function listedShape(shape: z.ZodRawShape, context: string | undefined): z.ZodRawShape {
  let out: Record<string, z.ZodType> | null = null;
  const entries = Object.entries(shape) as Array<[string, z.ZodType]>;
  for (const [index, [key, schema]] of entries.entries()) {
    const listing = listings.get(schema);
    if (!listing) {
      if (out) out[key] = schema;
      continue;
    }
    out ??= Object.fromEntries(entries.slice(0, index));
    if (context !== undefined && listing.contexts.includes(context)) out[key] = schema;
    else if (listing.otherwise) out[key] = listing.otherwise;
  }
  return out ?? shape;
}
