/**
 * project_info and dependency_graph on the fixtures and on small generated projects, one per
 * language. These read files only: no toolchain needs to be installed.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { type FileTree, toolHarness } from "../helpers/tool_ctx.ts";
import { jsImports, pythonImports } from "../../src/toolchain/graph/language_graphs.ts";
import type { Tool } from "../../src/tools/tool.ts";
import { projectInfoTool } from "../../src/tools/toolchain/project_info.ts";
import { dependencyGraph } from "../../src/tools/toolchain/dependency_graph.ts";

const FIXTURES = new URL("../../fixtures/", import.meta.url).pathname;

function fixtureTree(name: string): FileTree {
  const tree: FileTree = {};
  const walk = (dir: string, prefix: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      if (["target", "obj", "bin", "node_modules", "__pycache__"].includes(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory) walk(path, `${prefix}${entry.name}/`);
      else tree[`${prefix}${entry.name}`] = Deno.readFileSync(path);
    }
  };
  walk(join(FIXTURES, name), "");
  return tree;
}

// deno-lint-ignore no-explicit-any
type Json = any;

async function callJson(
  h: { call(tool: Tool, args: Record<string, unknown>): Promise<string> },
  tool: Tool,
  args: Record<string, unknown> = {},
): Promise<Json> {
  return JSON.parse(await h.call(tool, args));
}

const edges = (graph: Json) =>
  graph.edges.map((e: Json) => `${e.from} -> ${e.to} (${e.kind})`).sort();

// ---- project_info -----------------------------------------------------------------------------

Deno.test("project_info: Cargo package, targets and dependencies", async () => {
  await using h = await toolHarness({
    ...fixtureTree("rust/tests_fail"),
    "Cargo.toml": `[package]
name = "tests_fail"
version = "0.2.0"
edition = "2021"

[dependencies]
serde = { version = "1", features = ["derive"] }
local = { path = "../local" }

[dev-dependencies]
proptest = "1.4"

[[bin]]
name = "tool"
path = "src/tool.rs"
`,
  });
  const info = await callJson(h, projectInfoTool);
  assertEquals(info.toolchains, ["rust"]);
  assertEquals([info.rust.name, info.rust.version, info.rust.edition], [
    "tests_fail",
    "0.2.0",
    "2021",
  ]);
  assertEquals(info.rust.dependencies, { serde: "1", local: "path:../local" });
  assertEquals(info.rust.dev_dependencies, { proptest: "1.4" });
  const targets = info.rust.targets.map((t: Json) => `${t.kind}:${t.name}:${t.path}`);
  assertEquals(targets, [
    "lib:tests_fail:src/lib.rs",
    "bin:tool:src/tool.rs",
    "test:integration:tests/integration.rs",
  ]);
});

Deno.test("project_info: Deno tasks and imports; TypeScript and Node manifests", async () => {
  await using deno = await toolHarness(fixtureTree("deno"));
  const d = await callJson(deno, projectInfoTool);
  assertEquals(d.toolchains, ["deno"]);
  assertEquals([d.deno.manifest, d.deno.name, d.deno.exports], [
    "deno.json",
    "@fixtures/deno-demo",
    "./src/math.ts",
  ]);
  assertEquals(d.deno.tasks, { hello: "echo hello" });

  await using ts = await toolHarness(fixtureTree("ts_check"));
  const t = await callJson(ts, projectInfoTool);
  assertEquals(t.toolchains, ["typescript", "node"]);
  assertEquals(t.typescript.compiler_options.strict, true);
  assertEquals(t.node.name, "ts-check-fixture");
  assertEquals(t.node.scripts, { check: "tsc --noEmit" });
  assertEquals(t.node.dev_dependencies, { typescript: "^5.9.0" });
  assertEquals(t.node.package_manager, "npm");
});

Deno.test("project_info: pyproject.toml and go.mod", async () => {
  await using py = await toolHarness(fixtureTree("python_check"));
  const p = await callJson(py, projectInfoTool);
  assertEquals(p.python.name, "calc-fixture");
  assertEquals(p.python.version, "0.3.0");
  assertEquals(p.python.dependencies, ["requests>=2.0"]);
  assertEquals(p.python["requires-python"], ">=3.9");
  assertEquals(p.python.tools, ["pyright", "pytest"]);

  await using go = await toolHarness({
    "go.mod":
      "module example.com/demo\n\ngo 1.22\n\nrequire (\n\tgithub.com/a/b v1.2.3\n\tgolang.org/x/c v0.1.0 // indirect\n)\n",
  });
  const g = await callJson(go, projectInfoTool);
  assertEquals(g.go, {
    manifest: "go.mod",
    module: "example.com/demo",
    go: "1.22",
    require: { "github.com/a/b": "v1.2.3", "golang.org/x/c": "v0.1.0" },
  });
});

Deno.test("project_info: GPR projects (dirs, mains, Ada version) and the Alire manifest", async () => {
  await using h = await toolHarness(fixtureTree("ada"));
  const info = await callJson(h, projectInfoTool);
  assertEquals(info.toolchains, ["ada"]);
  assertEquals(info.ada.projectFile, "demo.gpr");
  const demo = info.ada.projects.find((p: Json) => p.projectFile === "demo.gpr");
  assertEquals(demo.projectName, "Demo");
  assertEquals(demo.sourceDirs, ["src"]);
  assertEquals(demo.objectDir, "obj/debug");
  assertEquals(demo.execDir, "bin");
  assertEquals(demo.mainUnits, ["main.adb"]);
  assertEquals(demo.adaVersion, "Ada2012");
  assertEquals(demo.dependencies, ["shared.gpr"]);
  assertEquals(info.ada.alire.crateName, "demo");
});

Deno.test("project_info: a malformed manifest is reported, not thrown", async () => {
  await using h = await toolHarness({ "Cargo.toml": "[package\nname = " });
  const info = await callJson(h, projectInfoTool);
  assertStringIncludes(info.rust.error, "could not be read");
});

// ---- dependency_graph -------------------------------------------------------------------------

Deno.test("dependency_graph: Ada with clauses, child units, spec and body in one node", async () => {
  await using h = await toolHarness(fixtureTree("ada"));
  const graph = await callJson(h, dependencyGraph);
  assertEquals(graph.languages, ["ada"]);
  const utils = graph.nodes.find((n: Json) => n.id === "Utils");
  assertEquals(utils.files.sort(), ["src/utils.adb", "src/utils.ads"]);
  assertEquals(edges(graph), [
    "Main -> Utils (with)",
    "Main -> Utils.Text (with)",
    "Utils.Text -> Utils (parent)",
  ]);
  const external = await callJson(h, dependencyGraph, { include_external: true });
  assert(external.nodes.some((n: Json) => n.id === "Ada.Text_IO" && n.external));
});

Deno.test("dependency_graph: TypeScript relative imports (.js → .ts, index files, re-exports)", async () => {
  await using h = await toolHarness({
    "src/a.ts":
      'import { b } from "./b.js";\nimport type { C } from "./c/index.ts";\nimport z from "npm:zod@4";\n// import "./commented.ts";\n',
    "src/b.ts": 'export * from "./c";\nexport const b = await import("./lazy.ts");\n',
    "src/c/index.ts": "export type C = number;\n",
    "src/lazy.ts": 'const fs = require("node:fs");\n',
    "src/commented.ts": "",
  });
  const graph = await callJson(h, dependencyGraph);
  assertEquals(edges(graph), [
    "src/a.ts -> src/b.ts (import)",
    "src/a.ts -> src/c/index.ts (import)",
    "src/b.ts -> src/c/index.ts (import)",
    "src/b.ts -> src/lazy.ts (import)",
  ]);
  const external = await callJson(h, dependencyGraph, { include_external: true });
  assert(external.edges.some((e: Json) => e.from === "src/a.ts" && e.to === "npm:zod"));
  assert(external.edges.some((e: Json) => e.to === "node:fs"));
});

Deno.test("dependency_graph: Python imports, relative imports and a src layout", async () => {
  await using h = await toolHarness({
    "src/app/__init__.py": "from .core import run\n",
    "src/app/core.py":
      "import os\nfrom . import util\nfrom app.models import (\n    User,\n    Group,\n)\n",
    "src/app/util.py": "",
    "src/app/models.py": "from ..app import util  # unusual but legal\n",
    "tests/test_core.py": "import app.core as core\nimport pytest\n",
  });
  const graph = await callJson(h, dependencyGraph);
  assertEquals(edges(graph), [
    "app -> app.core (import)",
    "app.core -> app.models (import)",
    "app.core -> app.util (import)",
    "app.models -> app.util (import)",
    "tests.test_core -> app.core (import)",
  ]);
  const external = await callJson(h, dependencyGraph, { include_external: true });
  assert(external.nodes.some((n: Json) => n.id === "pytest" && n.external));
});

Deno.test("dependency_graph: Rust mod declarations, crate paths and the crate name from tests", async () => {
  await using h = await toolHarness(fixtureTree("rust/tests_fail"));
  const graph = await callJson(h, dependencyGraph);
  assertEquals(edges(graph), [
    "src/calc.rs -> src/lib.rs (use)",
    "src/lib.rs -> src/calc.rs (mod)",
    "tests/integration.rs -> src/calc.rs (use)",
  ]);
  await using nested = await toolHarness({
    "Cargo.toml": '[package]\nname = "n"\nversion = "0.1.0"\n',
    "src/main.rs": "mod net;\nuse crate::net::{http::get, tcp};\nfn main() {}\n",
    "src/net/mod.rs": "pub mod http;\npub mod tcp;\n",
    "src/net/http.rs": "use super::tcp::connect;\npub fn get() {}\n",
    "src/net/tcp.rs": "pub fn connect() {}\n",
  });
  assertEquals(edges(await callJson(nested, dependencyGraph)), [
    "src/main.rs -> src/net/http.rs (use)",
    "src/main.rs -> src/net/mod.rs (mod)",
    "src/main.rs -> src/net/tcp.rs (use)",
    "src/net/http.rs -> src/net/tcp.rs (use)",
    "src/net/mod.rs -> src/net/http.rs (mod)",
    "src/net/mod.rs -> src/net/tcp.rs (mod)",
  ]);
});

Deno.test("dependency_graph: Go packages within the module", async () => {
  await using h = await toolHarness({
    "go.mod": "module example.com/demo\n\ngo 1.22\n",
    "main.go": 'package main\n\nimport (\n\t"fmt"\n\t"example.com/demo/calc"\n)\n',
    "calc/calc.go": 'package calc\n\nimport "example.com/demo/calc/internal"\n',
    "calc/internal/x.go": "package internal\n",
  });
  const graph = await callJson(h, dependencyGraph);
  assertEquals(edges(graph), [
    "example.com/demo -> example.com/demo/calc (import)",
    "example.com/demo/calc -> example.com/demo/calc/internal (import)",
  ]);
});

Deno.test("dependency_graph: relative_path narrows to a folder or centres on a file", async () => {
  await using h = await toolHarness({
    "src/a.ts": 'import "./b.ts";\n',
    "src/b.ts": 'import "./c.ts";\n',
    "src/c.ts": "",
    "lib/d.ts": 'import "../src/a.ts";\n',
    "lib/e.ts": 'import "./d.ts";\n',
  });
  const centred = await callJson(h, dependencyGraph, { relative_path: "src/b.ts" });
  // b's dependencies (c) and what depends on b directly (a); not d or e.
  assertEquals(centred.nodes.map((n: Json) => n.id).sort(), ["src/a.ts", "src/b.ts", "src/c.ts"]);
  const folder = await callJson(h, dependencyGraph, { relative_path: "lib" });
  assertEquals(edges(folder), ["lib/e.ts -> lib/d.ts (import)"]);
  const missing = await h.run(dependencyGraph, { relative_path: "nowhere" });
  assert(missing.isError);
  const small = await h.call(dependencyGraph, { max_answer_chars: 450 });
  assertStringIncludes(small, "compact form");
  assertStringIncludes(small, '"src/a.ts":["src/b.ts"]');
});

Deno.test("import scanners ignore comments and read multi-line forms", () => {
  assertEquals(jsImports('/* import "x" */ import {\n  a,\n  b,\n} from "./m";\n'), ["./m"]);
  assertEquals(pythonImports("from a.b import (c,\n  d as e)  # note\nimport f, g.h as i\n"), [
    { module: "a.b", names: ["c", "d"] },
    { module: "f", names: [] },
    { module: "g.h", names: [] },
  ]);
});
