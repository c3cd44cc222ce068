/**
 * Rust on real code with dependencies: the `csv` crate from crates.io (pinned, with its own
 * Cargo.lock and vendored dependencies; tests/helpers/real_code.ts) through MCP on real
 * rust-analyzer and cargo. References are checked against the raw rust-analyzer's own
 * `textDocument/references` answer on another copy; a definition leads into a dependency
 * (serde_core) where the raw server's does. Then the dev-tools workflow's three flows as an agent runs
 * them in the devtools context: understanding code, fixing a warning with a quick fix executed by
 * id, a rename preview executed by id, with test_project filtered by test name.
 * @module
 */
import { join } from "node:path";
import { flattenReferences, overviewNames } from "../helpers/symbols.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import { IDE_TOOLS } from "../helpers/lang.ts";
import { hasServer } from "../helpers/lsp.ts";
import { rawAnswers, realOrReason, realSession, sextantKeys } from "../helpers/real_code.ts";

const servers = hasServer("rust-analyzer", ["--version"]) && hasServer("cargo", ["--version"]);
const real = servers ? await realOrReason("rust") : "rust-analyzer or cargo is not installed";
if (typeof real === "string") console.log(`skipping real Rust code tests: ${real}`);

interface Sym {
  name_path: string;
  kind: string;
  relative_path: string;
  body?: string;
}

/** `Position` in `pub struct Position {` (src/byte_record.rs). */
const POSITION = { file: "src/byte_record.rs", needle: "pub struct Position", offset: 11 };
/** `DeserializeOwned` in `serde_core::de::DeserializeOwned,` (src/reader.rs line 11). */
const DESERIALIZE_OWNED = {
  file: "src/reader.rs",
  needle: "serde_core::de::DeserializeOwned",
  offset: 16,
};

Deno.test({
  name: "real rust: csv 1.4.0 from crates.io, checked against raw rust-analyzer",
  ignore: typeof real === "string",
  async fn(t) {
    if (typeof real === "string") return;
    const raw = await rawAnswers(real, POSITION, [DESERIALIZE_OWNED]);
    assert(raw.references.length > 20, `raw references: ${raw.references}`);
    await using s = await realSession(real, { included_tools: IDE_TOOLS });

    await t.step("find_references equals the raw server's references", async () => {
      const text = await s.ok("find_references", {
        relative_path: POSITION.file,
        name_path: "Position",
      });
      assertEquals(sextantKeys(text), raw.references);
    });

    await t.step("find_referencing_symbols covers the files of the raw answer", async () => {
      const refs = flattenReferences(
        await s.ok("find_referencing_symbols", {
          name_path: "Position",
          relative_path: POSITION.file,
        }),
      );
      const files = (keys: string[]) => [...new Set(keys.map((k) => k.split(":")[0]))].sort();
      assertEquals(files(refs.map((r) => r.relative_path)), files(raw.references));
      assert(refs.some((r) => r.relative_path === "src/reader.rs"), JSON.stringify(refs));
    });

    await t.step("get_symbols_overview of a real module", async () => {
      const names = overviewNames(
        await s.ok("get_symbols_overview", { relative_path: POSITION.file }),
      );
      for (const name of ["ByteRecord", "impl ByteRecord", "Position", "impl Position", "Bounds"]) {
        assert(names.includes(name), `${name} missing from ${names}`);
      }
    });

    await t.step("find_symbol by name path, with body", async () => {
      const found = JSON.parse(
        await s.ok("find_symbol", { name_path_pattern: "impl Position/byte", include_body: true }),
      ) as Sym[];
      assertEquals(found.map((x) => [x.name_path, x.relative_path]), [[
        "impl Position/byte",
        POSITION.file,
      ]]);
      assert(found[0]!.body!.includes("pub fn byte(&self) -> u64 {"), found[0]!.body);
    });

    await t.step("goto_definition into serde_core, where the raw server leads", async () => {
      const def = JSON.parse(
        await s.ok("goto_definition", {
          relative_path: DESERIALIZE_OWNED.file,
          line: 11,
          column: 21,
        }),
      );
      assertEquals(def.found, true);
      assert(/serde_core-[\d.]+\/src\/de\//.test(def.file), def.file);
      assertEquals([`${def.file}:${def.line}:${def.column}`], raw.definitions[0]);
    });

    await t.step("check_project: cargo check of the crate and its targets is clean", async () => {
      const check = JSON.parse(await s.ok("check_project"));
      assertEquals([check.ok, check.summary.error], [true, 0], JSON.stringify(check));
    });
  },
});

Deno.test({
  name: "real rust: the dev-tools workflows on csv over MCP (devtools context)",
  ignore: typeof real === "string",
  async fn(t) {
    if (typeof real === "string") return;
    await using s = await realSession(real, {}, ["--context", "devtools"]);
    const read = (rel: string) => Deno.readTextFile(join(s.root, rel));

    await t.step("manage_projects adds the crate", async () => {
      const added = JSON.parse(await s.ok("manage_projects", { add_project_path: s.root }));
      const csv = added.projects.find((p: { path: string }) => p.path === s.root);
      assertEquals([csv?.name, csv?.toolchains, added.default_project], ["csv", ["rust"], "csv"]);
    });

    await t.step("understanding code: get_symbol_info, find_symbol_usages", async () => {
      const info = JSON.parse(
        await s.ok("get_symbol_info", {
          symbol_name: "StringRecord",
          file_hint: "src/string_record.rs",
        }),
      );
      assertEquals([info.kind, info.file_path, info.line], ["Struct", "src/string_record.rs", 38]);
      assert(info.documentation.includes("A single CSV record stored as valid UTF-8 bytes."));
      const usages = JSON.parse(
        await s.ok("find_symbol_usages", { symbol_name: "Position", file_hint: "byte_record.rs" }),
      );
      // The raw server's 30 references less the declaration (see the test above).
      assertEquals([usages.total, usages.file_count], [29, 5]);
    });

    await t.step("fixing errors: check_project fixes → execute_code_action → clean", async () => {
      const head = "    pub fn trim(&mut self) {\n";
      const text = await read("src/string_record.rs");
      assert(text.includes(head));
      await Deno.writeTextFile(
        join(s.root, "src/string_record.rs"),
        text.replace(head, head + "        let unused = 3;\n"),
      );
      const check = JSON.parse(await s.ok("check_project", { include_fixes: true }));
      const warning = check.diagnostics.find((d: { code?: string }) =>
        d.code === "unused_variables"
      );
      assert(warning, JSON.stringify(check.diagnostics));
      assertEquals(warning.file, "src/string_record.rs");
      const fix = warning.available_fixes.find((f: { title: string }) =>
        f.title.includes("_unused")
      );
      assert(fix, JSON.stringify(warning.available_fixes));
      await s.ok("execute_code_action", { action_id: fix.id });
      assert((await read("src/string_record.rs")).includes("let _unused = 3;"));
      const clean = JSON.parse(await s.ok("check_project"));
      assertEquals([clean.ok, clean.summary.error, clean.summary.warning], [true, 0, 0]);
    });

    await t.step("test_project with a test_name filter", async () => {
      const run = JSON.parse(
        await s.ok("test_project", { test_name: "string_record::tests::trim_front" }),
      );
      assertEquals([run.ok, run.summary.passed, run.summary.failed], [true, 1, 0]);
    });

    await t.step("refactoring: rename preview → execute_code_action → clean", async () => {
      const preview = JSON.parse(
        await s.ok("rename_symbol", {
          name_path: "Position",
          relative_path: "src/byte_record.rs",
          new_name: "RecordPosition",
          preview: true,
        }),
      );
      assertEquals(preview.applied, false);
      assertEquals(Object.keys(preview.files).length, 5, JSON.stringify(preview.files));
      await s.ok("execute_code_action", { action_id: preview.action_id });
      assert((await read("src/byte_record.rs")).includes("pub struct RecordPosition {"));
      assert((await read("src/reader.rs")).includes("RecordPosition"));
      const clean = JSON.parse(await s.ok("check_project"));
      assertEquals([clean.ok, clean.summary.error], [true, 0]);
    });
  },
});
