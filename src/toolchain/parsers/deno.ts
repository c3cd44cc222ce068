/**
 * Deno: the text output of `deno check` and `deno test` (run with NO_COLOR).
 * @module
 */
import { toProjectPath } from "../reported_paths.ts";
import { type Diagnostic, emptySummary, type TestSummary } from "../types.ts";

// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;
const TS_HEADER = /^(TS\d+) \[(ERROR|WARNING)\]: (.*)$/;
const ERROR_HEADER = /^error: (.*)$/;
const AT_LOCATION = /^\s+at (\S+?):(\d+):(\d+)$/;

/**
 * Diagnostics from `deno check`: `TS2322 [ERROR]: message`, more message lines, the code line
 * with its `~~~` marker, then `at file:///path:line:col`. Also plain `error: ...` followed by an
 * `at` line (module resolution errors).
 */
export function parseDenoCheck(output: string, root: string): Diagnostic[] {
  const lines = output.replace(ANSI, "").split("\n");
  const diagnostics: Diagnostic[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const ts = TS_HEADER.exec(line);
    const plain = ts ? null : ERROR_HEADER.exec(line);
    if (!ts && !plain) continue;
    const body: string[] = [];
    let at: RegExpExecArray | null = null;
    let j = i + 1;
    for (; j < lines.length && j <= i + 40; j++) {
      at = AT_LOCATION.exec(lines[j]!);
      if (at || TS_HEADER.test(lines[j]!)) break;
      body.push(lines[j]!);
    }
    if (!at) continue; // e.g. the closing "error: Type checking failed."
    // The two lines before "at" are the source line and its ~~~ marker.
    if (body.length >= 2 && /^\s*~+\s*$/.test(body[body.length - 1]!)) body.splice(-2);
    const message = [ts ? ts[3]! : plain![1]!, ...body.map((l) => l.trimEnd())]
      .filter((l) => l.trim() !== "").join("\n");
    const diagnostic: Diagnostic = {
      file: toProjectPath(root, at[1]!),
      line: Number(at[2]),
      column: Number(at[3]),
      severity: ts?.[2] === "WARNING" ? "warning" : "error",
      message,
      source: "deno",
    };
    if (ts) diagnostic.code = ts[1]!;
    diagnostics.push(diagnostic);
    i = j;
  }
  return diagnostics;
}

const TEST_LINE = /^(\s*)(.+?) \.\.\. (ok|FAILED|ignored)(?: \(.*\))?$/;
const FINAL_LINE =
  /^(?:ok|FAILED) \| (\d+) passed(?: \((\d+) steps?\))? \| (\d+) failed(?: \((\d+) steps?\))?(?: \| (\d+) ignored)?/;
const ERROR_ENTRY = /^(.+?) => (\S+?):(\d+):(\d+)$/;

/**
 * Counts and failures from `deno test`: the final `ok | N passed | N failed` line and the
 * ERRORS section, where each failure is `name => ./file:line:col` followed by its error.
 */
export function parseDenoTest(output: string, root: string): TestSummary {
  const summary = emptySummary();
  const lines = output.replace(ANSI, "").split("\n");
  let ignoredSeen = 0;
  for (const line of lines) {
    const final = FINAL_LINE.exec(line);
    if (final) {
      summary.recognized = true;
      summary.passed += Number(final[1]);
      summary.failed += Number(final[3]);
      summary.ignored += Number(final[5] ?? 0);
    }
    const test = TEST_LINE.exec(line);
    if (test?.[3] === "ignored") ignoredSeen++;
  }
  if (summary.recognized && summary.ignored === 0) summary.ignored = ignoredSeen;
  const errorsAt = lines.findIndex((l) => l.trim() === "ERRORS");
  const failuresAt = lines.findIndex((l, i) => i > errorsAt && l.trim() === "FAILURES");
  if (errorsAt < 0) return summary;
  const end = failuresAt < 0 ? lines.length : failuresAt;
  for (let i = errorsAt + 1; i < end; i++) {
    const entry = ERROR_ENTRY.exec(lines[i]!);
    if (!entry) continue;
    const body: string[] = [];
    for (i++; i < end && !ERROR_ENTRY.test(lines[i]!); i++) body.push(lines[i]!);
    i--;
    const messageLines = body.map((l) => l.trimEnd()).filter((l) => l.trim() !== "");
    const firstError = Math.max(0, messageLines.findIndex((l) => l.startsWith("error: ")));
    // Keep the error text; drop stack frames and the quoted source line with its ^ marker.
    const kept = messageLines.slice(firstError).filter((l, k, all) =>
      !/^\s+at /.test(l) && !/^\s*\^+\s*$/.test(l) && !/^\s*\^+\s*$/.test(all[k + 1] ?? "")
    );
    const message = kept.slice(0, 12).join("\n").replace(/^error: /, "");
    summary.failures.push({
      name: entry[1]!.trim(),
      message,
      file: toProjectPath(root, entry[2]!),
      line: Number(entry[3]),
      column: Number(entry[4]),
    });
  }
  return summary;
}
