/**
 * find_file: project files whose names match a glob.
 * @module
 */
import { basename } from "node:path";
import { picomatch, z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { defineTool } from "../tool.ts";

export const findFile = defineTool({
  name: "find_file",
  description: "Finds non-ignored files by name mask (*, ?, {a,b}) below a directory.",
  params: {
    file_mask: z.string().min(1).describe("File name or mask, e.g. '*.ts' or 'config.?son'."),
    relative_path: z.string().describe('The directory to search in; "." for the project root.'),
  },
  readOnly: true,
  async handler(args, ctx) {
    const project = ctx.project();
    const resolved = project.resolve(args.relative_path);
    if (!Deno.statSync(resolved.real).isDirectory) {
      throw new ToolError(`'${resolved.relative}' is a file, not a directory.`);
    }
    // Braces as in search_for_pattern's globs ('*.{ts,tsx}'); fnmatch has none, but agents use them.
    const matches = picomatch(args.file_mask, { dot: true, noextglob: true });
    const files: string[] = [];
    for await (const entry of project.walk(resolved.relative, { signal: ctx.signal })) {
      if (!entry.isDirectory && matches(basename(entry.path))) files.push(entry.path);
    }
    files.sort();
    return JSON.stringify({ files });
  },
});
