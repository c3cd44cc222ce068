/**
 * How each toolchain checks a project: the command (with machine-readable output where the
 * tool has it) and the parser that turns its output into diagnostics.
 * @module
 */
import { join } from "node:path";
import { parseToml } from "../deps.ts";
import { findExecutable, projectProgram } from "../executables.ts";
import { findDeno } from "./detect.ts";
import type { DetectedToolchain } from "./detect.ts";
import { chooseGpr } from "./ada/ada_project.ts";
import { cCheck } from "./c_projects.ts";
import { parseCargoMessages } from "./parsers/cargo.ts";
import { parseDenoCheck } from "./parsers/deno.ts";
import { parseGnat } from "./parsers/gnat.ts";
import { parseGoVet } from "./parsers/go_tool.ts";
import { parsePyright, pyrightFilesAnalyzed } from "./parsers/pyright.ts";
import type { RunResult } from "./run.ts";
import type { ToolchainId } from "./types.ts";

import { type CheckPlan, notCargoJson, PLAIN_ENV, type SkippedPlan } from "./check_plan.ts";
import { configuredPyrightEnv, findVirtualEnv, projectPythonRun } from "./python_env.ts";
import { mypyFilesChecked, parseMypy } from "./parsers/mypy.ts";
import { planTypeScriptChecks } from "./typescript_check.ts";

export { type CheckPlan, notCargoJson, PLAIN_ENV, type SkippedPlan } from "./check_plan.ts";

const both = (result: RunResult) => `${result.stdout}\n${result.stderr}`;

function missing(toolchain: ToolchainId, program: string, install: string): SkippedPlan {
  return { toolchain, skipped: `${program} was not found (${install}).` };
}

/**
 * The checks of one toolchain: `cargo check --message-format=json`, `deno check`, for TypeScript
 * and Node the project's declared check script or tsc on each config of its build
 * (src/toolchain/typescript_check.ts), `pyright --outputjson`, `go vet ./...`, the C/C++ build
 * (`ctest --build-and-test` for CMake, `make -k`), `gprbuild -p -q`.
 */
export async function planChecks(
  root: string,
  toolchain: DetectedToolchain,
): Promise<Array<CheckPlan | SkippedPlan>> {
  const { id, marker } = toolchain;
  if (id === "typescript" || id === "node") return planTypeScriptChecks(root, toolchain);
  const plan = planCheck(root, { id, marker });
  if (id !== "python") return [plan];
  const mypy = await planMypy(root);
  return mypy ? [plan, mypy] : [plan];
}

/** Where a project configures mypy, and the `files` it checks (mypy needs targets). */
function mypyConfig(root: string): { where: string; files: boolean } | null {
  const read = (name: string) => {
    try {
      return Deno.readTextFileSync(join(root, name));
    } catch {
      return null;
    }
  };
  const pyproject = read("pyproject.toml");
  if (pyproject !== null) {
    try {
      const tool = (parseToml(pyproject) as { tool?: { mypy?: Record<string, unknown> } }).tool;
      if (tool?.mypy) {
        return { where: "[tool.mypy] of pyproject.toml", files: "files" in tool.mypy };
      }
    } catch {
      // pyright reports a broken pyproject.toml.
    }
  }
  for (const name of ["mypy.ini", ".mypy.ini", "setup.cfg"]) {
    const section = /^\[mypy\][ \t]*\r?\n([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(read(name) ?? "");
    if (section) return { where: `[mypy] of ${name}`, files: /^files\s*[=:]/m.test(section[1]!) };
  }
  return null;
}

/**
 * mypy, when the project configures it (its own check, beside pyright), with the project's
 * interpreter: `python -m mypy`, which checks the `files` of its config.
 */
async function planMypy(root: string): Promise<CheckPlan | SkippedPlan | null> {
  const config = mypyConfig(root);
  if (!config) return null;
  if (!config.files) {
    return {
      toolchain: "python",
      skipped: `mypy is configured (${config.where}) without files to check; Sextant does not ` +
        "guess them: run mypy with a shell command.",
    };
  }
  const run = await projectPythonRun(root, "mypy");
  if ("missing" in run) {
    return {
      toolchain: "python",
      skipped: `mypy is configured (${config.where}), but ${run.missing}`,
    };
  }
  const args = ["-m", "mypy", "--show-column-numbers", "--show-error-codes", "--no-pretty"];
  args.push("--no-color-output");
  return {
    toolchain: "python",
    argv: [...run.launch, ...args],
    display: [run.interpreter, ...args],
    env: { ...PLAIN_ENV, ...run.env },
    note: `The project's own mypy (${config.where}). ${run.note}`,
    parse: (result) => parseMypy(result.stdout, root),
    checkedFiles: (result) => mypyFilesChecked(result.stdout),
  };
}

function planCheck(
  root: string,
  toolchain: { id: Exclude<ToolchainId, "typescript" | "node">; marker: string },
): CheckPlan | SkippedPlan {
  const env = { ...PLAIN_ENV, RUST_BACKTRACE: "0" };
  switch (toolchain.id) {
    case "rust": {
      const cargo = findExecutable("cargo", { useToolCache: false });
      if (!cargo) return missing("rust", "cargo", "install Rust with rustup");
      return {
        toolchain: "rust",
        argv: [cargo, "check", "--workspace", "--all-targets", "--message-format=json"],
        env,
        keepInTail: notCargoJson,
        parse: (result) => parseCargoMessages(result.stdout, root),
      };
    }
    case "deno": {
      const deno = findDeno();
      if (!deno) return missing("deno", "deno", "install Deno");
      return {
        toolchain: "deno",
        argv: [deno, "check"],
        env,
        parse: (result) => parseDenoCheck(both(result), root),
        // `deno check` names only the modules it starts from; it says so when it found none.
        checkedFiles: (result) => /No matching files found/.test(result.stderr) ? 0 : undefined,
      };
    }
    case "python": {
      const pyright = findExecutable("pyright", { projectRoot: root }) ??
        findExecutable("basedpyright", { projectRoot: root });
      if (!pyright) return missing("python", "pyright", "npm i -g pyright");
      // Imports resolve in the project's own environment, as its own pyright run there does
      // (unless its pyright config names one); else pyright asks whatever python is on PATH.
      const venv = configuredPyrightEnv(root) ? null : findVirtualEnv(root);
      const plan: CheckPlan = {
        toolchain: "python",
        argv: projectProgram(
          pyright,
          ["--outputjson", ...(venv ? ["--pythonpath", venv.python] : [])],
          root,
        ),
        env,
        parse: (result) => parsePyright(result.stdout, root),
        checkedFiles: (result) => pyrightFilesAnalyzed(result.stdout),
      };
      if (venv) plan.note = `Imports resolved in the project's environment ${venv.label}.`;
      return plan;
    }
    case "go": {
      const go = findExecutable("go", { useToolCache: false });
      if (!go) return missing("go", "go", "install Go");
      return {
        toolchain: "go",
        argv: [go, "vet", "./..."],
        env,
        parse: (result) => parseGoVet(both(result), root),
      };
    }
    case "c": {
      const plan = cCheck(root, toolchain.marker, env);
      if (typeof plan === "string") return { toolchain: "c", skipped: plan };
      return { toolchain: "c", ...plan, parse: (result) => plan.parse(result) };
    }
    case "ada": {
      const gprbuild = findExecutable("gprbuild", { useToolCache: false });
      if (!gprbuild) return missing("ada", "gprbuild", "apt-get install gprbuild gnat, or Alire");
      const choice = chooseGpr(root);
      if (!choice) {
        return { toolchain: "ada", skipped: "no buildable .gpr project file in the project root." };
      }
      const plan: CheckPlan = {
        toolchain: "ada",
        // -gnatef: full paths in messages, so files in any source folder are found.
        argv: [gprbuild, "-p", "-q", "-P", choice.file.path, "-cargs:Ada", "-gnatef"],
        env,
        parse: (result) => parseGnat(both(result), root),
      };
      if (choice.others.length > 0) {
        plan.note = `Built ${choice.file.path}; other project files: ${choice.others.join(", ")}.`;
      }
      return plan;
    }
  }
}
