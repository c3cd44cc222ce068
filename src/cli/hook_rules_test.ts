import { assertEquals, assertStringIncludes } from "../../tests/helpers/assert.ts";
import { classifyShell, classifyToolUse, denyReason, sextantToolName } from "./hook_rules.ts";

Deno.test("classifyToolUse: searches by input shape, whatever the tool is called", () => {
  assertEquals(classifyToolUse("Grep", { pattern: "Foo" }), { kind: "search", pattern: "Foo" });
  assertEquals(classifyToolUse("FindText", { query: "Foo" }).kind, "search");
  assertEquals(classifyToolUse("Glob", { pattern: "**/*.ts" }).kind, "search");
  assertEquals(classifyToolUse("WebSearch", { query: "deno" }).kind, "other");
  assertEquals(classifyToolUse("Fetch", { url: "https://x", prompt: "p" }).kind, "other");
});

Deno.test("classifyToolUse: whole-file reads of source files, not ranges or other files", () => {
  assertEquals(classifyToolUse("Read", { file_path: "/a/b.ts" }).kind, "read");
  assertEquals(classifyToolUse("read_file", { absolute_path: "/a/b.py" }).kind, "read");
  assertEquals(
    classifyToolUse("Read", { file_path: "/a/b.ts", offset: 1, limit: 9 }).kind,
    "other",
  );
  assertEquals(classifyToolUse("Read", { file_path: "/a/README.md" }).kind, "other");
  assertEquals(
    classifyToolUse("Edit", { file_path: "/a/b.ts", old_string: "x", new_string: "y" }).kind,
    "other",
  );
  assertEquals(classifyToolUse("Write", { file_path: "/a/b.ts", content: "x" }).kind, "other");
});

Deno.test("classifyShell: the first program of each pipeline", () => {
  assertEquals(classifyShell("rg -n 'Foo' src/"), { kind: "search", pattern: "Foo" });
  assertEquals(classifyShell("git grep -e Bar"), { kind: "search", pattern: "Bar" });
  assertEquals(classifyShell("cd src && grep -rn Baz ."), { kind: "search", pattern: "Baz" });
  assertEquals(classifyShell("find . -name '*.ts'").kind, "search");
  assertEquals(classifyShell("cat src/main.ts").kind, "read");
  assertEquals(classifyShell("head -50 lib/x.py | less").kind, "read");
  assertEquals(classifyShell("cat notes.txt").kind, "other");
  assertEquals(classifyShell("grep ERROR build.log").kind, "other");
  assertEquals(classifyShell("ls | grep foo").kind, "other");
  assertEquals(classifyShell("deno test -A").kind, "other");
  assertEquals(classifyToolUse("shell", { command: ["bash", "-lc", "rg x"] }).kind, "search");
  assertEquals(classifyToolUse("exec_command", { cmd: "cat a.rs" }).kind, "read");
});

Deno.test("sextant tools: symbolic ones are recognised, plain file tools are not", () => {
  assertEquals(sextantToolName("mcp__sextant__find_symbol"), "find_symbol");
  assertEquals(sextantToolName("mcp__other__find_symbol"), null);
  assertEquals(classifyToolUse("mcp__sextant__repl", { code: "1" }), {
    kind: "sextant",
    tool: "repl",
  });
  assertEquals(classifyToolUse("mcp__sextant__search_for_pattern", {}).kind, "other");
});

Deno.test("denyReason names the tool that answers the question", () => {
  assertStringIncludes(
    denyReason({ kind: "search", pattern: "\\bFoo\\b" }, 4, false),
    'name_path_pattern="Foo"',
  );
  assertStringIncludes(denyReason({ kind: "read" }, 4, false), "get_symbols_overview");
  assertStringIncludes(denyReason({ kind: "search", pattern: "a.*b" }, 4, true), "repl");
});
