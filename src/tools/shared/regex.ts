/**
 * User regular expressions run in child processes (`regex_child.ts`), never on the service's
 * thread: a runaway pattern then costs only its own call, which `tool_timeout` or a cancel ends
 * by killing the process, and other sessions' calls never wait on it. Idle children are kept
 * for the next call; each serves one request at a time, and a busy pool starts another.
 * @module
 */
import { fileURLToPath } from "node:url";
import { ToolError } from "../../errors.ts";
import { isDenoCli } from "../../executables.ts";
import type {
  MatchesRequest,
  MatchRecord,
  RegexRequest,
  SearchAnswer,
  SearchRequest,
} from "./regex_child.ts";

/** Idle children kept for later calls. */
const KEEP_IDLE = 2;

/** How to start a child: `deno run` of the module, or the compiled executable's subcommand. */
function childCommand(): { command: string; args: string[] } {
  const exec = Deno.execPath();
  const denoCli = isDenoCli(exec);
  // `--allow-run=deno` (or `sextant`) allows the program of that name found on PATH, which may
  // be a link to this executable rather than the executable itself.
  const allowed = Deno.permissions.querySync({ name: "run", command: exec }).state === "granted";
  const command = allowed ? exec : denoCli ? "deno" : "sextant";
  if (!denoCli) return { command, args: ["regex-child"] };
  const url = new URL("./regex_child.ts", import.meta.url);
  return {
    command,
    args: [
      "run",
      "--no-config",
      "--quiet",
      "--no-prompt",
      // Reading is all it does: the files of a search.
      "--allow-read",
      url.protocol === "file:" ? fileURLToPath(url) : url.href,
    ],
  };
}

class RegexChild {
  readonly #process: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  #pending = "";
  dead = false;

  constructor() {
    const { command, args } = childCommand();
    this.#process = new Deno.Command(command, {
      args,
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    this.#process.unref();
    this.#writer = this.#process.stdin.getWriter();
    this.#reader = this.#process.stdout.getReader();
    this.#process.status.then(() => this.dead = true);
  }

  /** A request in flight keeps the process alive; an idle child does not. */
  async request(request: RegexRequest): Promise<unknown> {
    this.#process.ref();
    try {
      return await this.#exchange(request);
    } finally {
      this.#process.unref();
    }
  }

  async #exchange(request: RegexRequest): Promise<unknown> {
    await this.#writer.write(new TextEncoder().encode(JSON.stringify(request) + "\n"));
    const decoder = new TextDecoder();
    const parts: string[] = [this.#pending];
    for (;;) {
      const { value, done } = await this.#reader.read();
      if (done) throw new ToolError("The regular-expression process ended unexpectedly.");
      const text = decoder.decode(value, { stream: true });
      const newline = text.indexOf("\n");
      if (newline === -1) {
        parts.push(text);
        continue;
      }
      parts.push(text.slice(0, newline));
      this.#pending = text.slice(newline + 1);
      const answer = JSON.parse(parts.join("")) as { ok?: unknown; error?: string };
      if (answer.error !== undefined) throw new ToolError(answer.error);
      return answer.ok;
    }
  }

  kill(): void {
    if (this.dead) return;
    this.dead = true;
    try {
      this.#process.kill("SIGKILL");
    } catch {
      // already gone
    }
  }

  /** Close stdin: an idle child then ends by itself. */
  close(): void {
    this.dead = true;
    this.#writer.close().catch(() => {});
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
