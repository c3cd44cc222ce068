/**
 * How each toolchain checks a project: the command (with machine-readable output where the
 * tool has it) and the parser that turns its output into diagnostics.
 * @module
 */
import { findExecutable, projectProgram } from "../executables.ts";
import { findDeno } from "./detect.ts";
import type { DetectedToolchain } from "./detect.ts";
import { chooseGpr } from "./ada/ada_project.ts";
import { cCheck } from "./c_projects.ts";
import { parseCargoMessages } from "./parsers/cargo.ts";
import { parseDenoCheck } from "./parsers/deno.ts";
import { parseGnat } from "./parsers/gnat.ts";
import { parseGoVet } from "./parsers/go_tool.ts";
import { parsePyright } from "./parsers/pyright.ts";
import { parseTsc } from "./parsers/tsc.ts";
import type { RunResult } from "./run.ts";
import type { Diagnostic, ToolchainId } from "./types.ts";

/** A command to run, and how to read what it prints. */
export interface CheckPlan {
  toolchain: ToolchainId;
  argv: string[];
  /** The command as the answer shows it, when it differs from `argv` (a launcher before it). */
  display?: string[];
  env: Record<string, string>;
  /** Diagnostics from the finished run; null when the output could not be read at all. */
  parse(result: RunResult, root: string): Diagnostic[] | null;
  /** Something the agent should know about this check. */
  note?: string;
  /** Which output lines belong in the raw output tail (default all). */
  keepInTail?: (line: string) => boolean;
}

/** Leaves cargo's JSON messages out of the output tail. */
export const notCargoJson = (line: string): boolean => !line.startsWith('{"reason":');

/** A toolchain that is present but cannot be checked here, and why. */
export interface SkippedPlan {
  toolchain: ToolchainId;
  skipped: string;
}

/** Environment that keeps tools' output plain (no colours, no progress bars). */
export const PLAIN_ENV: Readonly<Record<string, string>> = {
  NO_COLOR: "1",
  CARGO_TERM_COLOR: "never",
  CARGO_TERM_PROGRESS_WHEN: "never",
  // Not FORCE_COLOR: some tools (Deno among them) take any value of it as "force colours on".
  CI: "1",
};

const both = (result: RunResult) => `${result.stdout}\n${result.stderr}`;

function missing(toolchain: ToolchainId, program: string, install: string): SkippedPlan {
  return { toolchain, skipped: `${program} was not found (${install}).` };
}

/**
 * The check of one toolchain: `cargo check --message-format=json`, `deno check`,
 * `tsc --noEmit --pretty false`, `pyright --outputjson`, `go vet ./...`, the C/C++ build
 * (`ctest --build-and-test` for CMake, `make -k`), `gprbuild -p -q`.
 */
export function planCheck(root: string, toolchain: DetectedToolchain): CheckPlan | SkippedPlan {
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
      };
    }
    case "typescript": {
      const tsc = findExecutable("tsc", { projectRoot: root });
      if (!tsc) return missing("typescript", "tsc", "run npm install, or npm i -g typescript");
      return {
        toolchain: "typescript",
        argv: projectProgram(tsc, ["--noEmit", "--pretty", "false", "-p", toolchain.marker], root),
        env,
        parse: (result) => parseTsc(result.stdout, root),
      };
    }
    case "node":
      return {
        toolchain: "node",
        skipped: "plain JavaScript has no type checker here (add a tsconfig.json to use tsc).",
      };
    case "python": {
      const pyright = findExecutable("pyright", { projectRoot: root }) ??
        findExecutable("basedpyright", { projectRoot: root });
      if (!pyright) return missing("python", "pyright", "npm i -g pyright");
      return {
        toolchain: "python",
        argv: projectProgram(pyright, ["--outputjson"], root),
        env,
        parse: (result) => parsePyright(result.stdout, root),
      };
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
