/**
 * tsc: `tsc --noEmit --pretty false` prints `file(line,col): error TS2322: message`, with more
 * message lines indented below.
 * @module
 */
import { toProjectPath } from "../reported_paths.ts";
import type { Diagnostic } from "../types.ts";

const HEADER = /^(.+?)\((\d+),(\d+)\): (error|warning|message) (TS\d+): (.*)$/;
const GLOBAL = /^(error|warning) (TS\d+): (.*)$/;

/** Diagnostics from tsc's plain (`--pretty false`) output. */
export function parseTsc(output: string, root: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  let last: Diagnostic | null = null;
  for (const line of output.split("\n")) {
    const header = HEADER.exec(line);
    const global = header ? null : GLOBAL.exec(line);
    if (header || global) {
      const severity = (header?.[4] ?? global![1]) === "error"
        ? "error"
        : (header?.[4] ?? global![1]) === "warning"
        ? "warning"
        : "info";
      last = {
        file: header ? toProjectPath(root, header[1]!) : "",
        line: header ? Number(header[2]) : 0,
        column: header ? Number(header[3]) : 0,
        severity,
        message: header ? header[6]! : global![3]!,
        code: header ? header[5]! : global![2]!,
        source: "tsc",
      };
      diagnostics.push(last);
    } else if (last && /^\s+\S/.test(line)) {
      last.message += "\n" + line.trimEnd();
    } else {
      last = null;
    }
  }
  return diagnostics;
}
