/**
 * execute_shell_command: Serena's shell tool, off unless the user enables it (a shell defeats
 * the path sandbox). Commands run with `sh -c` in their own session and process group
 * (src/process.ts), so a timeout, a cancellation or server shutdown stops the command and every
 * process it started.
 * @module
 */
import { z } from "../../deps.ts";
import { ToolError } from "../../errors.ts";
import { CappedOutput, runGroup } from "../../process.ts";
import type { Session } from "../../session/session.ts";
import { defineTool, type ToolAnswer } from "../tool.ts";
import { shortenedAnswer } from "../limit.ts";
import { ENABLE_SHELL_HINT, maxAnswerChars } from "../shared/params.ts";

/** Bytes kept per output stream; beyond that the middle is dropped (head and tail stay). */
export const OUTPUT_CAP_BYTES = 1024 * 1024;

/** How a command ended. */
export interface ShellRun {
  stdout: string;
  /** null when stderr was not captured. */
  stderr: string | null;
  /** Exit code; for a command ended by a signal, 128 + the signal number (as sh reports it). */
  returnCode: number;
  /** Why Sextant stopped the command, if it did. */
  stopped: "timeout" | "cancelled" | null;
}

export interface ShellRunOptions {
  cwd: string;
  captureStderr: boolean;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Bytes kept per stream (default {@linkcode OUTPUT_CAP_BYTES}). */
  outputCap?: number;
  /** Called with a stopper while the command runs (to stop it on server shutdown). */
  track?: (stop: () => Promise<void>) => () => void;
}

/**
 * Run `command` with `sh -c` (Windows: `cmd /c`) in its own session, so the shell leads a new
 * process group and has no controlling terminal (nothing can block on a password prompt). On
 * timeout or abort the group gets SIGTERM, then SIGKILL after a grace period. When the shell
 * exits, the rest of its group (background jobs it left running) is stopped the same way: nothing
 * outlives the tool call, and no orphan keeps the output pipes open.
 */
export async function runShellCommand(
  command: string,
  options: ShellRunOptions,
): Promise<ShellRun> {
  const windows = Deno.build.os === "windows";
  const cap = options.outputCap ?? OUTPUT_CAP_BYTES;
  const stdout = new CappedOutput(cap);
  const stderr = options.captureStderr ? new CappedOutput(cap) : null;
  const running = runGroup(
    windows ? "cmd.exe" : "sh",
    windows ? ["/d", "/s", "/c", command] : ["-c", command],
    {
      cwd: options.cwd,
      onStdout: (chunk) => stdout.push(chunk),
      ...(stderr ? { onStderr: (chunk: Uint8Array) => stderr.push(chunk) } : {}),
      timeoutMs: options.timeoutMs,
      signal: options.signal,
    },
  );
  const untrack = options.track?.(() => running.cancel());
  try {
    const { status, stopped } = await running.exit;
    const signalNumber = status.signal ? signalNumbers[status.signal] ?? 0 : 0;
    return {
      stdout: stdout.text(),
      stderr: stderr ? stderr.text() : null,
      returnCode: status.signal ? 128 + signalNumber : status.code,
      stopped,
    };
  } finally {
    untrack?.();
  }
}

const signalNumbers: Partial<Record<Deno.Signal, number>> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGQUIT: 3,
  SIGABRT: 6,
  SIGKILL: 9,
  SIGSEGV: 11,
  SIGPIPE: 13,
  SIGALRM: 14,
  SIGTERM: 15,
};

/** Commands running per session, stopped when the session is disposed (server shutdown). */
const running = new WeakMap<Session, Set<() => Promise<void>>>();

function tracker(session: Session): (stop: () => Promise<void>) => () => void {
  let set = running.get(session);
  if (!set) {
    const stops = new Set<() => Promise<void>>();
    set = stops;
    running.set(session, stops);
    session.own({ dispose: async () => void await Promise.allSettled([...stops].map((s) => s())) });
  }
  const stops = set;
  return (stop) => {
    stops.add(stop);
    return () => stops.delete(stop);
  };
}

interface ShellJson {
  stdout: string;
  return_code: number;
  cwd: string;
  stderr: string | null;
}

/** Keep the head and tail of `text` within `budget` characters. */
function clip(text: string, budget: number): string {
  if (text.length <= budget) return text;
  const marker = `\n[... ${text.length - budget} characters omitted ...]\n`;
  const keep = Math.max(0, budget - marker.length);
  const head = Math.floor(keep / 4);
  return text.slice(0, head) + marker + text.slice(text.length - (keep - head));
}

/** The JSON answer with stdout and stderr shortened (head and tail kept) to fit `max` chars. */
export function fitShellJson(result: ShellJson, max: number): string {
  let budget = max;
  for (let attempt = 0; attempt < 12; attempt++) {
    const errShare = result.stderr === null
      ? 0
      : Math.min(result.stderr.length, Math.floor(budget / 3));
    const outShare = Math.max(0, budget - errShare);
    const errBudget = result.stderr === null
      ? 0
      : budget - Math.min(result.stdout.length, outShare);
    const text = JSON.stringify({
      stdout: clip(result.stdout, outShare),
      return_code: result.return_code,
      cwd: result.cwd,
      stderr: result.stderr === null ? null : clip(result.stderr, Math.max(errShare, errBudget)),
    });
    if (text.length <= max) return text;
    // JSON escaping and the other fields take room too: shrink and try again.
    budget = Math.floor(budget * Math.min(0.9, max / text.length));
  }
  return JSON.stringify({ ...result, stdout: "", stderr: result.stderr === null ? null : "" });
}

const TOO_LONG_NOTE = "The output was too long; the middle of stdout/stderr is left out below. " +
  "Narrow the command (e.g. pipe into tail -n 100) or raise max_answer_chars.";

export const executeShellCommand = defineTool({
  name: "execute_shell_command",
  description: "Runs sh -c in the project; JSON {stdout, return_code, cwd, " +
    "stderr}. Off unless enabled. No servers or interactive programs: killed after " +
    "`timeout` s.",
  params: {
    command: z.string().min(1).describe("The command."),
    cwd: z.string().nullable().default(null).describe(
      "Folder in the project; null: the root.",
    ),
    capture_stderr: z.boolean().default(true).describe("Return stderr too."),
    max_answer_chars: maxAnswerChars,
    timeout: z.number().positive().optional().describe(
      "Seconds; default and maximum: tool_timeout.",
    ),
  },
  markers: ["can-edit"],
  readOnly: false,
  destructive: true,
  async handler(args, ctx): Promise<ToolAnswer> {
    // Only the global config and the command line can enable the shell: a project's own
    // .sextant/project.jsonc comes with the repository, and a repository must not be able to
    // hand the agent a shell.
    if (!ctx.session.settings.enable_shell) {
      throw new ToolError(
        `execute_shell_command is disabled. To enable it, ${ENABLE_SHELL_HINT}. ` +
          "(A project's .sextant/project.jsonc cannot enable it.)",
      );
    }
    const project = ctx.project();
    // The working directory must lie inside the project even when given as an absolute path
    // (Serena accepts any absolute directory): a relative path inside the command then stays in
    // the project. This is a guard against mistakes, not a sandbox; the shell itself can reach
    // anything Sextant's process can, which is why the tool is off by default.
    const resolved = project.resolve(args.cwd ?? ".", { requireNotIgnored: false });
    if (!Deno.statSync(resolved.real).isDirectory) {
      throw new ToolError(`cwd '${resolved.relative}' is a file, not a directory.`);
    }
    const toolTimeout = ctx.session.settings.tool_timeout;
    const seconds = Math.min(args.timeout ?? toolTimeout, toolTimeout);
    const run = await runShellCommand(args.command, {
      cwd: resolved.real,
      captureStderr: args.capture_stderr,
      timeoutMs: seconds * 1000,
      signal: ctx.signal,
      track: tracker(ctx.session),
    });
    const result: ShellJson = {
      stdout: run.stdout,
      return_code: run.returnCode,
      cwd: resolved.real,
      stderr: run.stderr,
    };
    const max = args.max_answer_chars === -1
      ? project.settings.default_max_tool_answer_chars
      : args.max_answer_chars;
    if (run.stopped === "timeout") {
      throw new ToolError(
        `The command timed out after ${seconds} s and was killed, with every process it ` +
          "started. Do not use this tool for servers or interactive programs; for slow " +
          "commands pass a larger timeout (at most tool_timeout). Output so far: " +
          fitShellJson(result, Math.min(Math.max(max, 1000), 20_000)),
      );
    }
    if (run.stopped === "cancelled") throw new ToolError("The command was cancelled and killed.");
    const full = JSON.stringify(result);
    return {
      text: full,
      shorter: [{
        note: TOO_LONG_NOTE,
        // The "too long" line and the note come first: leave room for them.
        text: () =>
          fitShellJson(
            result,
            Math.max(0, max - shortenedAnswer(full.length, TOO_LONG_NOTE, "").length),
          ),
      }],
    };
  },
});
