import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../../tests/helpers/assert.ts";
import { tempDir } from "../../tests/helpers/tool_ctx.ts";
import { installCommands, typescriptMismatch } from "./install_hints.ts";

Deno.test("install hints: typescript-language-server paired with TypeScript 7", async () => {
  await using dir = await tempDir();
  // npm's layout: the server's script and the typescript package side by side.
  const modules = join(dir.path, "node_modules");
  await Deno.mkdir(join(modules, "typescript-language-server", "lib"), { recursive: true });
  await Deno.mkdir(join(modules, "typescript"), { recursive: true });
  await Deno.mkdir(join(modules, ".bin"), { recursive: true });
  await Deno.writeTextFile(join(modules, "typescript-language-server", "lib", "cli.mjs"), "");
  await Deno.writeTextFile(join(modules, "typescript", "package.json"), '{"version":"7.0.2"}');
  const bin = join(modules, ".bin", "typescript-language-server");
  await Deno.symlink("../typescript-language-server/lib/cli.mjs", bin);
  const refusal = new Error(
    "Request initialize failed with message: Could not find a valid TypeScript installation.",
  );
  const text = typescriptMismatch("typescript-language-server", bin, refusal);
  assert(text !== null);
  assertStringIncludes(text, "the TypeScript beside it is 7.0.2");
  assertStringIncludes(text, "tsc --lsp --stdio");
  assertStringIncludes(text, "install its own TypeScript (npm install in the project)");
  assertEquals(installCommands("typescript-language-server"), [
    "npm install -g typescript-language-server@6.0.2",
  ]);
  assertEquals(typescriptMismatch("typescript-language-server", bin, new Error("timeout")), null);
  assertEquals(typescriptMismatch("pyright-langserver", bin, refusal), null);
  assertEquals(installCommands("tsc"), ["npm install -g typescript@7.0.2"]);
});
