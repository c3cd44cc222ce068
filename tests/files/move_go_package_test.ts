/**
 * rename_file of a Go package folder on real code: cobra v1.8.1 (from the Go module proxy,
 * tests/helpers/real_code.ts) moves `doc` to `docgen` over MCP. gopls offers no
 * `workspace/willRenameFiles`, so Sextant rewrites the import paths itself; the package's own
 * example test imports `github.com/spf13/cobra/doc`. Judged as cobra judges itself: `go build ./...`
 * and `go vet ./...` (which compiles the tests) pass before and after. Then, on a small module,
 * an import the rewrite misses is caught by gopls's errors and the move undone.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { hasServer } from "../helpers/lsp.ts";
import { realOrReason, realSession } from "../helpers/real_code.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { renameFile } from "../../src/tools/files/rename_file.ts";

const servers = hasServer("gopls", ["version"]) && hasServer("go", ["version"]);
const real = servers ? await realOrReason("go") : "gopls or go is not installed";
if (typeof real === "string") console.log(`skipping the Go package move test: ${real}`);

/** `go build ./... && go vet ./...` in `root`: "" when both pass, else their output. */
async function goBuildVet(root: string, env: Record<string, string>): Promise<string> {
  for (const args of [["build", "./..."], ["vet", "./..."]]) {
    const out = await new Deno.Command("go", {
      args,
      cwd: root,
      env,
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) {
      return `go ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`;
    }
  }
  return "";
}

Deno.test({
  name: "rename_file of a Go package folder (cobra doc -> docgen): every import path follows, " +
    "go build and go vet pass",
  ignore: typeof real === "string",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    if (typeof real === "string") return;
    await using s = await realSession(real, { included_tools: ["rename_file"] });
    assertEquals(await goBuildVet(s.root, real.env), "", "cobra builds before the move");
    const text = await s.ok("rename_file", { relative_path: "doc", new_relative_path: "docgen" });
    assert(text.startsWith("OK\n"), text);
    assertStringIncludes(text, "Moved 'doc' to 'docgen'; updated its importers, 1 edit in 1 file");
    assertStringIncludes(text, "doc/man_examples_test.go (1)");
    assertStringIncludes(text, "Checked with gopls: no new errors");
    const example = await Deno.readTextFile(join(s.root, "docgen", "man_examples_test.go"));
    assertStringIncludes(example, '"github.com/spf13/cobra/docgen"');
    assert(!example.includes('"github.com/spf13/cobra/doc"'), example);
    // The package keeps its name: its uses (`doc.GenManTree`) still compile.
    assertStringIncludes(example, "doc.GenManTree(");
    assertEquals(await goBuildVet(s.root, real.env), "", "cobra builds after the move");
  },
});

Deno.test({
  name: "rename_file of a Go package folder: an import the rewrite misses is caught by gopls, " +
    "and the move undone",
  ignore: !servers,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using h = await toolHarness({
    "go.mod": "module example.com/moves\n\ngo 1.21\n",
    "lib/lib.go": "package lib\n\nfunc Answer() int { return 42 }\n",
    "main.go":
      'package main\n\nimport "example.com/moves/lib"\n\nfunc main() { println(lib.Answer()) }\n',
    // A raw-string import path: legal Go that Sextant's import reader does not read.
    "other/other.go": "package other\n\nimport `example.com/moves/lib`\n\n" +
      "func Twice() int { return 2 * lib.Answer() }\n",
  });
  const env = { GOFLAGS: "-mod=mod", GOPROXY: "off", GOTOOLCHAIN: "local", GOWORK: "off" };
  assertEquals(await goBuildVet(h.root, env), "");
  const refused = await h.run(renameFile, { relative_path: "lib", new_relative_path: "core" });
  assert(refused.isError, refused.text);
  assertStringIncludes(refused.text, "other/other.go:3");
  assertStringIncludes(refused.text, "undone");
  assert(await h.exists("lib/lib.go"));
  assert(!(await h.exists("core")));
  assertStringIncludes(await h.read("main.go"), '"example.com/moves/lib"');
  assertEquals(await goBuildVet(h.root, env), "");
  await h.session.dispose();
});
