/**
 * Rust on real code with dependencies: the `csv` crate from crates.io (pinned, with its own
 * Cargo.lock and vendored dependencies; tests/helpers/real_code.ts) through MCP on real
 * rust-analyzer and cargo. References are checked against the raw rust-analyzer's own
 * `textDocument/references` answer on another copy; a definition leads into a dependency
 * (serde_core) where the raw server's does.
 * @module
 */
import { flattenReferences } from "../helpers/symbols.ts";
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
      const names = (JSON.parse(
        await s.ok("get_symbols_overview", { relative_path: POSITION.file }),
      ) as Sym[]).map((x) => x.name_path);
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
