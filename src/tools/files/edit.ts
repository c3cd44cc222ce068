/**
 * The `edit` tool: exact string replacement, either one edit (old_string,
 * new_string, expected_replacements) or an `edits` array applied in order, never both. The file
 * must have been read in this session; every edit is checked before anything is written.
 * @module
 */
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { unifiedDiff } from "../../edit/diff.ts";
import { editFile } from "../shared/write.ts";
import { defineTool } from "../tool.ts";

const EditOperation = z.strictObject({
  old_string: z.string(),
  new_string: z.string(),
  expected_replacements: z.number().int().min(1).default(1),
});
type EditOperation = z.infer<typeof EditOperation>;

function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
    count++;
  }
  return count;
}

/** Apply the edits in order to `text`; throws (naming the edit) on the first that does not fit. */
export function applyEdits(text: string, edits: readonly EditOperation[], label: string): string {
  let current = text;
  edits.forEach((edit, i) => {
    const which = edits.length > 1 ? `Edit ${i + 1} of ${edits.length}` : "The edit";
    if (edit.old_string === "") {
      throw new ToolError(`${which}: old_string is empty. Use create_text_file for new files.`);
    }
    if (edit.old_string === edit.new_string) {
      throw new ToolError(`${which}: old_string and new_string are identical; nothing to change.`);
    }
    const found = countOccurrences(current, edit.old_string);
    if (found === 0) {
      throw new ToolError(
        `${which}: old_string was not found in '${label}'` +
          (i > 0 ? " (after the previous edits were applied)" : "") +
          ". It must match exactly, including whitespace and indentation. No changes were made.",
      );
    }
    if (found !== edit.expected_replacements) {
      throw new ToolError(
        `${which}: expected ${edit.expected_replacements} replacement(s) but old_string occurs ` +
          `${found} time(s) in '${label}'. Add surrounding context to make it unique, or set ` +
          "expected_replacements. No changes were made.",
      );
    }
    current = current.split(edit.old_string).join(edit.new_string);
  });
  return current;
}

export const editTool = defineTool({
  name: "edit",
  description:
    "Exact string replacement in a file read in this session: old_string/new_string or " +
    "an `edits` array, not both; all checked before any is written. Returns a diff.",
  params: {
    file_path: z.string().describe("The file."),
    old_string: z.string().optional(),
    new_string: z.string().optional(),
    expected_replacements: z.number().int().min(1).optional().describe("Default 1."),
    edits: z.array(EditOperation).optional().describe(
      "Several edits, applied in order.",
    ),
  },
  markers: ["can-edit"],
  readOnly: false,
  async handler(args, ctx) {
    const single = args.old_string !== undefined || args.new_string !== undefined ||
      args.expected_replacements !== undefined;
    if (args.edits !== undefined && single) {
      throw new ToolError(
        "Cannot mix single edit parameters (old_string/new_string/expected_replacements) with " +
          "multi-edit (edits array). Use one mode.",
      );
    }
    let edits: EditOperation[];
    if (args.edits !== undefined) {
      if (args.edits.length === 0) throw new ToolError("The edits array is empty.");
      edits = args.edits;
    } else if (args.old_string !== undefined && args.new_string !== undefined) {
      edits = [{
        old_string: args.old_string,
        new_string: args.new_string,
        expected_replacements: args.expected_replacements ?? 1,
      }];
    } else {
      throw new ToolError(
        "Must provide either old_string and new_string (single edit) or an edits array.",
      );
    }
    const outcome = await editFile(ctx, args.file_path, (text, resolved) => {
      if (!ctx.session.reads.wasRead(resolved.real)) {
        throw new ToolError(
          `File '${resolved.relative}' has not been read in this session. Read it with ` +
            "read_file first, so the edit is based on its actual content.",
        );
      }
      return applyEdits(text, edits, resolved.relative);
    });
    const count = edits.reduce((n, e) => n + e.expected_replacements, 0);
    return `Applied ${edits.length} edit(s) to ${outcome.resolved.relative} ` +
      `(${count} replacement(s)).\n` +
      unifiedDiff(outcome.resolved.relative, outcome.before, outcome.after);
  },
});
