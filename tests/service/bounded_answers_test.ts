/**
 * Answers are counted and cut where they are made, before they reach the service: a regex that
 * matches at every position of a large file fails in its child process with a clear error and
 * changes nothing; a search whose answer would be hundreds of MB answers with a shorter form.
 * Real `--standalone` processes.
 * @module
 */
import { join } from "node:path";
import { assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { call, connect, tempProject } from "../helpers/mcp.ts";
import { MAX_MATCHES } from "../../src/tools/shared/regex_child.ts";
import { MAX_OUTLINE_BYTES } from "../../src/tools/symbols/get_symbols_overview.ts";

Deno.test("bounds: replace_content with a regex matching everywhere fails whole, in its child", async () => {
  const big = "y".repeat(2 * MAX_MATCHES) + "\n";
  await using project = await tempProject({ "big.txt": big });
  const server = await connect(project.root);
  try {
    const result = await call(server.client, "replace_content", {
      relative_path: "big.txt",
      needle: "x*",
      repl: "-",
      mode: "regex",
      allow_multiple_occurrences: true,
    });
    assertEquals(result.isError, true, result.text.slice(0, 200));
    assertStringIncludes(result.text, `matches more than ${MAX_MATCHES} times`);
    assertEquals(await Deno.readTextFile(join(project.root, "big.txt")), big);
  } finally {
    await server.close();
  }
});

Deno.test("bounds: a search with long context answers with a shorter form", async () => {
  const lines = Array.from({ length: 3000 }, (_, i) => `line ${i} match`).join("\n") + "\n";
  await using project = await tempProject({ "long.txt": lines });
  const server = await connect(project.root);
  try {
    const result = await call(server.client, "search_for_pattern", {
      substring_pattern: "match",
      context_lines_before: 3000,
    });
    assertEquals(result.isError, false);
    const head = result.text.slice(0, 300);
    assertStringIncludes(head, "The answer is too long (");
    assertStringIncludes(head, "Matched lines per file;");
  } finally {
    await server.close();
  }
});

Deno.test("bounds: the outline of a file past MAX_OUTLINE_BYTES is refused before any server is asked", async () => {
  const line = "export function generated(a: number) { return a + 1; }\n";
  const size = MAX_OUTLINE_BYTES + line.length;
  await using project = await tempProject({
    "tsconfig.json": "{}",
    "src/gen.ts": line.repeat(Math.ceil(size / line.length)),
  });
  const server = await connect(project.root);
  try {
    const result = await call(server.client, "get_symbols_overview", {
      relative_path: "src/gen.ts",
    });
    assertEquals(result.isError, true, result.text.slice(0, 200));
    assertStringIncludes(result.text, "get_symbols_overview reads files up to 8 MB");
  } finally {
    await server.close();
  }
});
