/**
 * The host side of code mode: one worker per session (per MCP session and `session` id), started
 * on first use and kept warm, so top-level declarations persist between cells. Each cell is
 * rewritten (rewrite.ts), imported by the worker from a `data:` URL (Deno transpiles the
 * TypeScript), and every API call it makes comes back here and runs through the same tool
 * pipeline as an MCP call (tools/call.ts). A time-out, cancellation or crash terminates the
 * worker; the next cell gets a fresh one.
 * @module
 */
import type { Session } from "../../session.ts";
import { callTool } from "../call.ts";
import type { Tool } from "../tool.ts";
import { describeApi } from "./facades.ts";
import { CellSyntaxError, rewriteCell, type Rewritten } from "../../repl/rewrite.ts";
import { workerUrl } from "../../repl/worker.ts";

/** A cell's URL in a message or stack; Deno abbreviates long ones as `<start>......<end>`. */
const DATA_URL = /data:application\/typescript;base64,([A-Za-z0-9+/=.]+)/g;
const FRAME = /data:application\/typescript;base64,([A-Za-z0-9+/=.]+):(\d+):(\d+)/g;

/** Whether a URL as printed (maybe abbreviated) is `url`. */
function sameCell(printed: string, url: string): boolean {
  const ours = url.slice(url.indexOf(",") + 1);
  if (printed === ours) return true;
  const [start, end] = printed.split("......");
  return end !== undefined && ours.startsWith(start!) && ours.endsWith(end);
}

export interface RunOptions {
  session: Session;
  /** The tools the session exposes, by facade (what `s` offers). */
  facades: Record<string, string[]>;
  /** Tools `s` leaves out, by facade, with the reason (see facades.ts `hiddenApi`). */
  hidden?: Record<string, Record<string, string>>;
  tools: readonly Tool[];
  timeoutSeconds: number;
  /** Aborted when the MCP call is cancelled (or the repl call itself times out). */
  signal: AbortSignal;
}

export interface RunResult {
  text: string;
  isError: boolean;
}

interface WorkerError {
  name: string;
  message: string;
  stack: string;
}

interface Done {
  type: "done";
  id: number;
  output: string;
  dropped: number;
  value?: string | null;
  error?: WorkerError;
}

/** Why a run ended early. */
class Interrupted extends Error {}

function dataUrl(source: string): string {
  const bytes = new TextEncoder().encode(source);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return `data:application/typescript;base64,${btoa(binary)}`;
}

/** One session's worker and the state of its current run. */
export class ReplWorker {
  #worker: Worker | null = null;
  #ready: Promise<void> | null = null;
  #runs = 0;
  #onMessage: (message: Record<string, unknown>) => void = () => {};
  #onCrash: (error: WorkerError) => void = () => {};

  /** Start the worker (once) and check that it really has no permission. */
  #start(): Promise<void> {
    if (this.#ready) return this.#ready;
    const worker = new Worker(workerUrl(), {
      type: "module",
      name: "sextant-repl",
      deno: { permissions: "none" },
    } as WorkerOptions);
    this.#worker = worker;
    this.#ready = new Promise<void>((resolve, reject) => {
      worker.onmessage = (event) => {
        const message = event.data as Record<string, unknown>;
        if (message.type === "ready") {
          const states = message.permissions as Record<string, string>;
          const granted = Object.entries(states).filter(([, s]) => s === "granted");
          if (granted.length > 0) {
            this.terminate();
            reject(
              new Error(
                `code mode refuses to run: its worker was granted ${
                  granted.map(([k]) => k).join(", ")
                } (Deno needs the worker-options unstable feature, --unstable-worker-options).`,
              ),
            );
          } else resolve();
        } else this.#onMessage(message);
      };
      worker.onerror = (event) => {
        event.preventDefault();
        const error = { name: "Error", message: event.message, stack: "" };
        reject(new Error(event.message));
        this.#onCrash(error);
      };
    });
    return this.#ready;
  }

  terminate(): void {
    this.#worker?.terminate();
    this.#worker = null;
    this.#ready = null;
  }

  /** Run one cell; never throws. */
  async run(code: string, options: RunOptions): Promise<RunResult> {
    let cell: Rewritten;
    try {
      cell = rewriteCell(code);
    } catch (error) {
      if (!(error instanceof CellSyntaxError)) throw error;
      const { line, column } = offsetPosition(code, error.offset);
      return {
        text: errorText(code, `SyntaxError: ${error.message}`, line, column),
        isError: true,
      };
    }
    try {
      await this.#start();
    } catch (error) {
      return { text: `Error: ${(error as Error).message}`, isError: true };
    }
    const id = ++this.#runs;
    const url = dataUrl(cell.source);
    const completed: string[] = [];
    const inFlight = new AbortController();
    const timeout = AbortSignal.timeout(options.timeoutSeconds * 1000);
    const signal = AbortSignal.any([options.signal, timeout, inFlight.signal]);
    const worker = this.#worker!;

    const finished = new Promise<Done>((resolve, reject) => {
      this.#onMessage = (message) => {
        if (message.type === "done" && message.id === id) resolve(message as unknown as Done);
        else if (message.type === "call") void this.#apiCall(message, options, signal, completed);
        else if (message.type === "info") {
          let answer;
          try {
            const topic = (message.topic as string | null) ?? null;
            answer = { text: describeApi(options.facades, options.tools, topic), isError: false };
          } catch (error) {
            answer = { text: (error as Error).message, isError: true };
          }
          worker.postMessage({ type: "answer", call: message.call, ...answer });
        }
      };
      this.#onCrash = (error) => reject(new Interrupted(`the worker crashed: ${error.message}`));
      const onAbort = () =>
        reject(
          new Interrupted(
            timeout.aborted
              ? `the code ran longer than its time limit of ${options.timeoutSeconds} s (timeout_s)`
              : "the call was cancelled",
          ),
        );
      if (signal.aborted) onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
    });
    worker.postMessage({
      type: "run",
      id,
      url,
      names: cell.names,
      hasValue: cell.hasValue,
      facades: options.facades,
      hidden: options.hidden ?? {},
    });
    try {
      const done = await finished;
      return compose(done, code, cell, url);
    } catch (error) {
      if (!(error instanceof Interrupted)) throw error;
      this.terminate();
      const calls = completed.length
        ? `API calls that completed: ${completed.join(", ")}.`
        : "No API call completed.";
      return {
        text: `Error: ${error.message}; the worker was stopped and this session's variables ` +
          `are gone (the next call starts a fresh worker). ${calls}`,
        isError: true,
      };
    } finally {
      inFlight.abort();
      this.#onMessage = () => {};
      this.#onCrash = () => {};
    }
  }

  async #apiCall(
    message: Record<string, unknown>,
    options: RunOptions,
    signal: AbortSignal,
    completed: string[],
  ): Promise<void> {
    const name = String(message.tool);
    const facade = Object.entries(options.facades).find(([, t]) => t.includes(name))?.[0];
    const tool = facade ? options.tools.find((t) => t.name === name) : undefined;
    const args = (message.args ?? {}) as Record<string, unknown>;
    const result = tool
      ? await callTool(options.session, tool, args, { signal })
      : { text: `Error: ${name} is not available in this session.`, isError: true };
    if (signal.aborted) return;
    completed.push(`s.${facade}.${name}${result.isError ? " (error)" : ""}`);
    this.#worker?.postMessage({ type: "answer", call: message.call, ...result });
  }
}

/** 1-based line and column of a character offset. */
function offsetPosition(code: string, offset: number): { line: number; column: number } {
  const before = code.slice(0, offset).split("\n");
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

/** An error with its place in the agent's code and that line, pointed at. */
function errorText(code: string, what: string, line: number, column: number): string {
  const source = code.split("\n")[line - 1];
  const excerpt = source === undefined
    ? ""
    : `\n  ${line} | ${source}\n  ${" ".repeat(String(line).length)} | ${
      " ".repeat(Math.max(0, column - 1))
    }^`;
  return `Error: ${what}\n  at line ${line}, column ${column} of the code${excerpt}`;
}

function compose(done: Done, code: string, cell: Rewritten, url: string): RunResult {
  let output = done.output;
  if (done.dropped > 0) {
    output += `[${done.dropped} more characters of console output were not kept]\n`;
  }
  if (done.error) {
    return { text: output + describeFailure(done.error, code, cell, url), isError: true };
  }
  const value = done.value ?? (output ? "" : "OK");
  return { text: output + value, isError: false };
}

/** The agent's error, placed in its code, without any frame of Sextant's. */
function describeFailure(error: WorkerError, code: string, cell: Rewritten, url: string): string {
  // A syntax error of the cell names its position in the message itself.
  const text = `${error.message}\n${error.stack}`;
  const here = [...text.matchAll(FRAME)].find((frame) => sameCell(frame[1]!, url));
  let message = error.message.split("\n")[0]!.replace(DATA_URL, "<code>");
  message = message.replace(/^TypeError: (SyntaxError: )/, "$1");
  const what = error.name === "TypeError" && message.startsWith("SyntaxError:")
    ? message
    : `${error.name}: ${message}`;
  if (here) {
    const { line, column } = cell.position(Number(here[2]), Number(here[3]));
    return errorText(code, what, line, column);
  }
  const earlier = new RegExp(DATA_URL.source).test(error.stack)
    ? " (raised in code of an earlier call)"
    : "";
  return `Error: ${what}${earlier}`;
}

const workers = new WeakMap<Session, Map<string, ReplWorker>>();

/** The worker of a session and `session` id, created on first use and ended with the session. */
export function replWorker(session: Session, id: string): ReplWorker {
  let byId = workers.get(session);
  if (!byId) {
    const created = new Map<string, ReplWorker>();
    byId = created;
    workers.set(session, created);
    session.own({
      dispose: () => {
        for (const worker of created.values()) worker.terminate();
        created.clear();
        return Promise.resolve();
      },
    });
  }
  let worker = byId.get(id);
  if (!worker) {
    worker = new ReplWorker();
    byId.set(id, worker);
  }
  return worker;
}
