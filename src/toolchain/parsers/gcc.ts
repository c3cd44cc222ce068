/**
 * C and C++ builds: GCC and Clang diagnostics (`file:line:col: error: message [-Wflag]`, with
 * make's `Entering directory` lines for relative paths), the linker's located `undefined
 * reference` errors, and CTest's test report (`1/2 Test #1: name ... Passed`, the failed test's
 * output with `--output-on-failure`, `50% tests passed, 1 tests failed out of 2`).
 * @module
 */
import { toProjectPath } from "../reported_paths.ts";
import { type Diagnostic, emptySummary, type Severity, type TestSummary } from "../types.ts";

const LOCATION =
  /^(.+?):(\d+):(?:(\d+):)? (fatal error|error|warning|note|remark): (.*?)(?: \[(-W[\w=+-]+|-Werror[\w=+-]*)\])?$/;
const LINKER = /^(?:\S*ld(?:\.\w+)?: )?(.+?\.\w+):(\d+):(?:\(\S+\):)? (undefined reference to .*)$/;
const ENTERING = /^\S*make(?:\[\d+\])?: Entering directory ['`‘](.+?)['’]$/;
const LEAVING = /^\S*make(?:\[\d+\])?: Leaving directory/;

/**
 * Diagnostics from a GCC or Clang build (`make`, `cmake --build` or `ctest --build-and-test`).
 * A `note:` is added to the message of the diagnostic it follows; a note with nothing before
 * it is dropped. Relative file names are resolved against make's current directory.
 */
export function parseGcc(output: string, root: string, source = "cc"): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const dirs: string[] = [];
  for (const raw of output.split("\n")) {
    const line = raw.trimEnd();
    const entering = ENTERING.exec(line);
    if (entering) {
      dirs.push(entering[1]!);
      continue;
    }
    if (LEAVING.test(line)) {
      dirs.pop();
      continue;
    }
    const base = dirs[dirs.length - 1] ?? root;
    const match = LOCATION.exec(line);
    if (match) {
      const kind = match[4]!;
      const file = toProjectPath(root, match[1]!, base);
      if (kind === "note" || kind === "remark") {
        const previous = diagnostics[diagnostics.length - 1];
        if (previous) {
          const where = previous.file === file && previous.line === Number(match[2])
            ? ""
            : ` (${file}:${match[2]})`;
          previous.message += `; note: ${match[5]!}${where}`;
        }
        continue;
      }
      const severity: Severity = kind === "warning" ? "warning" : "error";
      const diagnostic: Diagnostic = {
        file,
        line: Number(match[2]),
        column: Number(match[3] ?? 1),
        severity,
        message: match[5]!,
        source,
      };
      if (match[6]) diagnostic.code = match[6];
      diagnostics.push(diagnostic);
      continue;
    }
    const linker = LINKER.exec(line);
    if (linker) {
      diagnostics.push({
        file: toProjectPath(root, linker[1]!, base),
        line: Number(linker[2]),
        column: 1,
        severity: "error",
        message: linker[3]!,
        source: "ld",
      });
    }
  }
  return diagnostics;
}

const CTEST_RESULT = /^\s*\d+\/\d+ Test\s+#\d+: (\S+) \.*\s*(\*{0,3})(\S.*?)\s+[\d.]+ sec$/;
const CTEST_CLOSING = /^\d+% tests passed, (\d+) tests? failed out of (\d+)$/;
/** `prog: file.c:12: main: Assertion `x' failed.` (glibc's assert). */
const ASSERTION = /^(?:\S+: )?(\S+?\.\w+):(\d+): (?:.*?: )?(Assertion .*)$/;
/** A located failure from a test framework or a sanitizer: `file.c:12: message`. */
const LOCATED = /^(\S+?\.(?:c|cc|cpp|cxx|h|hpp)):(\d+):(?:(\d+):)? (.*)$/;

/**
 * Counts and failures from a CTest run (`ctest --output-on-failure`, alone or as the test
 * command of `ctest --build-and-test`). A failed test's message is its output; its location is
 * the first assertion or `file:line:` line of that output.
 */
export function parseCTest(output: string, root: string): TestSummary {
  const summary = emptySummary();
  const lines = output.split("\n").map((l) => l.trimEnd());
  let total: number | null = null;
  let failedTotal = 0;
  for (let i = 0; i < lines.length; i++) {
    const closing = CTEST_CLOSING.exec(lines[i]!);
    if (closing) {
      summary.recognized = true;
      failedTotal = Number(closing[1]);
      total = Number(closing[2]);
      continue;
    }
    if (lines[i] === "No tests were found!!!") summary.recognized = true;
    const result = CTEST_RESULT.exec(lines[i]!);
    if (!result) continue;
    summary.recognized = true;
    const [, name, , status] = result;
    if (status === "Passed") {
      summary.passed++;
      continue;
    }
    // A disabled test (DISABLED property) or one that asked to be skipped (SKIP_RETURN_CODE).
    if (/^(Skipped|Not Run \(Disabled\)|Disabled)/.test(status!)) {
      summary.ignored++;
      continue;
    }
    summary.failed++;
    // --output-on-failure: the test's output follows its result line, up to the next test.
    const body: string[] = [];
    for (let j = i + 1; j < lines.length; j++) {
      const next = lines[j]!;
      if (/^\s*Start\s+\d+: /.test(next) || CTEST_RESULT.test(next) || CTEST_CLOSING.test(next)) {
        break;
      }
      body.push(next);
    }
    const text = body.map((l) => l.trim()).filter(Boolean);
    const failure: TestSummary["failures"][number] = {
      name: name!,
      message: [status!.replace(/\*+/g, " ").replace(/:$/, "").trim(), ...text].slice(0, 13).join(
        "\n",
      ),
    };
    for (const l of text) {
      const located = ASSERTION.exec(l) ?? LOCATED.exec(l);
      if (located) {
        failure.file = toProjectPath(root, located[1]!);
        failure.line = Number(located[2]);
        break;
      }
    }
    summary.failures.push(failure);
  }
  // Without per-test lines (ctest -Q), the closing line still gives the counts.
  if (total !== null && summary.passed + summary.failed + summary.ignored === 0) {
    summary.failed = failedTotal;
    summary.passed = total - failedTotal;
  }
  return summary;
}
