/**
 * Serena 2.1 as an oracle: one sequence of tool calls sent to Serena (`serena start-mcp-server`,
 * tools interface, desktop-app) and to Sextant, each on its own copy of the same fixture, and
 * every pair of answers classified:
 *
 * - `identical`: the same text and the same error flag;
 * - `whitespace`: equal once whitespace is ignored, or the same JSON value (Serena's JSON has a
 *   space after `,` and `:`, Sextant's is compact);
 * - `order`: the same JSON once lists are sorted (Serena lists files in walk order and
 *   TypeScript symbols alphabetically, Sextant sorts files and keeps symbols in file order);
 * - `error wording`: both answers are errors, in other words (Serena writes
 *   `Error executing tool <tool>: ValueError: ...` as a normal result, Sextant `Error: ...`);
 * - `compacted`: a references answer naming the same references (file, kind, containing symbol,
 *   line and text of each) in Serena's keys, in fewer characters: Sextant merges the entries of
 *   one containing symbol and drops context lines and `body_location` while the answer costs more
 *   than `grep -rnw` over its files (src/tools/shared/reference_entries.ts);
 * - `substance`: anything else.
 *
 * Before comparing, each server's project root becomes `<root>` and Sextant's data folder
 * `.sextant` is named `.serena`: each copy holds the folder its own server made.
 *
 * Usage: `deno run -A scripts/checks/serena_oracle.ts [--verbose] [--json]`. Serena is found as
 * `$SERENA_BIN`, else `serena` on PATH; its language servers are the test servers in
 * `.cache/lsp` (scripts/checks/test_setup.ts), given to it by `ls_path` in a Serena config of a
 * temporary HOME, so it downloads nothing. Prints one line per call and the counts; exits 2
 * when Serena is not installed.
 * @module
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { referenceLines } from "../../tests/helpers/symbols.ts";
// deno-lint-ignore no-import-prefix
import { Client } from "npm:@modelcontextprotocol/sdk@1.32.2/client/index.js";
// deno-lint-ignore no-import-prefix
import { StdioClientTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/client/stdio.js";

const REPO = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const LSP_BIN = join(REPO, ".cache", "lsp", "node_modules", ".bin");

/** One call of the sequence. */
export interface OracleCall {
  tool: string;
  args: Record<string, unknown>;
}

/** The classes of a pair of answers. */
export type Verdict =
  | "identical"
  | "whitespace"
  | "order"
  | "error wording"
  | "compacted"
  | "substance";

/** An answer as the oracle compares it. */
export interface Answer {
  text: string;
  isError: boolean;
}

/** The calls per fixture: Serena's tools on Python and TypeScript, reads before edits. */
export const SEQUENCES: Readonly<Record<string, readonly OracleCall[]>> = {
  python: [
    { tool: "get_symbols_overview", args: { relative_path: "shapes/circle.py" } },
    { tool: "get_symbols_overview", args: { relative_path: "shapes/circle.py", depth: 1 } },
    { tool: "get_symbols_overview", args: { relative_path: "shapes" } },
    { tool: "find_symbol", args: { name_path_pattern: "Circle" } },
    { tool: "find_symbol", args: { name_path_pattern: "Circle", depth: 1 } },
    { tool: "find_symbol", args: { name_path_pattern: "Circle/area", include_body: true } },
    { tool: "find_symbol", args: { name_path_pattern: "area", max_matches: 1 } },
    { tool: "find_symbol", args: { name_path_pattern: "nothing_like_this" } },
    {
      tool: "find_referencing_symbols",
      args: { name_path: "Circle", relative_path: "shapes/circle.py" },
    },
    {
      tool: "find_referencing_symbols",
      args: { name_path: "main", relative_path: "app.py" },
    },
    {
      tool: "find_implementations",
      args: { name_path: "ShapeRegistry", relative_path: "shapes/registry.py" },
    },
    { tool: "list_dir", args: { relative_path: ".", recursive: false } },
    { tool: "list_dir", args: { relative_path: ".", recursive: true, skip_ignored_files: true } },
    { tool: "read_file", args: { relative_path: "nope.py" } },
    {
      tool: "search_for_pattern",
      args: { substring_pattern: "Circle", paths_include_glob: "shapes/*.py" },
    },
    { tool: "list_dir", args: { relative_path: "nope", recursive: false } },
    { tool: "find_file", args: { file_mask: "*.py", relative_path: "." } },
    { tool: "search_for_pattern", args: { substring_pattern: "def area" } },
    { tool: "read_file", args: { relative_path: "app.py", start_line: 0, end_line: 2 } },
    { tool: "list_memories", args: {} },
    { tool: "write_memory", args: { memory_name: "notes/architecture", content: "layers\n" } },
    { tool: "list_memories", args: {} },
    { tool: "read_memory", args: { memory_name: "notes/architecture" } },
    {
      tool: "edit_memory",
      args: { memory_name: "notes/architecture", needle: "layers", repl: "tiers", mode: "literal" },
    },
    { tool: "rename_memory", args: { old_name: "notes/architecture", new_name: "design" } },
    { tool: "delete_memory", args: { memory_name: "design" } },
    { tool: "delete_memory", args: { memory_name: "nope" } },
    {
      tool: "rename_symbol",
      args: { name_path: "Circle", relative_path: "shapes/circle.py", new_name: "Round" },
    },
  ],
  typescript: [
    { tool: "get_symbols_overview", args: { relative_path: "src/shapes.ts" } },
    { tool: "get_symbols_overview", args: { relative_path: "src" } },
    { tool: "find_symbol", args: { name_path_pattern: "/Circle", depth: 1 } },
    { tool: "find_symbol", args: { name_path_pattern: "Square/area", include_body: true } },
    { tool: "find_symbol", args: { name_path_pattern: "area", relative_path: "src/shapes.ts" } },
    {
      tool: "find_referencing_symbols",
      args: { name_path: "Circle", relative_path: "src/shapes.ts" },
    },
    { tool: "find_implementations", args: { name_path: "Shape", relative_path: "src/shapes.ts" } },
    {
      tool: "find_declaration",
      args: { relative_path: "src/main.ts", regex: "new (Circle)\\(" },
    },
    { tool: "list_dir", args: { relative_path: "src", recursive: true } },
    {
      tool: "find_referencing_symbols",
      args: { name_path: "Shape/area", relative_path: "src/shapes.ts" },
    },
    {
      tool: "find_implementations",
      args: { name_path: "Circle", relative_path: "src/shapes.ts" },
    },
    {
      tool: "insert_after_symbol",
      args: {
        name_path: "Circle/unit",
        relative_path: "src/shapes.ts",
        body: "  static zero(): Circle {\n    return new Circle(0);\n  }",
      },
    },
    {
      tool: "replace_symbol_body",
      args: {
        name_path: "Square/perimeter",
        relative_path: "src/shapes.ts",
        body: "perimeter(): number {\n    return this.side * 4;\n  }",
      },
    },
    { tool: "read_file", args: { relative_path: "src/shapes.ts", start_line: 20, end_line: 30 } },
    { tool: "find_file", args: { file_mask: "*.ts", relative_path: "src" } },
    { tool: "search_for_pattern", args: { substring_pattern: "class \\w+", relative_path: "src" } },
    {
      tool: "rename_symbol",
      args: { name_path: "Square", relative_path: "src/shapes.ts", new_name: "Box" },
    },
  ],
};

/** Classify a pair of answers (Serena's first). */
export function classify(serena: Answer, sextant: Answer): Verdict {
  if (serena.text === sextant.text && serena.isError === sextant.isError) return "identical";
  const serenaError = isError(serena);
  const sextantError = isError(sextant);
  if (serenaError && sextantError) return "error wording";
  if (serenaError !== sextantError) return "substance";
  const squeeze = (text: string) => text.replace(/\s+/g, "");
  if (squeeze(serena.text) === squeeze(sextant.text)) return "whitespace";
  const a = parseJson(serena.text);
  const b = parseJson(sextant.text);
  if (a !== undefined && b !== undefined && JSON.stringify(a) === JSON.stringify(b)) {
    return "whitespace";
  }
  if (
    a !== undefined && b !== undefined && JSON.stringify(sorted(a)) === JSON.stringify(sorted(b))
  ) {
    return "order";
  }
  if (
    a !== undefined && b !== undefined && sextant.text.length < serena.text.length &&
    sameReferences(serena.text, sextant.text)
  ) {
    return "compacted";
  }
  return "substance";
}

/** Whether two references answers name the same reference lines (none is not a match). */
function sameReferences(serena: string, sextant: string): boolean {
  try {
    const theirs = referenceLines(serena);
    return theirs.length > 0 && JSON.stringify(referenceLines(sextant)) === JSON.stringify(theirs);
  } catch {
    return false; // not a references answer
  }
}

/** `value` with every array sorted (and object keys in order), for `order`. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(sorted).map((item) => [JSON.stringify(item), item] as const)
      .sort(([x], [y]) => x < y ? -1 : x > y ? 1 : 0).map(([, item]) => item);
  }
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).sort(([x], [y]) => x < y ? -1 : x > y ? 1 : 0).map((
        [key, item],
      ) => [key, sorted(item)]),
    );
  }
  return value;
}

/** An answer with its server's project root as `<root>` (and `.sextant` as `.serena`). */
function normalized(answer: Answer, root: string, dataFolder: boolean): Answer {
  let text = answer.text.replaceAll(root, "<root>");
  if (dataFolder) text = text.replaceAll('".sextant"', '".serena"');
  return { text, isError: answer.isError };
}

function isError(answer: Answer): boolean {
  return answer.isError || /^Error( executing tool [a-z_]+)?:/.test(answer.text);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The `serena` executable: `$SERENA_BIN`, else the first on PATH, else where `uv tool install`
 * puts it (`~/.local/bin`); null when there is none.
 */
export function findSerena(): string | null {
  const given = Deno.env.get("SERENA_BIN");
  const home = Deno.env.get("HOME");
  const candidates = given ? [given] : [
    ...(Deno.env.get("PATH") ?? "").split(":").map((dir) => join(dir, "serena")),
    ...(home ? [join(home, ".local", "bin", "serena")] : []),
  ];
  for (const path of candidates) {
    try {
      if (Deno.statSync(path).isFile) return path;
    } catch { /* not here */ }
  }
  return null;
}

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (entry.isDirectory) await copyTree(join(from, entry.name), join(to, entry.name));
    else if (entry.isFile) await Deno.copyFile(join(from, entry.name), join(to, entry.name));
  }
}

/**
 * A HOME for Serena with its global config: Serena writes its template on first start; the
 * oracle then points its Python and TypeScript servers at the test servers (`ls_path`).
 */
async function serenaHome(serena: string, base: string): Promise<Record<string, string>> {
  // The projects are trusted (Serena then lets typescript-language-server load the project's
  // TypeScript; without it, Serena wants its own download of TypeScript).
  const trusted = join(base, "serena", "**");
  const home = join(base, "home");
  await Deno.mkdir(home, { recursive: true });
  const env = { ...Deno.env.toObject(), HOME: home };
  const config = join(home, ".serena", "serena_config.yml");
  // `serena config edit` would open an editor; starting the server once writes the template.
  const child = new Deno.Command(serena, {
    args: ["start-mcp-server", "--enable-web-dashboard", "false", "--open-web-dashboard", "false"],
    env,
    stdin: "piped",
    stdout: "null",
    stderr: "null",
  }).spawn();
  for (let i = 0; i < 600; i++) {
    try {
      if (Deno.statSync(config).size > 0) break;
    } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  await child.stdin.close().catch(() => {});
  child.kill("SIGTERM");
  await child.status;
  const text = await Deno.readTextFile(config);
  const servers = `{python: {ls_path: ${join(LSP_BIN, "pyright-langserver")}}, ` +
    `typescript: {ls_path: ${join(LSP_BIN, "typescript-language-server")}}}`;
  await Deno.writeTextFile(
    config,
    text.replace(/^ls_specific_settings:.*$/m, `ls_specific_settings: ${servers}`)
      .replace(
        /^trusted_project_path_patterns:.*$/m,
        `trusted_project_path_patterns: [${JSON.stringify(trusted)}]`,
      ),
  );
  return env;
}

async function connectTo(command: string, args: string[], env: Record<string, string>) {
  const transport = new StdioClientTransport({ command, args, env, stderr: "pipe" });
  const client = new Client({ name: "serena-oracle", version: "0" });
  await client.connect(transport);
  return client;
}

async function callOn(client: Client, call: OracleCall): Promise<Answer> {
  try {
    const result = await client.callTool({ name: call.tool, arguments: call.args }, undefined, {
      timeout: 180_000,
    });
    const content = result.content as Array<{ text?: string }>;
    // The answer proper is the first block (Sextant gives notes about earlier edits after it).
    return { text: content[0]?.text ?? "", isError: result.isError === true };
  } catch (error) {
    return {
      text: `Error: ${error instanceof Error ? error.message : String(error)}`,
      isError: true,
    };
  }
}

/** One compared call. */
export interface OracleRow extends OracleCall {
  fixture: string;
  verdict: Verdict;
  serena: Answer;
  sextant: Answer;
}

/** Run every sequence on both servers; the rows in call order. */
export async function runOracle(serena: string): Promise<OracleRow[]> {
  const base = await Deno.makeTempDir({ prefix: "sextant-oracle-" });
  const rows: OracleRow[] = [];
  try {
    const serenaEnv = await serenaHome(serena, base);
    for (const [fixture, calls] of Object.entries(SEQUENCES)) {
      const serenaRoot = join(base, "serena", fixture);
      const sextantRoot = join(base, "sextant", fixture);
      await copyTree(join(REPO, "fixtures", fixture), serenaRoot);
      await copyTree(join(REPO, "fixtures", fixture), sextantRoot);
      const serenaClient = await connectTo(serena, [
        "start-mcp-server",
        "--enable-web-dashboard",
        "false",
        "--open-web-dashboard",
        "false",
        "--enable-gui-log-window",
        "false",
        "--agent-interface",
        "tools",
        "--context",
        "desktop-app",
        "--project",
        serenaRoot,
      ], serenaEnv);
      const sextantClient = await connectTo(Deno.execPath(), [
        "run",
        "--quiet",
        "-P=sextant",
        "--config",
        join(REPO, "deno.json"),
        join(REPO, "main.ts"),
        "--standalone",
        "--project",
        sextantRoot,
        "--log-level",
        "error",
      ], {
        ...Deno.env.toObject(),
        SEXTANT_LSP_PATH: join(REPO, ".cache", "lsp"),
        PATH: `${LSP_BIN}:${Deno.env.get("PATH") ?? ""}`,
        XDG_CONFIG_HOME: join(base, "xdg"),
      });
      try {
        for (const call of calls) {
          const [a, b] = await Promise.all([
            callOn(serenaClient, call),
            callOn(sextantClient, call),
          ]);
          const serenaAnswer = normalized(a, serenaRoot, false);
          const sextantAnswer = normalized(b, sextantRoot, true);
          rows.push({
            fixture,
            ...call,
            verdict: classify(serenaAnswer, sextantAnswer),
            serena: serenaAnswer,
            sextant: sextantAnswer,
          });
        }
      } finally {
        await serenaClient.close().catch(() => {});
        await sextantClient.close().catch(() => {});
      }
    }
  } finally {
    await Deno.remove(base, { recursive: true }).catch(() => {});
  }
  return rows;
}

/** The number of pairs in each class. */
export function countVerdicts(rows: readonly OracleRow[]): Record<Verdict, number> {
  const counts: Record<Verdict, number> = {
    identical: 0,
    whitespace: 0,
    order: 0,
    "error wording": 0,
    compacted: 0,
    substance: 0,
  };
  for (const row of rows) counts[row.verdict]++;
  return counts;
}

if (import.meta.main) {
  const serena = findSerena();
  if (!serena) {
    console.log("Serena is not installed (set SERENA_BIN or put `serena` on PATH).");
    Deno.exit(2);
  }
  const verbose = Deno.args.includes("--verbose");
  const rows = await runOracle(serena);
  if (Deno.args.includes("--json")) {
    console.log(JSON.stringify(rows, null, 1));
  } else {
    for (const row of rows) {
      console.log(
        `${row.verdict.padEnd(13)} ${row.fixture} ${row.tool} ${JSON.stringify(row.args)}`,
      );
      if (verbose && row.verdict === "substance") {
        console.log(
          `  serena:  ${row.serena.text.slice(0, 600).replaceAll("\n", "\n           ")}`,
        );
        console.log(
          `  sextant: ${row.sextant.text.slice(0, 600).replaceAll("\n", "\n           ")}`,
        );
      }
    }
  }
  const counts = countVerdicts(rows);
  console.log(
    `${rows.length} calls: ${counts.identical} identical, ${counts.whitespace} whitespace only, ` +
      `${counts.order} order only, ${counts["error wording"]} error wording only, ` +
      `${counts.substance} substance`,
  );
}
