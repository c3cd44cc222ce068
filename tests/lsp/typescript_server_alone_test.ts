/**
 * The install advice for a project on TypeScript 6 or older holds: typescript-language-server
 * installed alone, beside a global TypeScript 7 (which ships no tsserver), serves a project whose
 * own `node_modules/typescript` is 5.9 (it takes the workspace's TypeScript first); the same
 * server on a project without its TypeScript installed fails with advice to install the
 * project's TypeScript, not a global typescript@5 that would replace TypeScript 7. Against the
 * real typescript-language-server 6 and TypeScript 5.9 and 7 packages.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { LSP_CACHE, TS7_MODULES } from "../helpers/lsp.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { LSP_PATH_ENV } from "../../src/lsp/registry.ts";
import { findReferencingSymbols } from "../../src/tools/symbols/find_referencing_symbols.ts";

const SERVER_PACKAGE = join(LSP_CACHE, "node_modules", "typescript-language-server");
const TS5_PACKAGE = join(LSP_CACHE, "node_modules", "typescript");
const TS7_PACKAGE = join(TS7_MODULES, "typescript");

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

const available = exists(SERVER_PACKAGE) && exists(TS5_PACKAGE) && exists(TS7_PACKAGE);

/** A global npm prefix as `npm install -g typescript-language-server` leaves it beside TS 7. */
async function globalPrefix(): Promise<string> {
  const prefix = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-npm-global-" }));
  const modules = join(prefix, "node_modules");
  await Deno.mkdir(join(modules, ".bin"), { recursive: true });
  // A copy, not a link: Node resolves the server's own `typescript` from where it really is.
  await new Deno.Command("cp", { args: ["-r", SERVER_PACKAGE, modules] }).output();
  await Deno.symlink(TS7_PACKAGE, join(modules, "typescript"));
  await Deno.symlink(
    "../typescript-language-server/lib/cli.mjs",
    join(modules, ".bin", "typescript-language-server"),
  );
  return prefix;
}

const FILES = {
  "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }),
  "src/shapes.ts": "export class Circle {\n  constructor(readonly r: number) {}\n}\n",
  "src/use.ts": 'import { Circle } from "./shapes";\n\nexport const unit = new Circle(1);\n',
};

Deno.test({
  name: "typescript-language-server installed alone runs the project's own TypeScript 5",
  ignore: !available,
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  const prefix = await globalPrefix();
  const saved = Deno.env.get(LSP_PATH_ENV);
  // Only this prefix is searched first; TypeScript 7 sits beside the server there.
  Deno.env.set(LSP_PATH_ENV, prefix);
  try {
    await t.step("with node_modules/typescript 5.9: the server answers", async () => {
      await using h = await toolHarness(FILES);
      await Deno.mkdir(h.path("node_modules"));
      await Deno.symlink(TS5_PACKAGE, h.path("node_modules/typescript"));
      const refs = JSON.parse(
        await h.call(findReferencingSymbols, {
          name_path: "Circle",
          relative_path: "src/shapes.ts",
        }),
      );
      assert(JSON.stringify(refs).includes("unit"), JSON.stringify(refs));
      await h.session.dispose();
    });

    await t.step("without it: the advice is the project's own TypeScript", async () => {
      await using h = await toolHarness({
        ...FILES,
        "package.json": JSON.stringify({ devDependencies: { typescript: "^5.9.3" } }),
      });
      const answer = await h.run(findReferencingSymbols, {
        name_path: "Circle",
        relative_path: "src/shapes.ts",
      });
      await h.session.dispose();
      assertEquals(answer.isError, true, answer.text);
      // The real server's refusal, explained: TypeScript 7 beside it has no tsserver.
      assertStringIncludes(answer.text, "found no tsserver (the TypeScript beside it is 7.0.2)");
      assertStringIncludes(answer.text, "install its own TypeScript (npm install in the project)");
      assert(!answer.text.includes("typescript@5"), answer.text);
    });
  } finally {
    if (saved === undefined) Deno.env.delete(LSP_PATH_ENV);
    else Deno.env.set(LSP_PATH_ENV, saved);
    await Deno.remove(prefix, { recursive: true });
  }
});
