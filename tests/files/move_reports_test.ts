/**
 * What a move cannot update is named, never left out: the manifests that name a moved
 * TypeScript file (`jsr.json` exports, `package.json` `exports`/`types`) are listed as not
 * updated while the importers follow (tsc clean before and after); a forced move of a C header
 * (clangd has no `workspace/willRenameFiles`) reports every include it left broken, each one
 * the compiler then fails on.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { hasServer, LSP_CACHE, skipUnless } from "../helpers/lsp.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { renameFile } from "../../src/tools/files/rename_file.ts";

const HAS_TS = hasServer("typescript-language-server");
const HAS_C = hasServer("clangd", ["--version"]) && hasServer("cc", ["--version"]);

async function output(cmd: string, args: string[], cwd: string) {
  const out = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" })
    .output();
  const decoder = new TextDecoder();
  return { ok: out.success, text: decoder.decode(out.stdout) + decoder.decode(out.stderr) };
}

const JSR = JSON.stringify(
  {
    name: "@x/lib",
    version: "1.0.0",
    exports: { ".": "./src/index.ts", "./body": "./src/utils/body.ts" },
  },
  null,
  2,
) + "\n";
const PACKAGE = JSON.stringify(
  {
    name: "lib",
    type: "module",
    exports: { "./body": { types: "./src/utils/body.ts", default: "./dist/utils/body.js" } },
  },
  null,
  2,
) + "\n";

Deno.test({
  name: "rename_file on TypeScript: jsr.json and package.json naming the moved file are listed " +
    "as not updated, tsc clean before and after",
  ignore: skipUnless(HAS_TS, "typescript-language-server"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using h = await toolHarness({
    "tsconfig.json": JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: "esnext",
        moduleResolution: "bundler",
      },
      include: ["src"],
    }),
    "jsr.json": JSR,
    "package.json": PACKAGE,
    "src/index.ts": 'export { parseBody } from "./utils/body";\n',
    "src/utils/body.ts": "export const parseBody = (s: string): string => s.trim();\n",
    // Another file whose name only starts like the moved one's: not a mention.
    "src/utils/body_limit.ts": "export const limit = 1;\n",
  });
  const tsc = () => output(join(LSP_CACHE, "node_modules", ".bin", "tsc"), ["-p", h.root], h.root);
  assertEquals((await tsc()).text, "");
  const text = await h.call(renameFile, {
    relative_path: "src/utils/body.ts",
    new_relative_path: "src/utils/request_body.ts",
  });
  assert(text.startsWith("OK\n"), text);
  assertStringIncludes(text, "updated its importers, 1 edit in 1 file: src/index.ts (1).");
  const jsrLine = JSR.split("\n").findIndex((l) => l.includes("src/utils/body.ts")) + 1;
  const pkgLine = PACKAGE.split("\n").findIndex((l) => l.includes("src/utils/body.ts")) + 1;
  assertStringIncludes(text, "Not updated (they name the old path");
  assertStringIncludes(text, `jsr.json:${jsrLine} "./body": "./src/utils/body.ts"`);
  assertStringIncludes(text, `package.json:${pkgLine} "types": "./src/utils/body.ts",`);
  assert(!text.includes("body_limit"), text);
  // Listed, never edited.
  assertEquals(await h.read("jsr.json"), JSR);
  assertEquals(await h.read("package.json"), PACKAGE);
  assertEquals((await tsc()).text, "");
  await h.session.dispose();
});

const INCLUDERS = 22;

Deno.test({
  name: "rename_file on C (clangd): a forced move reports every include it left broken",
  ignore: skipUnless(HAS_C, "clangd and cc"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const files: Record<string, string> = {
    "include/util.h": "#pragma once\nstatic inline int twice(int x) { return 2 * x; }\n",
  };
  const sources = Array.from(
    { length: INCLUDERS },
    (_, i) => `src/f${String(i).padStart(2, "0")}.c`,
  );
  for (const [i, file] of sources.entries()) {
    files[file] =
      `#include <stdio.h>\n#include "util.h"\nint f${i}(void) { return twice(${i}); }\n`;
  }
  await using h = await toolHarness(files);
  const compile = async () => {
    const failed: string[] = [];
    for (const file of sources) {
      const out = await output("cc", ["-fsyntax-only", "-Iinclude", file], h.root);
      if (!out.ok) failed.push(file);
    }
    return failed;
  };
  assertEquals(await compile(), []);
  const refused = await h.run(renameFile, {
    relative_path: "include/util.h",
    new_relative_path: "include/common/util.h",
  });
  assert(refused.isError, refused.text);
  assertStringIncludes(refused.text, `and ${INCLUDERS - 20} more`);
  assert(await h.exists("include/util.h"));
  const forced = await h.call(renameFile, {
    relative_path: "include/util.h",
    new_relative_path: "include/common/util.h",
    force: true,
  });
  assert(forced.startsWith("OK\n"), forced);
  assert(!forced.includes("no imports needed updating"), forced);
  assertStringIncludes(forced, "updated no imports");
  assertStringIncludes(forced, "left broken");
  for (const file of sources) assertStringIncludes(forced, `${file}:2 #include "util.h"`);
  // Each include it names is one the compiler now fails on, and there is no other.
  assertEquals(await compile(), sources);
  await h.session.dispose();
});
