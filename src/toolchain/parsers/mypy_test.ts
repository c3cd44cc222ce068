/**
 * The mypy parser on recorded output: mypy 2.4.1 on flask 3.1.3 (`python -m mypy
 * --show-column-numbers --show-error-codes --no-pretty --no-color-output` in its venv).
 * @module
 */
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { mypyFilesChecked, parseMypy } from "./mypy.ts";

const FLASK =
  `pyproject.toml: [mypy]: python_version: Python 3.9 is not supported (must be 3.10 or higher)
src/flask/json/provider.py:138: error: Unused "type: ignore" comment  [unused-ignore]
src/flask/cli.py:471: error: Unused "type: ignore" comment  [unused-ignore]
src/flask/cli.py:788:21: error: Missing type arguments for generic type "ParamType"  [type-arg]
Found 3 errors in 2 files (checked 27 source files)
`;

Deno.test("mypy: errors with and without a column, codes, and the files checked", () => {
  const found = parseMypy(FLASK, "/work/flask");
  assertEquals(found.map((d) => [d.file, d.line, d.column, d.severity, d.code]), [
    ["src/flask/json/provider.py", 138, 1, "error", "unused-ignore"],
    ["src/flask/cli.py", 471, 1, "error", "unused-ignore"],
    ["src/flask/cli.py", 788, 21, "error", "type-arg"],
  ]);
  assertEquals(found[2]!.message, 'Missing type arguments for generic type "ParamType"');
  assertEquals(mypyFilesChecked(FLASK), 27);
  assertEquals(mypyFilesChecked("Success: no issues found in 4 source files\n"), 4);
  assertEquals(mypyFilesChecked("mypy: can't read file 'x': No such file\n"), undefined);
});
