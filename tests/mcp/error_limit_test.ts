/**
 * An error answer respects max_answer_chars like any answer: one that echoes a huge argument is
 * cut, saying so. Real Sextant over MCP.
 * @module
 */
import { assert, assertStringIncludes } from "../helpers/assert.ts";
import { call, connect, tempProject } from "../helpers/mcp.ts";

Deno.test("answer limit: an error echoing a huge argument is cut to max_answer_chars", async () => {
  await using project = await tempProject({ "a.txt": "a\n" });
  const s = await connect(project.root);
  try {
    // An unclosed group: the error names the whole pattern.
    const answer = await call(s.client, "search_for_pattern", {
      substring_pattern: "(" + "n".repeat(200_000),
      max_answer_chars: 2_000,
    });
    assert(answer.isError, answer.text.slice(0, 200));
    assert(answer.text.length <= 2_000, `${answer.text.length} characters`);
    assertStringIncludes(answer.text, "over max_answer_chars");
  } finally {
    await s.close();
  }
});
