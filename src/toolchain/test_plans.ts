/**
 * How each toolchain runs a project's tests, with an optional filter for one test, and how its
 * output becomes a summary (counts, failures with messages and locations, build errors).
 * @module
 */
import { join } from "node:path";
import { notCargoJson, PLAIN_ENV, type SkippedPlan } from "./checks.ts";
import { cTests } from "./c_projects.ts";
import { findExecutable, projectProgram } from "../executables.ts";
import { projectPythonRun } from "./python_env.ts";
import { findDeno } from "./detect.ts";
import type { DetectedToolchain } from "./detect.ts";
import { parseCargoMessages, parseLibtestOutput } from "./parsers/cargo.ts";
import { parseDenoCheck, parseDenoTest } from "./parsers/deno.ts";
import { parseGoTestJson, parseGoVet } from "./parsers/go_tool.ts";
import { parseJsTestOutput } from "./parsers/js_runners.ts";
import { parsePytest } from "./parsers/pytest.ts";
import type { RunResult } from "./run.ts";
import type { Diagnostic, TestSummary, ToolchainId } from "./types.ts";

/** What a test run's output says: the summary and any errors that kept tests from building. */
export interface TestOutcome {
  summary: TestSummary;
  buildErrors: Diagnostic[];
}

/** A test command and how to read its output. */
export interface TestPlan {
  toolchain: ToolchainId;
  argv: string[];
  /** The command as the answer shows it, when it differs from `argv` (a launcher before it). */
  display?: string[];
  env: Record<string, string>;
  parse(result: RunResult, root: string): TestOutcome;
  /** Something the agent should know (e.g. the filter could not be applied). */
  note?: string;
  /** Which output lines belong in the raw output tail (default all). */
  keepInTail?: (line: string) => boolean;
}

/** Options of {@linkcode planTests}. */
export interface TestOptions {
  /** Run only tests matching this name (each runner's own filter semantics). */
  testName?: string | undefined;
  /** Ask for backtraces on failure (Rust: RUST_BACKTRACE=1). */
  backtrace?: boolean;
}

const both = (result: RunResult) => `${result.stdout}\n${result.stderr}`;

function readJson(path: string): Record<string, unknown> | null {
  try {
    return JSON.parse(Deno.readTextFileSync(path)) as Record<string, unknown>;
  } catch {
    return null;
  }
}

function goModulePath(root: string): string {
  try {
    return /^module\s+(\S+)/m.exec(Deno.readTextFileSync(join(root, "go.mod")))?.[1] ?? "";
  } catch {
    return "";
  }
}

/** npm's placeholder test script, which only fails. */
const NPM_DEFAULT_TEST = /no test specified/;

function nodePlan(root: string, options: TestOptions): TestPlan | SkippedPlan {
  const pkg = readJson(join(root, "package.json")) ?? {};
  const scripts = (pkg.scripts ?? {}) as Record<string, string>;
  const deps = {
    ...(pkg.dependencies as Record<string, string> | undefined),
    ...(pkg.devDependencies as Record<string, string> | undefined),
  };
  const script = scripts.test && !NPM_DEFAULT_TEST.test(scripts.test) ? scripts.test : null;
  const env = { ...PLAIN_ENV };
  const parse = (result: RunResult): TestOutcome => ({
    summary: parseJsTestOutput(both(result), root),
    buildErrors: [],
  });
  // The runner alone (`vitest run`, `jest`) starts directly, so that a test_name reaches it; any
  // other script runs as it is written (its flags, its config, the commands before it).
  const bare = /^\s*(vitest|jest)(?:\s+(?:run|--run|--ci))*\s*$/.exec(script ?? "")?.[1];
  const runner = bare ??
    (script ? null : "vitest" in deps ? "vitest" : "jest" in deps ? "jest" : null);
  if (runner) {
    const bin = findExecutable(runner, { projectRoot: root, useToolCache: false });
    if (bin) {
      const args = runner === "vitest" ? ["run"] : ["--ci"];
      if (options.testName) args.push("-t", options.testName);
      return { toolchain: "node", argv: projectProgram(bin, args, root), env, parse };
    }
  }
  if (!script) {
    return { toolchain: "node", skipped: "package.json has no test script." };
  }
  const npm = findExecutable("npm", { useToolCache: false });
  if (!npm) return { toolchain: "node", skipped: "npm was not found (install Node.js)." };
  const plan: TestPlan = { toolchain: "node", argv: [npm, "test"], env, parse };
  if (options.testName) {
    // npm passes what follows `--` to the script's last command.
    if (/\b(?:vitest|jest)\b[^&|;]*$/.test(script)) {
      plan.argv.push("--", "-t", options.testName);
    } else if (/\bnode\b[^&|;]*--test\b[^&|;]*$/.test(script)) {
      plan.argv.push("--", `--test-name-pattern=${options.testName}`);
    } else {
      plan.note = `The test script '${script}' has no known filter option; all tests ran.`;
    }
  }
  return plan;
}

/**
 * The test run of one toolchain: `cargo test`, `deno test -A`, Vitest/Jest/`npm test`,
 * `python -m pytest`, `go test -json ./...`, CTest or `make test` for C/C++.
 */
export async function planTests(
  root: string,
  toolchain: DetectedToolchain,
  options: TestOptions = {},
): Promise<TestPlan | SkippedPlan> {
  const name = options.testName;
  switch (toolchain.id) {
    case "rust": {
      const cargo = findExecutable("cargo", { useToolCache: false });
      if (!cargo) return { toolchain: "rust", skipped: "cargo was not found." };
      const argv = [cargo, "test", "--workspace", "--no-fail-fast", "--message-format=json"];
      if (name) argv.push(name);
      return {
        toolchain: "rust",
        argv,
        env: { ...PLAIN_ENV, RUST_BACKTRACE: options.backtrace ? "1" : "0" },
        keepInTail: notCargoJson,
        parse: (result) => ({
          summary: parseLibtestOutput(result.stdout, root),
          buildErrors: parseCargoMessages(result.stdout, root).filter((d) =>
            d.severity === "error"
          ),
        }),
      };
    }
    case "deno": {
      const deno = findDeno();
      if (!deno) return { toolchain: "deno", skipped: "deno was not found." };
      const argv = [deno, "test", "-A"];
      if (name) argv.push("--filter", name);
      return {
        toolchain: "deno",
        argv,
        env: { ...PLAIN_ENV, RUST_BACKTRACE: "0" },
        parse: (result) => {
          const summary = parseDenoTest(result.stdout, root);
          // Type errors stop `deno test` before any test runs.
          const buildErrors = summary.recognized ? [] : parseDenoCheck(both(result), root);
          return { summary, buildErrors };
        },
      };
    }
    case "node":
      return nodePlan(root, options);
    case "typescript":
      return { toolchain: "typescript", skipped: "no package.json with a test script." };
    case "python": {
      const run = await projectPythonRun(root, "pytest");
      if ("missing" in run) return { toolchain: "python", skipped: run.missing };
      const args = ["-m", "pytest", "-rfE", "--color=no"];
      if (name) {
        // A node id (tests/test_x.py::test_y) selects exactly; a bare name is a -k expression.
        if (name.includes("::") || name.endsWith(".py")) args.push(name);
        else args.push("-k", name);
      }
      return {
        toolchain: "python",
        argv: [...run.launch, ...args],
        display: [run.interpreter, ...args],
        env: { ...PLAIN_ENV, ...run.env, PYTHONDONTWRITEBYTECODE: "1" },
        note: run.note,
        parse: (result) => ({ summary: parsePytest(result.stdout, root), buildErrors: [] }),
      };
    }
    case "go": {
      const go = findExecutable("go", { useToolCache: false });
      if (!go) return { toolchain: "go", skipped: "go was not found." };
      const argv = [go, "test", "-json", "./..."];
      if (name) argv.push("-run", name);
      const module = goModulePath(root);
      return {
        toolchain: "go",
        argv,
        env: { ...PLAIN_ENV },
        // The JSON events' Output fields hold the readable text; the events themselves are noise.
        keepInTail: (line) => !line.startsWith("{"),
        parse: (result) => {
          const summary = parseGoTestJson(result.stdout, root, module);
          // Build failures are printed as plain compiler lines.
          const buildErrors = parseGoVet(both(result), root).filter((d) => d.severity === "error");
          return { summary, buildErrors };
        },
      };
    }
    case "c": {
      const plan = cTests(root, toolchain.marker, { ...PLAIN_ENV }, name);
      if (typeof plan === "string") return { toolchain: "c", skipped: plan };
      return { toolchain: "c", ...plan, parse: (result) => plan.parse(result) };
    }
    case "ada":
      return {
        toolchain: "ada",
        skipped: "Ada has no standard test runner: build your test driver with check_project " +
          "and run it with a shell command.",
      };
  }
}
