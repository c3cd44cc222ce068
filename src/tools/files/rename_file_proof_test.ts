import { assertEquals } from "../../../tests/helpers/assert.ts";
import { type ErrorCounts, errorKind, introducedErrors } from "./rename_file_proof.ts";

function counts(files: Record<string, Array<[string, number]>>): ErrorCounts {
  const out: ErrorCounts = new Map();
  for (const [file, errors] of Object.entries(files)) {
    const kinds = new Map<string, Array<{ line: number; message: string }>>();
    for (const [message, line] of errors) {
      const kind = errorKind("e", message);
      kinds.set(kind, [...kinds.get(kind) ?? [], { line, message }]);
    }
    out.set(file, kinds);
  }
  return out;
}

Deno.test("move proof: an old error whose quoted names the move rewrote is not new", () => {
  const before = counts({ "a.py": [['Import "pkg.old" could not be resolved', 1]] });
  const after = counts({ "b.py": [['Import "pkg.new" could not be resolved', 1]] });
  assertEquals(introducedErrors(before, after, (f) => (f === "a.py" ? "b.py" : f)), []);
});

Deno.test("move proof: one more error of a kind a file already had is new", () => {
  const before = counts({ "a.py": [['Import "x" could not be resolved', 1]] });
  const after = counts({
    "a.py": [['Import "x" could not be resolved', 1], [
      'Import "pkg.new" could not be resolved',
      3,
    ]],
    "c.py": [["Expected expression", 2]],
  });
  assertEquals(introducedErrors(before, after, (f) => f), [
    { relPath: "a.py", line: 3, message: 'Import "pkg.new" could not be resolved' },
    { relPath: "c.py", line: 2, message: "Expected expression" },
  ]);
});
