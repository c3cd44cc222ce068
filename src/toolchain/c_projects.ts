/**
 * C and C++ projects: found by `CMakeLists.txt`, or by a Makefile beside C/C++ sources. CMake
 * projects are configured and built by `ctest --build-and-test` in `.sextant/cmake-build` (one
 * command; the project's own build folders are left alone) and tested with CTest; Makefile
 * projects are built with `make -k` and tested with their `test` (or `check`) target. Finding
 * them is detect.ts's.
 * @module
 */
import { join } from "node:path";
import { findExecutable } from "../executables.ts";
import { parseCTest, parseGcc } from "./parsers/gcc.ts";
import type { RunResult } from "./run.ts";
import type { Diagnostic, TestSummary } from "./types.ts";

/** The build folder of CMake projects, inside the project's (always ignored) `.sextant`. */
export const CMAKE_BUILD_DIR = ".sextant/cmake-build";

/** A C plan: the command and how to read its output (the callers add their own fields). */
export interface CCommand {
  argv: string[];
  env: Record<string, string>;
  note?: string;
}

const both = (result: RunResult) => `${result.stdout}\n${result.stderr}`;

/** gcc's quotes in plain ASCII, whatever the user's locale. */
const C_ENV = { LC_ALL: "C" };

/** `ctest --build-and-test` arguments that configure and build a CMake project. */
function cmakeBuild(): string[] | string {
  const ctest = findExecutable("ctest", { useToolCache: false });
  if (!ctest) return "ctest was not found (install CMake: apt-get install cmake).";
  const make = findExecutable("make", { useToolCache: false });
  const ninja = make ? null : findExecutable("ninja", { useToolCache: false });
  if (!make && !ninja) return "neither make nor ninja was found (apt-get install make).";
  return [
    ctest,
    "--build-and-test",
    // Relative to the project root, where the command runs.
    ".",
    CMAKE_BUILD_DIR,
    "--build-generator",
    make ? "Unix Makefiles" : "Ninja",
    "--build-noclean",
  ];
}

/** The check of a C/C++ project: its build, with every compiler diagnostic. */
export function cCheck(
  root: string,
  marker: string,
  env: Record<string, string>,
): (CCommand & { parse(result: RunResult): Diagnostic[] }) | string {
  const parse = (result: RunResult) => parseGcc(both(result), root);
  if (marker === "CMakeLists.txt") {
    const argv = cmakeBuild();
    if (typeof argv === "string") return argv;
    return { argv, env: { ...env, ...C_ENV }, parse };
  }
  const make = findExecutable("make", { useToolCache: false });
  if (!make) return "make was not found (apt-get install make).";
  // -k: keep going after a failed file, so every file's errors are reported.
  return { argv: [make, "-k"], env: { ...env, ...C_ENV }, parse };
}

/** The make target that runs a Makefile project's tests, if it has one. */
function testTarget(root: string, marker: string): string | null {
  let text = "";
  try {
    text = Deno.readTextFileSync(join(root, marker));
  } catch {
    return null;
  }
  for (const target of ["test", "check"]) {
    if (new RegExp(`^${target}\\s*:(?!=)`, "m").test(text)) return target;
  }
  return null;
}

/** The test run of a C/C++ project: CTest after the build, or the Makefile's test target. */
export function cTests(
  root: string,
  marker: string,
  env: Record<string, string>,
  testName: string | undefined,
):
  | (CCommand & { parse(result: RunResult): { summary: TestSummary; buildErrors: Diagnostic[] } })
  | string {
  const parse = (result: RunResult) => {
    const output = both(result);
    return {
      summary: parseCTest(output, root),
      buildErrors: parseGcc(output, root).filter((d) => d.severity === "error"),
    };
  };
  if (marker === "CMakeLists.txt") {
    const build = cmakeBuild();
    if (typeof build === "string") return build;
    const argv = [...build, "--test-command", build[0]!, "--output-on-failure"];
    if (testName) argv.push("-R", testName);
    return { argv, env: { ...env, ...C_ENV }, parse };
  }
  const make = findExecutable("make", { useToolCache: false });
  if (!make) return "make was not found (apt-get install make).";
  const target = testTarget(root, marker);
  if (!target) return `${marker} has no test or check target.`;
  const plan: CCommand & { parse: typeof parse } = {
    argv: [make, target],
    env: { ...env, ...C_ENV },
    parse,
  };
  if (testName) plan.note = `make ${target} has no standard test filter; all tests ran.`;
  return plan;
}
