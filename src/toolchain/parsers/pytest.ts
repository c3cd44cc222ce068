/**
 * pytest: the closing line (`=== 1 failed, 2 passed in 0.1s ===`), the short summary
 * (`-rfE`: `FAILED path::test - message`) and the FAILURES section for locations.
 * @module
 */
import { toProjectPath } from "../reported_paths.ts";
import { emptySummary, type TestFailure, type TestSummary } from "../types.ts";

const CLOSING = /^=+ (.+?) in [\d.]+s(?: \([^)]*\))? =+$/;
const SHORT = /^(FAILED|ERROR) (\S+?)(?: - (.*))?$/;
const SECTION = /^_{3,} (.+?) _{3,}$/;
const FRAME = /^(\S+?\.py):(\d+): (\w[\w.]*)$/;

/** Counts and failures from pytest's output (run with `-rfE --color=no`). */
export function parsePytest(output: string, root: string): TestSummary {
  const summary = emptySummary();
  const lines = output.split("\n");
  for (const line of lines) {
    const closing = CLOSING.exec(line);
    if (!closing) continue;
    summary.recognized = true;
    summary.passed = 0;
    summary.failed = 0;
    summary.ignored = 0;
    for (const part of closing[1]!.split(", ")) {
      const count = /^(\d+) (\w+)$/.exec(part.trim());
      if (!count) continue;
      const n = Number(count[1]);
      const kind = count[2]!;
      if (kind === "passed" || kind === "xpassed") summary.passed += n;
      else if (kind === "failed" || kind === "error" || kind === "errors") summary.failed += n;
      else if (kind === "skipped" || kind === "xfailed" || kind === "deselected") {
        summary.ignored += n;
      }
    }
  }
  // Where each failure happened: the FAILURES/ERRORS sections, headed "____ test_name ____".
  const frames = new Map<string, Array<{ file: string; line: number }>>();
  let current: string | null = null;
  for (const line of lines) {
    const section = SECTION.exec(line);
    if (section) {
      current = section[1]!.replace(/^(ERROR at \w+ of )/, "");
      frames.set(current, []);
      continue;
    }
    if (/^=+ /.test(line)) current = null;
    const frame = current ? FRAME.exec(line) : null;
    if (frame) frames.get(current!)!.push({ file: frame[1]!, line: Number(frame[2]) });
  }
  for (const [i, line] of lines.entries()) {
    const short = SHORT.exec(line);
    if (!short) continue;
    const nodeId = short[2]!;
    // A multi-line message continues until the next summary entry or the closing line.
    const more: string[] = [];
    for (let j = i + 1; j < lines.length && more.length < 10; j++) {
      const next = lines[j]!;
      if (SHORT.test(next) || /^=+ /.test(next) || next.trim() === "") break;
      more.push(next.trim());
    }
    const first = short[3] ?? (short[1] === "ERROR" ? "error during collection or setup" : "");
    const failure: TestFailure = { name: nodeId, message: [first, ...more].join("\n") };
    const testFile = nodeId.split("::")[0]!;
    // The section title is the test's name after its file, with "." between class and method.
    const title = nodeId.split("::").slice(1).join(".");
    const found = frames.get(title) ?? frames.get(nodeId.split("::").pop() ?? "") ?? [];
    const best = found.filter((f) => f.file === testFile).pop() ?? found[found.length - 1];
    if (best) {
      failure.file = toProjectPath(root, best.file);
      failure.line = best.line;
    } else if (testFile.endsWith(".py")) {
      failure.file = toProjectPath(root, testFile);
    }
    summary.failures.push(failure);
  }
  return summary;
}
