/**
 * Regenerate the language × tool matrix of docs/languages.md from a test run: run the tests that
 * exercise tools on real language servers with SEXTANT_MATRIX_DIR set (the test helpers record
 * each tool that answered, per language), write the records to tests/languages/matrix.json, and
 * rewrite the marked block of docs/languages.md from them. A failing test run changes nothing.
 *
 * ```sh
 * deno run -A scripts/checks/language_matrix.ts                 # run the tests, rewrite both files
 * deno run -A scripts/checks/language_matrix.ts tests/languages # only these tests (records: merged)
 * deno run -A scripts/checks/language_matrix.ts --render-only   # re-render the page from matrix.json
 * ```
 * @module
 */
import {
  collectRecords,
  MATRIX_DIR_ENV,
  MATRIX_DOC,
  MATRIX_JSON,
  type MatrixRecords,
  renderMatrix,
  REPO,
  rewriteMatrixBlock,
} from "./language_matrix_lib.ts";

/** The tests that call tools on real servers: the language tests and the tool families. */
const DEFAULT_TESTS = [
  "tests/languages",
  "tests/symbols",
  "tests/ide",
  "tests/toolchain",
  "tests/ada",
];

function readRecords(): MatrixRecords {
  try {
    return JSON.parse(Deno.readTextFileSync(MATRIX_JSON)) as MatrixRecords;
  } catch {
    return {};
  }
}

function writeMatrixDoc(records: MatrixRecords): void {
  const text = Deno.readTextFileSync(MATRIX_DOC);
  const updated = rewriteMatrixBlock(text, renderMatrix(records));
  if (updated === null) throw new Error(`${MATRIX_DOC} has no language-matrix markers`);
  if (updated !== text) Deno.writeTextFileSync(MATRIX_DOC, updated);
  console.error(`${MATRIX_DOC} ${updated === text ? "already up to date" : "updated"}`);
}

if (import.meta.main) {
  if (Deno.args.includes("--render-only")) {
    writeMatrixDoc(readRecords());
    Deno.exit(0);
  }
  const partial = Deno.args.length > 0;
  const tests = partial ? Deno.args : DEFAULT_TESTS;
  const dir = await Deno.makeTempDir({ prefix: "sextant-matrix-" });
  try {
    const setup = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "scripts/checks/test_setup.ts"],
      cwd: REPO,
    }).output();
    if (!setup.success) Deno.exit(setup.code);
    const run = await new Deno.Command(Deno.execPath(), {
      args: ["test", "--allow-all", ...tests],
      cwd: REPO,
      env: { [MATRIX_DIR_ENV]: dir },
    }).spawn().status;
    if (!run.success) {
      console.error("tests failed: the matrix is left as it was");
      Deno.exit(1);
    }
    const found = collectRecords(dir);
    // A run of some tests adds to the records; the full run replaces them.
    const records: MatrixRecords = partial ? readRecords() : {};
    for (const [id, tools] of Object.entries(found)) {
      records[id] = [...new Set([...(records[id] ?? []), ...tools])].sort();
    }
    const sorted = Object.fromEntries(Object.entries(records).sort(([a], [b]) => a < b ? -1 : 1));
    Deno.writeTextFileSync(MATRIX_JSON, JSON.stringify(sorted, null, 2) + "\n");
    writeMatrixDoc(sorted);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
