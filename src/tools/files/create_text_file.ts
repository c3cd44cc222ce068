/**
 * create_text_file: creates or overwrites a project file, atomically.
 * @module
 */
import { relative, sep } from "node:path";
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { decodeText, readTextFile } from "../../edit/text_file.ts";
import { ALWAYS_IGNORED_DIRS } from "../../project/ignore.ts";
import { writeFiles } from "../shared/write.ts";
import { defineTool } from "../tool.ts";
import { newFileFormat } from "../../edit/text_file.ts";

export const createTextFile = defineTool({
  name: "create_text_file",
  description: "Creates or overwrites a file (and parent folders), keeping an old file's line " +
    "endings, BOM and mode.",
  params: {
    relative_path: z.string().describe("The file."),
    content: z.string().describe("The whole content."),
  },
  markers: ["can-edit"],
  readOnly: false,
  destructive: true,
  async handler(args, ctx) {
    const project = ctx.project();
    const resolved = project.resolve(args.relative_path, {
      mustExist: false,
      requireNotIgnored: false,
    });
    if (resolved.exists) {
      // Overwriting requires the same checks as reading: not ignored, not a folder.
      project.resolveFile(args.relative_path);
    } else {
      // New files may go to ignored places (as in Serena), but never into VCS, package-manager
      // or Sextant folders: a file in .git/hooks would run code on the user's next commit.
      const folders = [
        ...resolved.relative.split("/").slice(0, -1),
        ...relative(project.root, resolved.real).split(sep).slice(0, -1),
      ];
      const folder = folders.find((part) => ALWAYS_IGNORED_DIRS.has(part));
      if (folder !== undefined) {
        throw new ToolError(
          `Cannot create '${resolved.relative}': files inside '${folder}' folders are not ` +
            "managed by Sextant's file tools.",
        );
      }
    }
    // Content is written as given: normalize to \n so the file's own line ending is applied.
    const given = decodeText(new TextEncoder().encode(args.content), "utf-8", resolved.relative);
    // A new file takes its line endings and BOM from the content itself.
    let format = {
      ...newFileFormat(project.settings.encoding),
      eol: given.format.eol,
      bom: given.format.bom,
    };
    await writeFiles(ctx, {
      lock: [resolved.real],
      wholeContent: true,
      prepare: async () => {
        if (resolved.exists) {
          try {
            format = (await readTextFile(resolved.real, project.settings.encoding)).format;
          } catch { /* unreadable or binary: write fresh */ }
        }
        format = { ...format, finalNewline: given.text.endsWith("\n") };
        return { changes: [{ real: resolved.real, after: given.text, format }], result: undefined };
      },
    });
    return `File created: ${resolved.relative}.${
      resolved.exists ? " Overwrote existing file." : ""
    }`;
  },
});
