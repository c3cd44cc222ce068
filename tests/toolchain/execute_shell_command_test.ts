import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../helpers/assert.ts";
import { call, connect, tempProject } from "../helpers/mcp.ts";
import { toolHarness } from "../helpers/tool_ctx.ts";
import { loadSettings } from "../../src/config/load.ts";
import type { SettingsFile } from "../../src/config/schema.ts";
import { limitAnswer } from "../../src/tools/limit.ts";
import { Project } from "../../src/project/project.ts";
import { Session } from "../../src/session/session.ts";
import { ProjectHost } from "../../src/project_host.ts";
import {
  executeShellCommand,
  fitShellJson,
  runShellCommand,
} from "../../src/tools/toolchain/execute_shell_command.ts";
import type { ToolContext } from "../../src/tools/tool.ts";
import { z } from "../../src/deps.ts";

const onLinux = Deno.build.os === "linux";

/** Pids of live (not zombie) processes whose command line satisfies `match`. */
function liveProcesses(match: (argv: string[]) => boolean): number[] {
  const pids: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const argv = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).split("\0").filter(Boolean);
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      const state = stat.slice(stat.lastIndexOf(")") + 2)[0];
      if (state !== "Z" && match(argv)) pids.push(Number(entry.name));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

/** A `sleep` duration no other process uses, so a test finds exactly its own sleeps. */
function uniqueSleep(): string {
  return String(100_000 + Math.floor(Math.random() * 800_000));
}

function sleepsOf(seconds: string): number[] {
  return liveProcesses((argv) => argv[0]?.endsWith("sleep") === true && argv[1] === seconds);
}

async function waitFor(condition: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (condition()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return condition();
}

interface ShellSetup {
  root: string;
  session: Session;
  ctx: ToolContext;
  controller: AbortController;
  run(args: Record<string, unknown>): Promise<{ text: string; isError: boolean }>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * A session as `serve` builds it: `session.settings` is global + command line, the project's
 * settings add its own file on top.
 */
async function shellSetup(
  cli: SettingsFile,
  projectConfig: SettingsFile = {},
  files: Record<string, string> = {},
): Promise<ShellSetup> {
  const project = await tempProject({
    ...files,
    ".sextant/project.jsonc": JSON.stringify(projectConfig),
  });
  const globalSettings = await loadSettings({ globalFile: null, overrides: cli });
  const projectSettings = await loadSettings({
    globalFile: null,
    projectRoot: project.root,
    overrides: cli,
  });
  const session = new Session({
    host: () => new ProjectHost(),
    settings: globalSettings,
    tools: [executeShellCommand],
    project: Project.open(project.root, projectSettings),
  });
  const controller = new AbortController();
  const ctx: ToolContext = {
    session,
    project: () => session.requireProject(),
    signal: controller.signal,
    progress: () => Promise.resolve(),
  };
  return {
    root: project.root,
    session,
    ctx,
    controller,
    async run(raw) {
      try {
        const args = z.strictObject(executeShellCommand.params).parse(raw);
        const answer = await executeShellCommand.handler(args, ctx);
        const max = typeof args.max_answer_chars === "number" ? args.max_answer_chars : -1;
        return {
          text: limitAnswer(answer, max, projectSettings.default_max_tool_answer_chars),
          isError: false,
        };
      } catch (error) {
        return { text: (error as Error).message, isError: true };
      }
    },
    async [Symbol.asyncDispose]() {
      controller.abort();
      await session.dispose();
      await project[Symbol.asyncDispose]();
    },
  };
}

Deno.test("shell: disabled by default, with a hint that says how to enable it", async () => {
  await using setup = await shellSetup({});
  const result = await setup.run({ command: "echo hi > pwned.txt" });
  assert(result.isError);
  assertStringIncludes(result.text, "execute_shell_command is disabled");
  assertStringIncludes(result.text, '"enable_shell": true');
  assertStringIncludes(result.text, "--enable-shell");
  assertEquals(await Deno.stat(join(setup.root, "pwned.txt")).catch(() => null), null);
});

Deno.test("shell: a project's own config cannot enable it", async () => {
  await using setup = await shellSetup({}, { enable_shell: true });
  const result = await setup.run({ command: "echo hi" });
  assert(result.isError);
  assertStringIncludes(result.text, "cannot enable it");
});

Deno.test("shell: runs sh -c in the project root and returns Serena's JSON", async () => {
  await using setup = await shellSetup({ enable_shell: true });
  const result = await setup.run({ command: "echo out; echo err >&2; pwd; exit 3" });
  assertEquals(result.isError, false);
  assertEquals(JSON.parse(result.text), {
    stdout: `out\n${setup.root}\n`,
    return_code: 3,
    cwd: setup.root,
    stderr: "err\n",
  });
  const noErr = JSON.parse(
    (await setup.run({ command: "echo x >&2", capture_stderr: false })).text,
  );
  assertEquals(noErr, { stdout: "", return_code: 0, cwd: setup.root, stderr: null });
});

Deno.test("shell: cwd must be a directory inside the project", async () => {
  await using setup = await shellSetup({ enable_shell: true }, {}, { "sub/dir/f.txt": "x" });
  const sub = JSON.parse((await setup.run({ command: "pwd", cwd: "sub/dir" })).text);
  assertEquals(sub.stdout, `${join(setup.root, "sub/dir")}\n`);
  const absolute = JSON.parse(
    (await setup.run({ command: "pwd", cwd: join(setup.root, "sub") })).text,
  );
  assertEquals(absolute.cwd, join(setup.root, "sub"));
  for (
    const cwd of ["..", "../..", "/", "/tmp", "sub/../../x", "missing", "sub/dir/f.txt", "a\0b"]
  ) {
    const result = await setup.run({ command: "touch escaped", cwd });
    assert(result.isError, `cwd ${JSON.stringify(cwd)} should be refused`);
  }
});

Deno.test({
  name: "shell: a timeout kills the command and every process it started",
  ignore: !onLinux,
  async fn() {
    await using setup = await shellSetup({ enable_shell: true });
    const seconds = uniqueSleep();
    const started = Date.now();
    const pending = setup.run({
      command: `echo started; sh -c 'sleep ${seconds} & sleep ${seconds}'`,
      timeout: 1,
    });
    assert(await waitFor(() => sleepsOf(seconds).length === 2), "both sleeps should start");
    const result = await pending;
    assert(result.isError);
    assertStringIncludes(result.text, "timed out after 1 s");
    assertStringIncludes(result.text, "started");
    assert(Date.now() - started < 5000, "the tool should return soon after the timeout");
    assert(await waitFor(() => sleepsOf(seconds).length === 0, 3000), "no sleep may survive");
  },
});

Deno.test({
  name: "shell: cancellation (ctx.signal) and shutdown (session.dispose) kill the command",
  ignore: !onLinux,
  async fn() {
    await using setup = await shellSetup({ enable_shell: true });
    const seconds = uniqueSleep();
    const pending = setup.run({ command: `sleep ${seconds} & sleep ${seconds}` });
    assert(await waitFor(() => sleepsOf(seconds).length === 2));
    setup.controller.abort();
    const result = await pending;
    assert(result.isError);
    assertStringIncludes(result.text, "cancelled");
    assert(await waitFor(() => sleepsOf(seconds).length === 0, 3000));

    const other = uniqueSleep();
    const running = runShellCommand(`sleep ${other}`, {
      cwd: setup.root,
      captureStderr: true,
      timeoutMs: 60_000,
      track: (stop) => {
        setup.session.own({ dispose: stop });
        return () => {};
      },
    });
    assert(await waitFor(() => sleepsOf(other).length === 1));
    await setup.session.dispose();
    assertEquals((await running).stopped, "cancelled");
    assert(await waitFor(() => sleepsOf(other).length === 0, 3000));
  },
});

Deno.test({
  name: "shell: background jobs left behind are stopped when the command ends",
  ignore: !onLinux,
  async fn() {
    await using setup = await shellSetup({ enable_shell: true });
    const seconds = uniqueSleep();
    const started = Date.now();
    const result = await setup.run({ command: `sleep ${seconds} & echo done` });
    assertEquals(JSON.parse(result.text).stdout, "done\n");
    assert(Date.now() - started < 4000, "a left-over job must not hold the answer back");
    assert(await waitFor(() => sleepsOf(seconds).length === 0, 3000));
  },
});

Deno.test({
  name: "shell: a process that leaves the group and keeps the pipe open does not hang the tool",
  ignore: !onLinux,
  async fn() {
    await using setup = await shellSetup({ enable_shell: true });
    const seconds = uniqueSleep();
    const started = Date.now();
    try {
      const result = await setup.run({ command: `setsid sleep ${seconds} & sleep 0.3; echo hi` });
      assertEquals(JSON.parse(result.text).stdout, "hi\n");
      assert(sleepsOf(seconds).length === 1, "the escaped process is still running");
      assert(Date.now() - started < 6000, "reading stops after the grace period");
    } finally {
      for (const pid of sleepsOf(seconds)) Deno.kill(pid, "SIGKILL");
    }
  },
});

Deno.test("shell: output is capped while reading, keeping head and tail", async () => {
  await using dir = await tempProject();
  const run = await runShellCommand("seq 1 100000", {
    cwd: dir.root,
    captureStderr: true,
    timeoutMs: 30_000,
    outputCap: 4000,
  });
  assertEquals(run.returnCode, 0);
  assert(run.stdout.startsWith("1\n2\n3\n"));
  assert(run.stdout.endsWith("99999\n100000\n"));
  assertStringIncludes(run.stdout, "bytes of output omitted");
  assert(run.stdout.length < 4200);
});

Deno.test("shell: an answer over max_answer_chars keeps the start and end of the output", async () => {
  await using setup = await shellSetup({ enable_shell: true });
  const result = await setup.run({ command: "seq 1 5000", max_answer_chars: 600 });
  assertEquals(result.isError, false);
  assert(result.text.length <= 600, `${result.text.length}`);
  // Serena's "too long" line, the note, then the shortened JSON (one line).
  const [tooLong, note, body] = result.text.split("\n");
  assertMatch(tooLong!, /^The answer is too long \(\d+ characters\)\. You can adjust your query/);
  assert(note!.startsWith("The output was too long"));
  const json = JSON.parse(body!);
  assert(json.stdout.startsWith("1\n2\n"));
  assert(json.stdout.endsWith("5000\n"));
  assertEquals(json.return_code, 0);
});

Deno.test("fitShellJson fits even output that JSON escaping inflates", () => {
  const nasty = '\u0001\n"\\'.repeat(5000);
  for (const max of [200, 1000, 5000]) {
    const text = fitShellJson({ stdout: nasty, return_code: 1, cwd: "/p", stderr: nasty }, max);
    assert(text.length <= max, `${text.length} > ${max}`);
    assertEquals(JSON.parse(text).return_code, 1);
  }
});

Deno.test("shell: needs an active project when enabled", async () => {
  const settings = await loadSettings({ globalFile: null, overrides: { enable_shell: true } });
  const session = new Session({
    host: () => new ProjectHost(),
    settings,
    tools: [executeShellCommand],
  });
  const ctx: ToolContext = {
    session,
    project: () => session.requireProject(),
    signal: new AbortController().signal,
    progress: () => Promise.resolve(),
  };
  const args = z.strictObject(executeShellCommand.params).parse({ command: "true" });
  try {
    await executeShellCommand.handler(args, ctx);
    throw new Error("expected a refusal");
  } catch (error) {
    assertStringIncludes((error as Error).message, "No active project");
  }
});

Deno.test("shell: works through the tool harness too (project settings as session settings)", async () => {
  await using h = await toolHarness({}, { overrides: { enable_shell: true } });
  const out = JSON.parse(await h.call(executeShellCommand, { command: "printf ok" }));
  assertEquals(out.stdout, "ok");
});

// --- over MCP, with the real server --------------------------------------------------------

Deno.test("e2e shell: listed when disabled, and its error says how to enable it", async () => {
  await using project = await tempProject();
  const server = await connect(project.root);
  try {
    const tools = (await server.client.listTools()).tools;
    const shell = tools.find((t) => t.name === "execute_shell_command");
    assert(shell, "execute_shell_command should be listed");
    assertEquals(shell.annotations?.destructiveHint, true);
    const result = await call(server.client, "execute_shell_command", { command: "echo hi" });
    assertEquals(result.isError, true);
    assertStringIncludes(result.text, "--enable-shell");
    assertStringIncludes(result.text, "enable_shell");
  } finally {
    await server.close();
  }
});

Deno.test({
  name: "e2e shell: --enable-shell runs commands; a timeout leaves no process behind",
  ignore: !onLinux,
  async fn() {
    await using project = await tempProject({ "a.txt": "hello\n" });
    const server = await connect(project.root, ["--enable-shell"]);
    try {
      const ok = await call(server.client, "execute_shell_command", { command: "cat a.txt" });
      assertEquals(ok.isError, false);
      assertEquals(JSON.parse(ok.text).stdout, "hello\n");
      const seconds = uniqueSleep();
      const slow = await call(server.client, "execute_shell_command", {
        command: `sh -c 'sleep ${seconds} & sleep ${seconds}'`,
        timeout: 1,
      });
      assertEquals(slow.isError, true);
      assertStringIncludes(slow.text, "timed out");
      assert(await waitFor(() => sleepsOf(seconds).length === 0, 3000), "no sleep may survive");
    } finally {
      await server.close();
    }
  },
});
