/**
 * Keeps the tools' layout true: a tool is found from its name in one step. Each registered tool
 * is defined in `<family>/<tool_name>.ts`, or, where several tools share one implementation, in a
 * file named for one of them whose header comment lists each tool it holds. The `ada_*` aliases
 * are listed in `ada/aliases.ts`.
 * @module
 */
import { basename, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { assert, assertEquals } from "../../tests/helpers/assert.ts";
import { ADA_ALIASES } from "./ada/aliases.ts";
import { ADA_ALIAS_TOOLS, ALL_TOOLS } from "./mod.ts";
import type { Tool } from "./tool.ts";

const TOOLS_DIR = dirname(fileURLToPath(import.meta.url));

/** The module comment a file opens with (`/** ... *\/`), or "" when it has none. */
function headerOf(text: string): string {
  const match = /^\s*\/\*\*([\s\S]*?)\*\//.exec(text);
  return match ? match[1]! : "";
}

/** Whether `text` names the tool `name` as a whole word (`find_symbol` is not `find_symbols`). */
function names(text: string, name: string): boolean {
  return new RegExp(`(?<![\\w])${name}(?![\\w])`).test(text);
}

/**
 * Why a tool's defining file breaks the rule, or null when it keeps it. `file` is relative to
 * src/tools/; `others` are the names of the tools the same file defines.
 */
export function layoutProblem(
  tool: string,
  file: string,
  header: string,
  others: readonly string[],
): string | null {
  const parts = file.split("/");
  if (parts.length !== 2 || parts[0] === "shared") {
    return `${tool} is defined in ${file}, outside a family folder`;
  }
  const stem = basename(file, ".ts");
  if (stem === tool) return null;
  if (!others.includes(stem)) {
    return `${tool} is defined in ${file}, which is named for no tool it defines`;
  }
  if (!names(header, tool)) {
    return `${tool} is defined in ${file}, whose header comment does not list it`;
  }
  return null;
}

Deno.test("layout: the rule refuses a file not named for its tools or not listing them", () => {
  assertEquals(layoutProblem("find_symbol", "symbols/find_symbol.ts", "", []), null);
  assertEquals(
    layoutProblem(
      "implementation",
      "ide/goto_definition.ts",
      " goto_definition and implementation",
      [
        "goto_definition",
      ],
    ),
    null,
  );
  assert(layoutProblem("signature_help", "ide/completions.ts", " completions.", ["completions"]));
  assert(layoutProblem("delete_lines", "files/line_tools.ts", " delete_lines", ["replace_lines"]));
  assert(layoutProblem("find_implementations", "symbols/find_references.ts", "", []));
  assert(layoutProblem("x", "shared/x_helpers.ts", "x", []));
  // A longer name in the header does not list a shorter one.
  assert(layoutProblem("implementation", "ide/goto_definition.ts", " implementations", [
    "goto_definition",
  ]));
});

/** Every module of a family folder, relative to src/tools/. */
async function familyModules(): Promise<string[]> {
  const files: string[] = [];
  for await (const family of Deno.readDir(TOOLS_DIR)) {
    if (!family.isDirectory) continue;
    for await (const entry of Deno.readDir(join(TOOLS_DIR, family.name))) {
      if (entry.isFile && entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts")) {
        files.push(`${family.name}/${entry.name}`);
      }
    }
  }
  return files.sort();
}

Deno.test("layout: every registered tool is found from its name in one step", async () => {
  const definedIn = new Map<Tool, string[]>();
  for (const file of await familyModules()) {
    const mod = await import(`./${file}`) as Record<string, unknown>;
    for (const value of Object.values(mod)) {
      if (ALL_TOOLS.includes(value as Tool)) {
        definedIn.set(value as Tool, [...(definedIn.get(value as Tool) ?? []), file]);
      }
    }
  }
  const toolsOf = new Map<string, string[]>();
  for (const [tool, files] of definedIn) {
    for (const file of files) toolsOf.set(file, [...(toolsOf.get(file) ?? []), tool.name]);
  }
  const aliasFile = join(TOOLS_DIR, "ada", "aliases.ts");
  const aliasText = await Deno.readTextFile(aliasFile);
  const problems: string[] = [];
  for (const tool of ALL_TOOLS) {
    if (ADA_ALIAS_TOOLS.includes(tool)) {
      // Built in mod.ts from the table in ada/aliases.ts, which names each one.
      if (!ADA_ALIASES.some(([name]) => name === tool.name) || !names(aliasText, tool.name)) {
        problems.push(`the alias ${tool.name} is not listed in ${relative(TOOLS_DIR, aliasFile)}`);
      }
      continue;
    }
    const files = definedIn.get(tool) ?? [];
    if (files.length !== 1) {
      problems.push(`${tool.name} is exported by ${files.length} family modules: ${files}`);
      continue;
    }
    const file = files[0]!;
    const header = headerOf(await Deno.readTextFile(join(TOOLS_DIR, file)));
    const problem = layoutProblem(tool.name, file, header, toolsOf.get(file) ?? []);
    if (problem) problems.push(problem);
  }
  assertEquals(problems, [], "src/tools/<family>/<tool_name>.ts, or listed in its file's header");
});
