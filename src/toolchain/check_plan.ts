/**
 * The shape of a check: the command check_project runs for a toolchain and how to read its
 * output, or the reason a toolchain is not checked.
 * @module
 */
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
  /** The config file checked, when the toolchain has several (tsconfig.build.json). */
  config?: string;
  /** How many of the project's files the run read, when the tool says (0: none, nothing proven). */
  checkedFiles?: (result: RunResult) => number | undefined;
  /** A note about this run's result, when it needs one (what an error means, what to do). */
  explain?: (result: RunResult) => string | undefined;
  /** Called once every plan of the check has run (or been given up): removes temporary files. */
  cleanup?: () => void;
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
