/**
 * list_dir: the files and folders under a project folder, optionally recursive, ignore rules
 * applied.
 * @module
 */
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { defineTool } from "../tool.ts";
import { maxAnswerChars } from "../shared/params.ts";

export const listDir = defineTool({
  name: "list_dir",
  description: "Lists a directory's files and sub-directories as JSON " + '{"dirs", "files"}.',
  params: {
    relative_path: z.string().describe(
      "The directory; '.' for the root.",
    ),
    recursive: z.boolean().describe("Include sub-directories."),
    skip_ignored_files: z.boolean().default(false).describe(
      "Skip ignored files, environments, build output.",
    ),
    max_answer_chars: maxAnswerChars,
  },
  readOnly: true,
  async handler(args, ctx) {
    const project = ctx.project();
    let resolved;
    try {
      resolved = project.resolve(args.relative_path, {
        requireNotIgnored: args.skip_ignored_files,
      });
    } catch (error) {
      // Serena 2.1 answers a missing folder with this JSON, as a normal answer.
      if (error instanceof ToolError && error.message.startsWith("No file or directory")) {
        return JSON.stringify({
          error: `Directory not found: ${args.relative_path} (check if the path is correct ` +
            "relative to the project root)",
          project_root: project.root,
        });
      }
      throw error;
    }
    if (!Deno.statSync(resolved.real).isDirectory) {
      throw new ToolError(`'${resolved.relative}' is a file, not a directory.`);
    }
    const dirs: string[] = [];
    const files: string[] = [];
    for await (
      const entry of project.walk(resolved.relative, {
        skipIgnored: args.skip_ignored_files,
        recursive: args.recursive,
        signal: ctx.signal,
      })
    ) {
      (entry.isDirectory ? dirs : files).push(entry.path);
    }
    dirs.sort();
    files.sort();
    const full = JSON.stringify({ dirs, files });
    return {
      text: full,
      shorter: [{
        note: `The full listing is too long (${full.length} characters); showing directories ` +
          `only (${files.length} files omitted). List a sub-directory to see its files.`,
        text: () => JSON.stringify({ dirs }),
      }],
    };
  },
});
