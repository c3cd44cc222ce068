/**
 * A tool under another name, sharing its handler (the `ada` context's Ada MCP setup names).
 * @module
 */
import { z } from "../../deps.ts";
import type { Marker, Tool } from "../tool.ts";

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
