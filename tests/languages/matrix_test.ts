/**
 * The language × tool matrix of docs/languages.md is the rendering of the committed records
 * (tests/languages/matrix.json, written by scripts/checks/language_matrix.ts from a test run): it cannot
 * be edited by hand or drift from the records silently. And the recorder attributes calls to
 * the language of their file, or of the project.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals } from "../helpers/assert.ts";
import {
  collectRecords,
  COLUMNS,
  LANGUAGES,
  MATRIX_DIR_ENV,
  MATRIX_DOC,
  MATRIX_JSON,
  matrixBlock,
  type MatrixRecords,
  onlySkipped,
  recordCall,
  renderMatrix,
} from "../../scripts/checks/language_matrix_lib.ts";
import { serverSpecs } from "../../src/lsp/registry.ts";

Deno.test("the language matrix of docs/languages.md equals the rendering of matrix.json", () => {
  const records = JSON.parse(Deno.readTextFileSync(MATRIX_JSON)) as MatrixRecords;
  const block = matrixBlock(Deno.readTextFileSync(MATRIX_DOC));
  assert(block, "docs/languages.md has no language-matrix block");
  assertEquals(
    block,
    renderMatrix(records),
    "run: deno run -A scripts/checks/language_matrix.ts --render-only",
  );
});

Deno.test("the matrix has a row for every language the registry claims", () => {
  const root = Deno.makeTempDirSync();
  try {
    const ids = new Set(serverSpecs(root).map((s) => s.id));
    Deno.writeTextFileSync(join(root, "deno.json"), "{}");
    for (const s of serverSpecs(root)) ids.add(s.id);
    assertEquals([...ids].sort(), LANGUAGES.map(([id]) => id).sort());
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
  const rows = renderMatrix({}).split("\n").filter((l) => l.startsWith("| ")).slice(2);
  assertEquals(rows.length, LANGUAGES.length);
  assert(rows.every((r) => r.includes("| ✗ |")));
  const all = renderMatrix({ go: COLUMNS.map(([, tools]) => tools[0]!) });
  assert(all.includes("| Go | ✓ |"), all);
  const some = renderMatrix({ go: ["hover"] });
  assert(some.includes("| Go | ~ | · |"), some);
});

Deno.test("recordCall: by the file's language, else the project's; errors not recorded", async () => {
  const dir = Deno.makeTempDirSync();
  const root = Deno.makeTempDirSync();
  const before = Deno.env.get(MATRIX_DIR_ENV);
  Deno.env.set(MATRIX_DIR_ENV, dir);
  try {
    Deno.writeTextFileSync(join(root, "Cargo.toml"), "[package]\n");
    Deno.writeTextFileSync(join(root, "lib.rs"), "fn a() {}\n");
    await recordCall(root, "hover", { relative_path: "src/x.go" }, false);
    await recordCall(root, "check_project", {}, false);
    await recordCall(root, "format_file", { relative_path: "a.py" }, true);
    await recordCall(root, "read_file", { relative_path: "a.py" }, false);
    assertEquals(collectRecords(dir), { rust: ["check_project"], go: ["hover"] });
  } finally {
    if (before === undefined) Deno.env.delete(MATRIX_DIR_ENV);
    else Deno.env.set(MATRIX_DIR_ENV, before);
    Deno.removeSync(dir, { recursive: true });
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("recordCall: a run that only skipped is no evidence; a missing capability is a –", async () => {
  const dir = Deno.makeTempDirSync();
  const root = Deno.makeTempDirSync();
  const before = Deno.env.get(MATRIX_DIR_ENV);
  Deno.env.set(MATRIX_DIR_ENV, dir);
  try {
    Deno.writeTextFileSync(join(root, "go.mod"), "module x\n");
    const skipped = JSON.stringify({ runs: [{ toolchain: "go", status: "skipped" }] });
    const ran = JSON.stringify({ checks: [{ toolchain: "go", status: "errors" }] });
    await recordCall(root, "test_project", {}, false, skipped);
    await recordCall(root, "check_project", {}, false, ran);
    await recordCall(
      root,
      "signature_help",
      { relative_path: "a.sh" },
      true,
      "Error: The bash language server (bash-language-server) does not support signature help " +
        "(it announced no signatureHelpProvider).",
    );
    await recordCall(root, "hover", { relative_path: "a.sh" }, true, "Error: timed out");
    assertEquals(collectRecords(dir), {
      go: ["check_project"],
      bash: ["unsupported:signature_help"],
    });
    const row = renderMatrix({ bash: ["hover", "unsupported:signature_help"] }).split("\n")
      .find((l) => l.startsWith("| Bash "));
    assertEquals(
      row,
      "| Bash | ~ | · | · | · | · | · | · | ✓ | · | · | – | · | · | · | · | · | · | · | · |",
    );
    assertEquals([onlySkipped(skipped), onlySkipped(ran), onlySkipped("not json")], [
      true,
      false,
      false,
    ]);
  } finally {
    if (before === undefined) Deno.env.delete(MATRIX_DIR_ENV);
    else Deno.env.set(MATRIX_DIR_ENV, before);
    Deno.removeSync(dir, { recursive: true });
    Deno.removeSync(root, { recursive: true });
  }
});
