/**
 * JavaScript test runners behind `npm test`: Vitest, Jest and Node's built-in runner (TAP and
 * spec reporters). Output is read as text, colours off.
 * @module
 */
import { toProjectPath } from "../reported_paths.ts";
import { emptySummary, type TestFailure, type TestSummary } from "../types.ts";

// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;

function countParts(text: string, separator: RegExp, summary: TestSummary): void {
  for (const part of text.split(separator)) {
    const match = /^(\d+) (\w+)$/.exec(part.trim());
    if (!match) continue;
    const n = Number(match[1]);
    if (match[2] === "passed") summary.passed += n;
    else if (match[2] === "failed") summary.failed += n;
    else if (match[2] === "skipped" || match[2] === "todo" || match[2] === "pending") {
      summary.ignored += n;
    }
  }
}

/** A failure header: a test (`FAIL  file > suite > test`) or a file that failed to load. */
const VITEST_HEAD = /^\s*FAIL\s+(\S+?)(?: > (.+)| \[ .+ \])\s*$/;
/** A stack frame: ` ❯ file:line:col`, or ` ❯ fn file:line:col` below the code of a callee. */
const VITEST_FRAME = /^\s*[❯›]\s+(?:\S.*?\s+)?(\S+?):(\d+):(\d+)\s*$/;
/** The rule that closes each failure (`⎯⎯⎯[1/5]⎯`) or heads a section. */
const VITEST_RULE = /^\s*⎯{3,}/;

/**
 * Vitest's failures: each block has its FAIL headers (several tests with the same error share
 * one block), the error's message, then stack frames with code excerpts. The location is the
 * first frame outside node_modules: where the error was thrown, in the test or in the code
 * under test.
 */
function vitestFailures(lines: string[], root: string): TestFailure[] {
  const failures: TestFailure[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!VITEST_HEAD.test(lines[i]!)) continue;
    const heads: TestFailure[] = [];
    for (; i < lines.length; i++) {
      const head = VITEST_HEAD.exec(lines[i]!);
      if (!head) break;
      const file = toProjectPath(root, head[1]!);
      // A file that failed to load is named by its path.
      heads.push({ name: head[2]?.trim() ?? file, message: "", file });
    }
    const message: string[] = [];
    let at: { file: string; line: number; column: number } | null = null;
    let inFrames = false;
    for (; i < lines.length; i++) {
      const line = lines[i]!;
      if (VITEST_HEAD.test(line) || VITEST_RULE.test(line)) break;
      const frame = VITEST_FRAME.exec(line);
      if (frame) {
        inFrames = true;
        if (!at && !frame[1]!.includes("node_modules")) {
          at = { file: toProjectPath(root, frame[1]!), line: Number(frame[2]), column: +frame[3]! };
        }
      } else if (!inFrames && line.trim()) {
        message.push(line.trimEnd());
      }
    }
    i--;
    for (const failure of heads) {
      failure.message = message.slice(0, 12).join("\n");
      if (at) Object.assign(failure, at);
      failures.push(failure);
    }
  }
  return failures;
}

/** Jest's line for a test file's result (`FAIL src/x.test.js`), which ends the failures before it. */
const JEST_FILE = /^(FAIL|PASS)\s+(\S+)/;
/** Jest's head of a file that failed to load (its tests never ran). */
const JEST_SUITE_FAILED = "Test suite failed to run";

/**
 * Jest's failures: each `● suite › test` block has the message, a code excerpt, then the stack
 * (`at fn (file:line:col)`). The location is the first frame outside node_modules. A file that
 * failed to load (`● Test suite failed to run`) is named by its path.
 */
function jestFailures(lines: string[], root: string): TestFailure[] {
  const failures: TestFailure[] = [];
  let file: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const result = JEST_FILE.exec(lines[i]!);
    if (result) file = toProjectPath(root, result[2]!);
    const head = /^\s*● (.+)$/.exec(lines[i]!);
    if (!head) continue;
    const suite = head[1]!.trim() === JEST_SUITE_FAILED;
    const failure: TestFailure = {
      name: suite ? file ?? JEST_SUITE_FAILED : head[1]!.replaceAll(" › ", " > ").trim(),
      message: "",
    };
    if (suite && file) failure.file = file;
    const message: string[] = [];
    for (i++; i < lines.length; i++) {
      const line = lines[i]!;
      if (/^\s*● /.test(line) || JEST_FILE.test(line) || /^Test Suites:/.test(line)) break;
      const at = /\(?((?:\/|\.{0,2}\/?)[^\s():]+?\.[cm]?[jt]sx?):(\d+):(\d+)\)?\s*$/.exec(line);
      if (/^\s+at /.test(line)) {
        if (at && failure.line === undefined && !at[1]!.includes("node_modules")) {
          failure.file = toProjectPath(root, at[1]!);
          failure.line = Number(at[2]);
          failure.column = Number(at[3]);
        }
        continue;
      }
      if (/^\s*\d+ \|/.test(line) || /^\s*>\s*\d+ \|/.test(line) || /^\s*\|\s*\^/.test(line)) {
        continue;
      }
      if (line.trim()) message.push(line.trim());
    }
    i--;
    failure.message = message.slice(0, 12).join("\n");
    failures.push(failure);
  }
  return failures;
}

function tapFailures(lines: string[], root: string): TestFailure[] {
  const failures: TestFailure[] = [];
  for (let i = 0; i < lines.length; i++) {
    const head = /^\s*not ok \d+ - (.+?)(?: # .*)?$/.exec(lines[i]!);
    if (!head) continue;
    const failure: TestFailure = { name: head[1]!.trim(), message: "" };
    const indent = /^\s*/.exec(lines[i]!)![0].length;
    const message: string[] = [];
    let inError = false;
    for (i++; i < lines.length; i++) {
      const line = lines[i]!;
      const lead = /^\s*/.exec(line)![0].length;
      if (line.trim() === "...") break;
      if (line.trim() && lead <= indent && !line.trim().startsWith("---")) {
        i--;
        break;
      }
      const location = /^\s*location: '(.+):(\d+):(\d+)'$/.exec(line);
      if (location) {
        failure.file = toProjectPath(root, location[1]!);
        failure.line = Number(location[2]);
        failure.column = Number(location[3]);
      }
      const error = /^\s*error: (.*)$/.exec(line);
      if (error) {
        inError = error[1] === "|-" || error[1] === "|";
        if (!inError) message.push(error[1]!.replace(/^'|'$/g, ""));
        continue;
      }
      if (inError) {
        if (/^\s*\w+: /.test(line) && lead <= indent + 2) inError = false;
        else if (line.trim()) message.push(line.trim());
      }
    }
    failure.message = message.slice(0, 12).join("\n");
    failures.push(failure);
  }
  // Node reports a failing suite and its failing test both; keep the innermost ones.
  return failures.filter((f) => !/^\d+ subtests? failed$/.test(f.message));
}

/**
 * Counts and failures from a JavaScript test run: Vitest (`Tests  1 failed | 2 passed (3)`),
 * Jest (`Tests: 1 failed, 2 passed, 3 total`), Node's runner (TAP `# pass 2`, spec `ℹ pass 2`).
 * A file that fails to load (Vitest's `FAIL  file [ file ]`, Jest's `● Test suite failed to run`)
 * runs none of its tests, and the runner's `Tests` line does not count it: it counts as one
 * failed test here, so that it is not lost.
 */
export function parseJsTestOutput(output: string, root: string): TestSummary {
  const summary = emptySummary();
  const lines = output.replace(ANSI, "").split("\n");
  const failedFiles = new Set<string>();
  for (const line of lines) {
    const vitest = /^\s*Tests\s+(.+?)\s+\(\d+\)\s*$/.exec(line);
    const failedFile = /^\s*FAIL\s+(\S+) \[ .+ \]\s*$/.exec(line);
    const jest = /^Tests:\s+(.+?), \d+ total\s*$/.exec(line);
    const node = /^(?:#|ℹ) (pass|fail|skipped|todo) (\d+)$/.exec(line.trim());
    if (vitest) {
      summary.recognized = true;
      countParts(vitest[1]!, /\s*\|\s*/, summary);
    } else if (/^\s*Tests\s+no tests\s*$/.test(line)) {
      summary.recognized = true;
    } else if (failedFile && !failedFiles.has(failedFile[1]!)) {
      failedFiles.add(failedFile[1]!);
      summary.failed++;
    } else if (line.trim() === `● ${JEST_SUITE_FAILED}`) {
      summary.failed++;
    } else if (jest) {
      summary.recognized = true;
      countParts(jest[1]!, /,\s*/, summary);
    } else if (node) {
      summary.recognized = true;
      const n = Number(node[2]);
      if (node[1] === "pass") summary.passed += n;
      else if (node[1] === "fail") summary.failed += n;
      else summary.ignored += n;
    }
  }
  summary.failures = [
    ...vitestFailures(lines, root),
    ...jestFailures(lines, root),
    ...tapFailures(lines, root),
  ];
  return summary;
}
