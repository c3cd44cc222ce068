/**
 * A monorepo with TypeScript, Python, Rust and Go side by side, with gopls missing from the
 * PATH Sextant gets: Go's symbol tools fail with an error naming the binary and its install
 * command, and the other three languages answer from their own servers in the same session.
 * @module
 */
import { delimiter, join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { langSession } from "../helpers/lang.ts";
import { hasServer, skipUnless } from "../helpers/lsp.ts";

const available = hasServer("typescript-language-server") && hasServer("pyright-langserver") &&
  hasServer("rust-analyzer", ["--version"]);

/** PATH without the folders that hold gopls. */
function pathWithoutGopls(): string {
  return (Deno.env.get("PATH") ?? "").split(delimiter).filter((dir) => {
    try {
      return !Deno.statSync(join(dir, "gopls")).isFile;
    } catch {
      return true;
    }
  }).join(delimiter);
}

const names = (text: string) =>
  (JSON.parse(text) as Array<{ name_path: string }>).map((s) => s.name_path);

Deno.test({
  name: "monorepo: a missing server fails clearly, the other languages answer",
  ignore: skipUnless(
    available,
    "the monorepo test (typescript-language-server, pyright, rust-analyzer)",
  ),
  async fn() {
    await using s = await langSession("monorepo", {
      layout: { ts: "typescript", py: "python", rs: "rust/traits", go: "go/shapes" },
      env: { PATH: pathWithoutGopls() },
    });
    const go = await s.call("get_symbols_overview", { relative_path: "go/square.go" });
    assertEquals(go.isError, true);
    assertStringIncludes(go.text, "'gopls' was not found");
    assertStringIncludes(go.text, "go install golang.org/x/tools/gopls");
    const rust = JSON.parse(
      await s.ok("get_symbols_overview", { relative_path: "rs/src/shapes.rs" }),
    );
    assertEquals(rust.Interface, ["Shape"]);
    assert(rust.Object.includes("impl Shape for Square"), JSON.stringify(rust));
    assertEquals(
      await s.ok("get_symbols_overview", { relative_path: "py/shapes/circle.py" }),
      '{"Class":["Circle"]}',
    );
    const ts = await s.ok("find_symbol", { name_path_pattern: "Circle", relative_path: "ts/src" });
    assert(names(ts).includes("Circle"), ts);
    // Still failing, still clear, after the others started.
    const again = await s.call("find_symbol", { name_path_pattern: "Square", relative_path: "go" });
    assertEquals(again.isError, true);
    assertStringIncludes(again.text, "'gopls' was not found");
  },
});
