/**
 * The cargo parser on recorded output: cargo's JSON messages and libtest's test output.
 * @module
 */
import { assertEquals } from "../../../tests/helpers/assert.ts";
import { parseCargoMessages, parseLibtestOutput } from "./cargo.ts";

Deno.test("cargo JSON messages become diagnostics; summary lines are dropped", () => {
  const line = (level: string, message: string, spans: unknown[], code: string | null = null) =>
    JSON.stringify({
      reason: "compiler-message",
      manifest_path: "/nowhere/Cargo.toml",
      message: { level, message, code: code ? { code } : null, spans },
    });
  const span = {
    file_name: "src/lib.rs",
    is_primary: true,
    line_start: 3,
    line_end: 3,
    column_start: 5,
    column_end: 9,
    label: "expected `u32`",
  };
  const output = [
    line("error", "mismatched types", [span], "E0308"),
    line("error", "aborting due to 1 previous error", []),
    '{"reason":"build-finished","success":false}',
  ].join("\n");
  const [d, ...rest] = parseCargoMessages(output, "/nowhere");
  assertEquals(rest.length, 0);
  assertEquals(d?.file, "src/lib.rs");
  assertEquals([d?.line, d?.column, d?.end_column], [3, 5, 9]);
  assertEquals(d?.message, "mismatched types: expected `u32`");
  assertEquals(d?.code, "E0308");
});

Deno.test("libtest output: counts over binaries, panic messages in old and new formats", () => {
  const output = `
running 2 tests
test a::new_style ... FAILED
test a::old_style ... FAILED

failures:

---- a::new_style stdout ----

thread 'a::new_style' (99) panicked at src/a.rs:10:5:
assertion failed: x
  left: 1
note: run with \`RUST_BACKTRACE=1\` environment variable to display a backtrace

---- a::old_style stdout ----
thread 'a::old_style' panicked at 'boom', src/b.rs:3:9

failures:
    a::new_style
    a::old_style

test result: FAILED. 0 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

running 3 tests
test result: ok. 2 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s
`;
  const summary = parseLibtestOutput(output, "/p");
  assertEquals([summary.passed, summary.failed, summary.ignored], [2, 2, 1]);
  assertEquals(summary.failures[0], {
    name: "a::new_style",
    message: "assertion failed: x\n  left: 1",
    file: "src/a.rs",
    line: 10,
    column: 5,
  });
  assertEquals(summary.failures[1]?.message, "boom");
  assertEquals(summary.failures[1]?.file, "src/b.rs");
});
