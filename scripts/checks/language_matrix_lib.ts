/**
 * The language × tool matrix of docs/languages.md: what the test helpers record while tests run (a
 * tool that answered without error, per language), the records file
 * (tests/languages/matrix.json), and the block of docs/languages.md rendered from it.
 * scripts/checks/language_matrix.ts runs the tests and rewrites both; tests/languages/matrix_test.ts
 * checks that the block equals the rendering of the file.
 * @module
 */
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { detectLanguages, serverSpecs, specForFile } from "../../src/lsp/registry.ts";
import { Project } from "../../src/project/project.ts";
import { loadSettings } from "../../src/config/load.ts";

/** Folder the test helpers append their records to, when set. */
export const MATRIX_DIR_ENV = "SEXTANT_MATRIX_DIR";

export const REPO: string = fileURLToPath(new URL("../..", import.meta.url));
export const MATRIX_JSON: string = join(REPO, "tests", "languages", "matrix.json");
/** The page that shows the matrix, between the markers. */
export const MATRIX_DOC: string = join(REPO, "docs", "languages.md");
export const BEGIN =
  "<!-- language-matrix:begin (scripts/checks/language_matrix.ts writes this) -->";
export const END = "<!-- language-matrix:end -->";

/** The languages the registry claims: registry id → row name. */
export const LANGUAGES: ReadonlyArray<[id: string, name: string]> = [
  ["typescript", "TypeScript/JavaScript"],
  ["python", "Python"],
  ["rust", "Rust"],
  ["go", "Go"],
  ["cpp", "C/C++"],
  ["java", "Java"],
  ["ada", "Ada"],
  ["bash", "Bash"],
  ["yaml", "YAML"],
  ["json", "JSON"],
  ["deno", "Deno"],
];

/** The matrix's columns: a short name and the tools that count for it. */
export const COLUMNS: ReadonlyArray<[column: string, tools: string[]]> = [
  ["overview", ["get_symbols_overview", "document_symbols"]],
  ["find symbol", ["find_symbol", "workspace_symbols", "get_symbol_info"]],
  ["references", ["find_referencing_symbols", "find_references", "find_symbol_usages"]],
  ["implementations", ["find_implementations", "implementation"]],
  ["definition", ["goto_definition"]],
  ["type definition", ["type_definition"]],
  ["hover", ["hover"]],
  ["call hierarchy", ["call_hierarchy"]],
  ["completions", ["completions"]],
  ["signature help", ["signature_help"]],
  ["rename", ["rename_symbol", "rename_at_position"]],
  ["body edit", ["replace_symbol_body"]],
  ["insertions", ["insert_after_symbol", "insert_before_symbol"]],
  ["diagnostics", ["get_diagnostics_for_file", "diagnostics"]],
  ["code actions", ["execute_code_action", "list_code_actions", "code_actions"]],
  ["format", ["format_file"]],
  ["check", ["check_project"]],
  ["test", ["test_project"]],
];

/** The error of a tool whose server announced no capability for it (src/tools/shared/targets.ts). */
const UNSUPPORTED = /^(?:Error: )?The \S+ language server \(.*?\) does not support /;
/** Records of tools the language's server does not offer: `unsupported:<tool>`. */
export const UNSUPPORTED_PREFIX = "unsupported:";

/**
 * The records file: per language id, the tools that answered in a test run, and
 * (`unsupported:<tool>`) those whose server said it does not offer them; sorted.
 */
export type MatrixRecords = Record<string, string[]>;

const PATH_ARGS = ["relative_path", "file", "file_path"];
const projectLanguage = new Map<string, Promise<string | null>>();

/** The language a call was about: its file's, or the project's main language. */
async function languageOf(root: string, args: Record<string, unknown>): Promise<string | null> {
  const specs = serverSpecs(root);
  for (const key of PATH_ARGS) {
    const value = args[key];
    if (typeof value === "string" && extname(value)) {
      return specForFile(specs, value)?.id ?? null;
    }
  }
  let main = projectLanguage.get(root);
  if (!main) {
    main = (async () => {
      const settings = await loadSettings({ projectRoot: root, globalFile: null });
      const found = await detectLanguages(Project.open(root, settings), specs);
      return found[0]?.id ?? null;
    })().catch(() => null);
    projectLanguage.set(root, main);
  }
  return await main;
}

/**
 * Whether a check_project / test_project answer only skipped (no toolchain program ran): that
 * is no evidence that the tool works for the language.
 */
export function onlySkipped(answer: string | undefined): boolean {
  if (answer === undefined) return false;
  try {
    const parsed = JSON.parse(answer) as { checks?: unknown; runs?: unknown };
    const entries = (parsed.checks ?? parsed.runs) as Array<{ status?: string }> | undefined;
    return Array.isArray(entries) && entries.every((e) => e.status === "skipped");
  } catch {
    return false;
  }
}

/**
 * Record that `tool` answered without error on the project at `root` (a test helper calls this
 * after each tool call, with the answer's text); nothing happens unless SEXTANT_MATRIX_DIR is
 * set. A check or test run that only skipped is not recorded.
 */
export async function recordCall(
  root: string,
  tool: string,
  args: Record<string, unknown>,
  isError: boolean,
  answer?: string,
): Promise<void> {
  const dir = Deno.env.get(MATRIX_DIR_ENV);
  if (!dir || !COLUMNS.some(([, tools]) => tools.includes(tool))) return;
  if (isError) {
    // The server's own "does not support" (it announced no such capability) is evidence too.
    if (!answer || !UNSUPPORTED.test(answer)) return;
    tool = `${UNSUPPORTED_PREFIX}${tool}`;
  } else if ((tool === "check_project" || tool === "test_project") && onlySkipped(answer)) {
    return;
  }
  const language = await languageOf(root, args);
  if (!language) return;
  await Deno.writeTextFile(
    join(dir, `${Deno.pid}.jsonl`),
    JSON.stringify({ language, tool }) + "\n",
    { append: true },
  );
}

/** Merge the records of a folder into the records file's shape. */
export function collectRecords(dir: string): MatrixRecords {
  const sets = new Map<string, Set<string>>();
  for (const entry of Deno.readDirSync(dir)) {
    if (!entry.name.endsWith(".jsonl")) continue;
    for (const line of Deno.readTextFileSync(join(dir, entry.name)).split("\n")) {
      if (!line.trim()) continue;
      const { language, tool } = JSON.parse(line) as { language: string; tool: string };
      if (!sets.has(language)) sets.set(language, new Set());
      sets.get(language)!.add(tool);
    }
  }
  const out: MatrixRecords = {};
  for (const [id] of LANGUAGES) {
    const tools = sets.get(id);
    if (tools) out[id] = [...tools].sort();
  }
  return out;
}

/** The matrix block (between the markers, markers included) for the records. */
export function renderMatrix(records: MatrixRecords): string {
  const header = ["language", "", ...COLUMNS.map(([c]) => c)];
  const rows = [header, header.map(() => "---")];
  for (const [id, name] of LANGUAGES) {
    const tools = new Set(records[id] ?? []);
    const covered = COLUMNS.map(([, names]) => names.some((t) => tools.has(t)));
    const lacking = COLUMNS.map(([, names]) =>
      names.some((t) => tools.has(`${UNSUPPORTED_PREFIX}${t}`))
    );
    const count = covered.filter(Boolean).length;
    const status = count === COLUMNS.length ? "✓" : count === 0 ? "✗" : "~";
    rows.push([name, status, ...covered.map((c, i) => c ? "✓" : lacking[i] ? "–" : "·")]);
  }
  const table = rows.map((r) => `| ${r.join(" | ")} |`).join("\n");
  const lines = [
    BEGIN,
    "",
    table,
    "",
    "✓ every column tested, ~ partial (the columns marked ✓), ✗ untested: a column is ✓ when a " +
    "test called one of its tools on a file of that language (or a project of it) and the tool " +
    "answered without error (a check or test run that only skipped does not count), – when the " +
    "language's server does not offer it and a test asserted that clear error, · when no test " +
    "covers it; from the run recorded in `tests/languages/matrix.json`.",
    "",
    END,
  ];
  return lines.join("\n");
}

/** The page's text with the block replaced (or null when the markers are missing). */
export function rewriteMatrixBlock(text: string, block: string): string | null {
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (start < 0 || end < start) return null;
  return text.slice(0, start) + block + text.slice(end + END.length);
}

/** The block currently in the page, or null. */
export function matrixBlock(text: string): string | null {
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  return start < 0 || end < start ? null : text.slice(start, end + END.length);
}
