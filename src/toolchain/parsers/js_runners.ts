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

function vitestFailures(lines: string[], root: string): TestFailure[] {
  const failures: TestFailure[] = [];
  for (let i = 0; i < lines.length; i++) {
    const head = /^\s*FAIL\s+(\S+) > (.+)$/.exec(lines[i]!);
    if (!head) continue;
    const message: string[] = [];
    const failure: TestFailure = { name: head[2]!.trim(), message: "" };
    failure.file = toProjectPath(root, head[1]!);
    for (i++; i < lines.length; i++) {
      const line = lines[i]!;
      if (/^\s*FAIL\s/.test(line) || /^[⎯-]{5,}/.test(line)) {
        i--;
        break;
      }
      const at = /^\s*[❯›>]\s+(\S+?):(\d+):(\d+)\s*$/.exec(line);
      if (at) {
        failure.file = toProjectPath(root, at[1]!);
        failure.line = Number(at[2]);
        failure.column = Number(at[3]);
        // The code frame follows; the message is complete.
        for (
          i++;
          i < lines.length && !/^\s*FAIL\s/.test(lines[i]!) && !/^[⎯-]{5,}/.test(lines[i]!);
          i++
        );
        i--;
        break;
      }
      if (line.trim()) message.push(line.trimEnd());
    }
    failure.message = message.slice(0, 12).join("\n");
    failures.push(failure);
  }
  return failures;
}

function jestFailures(lines: string[], root: string): TestFailure[] {
  const failures: TestFailure[] = [];
  for (let i = 0; i < lines.length; i++) {
    const head = /^\s*● (.+)$/.exec(lines[i]!);
    if (!head || head[1]!.startsWith("Test suite failed")) continue;
    const message: string[] = [];
    const failure: TestFailure = { name: head[1]!.replaceAll(" › ", " > ").trim(), message: "" };
    for (i++; i < lines.length && !/^\s*● /.test(lines[i]!); i++) {
      const line = lines[i]!;
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
 */
export function parseJsTestOutput(output: string, root: string): TestSummary {
  const summary = emptySummary();
  const lines = output.replace(ANSI, "").split("\n");
  for (const line of lines) {
    const vitest = /^\s*Tests\s+(.+?)\s+\(\d+\)\s*$/.exec(line);
    const jest = /^Tests:\s+(.+?), \d+ total\s*$/.exec(line);
    const node = /^(?:#|ℹ) (pass|fail|skipped|todo) (\d+)$/.exec(line.trim());
    if (vitest) {
      summary.recognized = true;
      countParts(vitest[1]!, /\s*\|\s*/, summary);
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
