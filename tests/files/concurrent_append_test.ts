/**
 * Another program appends to a file while the agent edits it: no appended line is lost. An edit
 * that finds the file changed since it read it (for that edit) is refused with an error that
 * says so, and the other program's lines stay. A real server, and appends from this process
 * (another program, to the server), as a log writer or a build would make them.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import { call, connect, tempProject } from "../helpers/mcp.ts";

const LINES = 60;

Deno.test({
  name: "writes: appends by another program during edits are never lost",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const text = Array.from({ length: LINES }, (_, i) => `line ${i} = old\n`).join("");
    await using project = await tempProject({ "log.txt": text });
    const path = join(project.root, "log.txt");
    const server = await connect(project.root);
    let appending = true;
    const appended: string[] = [];
    const appender = (async () => {
      for (let i = 0; appending; i++) {
        const line = `appended ${i}`;
        await Deno.writeTextFile(path, line + "\n", { append: true });
        appended.push(line);
        // A line every few milliseconds, as a busy log: each append opens the file anew (as
        // `echo >>` does), so it lands in the file that is there when it opens it.
        await new Promise((resolve) => setTimeout(resolve, 4));
      }
    })();
    let answers;
    try {
      answers = await Promise.all(
        Array.from({ length: LINES }, (_, i) =>
          call(server.client, "replace_content", {
            relative_path: "log.txt",
            needle: `line ${i} = old`,
            repl: `line ${i} = new`,
            mode: "literal",
          })),
      );
    } finally {
      appending = false;
      await appender;
      await server.close();
    }
    const after = (await Deno.readTextFile(path)).split("\n");
    const lost = appended.filter((line) => !after.includes(line));
    assertEquals(lost, [], `${lost.length} of ${appended.length} appended lines were lost`);
    const refused = answers.filter((a) => a.isError);
    for (const answer of refused) {
      assert(answer.text.includes("changed on disk since it was read"), answer.text);
    }
    // Each edit that answered OK is in the file; each refused one is not.
    answers.forEach((answer, i) => {
      const line = `line ${i} = ${answer.isError ? "old" : "new"}`;
      assert(after.includes(line), `${line} missing after '${answer.text}'`);
    });
    assert(refused.length < LINES, "every edit was refused");
  },
});
