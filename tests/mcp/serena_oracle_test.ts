/**
 * Serena 2.1 as an oracle (scripts/checks/serena_oracle.ts): the classification of answer pairs, and,
 * where Serena is installed, the whole sequence on both servers. Every difference in substance
 * must be one of the cases where Sextant is more correct, listed here with the reason.
 * @module
 */
import { assertEquals } from "../helpers/assert.ts";
import { hasServer } from "../helpers/lsp.ts";
import {
  classify,
  countVerdicts,
  findSerena,
  runOracle,
} from "../../scripts/checks/serena_oracle.ts";

Deno.test("serena oracle: answer pairs are classified", () => {
  const ok = (text: string) => ({ text, isError: false });
  assertEquals(classify(ok("OK"), ok("OK")), "identical");
  assertEquals(classify(ok('{"a": [1, 2]}'), ok('{"a":[1,2]}')), "whitespace");
  assertEquals(classify(ok('{"files": ["b", "a"]}'), ok('{"files":["a","b"]}')), "order");
  assertEquals(
    classify(
      ok("Error executing tool list_dir: ValueError: no such folder"),
      { text: "Error: 'x' is not a folder.", isError: true },
    ),
    "error wording",
  );
  assertEquals(classify(ok('{"a": [1]}'), ok('{"a":[2]}')), "substance");
  // The same references, merged and without context lines: compacted; a line missing: substance.
  const entry = (line: string) => ({
    name_path: "main",
    body_location: { start_line: 0, end_line: 9 },
    content_around_reference: `...   1:\n  >   ${line}\n...   3:`,
  });
  const serena = JSON.stringify({ "a.ts": { Function: [entry("2:f(C)"), entry("3:g(C)")] } });
  const merged = (lines: string) =>
    JSON.stringify({
      "a.ts": { Function: [{ name_path: "main", content_around_reference: lines }] },
    });
  assertEquals(classify(ok(serena), ok(merged("  >   2:f(C)\n  >   3:g(C)"))), "compacted");
  assertEquals(classify(ok(serena), ok(merged("  >   2:f(C)"))), "substance");
  assertEquals(classify(ok("Error executing tool x: boom"), ok("fine")), "substance");
});

/**
 * Where Sextant is more correct than Serena 2.1, by tool and arguments, with the reason (the
 * compatibility notes list them too).
 */
const MORE_CORRECT: Readonly<Record<string, string>> = {
  // tsserver's implementations of the interface include a local `const found: Circle[] = []`;
  // Sextant answers the declarations that implement it (the two classes).
  'typescript find_implementations {"name_path":"Shape","relative_path":"src/shapes.ts"}':
    "a local variable is no implementation",
  // Serena answers the class itself (and the same local variable) for a class nothing extends;
  // Sextant answers that there is none.
  'typescript find_implementations {"name_path":"Circle","relative_path":"src/shapes.ts"}':
    "a class does not implement itself",
  // Serena lists its own data folder (.serena/, project.yml) among the project's files even when
  // ignored files are skipped; Sextant's data folder (.sextant/: caches) is never project content.
  'python list_dir {"relative_path":".","recursive":true,"skip_ignored_files":true}':
    "a tool's data folder is not the project's",
  // Serena ends a rename with "(N changes applied)", N the files changed; Sextant counts both:
  // "(E edits in N files)" (docs/serena-compatibility.md).
  'python rename_symbol {"name_path":"Circle","relative_path":"shapes/circle.py","new_name":"Round"}':
    "a rename names its edits and files",
  'typescript rename_symbol {"name_path":"Square","relative_path":"src/shapes.ts","new_name":"Box"}':
    "a rename names its edits and files",
};

const SERENA = findSerena();
const SERVERS = hasServer("typescript-language-server") && hasServer("pyright-langserver");

Deno.test({
  name: "serena oracle: Serena 2.1 and Sextant answer the same sequence alike",
  ignore: (() => {
    if (!SERENA) console.log("skipping the Serena oracle: Serena 2.1 is not installed");
    else if (!SERVERS) {
      console.log("skipping the Serena oracle: the test language servers are missing");
    }
    return !SERENA || !SERVERS;
  })(),
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const rows = await runOracle(SERENA!);
  const counts = countVerdicts(rows);
  console.log(`Serena oracle: ${rows.length} calls, ${JSON.stringify(counts)}`);
  const substance = rows.filter((row) => row.verdict === "substance").map((row) =>
    `${row.fixture} ${row.tool} ${JSON.stringify(row.args)}`
  );
  assertEquals(substance.sort(), Object.keys(MORE_CORRECT).sort());
});
