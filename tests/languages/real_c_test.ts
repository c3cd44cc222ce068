/**
 * C on real code: zlib 1.3.1 as bundled in the `libz-sys` crate from crates.io (pinned), with a
 * `compile_commands.json` carrying libz-sys's build flags (tests/helpers/real_code.ts), through
 * MCP on real clangd. References are checked against the raw clangd's own
 * `textDocument/references` answer on another copy once its background index is complete; a
 * definition leads into a system header where the raw server's does. check_project has no C
 * toolchain to run: its clear error is asserted.
 * @module
 */
import { join } from "node:path";
import { flattenReferences } from "../helpers/symbols.ts";
import { assert, assertEquals } from "../helpers/assert.ts";
import { IDE_TOOLS } from "../helpers/lang.ts";
import { hasServer } from "../helpers/lsp.ts";
import {
  positionOf,
  rawAnswers,
  realOrReason,
  realSession,
  sextantKeys,
} from "../helpers/real_code.ts";

const real = hasServer("clangd", ["--version"])
  ? await realOrReason("c")
  : "clangd is not installed";
if (typeof real === "string") console.log(`skipping real C code tests: ${real}`);

interface Sym {
  name_path: string;
  kind: string;
  relative_path: string;
  body?: string;
}

/** `inflate_table` in its definition (inftrees.c). */
const TABLE = { file: "inftrees.c", needle: "int ZLIB_INTERNAL inflate_table(", offset: 18 };
/** `strlen` in `len = strlen((const char *)path);` (gzlib.c): declared in <string.h>. */
const STRLEN = { file: "gzlib.c", needle: "len = strlen((const char *)path)", offset: 6 };

Deno.test({
  name: "real c: zlib 1.3.1 with compile_commands.json, checked against raw clangd",
  ignore: typeof real === "string",
  async fn(t) {
    if (typeof real === "string") return;
    const raw = await rawAnswers(real, TABLE, [STRLEN]);
    // Calls under `#ifdef BUILDFIXED` (not defined) are inactive code: not references.
    assert(raw.references.length >= 8, `raw references: ${raw.references}`);
    await using s = await realSession(real, { included_tools: IDE_TOOLS });

    await t.step("find_references equals the raw server's references", async () => {
      const text = await s.ok("find_references", {
        relative_path: TABLE.file,
        name_path: "inflate_table",
      });
      assertEquals(sextantKeys(text), raw.references);
    });

    await t.step("find_referencing_symbols names the callers in both inflaters", async () => {
      const refs = flattenReferences(
        await s.ok("find_referencing_symbols", {
          name_path: "inflate_table",
          relative_path: TABLE.file,
        }),
      );
      const callers = [...new Set(refs.map((r) => `${r.relative_path}:${r.name_path}`))].sort();
      for (const caller of ["inflate.c:inflate", "infback.c:inflateBack"]) {
        assert(callers.includes(caller), `${caller} missing from ${callers}`);
      }
    });

    await t.step("get_symbols_overview of a real file", async () => {
      const names = (JSON.parse(
        await s.ok("get_symbols_overview", { relative_path: "inflate.c" }),
      ) as Sym[]).map((x) => x.name_path);
      for (
        const name of ["inflateReset", "inflateInit2_", "fixedtables", "inflate", "inflateEnd"]
      ) {
        assert(names.includes(name), `${name} missing from ${names}`);
      }
    });

    await t.step("find_symbol by name, with body", async () => {
      const found = JSON.parse(
        await s.ok("find_symbol", {
          name_path_pattern: "inflate_table",
          relative_path: TABLE.file,
          include_body: true,
        }),
      ) as Sym[];
      assertEquals(found.map((x) => [x.name_path, x.relative_path]), [[
        "inflate_table",
        TABLE.file,
      ]]);
      assert(found[0]!.body!.startsWith("int ZLIB_INTERNAL inflate_table("), found[0]!.body);
    });

    await t.step("goto_definition into a system header, where the raw server leads", async () => {
      const at = positionOf(
        await Deno.readTextFile(join(s.root, STRLEN.file)),
        STRLEN.needle,
        STRLEN.offset,
      );
      const def = JSON.parse(
        await s.ok("goto_definition", {
          relative_path: STRLEN.file,
          line: at.line + 1,
          column: at.character + 1,
        }),
      );
      assertEquals(def.found, true);
      assert(/\/string\.h$/.test(def.file), def.file);
      assertEquals([`${def.file}:${def.line}:${def.column}`], raw.definitions[0]);
    });

    await t.step("check_project: no C toolchain is known, said clearly", async () => {
      // compile_commands.json is not a toolchain marker (yet): the answer must say what it
      // looked for. Should a C check be added, its answer must be a clean report on zlib.
      const check = await s.call("check_project");
      if (check.isError) {
        assert(/No known toolchain in project 'zlib'/.test(check.text), check.text);
      } else {
        const report = JSON.parse(check.text);
        assertEquals(report.summary.error, 0, check.text);
      }
    });
  },
});
