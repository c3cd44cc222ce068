import { assertEquals } from "../../tests/helpers/assert.ts";
import { filesToShow, type ScopeSource } from "./project_scope.ts";

const source = (files: Record<string, string>): ScopeSource => ({
  read: (rel) => files[rel] ?? null,
});

Deno.test("TypeScript: one file per config tsserver loads, each file no such config owns", () => {
  const tree = source({
    "tsconfig.json": '{ "include": ["src"], // src only\n }',
    "tsconfig.spec.json": '{ "extends": "./tsconfig.json", "include": ["test"] }',
    "packages/a/tsconfig.json": '{ "files": ["index.ts"] }',
    "solution/tsconfig.json": '{ "files": [], "references": [{ "path": "./lib" }] }',
    "solution/lib/tsconfig.json": '{ "compilerOptions": { "allowJs": true } }',
  });
  const shown = filesToShow("typescript-language-server", tree, [
    "src/a.ts",
    "src/b.ts",
    "test/a.test.ts",
    "test/b.test.ts",
    "packages/a/index.ts",
    "packages/a/other.ts",
    "solution/lib/x.js",
    "solution/main.ts",
  ]);
  assertEquals(shown, {
    keepOpen: ["src/a.ts", "packages/a/index.ts", "solution/lib/x.js"],
    // The tests: tsconfig.spec.json is not a config tsserver finds by itself. packages/a/other.ts
    // is not in its folder's config, and the root's includes src/ only.
    openNow: ["test/a.test.ts", "test/b.test.ts", "packages/a/other.ts", "solution/main.ts"],
  });
});

Deno.test("TypeScript: default excludes, and js only with allowJs", () => {
  const tree = source({ "tsconfig.json": '{ "compilerOptions": { "outDir": "dist" } }' });
  assertEquals(
    filesToShow("typescript-language-server", tree, ["a.ts", "dist/a.d.ts", "b.js"]),
    { keepOpen: ["a.ts"], openNow: ["dist/a.d.ts", "b.js"] },
  );
});

Deno.test("pyright: candidates outside include or inside exclude are opened", () => {
  const config = source({ "pyrightconfig.json": '{ "include": ["pkg"], "exclude": ["pkg/gen"] }' });
  assertEquals(
    filesToShow("pyright-langserver", config, ["pkg/a.py", "pkg/gen/b.py", "tests/t.py"]),
    { keepOpen: [], openNow: ["pkg/gen/b.py", "tests/t.py"] },
  );
  const toml = source({ "pyproject.toml": '[tool.basedpyright]\ninclude = ["src"]\n' });
  assertEquals(
    filesToShow("basedpyright-langserver", toml, ["src/a.py", "tests/t.py", ".venv/x.py"]),
    { keepOpen: [], openNow: ["tests/t.py", ".venv/x.py"] },
  );
  assertEquals(filesToShow("pyright-langserver", source({}), ["a.py", "t/b.py"]), {
    keepOpen: [],
    openNow: [],
  });
});

Deno.test("servers that see the whole workspace need nothing shown", () => {
  assertEquals(filesToShow("gopls", source({}), ["a.go"]), { keepOpen: [], openNow: [] });
});

Deno.test("TypeScript 7's own server (tsc --lsp) is shown files as tsserver is", () => {
  const tree = source({ "tsconfig.json": '{ "include": ["src"] }' });
  const expected = { keepOpen: ["src/a.ts"], openNow: ["test/a.test.ts"] };
  for (const command of ["tsc", "/p/node_modules/.bin/tsc", "C:\\p\\node_modules\\.bin\\tsc.cmd"]) {
    assertEquals(filesToShow(command, tree, ["src/a.ts", "test/a.test.ts"]), expected, command);
  }
  // Not a program named tsc.
  assertEquals(filesToShow("/p/bin/notsc", tree, ["test/a.test.ts"]), {
    keepOpen: [],
    openNow: [],
  });
});
