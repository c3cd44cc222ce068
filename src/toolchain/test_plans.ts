/**
 * How each toolchain runs a project's tests, with an optional filter for one test, and how its
 * output becomes a summary (counts, failures with messages and locations, build errors).
 * @module
 */
import { delimiter, join } from "node:path";
import { notCargoJson, PLAIN_ENV, type SkippedPlan } from "./checks.ts";
import { cTests } from "./c_projects.ts";
import { findExecutable, projectProgram, runGranted } from "../executables.ts";
import { findDeno } from "./detect.ts";
import type { DetectedToolchain } from "./detect.ts";
import { pathExists } from "./reported_paths.ts";
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

/** An interpreter to run pytest with, and the environment that gives it the project's venv. */
interface PythonRun {
  python: string;
  env: Record<string, string>;
}

async function canImportPytest(run: PythonRun): Promise<boolean> {
  try {
    const probe = await new Deno.Command(run.python, {
      args: ["-c", "import pytest"],
      env: run.env,
      stdout: "null",
      stderr: "null",
      stdin: "null",
    }).output();
    return probe.success;
  } catch {
    return false; // not runnable
  }
}

async function minorVersion(python: string): Promise<string | null> {
  try {
    const out = await new Deno.Command(python, {
      args: ["-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
      stdout: "piped",
      stderr: "null",
      stdin: "null",
    }).output();
    return out.success ? new TextDecoder().decode(out.stdout).trim() : null;
  } catch {
    return null;
  }
}

/**
 * The ways to run a project's virtual environment (`.venv` or `venv`): its own interpreter when
 * the permissions allow it; else, as the `sextant` set allows only the `python3` and `python`
 * found on PATH, that interpreter when it is the venv's Python version, with the venv's
 * site-packages first on its path (and the venv's `bin` first on PATH), as activating it would.
 */
async function venvRuns(root: string, system: readonly string[]): Promise<PythonRun[]> {
  const runs: PythonRun[] = [];
  for (const name of [".venv", "venv"]) {
    const venv = join(root, name);
    const own = join(venv, "bin", "python");
    if (!pathExists(own)) continue;
    if (runGranted(own)) {
      runs.push({ python: own, env: {} });
      continue;
    }
    let version: string | undefined;
    try {
      const cfg = Deno.readTextFileSync(join(venv, "pyvenv.cfg"));
      version = /^version(?:_info)?\s*=\s*(\d+\.\d+)/m.exec(cfg)?.[1];
    } catch { /* not a venv */ }
    if (!version) continue;
    const sitePackages: string[] = [];
    try {
      for (const entry of Deno.readDirSync(join(venv, "lib"))) {
        if (entry.name === `python${version}`) {
          sitePackages.push(join(venv, "lib", entry.name, "site-packages"));
        }
      }
    } catch { /* no lib folder */ }
    if (sitePackages.length === 0) continue;
    for (const python of system) {
      if (await minorVersion(python) !== version) continue;
      const path = [join(venv, "bin"), Deno.env.get("PATH") ?? ""].filter(Boolean).join(delimiter);
      runs.push({
        python,
        env: {
          VIRTUAL_ENV: venv,
          PATH: path,
          // In place of any PYTHONPATH of ours (which the permission set does not let us read).
          PYTHONPATH: sitePackages.join(delimiter),
        },
      });
      break;
    }
  }
  return runs;
}

/** A Python that can import pytest: the project's venv first, then PATH. */
async function pythonWithPytest(root: string): Promise<PythonRun | null> {
  const system = [
    findExecutable("python3", { useToolCache: false }),
    findExecutable("python", { useToolCache: false }),
    "/usr/bin/python3",
  ].filter((p): p is string => p !== null && pathExists(p));
  const runs = [
    ...await venvRuns(root, [...new Set(system)]),
    ...[...new Set(system)].map((python) => ({ python, env: {} })),
  ];
  for (const run of runs) if (await canImportPytest(run)) return run;
  return null;
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
  const runner = /\bvitest\b/.test(script ?? "") || ("vitest" in deps && !script)
    ? "vitest"
    : /\bjest\b/.test(script ?? "") || ("jest" in deps && !script)
    ? "jest"
    : null;
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
    if (/\bnode\b.*--test\b/.test(script)) {
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
      const run = await pythonWithPytest(root);
      if (!run) {
        return {
          toolchain: "python",
          skipped: "no Python with pytest was found (apt-get install python3-pytest, or pip).",
        };
      }
      const argv = [run.python, "-m", "pytest", "-rfE", "--color=no"];
      if (name) {
        // A node id (tests/test_x.py::test_y) selects exactly; a bare name is a -k expression.
        if (name.includes("::") || name.endsWith(".py")) argv.push(name);
        else argv.push("-k", name);
      }
      return {
        toolchain: "python",
        argv,
        env: { ...PLAIN_ENV, ...run.env, PYTHONDONTWRITEBYTECODE: "1" },
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
