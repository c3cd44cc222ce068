/**
 * Serena's basic file tools: read_file, create_text_file, list_dir, find_file.
 * @module
 */
import { basename, dirname, relative, sep } from "node:path";
import { picomatch, z } from "../deps.ts";
import { ToolError } from "../errors.ts";
import { decodeText, newFileFormat, readTextFile } from "../edit/text_file.ts";
import { ALWAYS_IGNORED_DIRS } from "../project/ignore.ts";
import { withFileLock } from "./file_edit.ts";
import { defineTool } from "./tool.ts";

export const maxAnswerChars = z.number().int().refine((n) => n === -1 || n > 0, {
  message: "must be positive or -1 (the configured default)",
}).default(-1).describe("Answer length limit in characters; -1 uses the configured default.");

export const readFile = defineTool({
  name: "read_file",
  description: "Reads a file within the project directory. Lines are 0-based; end_line is " +
    "inclusive. Read only the lines you need when you know them.",
  params: {
    relative_path: z.string().describe("The path of the file, relative to the project root."),
    start_line: z.number().int().min(0).default(0).describe("0-based index of the first line."),
    end_line: z.number().int().min(0).nullable().default(null).describe(
      "0-based index of the last line (inclusive); null reads to the end of the file.",
    ),
    max_answer_chars: maxAnswerChars,
  },
  readOnly: true,
  async handler(args, ctx) {
    const project = ctx.project();
    const resolved = project.resolveFile(args.relative_path);
    const { text } = await project.readText(resolved);
    if (args.start_line === 0 && args.end_line === null) {
      ctx.session.reads.recordRead(resolved.real);
      return text;
    }
    const lines = text.split("\n");
    const lineCount = text.endsWith("\n") ? lines.length - 1 : lines.length;
    if (args.start_line >= Math.max(lineCount, 1)) {
      throw new ToolError(
        `start_line ${args.start_line} is beyond the end of '${resolved.relative}', ` +
          `which has ${lineCount} line(s) (0-based: 0..${lineCount - 1}).`,
      );
    }
    if (args.end_line !== null && args.end_line < args.start_line) {
      throw new ToolError(`end_line (${args.end_line}) is before start_line (${args.start_line}).`);
    }
    const end = args.end_line === null ? lineCount - 1 : Math.min(args.end_line, lineCount - 1);
    ctx.session.reads.recordRead(resolved.real, args.start_line, args.end_line ?? Infinity);
    return lines.slice(args.start_line, end + 1).join("\n");
  },
});

export const createTextFile = defineTool({
  name: "create_text_file",
  description: "Creates or overwrites a file in the project directory (parent folders are " +
    "created). An overwritten file keeps its line endings, BOM and permissions.",
  params: {
    relative_path: z.string().describe("The path of the file, relative to the project root."),
    content: z.string().describe("The complete content to write."),
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
    await withFileLock(resolved.real, async () => {
      if (resolved.exists) {
        try {
          format = (await readTextFile(resolved.real, project.settings.encoding)).format;
        } catch { /* unreadable or binary: write fresh */ }
      } else {
        await Deno.mkdir(dirname(resolved.real), { recursive: true });
      }
      format = { ...format, finalNewline: given.text.endsWith("\n") };
      await project.writeText(resolved, given.text, format);
    });
    ctx.session.reads.noteCreated(resolved.real);
    await ctx.session.filesChanged([resolved.real]);
    return `File created: ${resolved.relative}.${
      resolved.exists ? " Overwrote existing file." : ""
    }`;
  },
});

export const listDir = defineTool({
  name: "list_dir",
  description: "Lists files and directories in the given directory (optionally with recursion). " +
    'Returns JSON {"dirs": [...], "files": [...]} with paths relative to the project root.',
  params: {
    relative_path: z.string().describe(
      'The directory, relative to the project root; "." for the root.',
    ),
    recursive: z.boolean().describe("Whether to scan sub-directories recursively."),
    skip_ignored_files: z.boolean().default(false).describe(
      "Whether to skip files and directories that are ignored (.gitignore, ignored_paths).",
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
      if (error instanceof ToolError && error.message.startsWith("No file or directory")) {
        throw new ToolError(
          JSON.stringify({
            error: `Directory not found: ${args.relative_path}`,
            project_root: project.root,
            hint: "Check the path, or call list_dir with relative_path '.' to see the root.",
          }),
          { bare: true },
        );
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

export const findFile = defineTool({
  name: "find_file",
  description: "Finds non-ignored files whose name matches a mask (wildcards * and ?, braces " +
    "{a,b}) below a " +
    'directory. Returns JSON {"files": [...]}.',
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
