/**
 * Files and folders whose names are not valid UTF-8 cannot be opened by Sextant (Deno gives their
 * names with U+FFFD in place of the bad bytes), so a search cannot read them; it says so beside
 * its answer, naming them, instead of leaving them out in silence. A real server; the names are
 * made with `sh`, since Deno cannot write such a name.
 * @module
 */
import { assert, assertStringIncludes } from "../helpers/assert.ts";
import { call, connect, tempProject } from "../helpers/mcp.ts";

const skip = Deno.build.os !== "linux";
if (skip) console.log("non-UTF-8 names test skipped: it needs a file system that stores any bytes");

Deno.test({
  name: "search: files with names that are not valid UTF-8 are named as not searched",
  ignore: skip,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using project = await tempProject({ "good.txt": "needle\n" });
    const made = await new Deno.Command("sh", {
      args: [
        "-c",
        'bad="$(printf "bad\\377")"; printf "needle\\n" > "$bad.txt"; mkdir "$bad-dir" && ' +
        'printf "needle\\n" > "$bad-dir/inner.txt"',
      ],
      cwd: project.root,
    }).output();
    assert(made.success, new TextDecoder().decode(made.stderr));
    const server = await connect(project.root);
    try {
      const found = await call(server.client, "search_for_pattern", {
        substring_pattern: "needle",
      });
      assert(!found.isError, found.text);
      assertStringIncludes(found.text, "good.txt");
      const notes = (found.notes ?? []).join("\n");
      assertStringIncludes(notes, "Not searched: 2 file(s) or folder(s)");
      assertStringIncludes(notes, "bad\uFFFD.txt");
      assertStringIncludes(notes, "bad\uFFFD-dir/");
    } finally {
      await server.close();
    }
  },
});
