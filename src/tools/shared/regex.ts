/**
 * User regular expressions run in child processes (`regex_child.ts`), never on the service's
 * thread: a runaway pattern then costs only its own call, which `tool_timeout` or a cancel ends
 * by killing the process, and other sessions' calls never wait on it. Idle children are kept
 * for the next call; each serves one request at a time, and a busy pool starts another.
 * @module
 */
import { fileURLToPath } from "node:url";
import { ToolError } from "../../errors.ts";
import { ownProgram } from "../../executables.ts";
import { OwnChild, ownChildArgs } from "../../own_child.ts";
import { ownUrl } from "../../own_files.ts";
import type {
  MatchesRequest,
  MatchRecord,
  RegexRequest,
  SearchAnswer,
  SearchRequest,
} from "./regex_child.ts";

/** Idle children kept for later calls. */
const KEEP_IDLE = 2;

/** The hidden command that makes a compiled Sextant serve regex requests (main.ts). */
const REGEX_CHILD_COMMAND = "regex-child";

/** How to start a child: `deno run` of the module, or the compiled executable's subcommand. */
function childCommand(): { program: string; args: string[] } {
  const url = ownUrl("src/tools/shared/regex_child.ts");
  return {
    program: ownProgram(),
    args: ownChildArgs({
      module: url.protocol === "file:" ? fileURLToPath(url) : url.href,
      // Reading is all it does: the files of a search.
      flags: ["--no-config", "--quiet", "--no-prompt", "--allow-read"],
      command: REGEX_CHILD_COMMAND,
    }),
  };
}

/** One regex process; it serves one request at a time. */
class RegexChild {
  readonly #process: OwnChild;
  /** The request in flight: its answer's line settles it. */
  #waiting: { resolve(line: string): void; reject(error: Error): void } | null = null;
  #dead = false;

  constructor() {
    const { program, args } = childCommand();
    this.#process = new OwnChild(program, args, {
      name: "the regular-expression process",
      onLine: (line) => {
        const waiting = this.#waiting;
        this.#waiting = null;
        waiting?.resolve(line);
        return true;
      },
    });
    this.#process.unref();
    void this.#process.exited.then(() => {
      this.#dead = true;
      this.#waiting?.reject(new ToolError("The regular-expression process ended unexpectedly."));
      this.#waiting = null;
    });
  }

  /** Whether it was stopped or has ended: it takes no more requests. */
  get dead(): boolean {
    return this.#dead;
  }

  /** A request in flight keeps the process alive; an idle child does not. */
  async request(request: RegexRequest): Promise<unknown> {
    if (this.#dead) throw new ToolError("The regular-expression process ended unexpectedly.");
    this.#process.ref();
    try {
      const line = await new Promise<string>((resolve, reject) => {
        this.#waiting = { resolve, reject };
        this.#process.send(request);
      });
      const answer = JSON.parse(line) as { ok?: unknown; error?: string };
      if (answer.error !== undefined) throw new ToolError(answer.error);
      return answer.ok;
    } finally {
      this.#process.unref();
    }
  }

  kill(): void {
    if (this.#dead) return;
    this.#dead = true;
    void this.#process.kill("stopped by its caller");
  }

  /** Close stdin: an idle child then ends by itself. */
  close(): void {
    this.#dead = true;
    this.#process.close();
  }
}

const idle: RegexChild[] = [];

/** Run one request in a child; an abort kills that child and rejects with the signal's reason. */
async function run(request: RegexRequest, signal?: AbortSignal): Promise<unknown> {
  signal?.throwIfAborted();
  let child = idle.pop();
  while (child?.dead) child = idle.pop();
  child ??= new RegexChild();
  const current = child;
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      current.kill();
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    const answer = await Promise.race([current.request(request), aborted]);
    if (idle.length < KEEP_IDLE && !current.dead) idle.push(current);
    else current.close();
    return answer;
  } catch (error) {
    current.kill();
    throw error;
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
}

/** A match as `exec` gives it, with what the child process worked out beside it. */
export type RegexMatch = RegExpExecArray & {
  /** A multi-line match in which the pattern matches again. */
  again: boolean;
  /** Each group's start, when the pattern has the `d` flag. */
  starts: (number | null)[] | null;
};

/** Every match of `regex` in `text`, computed in a child process, as exec arrays. */
export async function regexMatches(
  regex: RegExp,
  text: string,
  signal?: AbortSignal,
): Promise<RegexMatch[]> {
  const request: MatchesRequest = { op: "matches", source: regex.source, flags: regex.flags, text };
  const records = await run(request, signal) as MatchRecord[];
  return records.map((record) => {
    const match = record.groups.map((g) => g ?? undefined) as unknown as RegexMatch;
    match.index = record.index;
    match.input = text;
    if (record.named) {
      match.groups = Object.fromEntries(
        Object.entries(record.named).map(([k, v]) => [k, v ?? undefined]),
      ) as Record<string, string>;
    }
    match.again = record.again;
    match.starts = record.starts;
    return match;
  });
}

/** search_for_pattern's matching and formatting over `files`, in a child process. */
export async function regexSearch(
  request: Omit<SearchRequest, "op">,
  signal?: AbortSignal,
): Promise<SearchAnswer> {
  return await run({ op: "search", ...request }, signal) as SearchAnswer;
}
