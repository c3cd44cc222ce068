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
  description: "Finds files by name mask (*, ?, {a,b}) below a directory.",
  params: {
    file_mask: z.string().min(1).describe("e.g. '*.ts', 'config.?son'."),
    relative_path: z.string().describe("The directory; '.' for the root."),
    skip_ignored_files: z.boolean().default(false).describe(
      "Skip ignored files, environments, build output.",
    ),
  },
  readOnly: true,
  async handler(args, ctx) {
    const project = ctx.project();
    // As in Serena 2.1: an ignored folder may be searched; below it, the ignore rules do not apply.
    const resolved = project.resolve(args.relative_path, { requireNotIgnored: false });
    const skipIgnored = args.skip_ignored_files &&
      (resolved.relative === "." || !project.ignore.isIgnoredDeep(resolved.relative, true));
    if (!Deno.statSync(resolved.real).isDirectory) {
      throw new ToolError(`'${resolved.relative}' is a file, not a directory.`);
    }
    // Braces as in search_for_pattern's globs ('*.{ts,tsx}'); fnmatch has none, but agents use them.
    const matches = picomatch(args.file_mask, { dot: true, noextglob: true });
    const files: string[] = [];
    for await (
      const entry of project.walk(resolved.relative, { skipIgnored, signal: ctx.signal })
    ) {
      if (!entry.isDirectory && matches(basename(entry.path))) files.push(entry.path);
    }
    files.sort();
    return JSON.stringify({ files });
  },
});
