/**
 * rename_file against real servers: TypeScript (typescript-language-server) moves of a file and
 * a folder update relative and path-mapped importers and leave tsc clean; a preview applied
 * with execute_code_action; Rust (rust-analyzer) updates `mod`/`use` sites; Python (pyright,
 * no willRenameFiles) gets its imports rewritten by Sextant, proven by pyright, and the move is
 * undone when pyright finds an import left behind; every refusal changes nothing.
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { hasServer, LSP_CACHE, skipUnless } from "../helpers/lsp.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { renameFile } from "../../src/tools/files/rename_file.ts";
import { executeCodeAction } from "../../src/tools/ide/execute_code_action.ts";
import { getSymbolsOverview } from "../../src/tools/symbols/get_symbols_overview.ts";
import { readFile } from "../../src/tools/files/read_file.ts";
import { replaceLines } from "../../src/tools/files/replace_lines.ts";

const HAS_TS = hasServer("typescript-language-server");
const HAS_PY = hasServer("pyright-langserver");
const HAS_RA = hasServer("rust-analyzer", ["--version"]) && hasServer("cargo", ["--version"]);

const TS_PROJECT = {
  "tsconfig.json": JSON.stringify({
    compilerOptions: {
      strict: true,
      noEmit: true,
      module: "esnext",
      moduleResolution: "bundler",
      baseUrl: ".",
      paths: { "@lib/*": ["src/lib/*"] },
    },
    include: ["src"],
  }),
  "src/a.ts": "export function add(x: number, y: number): number {\n  return x + y;\n}\n",
  "src/main.ts": 'import { add } from "./a";\nimport { twice } from "@lib/util";\n' +
    "export const n: number = add(1, twice(2));\n",
  "src/deep/user.ts": 'import { add } from "../a";\nexport const m = add(2, 3);\n',
  "src/lib/util.ts":
    'import { add } from "../a";\nexport const twice = (x: number) => add(x, x);\n',
  "src/lib/other.ts": 'import { twice } from "./util";\nexport const four = twice(2);\n',
};

async function tscClean(root: string): Promise<string> {
  const tsc = join(LSP_CACHE, "node_modules", ".bin", "tsc");
  const out = await new Deno.Command(tsc, { args: ["-p", root], stdout: "piped", stderr: "piped" })
    .output();
  return new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
}

Deno.test({
  name: "rename_file on TypeScript: a file and a folder, importers updated, tsc clean",
  ignore: skipUnless(HAS_TS, "typescript-language-server"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  await using h = await toolHarness(TS_PROJECT);

  await t.step("moving a file updates relative and path-mapped importers", async () => {
    // An open document follows the move.
    await h.call(getSymbolsOverview, { relative_path: "src/a.ts" });
    const text = await h.call(renameFile, {
      relative_path: "src/a.ts",
      new_relative_path: "src/lib/math.ts",
    });
    assert(text.startsWith("OK\n"), text);
    assertStringIncludes(text, "Moved 'src/a.ts' to 'src/lib/math.ts'");
    assertStringIncludes(text, "Checked with typescript-language-server: no new errors");
    assert(!(await h.exists("src/a.ts")));
    assertEquals(
      await h.read("src/lib/math.ts"),
      TS_PROJECT["src/a.ts"],
    );
    assertStringIncludes(await h.read("src/main.ts"), 'from "./lib/math"');
    assertStringIncludes(await h.read("src/deep/user.ts"), 'from "../lib/math"');
    assertStringIncludes(await h.read("src/lib/util.ts"), 'from "./math"');
    assertEquals(await tscClean(h.root), "");
    // The symbol tools see the file at its new place.
    const overview = await h.call(getSymbolsOverview, { relative_path: "src/lib/math.ts" });
    assertStringIncludes(overview, "add");
  });

  await t.step("a path-mapped import follows a file move", async () => {
    const text = await h.call(renameFile, {
      relative_path: "src/lib/util.ts",
      new_relative_path: "src/lib/tools.ts",
    });
    assert(text.startsWith("OK\n"), text);
    assertStringIncludes(await h.read("src/main.ts"), 'from "@lib/tools"');
    assertStringIncludes(await h.read("src/lib/other.ts"), 'from "./tools"');
    assertEquals(await tscClean(h.root), "");
  });

  await t.step(
    "moving a folder updates importers of files inside it (path-mapped too)",
    async () => {
      const text = await h.call(renameFile, {
        relative_path: "src/lib",
        new_relative_path: "src/core/lib",
      });
      assert(text.startsWith("OK\n"), text);
      // tsserver updates the path mapping itself: not listed as left behind.
      assertStringIncludes(await h.read("tsconfig.json"), '"@lib/*":["src/core/lib/*"]');
      assert(!text.includes("Not updated"), text);
      assert(!(await h.exists("src/lib")));
      assert(await h.exists("src/core/lib/tools.ts"));
      const main = await h.read("src/main.ts");
      assertStringIncludes(main, 'from "./core/lib/math"');
      // The path mapping no longer covers the folder: tsserver writes a path it resolves
      // (through baseUrl here); tsc below proves it does.
      assertStringIncludes(main, 'core/lib/tools"');
      assert(!main.includes("@lib/"), main);
      assertStringIncludes(await h.read("src/deep/user.ts"), 'from "../core/lib/math"');
      assertEquals(await tscClean(h.root), "");
    },
  );

  await t.step("preview changes nothing; execute_code_action applies it", async () => {
    const before = await h.read("src/main.ts");
    const text = await h.call(renameFile, {
      relative_path: "src/core/lib/math.ts",
      new_relative_path: "src/math.ts",
      preview: true,
    });
    const preview = JSON.parse(text) as {
      changes: Array<{ file: string; line: number; oldText: string; newText: string }>;
      fileOperations: string[];
      action_id: string;
      applied: boolean;
    };
    assertEquals(preview.applied, false);
    assertEquals(preview.fileOperations, ["rename src/core/lib/math.ts -> src/math.ts"]);
    assert(preview.changes.some((c) => c.file === "src/main.ts" && c.line === 1), text);
    assertEquals(await h.read("src/main.ts"), before);
    assert(await h.exists("src/core/lib/math.ts"));
    const done = await h.call(executeCodeAction, { action_id: preview.action_id });
    assertStringIncludes(done, "moved");
    assert(await h.exists("src/math.ts"));
    assert(!(await h.exists("src/core/lib/math.ts")));
    assertStringIncludes(await h.read("src/main.ts"), 'from "./math"');
    assertEquals(await tscClean(h.root), "");
  });

  await t.step("read records follow the move", async () => {
    await h.call(readFile, { relative_path: "src/deep/user.ts" });
    await h.call(renameFile, {
      relative_path: "src/deep",
      new_relative_path: "src/shallow",
    });
    const text = await h.call(replaceLines, {
      relative_path: "src/shallow/user.ts",
      start_line: 1,
      end_line: 1,
      content: 'import { add } from "../math";\n',
    });
    assert(text.startsWith("OK"), text);
  });

  await h.session.dispose();
});

Deno.test({
  name: "rename_file refusals change nothing",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using h = await toolHarness({
    "src/a.txt": "a\n",
    "src/b.txt": "b\n",
    "src/sub/c.txt": "c\n",
    "node_modules/x/index.js": "x\n",
    ".gitignore": "build/\n",
    "build/out.txt": "o\n",
  });
  await Deno.symlink(h.outside, h.path("src/out"));
  await Deno.symlink(join(h.outside), h.path("link"));
  const before = await h.listAll();
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ relative_path: "../outside", new_relative_path: "src/x" }, ""],
    [{ relative_path: "src/a.txt", new_relative_path: "../elsewhere.txt" }, ""],
    [{ relative_path: "src/a.txt", new_relative_path: "src/out/a.txt" }, ""],
    [{ relative_path: "src/a.txt", new_relative_path: "src/b.txt" }, "already exists"],
    [{ relative_path: "src/missing.txt", new_relative_path: "src/m.txt" }, "No file or folder"],
    [{ relative_path: "src", new_relative_path: "src/sub/src" }, "cannot move into itself"],
    [{ relative_path: "src/a.txt", new_relative_path: "node_modules/a.txt" }, "protected"],
    [{ relative_path: "node_modules/x", new_relative_path: "x" }, "protected"],
    [{ relative_path: "src/a.txt", new_relative_path: ".git/a.txt" }, "protected"],
    [{ relative_path: "src/a.txt", new_relative_path: ".sextant/a.txt" }, "protected"],
    [{ relative_path: "build/out.txt", new_relative_path: "out.txt" }, "ignored"],
    [{ relative_path: "link", new_relative_path: "link2" }, ""],
    [{ relative_path: ".", new_relative_path: "elsewhere" }, "root"],
  ];
  for (const [args, message] of cases) {
    const result = await h.run(renameFile, args);
    assert(result.isError, `${JSON.stringify(args)} was accepted: ${result.text}`);
    if (message) assertStringIncludes(result.text, message);
  }
  assertEquals(await h.listAll(), before);
  // A plain move of a file no server handles works.
  const ok = await h.call(renameFile, {
    relative_path: "src/sub",
    new_relative_path: "docs/sub",
  });
  assert(ok.startsWith("OK\n"), ok);
  assertEquals(await h.read("docs/sub/c.txt"), "c\n");
});

/** What `python3 <file>` prints in the project (its own run of the importers). */
async function pythonRun(root: string, file: string): Promise<string> {
  const out = await new Deno.Command("python3", {
    args: [file],
    cwd: root,
    env: { PYTHONDONTWRITEBYTECODE: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
}

Deno.test({
  name: "rename_file on Python (pyright, no willRenameFiles): Sextant rewrites the imports, " +
    "proven by pyright; edits pyright does not accept are undone",
  ignore: skipUnless(HAS_PY, "pyright-langserver"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  await using h = await toolHarness({
    "pkg/__init__.py": "",
    "pkg/shapes.py": "def area(r: float) -> float:\n    return 3.0 * r * r\n",
    "app.py": "from pkg.shapes import area\n\nprint(area(2.0))\n",
    "other.py": "import pkg.shapes\n\nprint(pkg.shapes.area(1.0))\n",
  });
  const runs = async () => [await pythonRun(h.root, "app.py"), await pythonRun(h.root, "other.py")];
  const before = await runs();
  assertEquals(before, ["12.0\n", "3.0\n"]);

  await t.step(
    "a preview shows Sextant's edits, says they are unchecked, changes nothing",
    async () => {
      const text = await h.call(renameFile, {
        relative_path: "pkg/shapes.py",
        new_relative_path: "pkg/geometry.py",
        preview: true,
      });
      const preview = JSON.parse(text) as {
        changes: Array<{ file: string; line: number; newText: string }>;
        warning?: string;
      };
      assert(
        preview.changes.some((c) => c.file === "app.py" && c.newText === "pkg.geometry"),
        text,
      );
      assertStringIncludes(preview.warning ?? "", "execute_code_action does not");
      assert(await h.exists("pkg/shapes.py"));
      assertEquals(await runs(), before);
    },
  );

  await t.step(
    "a module move rewrites `from` imports and dotted uses of plain imports",
    async () => {
      const text = await h.call(renameFile, {
        relative_path: "pkg/shapes.py",
        new_relative_path: "pkg/geometry.py",
      });
      assert(text.startsWith("OK\n"), text);
      assertStringIncludes(
        text,
        "updated its importers, 3 edits in 2 files: app.py (1), other.py (2).",
      );
      assertStringIncludes(text, "Checked with pyright-langserver: no new errors");
      assertEquals(await h.read("app.py"), "from pkg.geometry import area\n\nprint(area(2.0))\n");
      assertEquals(
        await h.read("other.py"),
        "import pkg.geometry\n\nprint(pkg.geometry.area(1.0))\n",
      );
      assertEquals(await runs(), before);
    },
  );

  await t.step(
    "an import the rewrite misses is caught by pyright, and the move undone",
    async () => {
      // A compound line: the import after `;` is not at a line's start, so it is not rewritten.
      await h.write("bad.py", "x = 1; import pkg.geometry\nprint(x, pkg.geometry.area(1.0))\n");
      const app = await h.read("app.py");
      const refused = await h.run(renameFile, {
        relative_path: "pkg/geometry.py",
        new_relative_path: "pkg/circle.py",
      });
      assert(refused.isError, refused.text);
      assertStringIncludes(refused.text, "bad.py:1");
      assertStringIncludes(refused.text, "undone");
      assert(await h.exists("pkg/geometry.py"));
      assert(!(await h.exists("pkg/circle.py")));
      assertEquals(await h.read("app.py"), app);
      assertEquals(await runs(), before);
    },
  );

  await t.step(
    "forced, the move stays and the answer names what pyright found broken",
    async () => {
      const forced = await h.call(renameFile, {
        relative_path: "pkg/geometry.py",
        new_relative_path: "pkg/circle.py",
        force: true,
      });
      assert(forced.startsWith("OK\n"), forced);
      assertStringIncludes(
        forced,
        "Moved with force; left broken: New errors after the move: bad.py:1",
      );
      assert(await h.exists("pkg/circle.py"));
      assertEquals(await runs(), before);
      assertStringIncludes(await pythonRun(h.root, "bad.py"), "ModuleNotFoundError");
    },
  );
  await h.session.dispose();
});

Deno.test({
  name: "rename_file on Rust (rust-analyzer): a module file's mod and use sites follow",
  ignore: skipUnless(HAS_RA, "rust-analyzer and cargo"),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using h = await toolHarness({
    "Cargo.toml": '[package]\nname = "moves"\nversion = "0.1.0"\nedition = "2021"\n',
    "src/main.rs": "mod shapes;\nuse crate::shapes::area;\n\nfn main() {\n" +
      '    println!("{}", area(2.0));\n    println!("{}", shapes::area(1.0));\n}\n',
    "src/shapes.rs": "pub fn area(r: f64) -> f64 {\n    3.0 * r * r\n}\n",
  });
  const text = await h.call(renameFile, {
    relative_path: "src/shapes.rs",
    new_relative_path: "src/geometry.rs",
  });
  assert(text.startsWith("OK\n"), text);
  const main = await h.read("src/main.rs");
  assertStringIncludes(main, "mod geometry;");
  assertStringIncludes(main, "use crate::geometry::area;");
  assertStringIncludes(main, "geometry::area(1.0)");
  const check = await new Deno.Command("cargo", {
    args: ["check", "--quiet", "--offline"],
    cwd: h.root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert(check.success, new TextDecoder().decode(check.stderr));
  await h.session.dispose();
});
