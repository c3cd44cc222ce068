/**
 * replace_content: replaces text in one file, literally or by regex (replace_in_files does it
 * across many files).
 * @module
 */
import { z } from "../../deps.ts";
import { compilePattern, replaceContent } from "../../edit/replace.ts";
import { regexMatches } from "../shared/regex.ts";
import { editFile } from "../shared/write.ts";
import { defineTool, SUCCESS_RESULT } from "../tool.ts";
import { replaceMode } from "../shared/params.ts";

export const replaceContentTool = defineTool({
  name: "replace_content",
  description: "Replaces text in a file, literally or by regex. No match, or several without " +
    "allow_multiple_occurrences: fails, changing nothing.",
  params: {
    relative_path: z.string().describe("The file."),
    needle: z.string().min(1).describe("Text or regex to find."),
    repl: z.string().describe("Replacement text."),
    mode: replaceMode,
    allow_multiple_occurrences: z.boolean().default(false).describe(
      "Replace every match.",
    ),
  },
  markers: ["can-edit"],
  readOnly: false,
  async handler(args, ctx) {
    await editFile(
      ctx,
      args.relative_path,
      async (text, resolved) =>
        replaceContent(text, args.needle, args.repl, args.mode, {
          allowMultipleOccurrences: args.allow_multiple_occurrences,
          fileLabel: resolved.relative,
          ...(args.mode === "regex"
            ? { matches: await regexMatches(compilePattern(args.needle), text, ctx.signal) }
            : {}),
        }).text,
    );
    return SUCCESS_RESULT;
  },
});
