/**
 * `sextant hook <event> --client <client>` run as clients run it (`main.ts hook ...` with the
 * `sextant` permission set, the payload on stdin), with recorded payloads in Claude Code's and
 * Codex's schemas (tests/cli/payloads/): deny after N searches, reset after a symbolic tool,
 * silent on malformed input, state removed at session end, the limit from env and config.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../helpers/assert.ts";
import { DENO_CONFIG, MAIN, REPO_ROOT, tempProject } from "../helpers/mcp.ts";

const PAYLOADS = fileURLToPath(new URL("./payloads/", import.meta.url));
/** Deno's cache, kept when a test gives deno a temporary HOME. */
const DENO_DIR = Deno.env.get("DENO_DIR") ??
  join(Deno.env.get("HOME") ?? "/root", ".cache", "deno");

type Payloads = Record<string, Record<string, unknown>>;
const claude = JSON.parse(Deno.readTextFileSync(join(PAYLOADS, "claude-code.json"))) as Payloads;
const codex = JSON.parse(Deno.readTextFileSync(join(PAYLOADS, "codex.json"))) as Payloads;

interface Answer {
  code: number;
  stdout: string;
  stderr: string;
}

/** A session: a runtime folder, a project, and a function that runs one hook. */
async function session(env: Record<string, string> = {}) {
  const project = await tempProject({ "src/a.ts": "export const a = 1;\n" });
  const runtime = join(project.root, ".runtime");
  await Deno.mkdir(runtime, { mode: 0o700 });
  const id = crypto.randomUUID();
  const run = async (
    event: string,
    client: string,
    payload: Record<string, unknown> | string,
  ): Promise<Answer> => {
    const text = typeof payload === "string"
      ? payload
      : JSON.stringify({ ...payload, session_id: id, cwd: project.root });
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        "-P=sextant",
        "--config",
        DENO_CONFIG,
        MAIN,
        "hook",
        event,
        "--client",
        client,
      ],
      env: {
        PATH: Deno.env.get("PATH") ?? "",
        HOME: project.root,
        XDG_RUNTIME_DIR: runtime,
        XDG_CONFIG_HOME: join(project.root, ".xdg"),
        DENO_DIR,
        ...env,
      },
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(text));
    await writer.close();
    const out = await child.output();
    const decode = (b: Uint8Array) => new TextDecoder().decode(b);
    return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
  };
  const stateFile = join(runtime, "sextant", "hooks", `${id.replace(/[^\w-]/g, "_")}.json`);
  return {
    project,
    runtime,
    run,
    stateFile,
    [Symbol.asyncDispose]: () => project[Symbol.asyncDispose](),
  };
}

function decision(answer: Answer): { decision: string; reason: string } | null {
  assertEquals(answer.code, 0, answer.stderr);
  assertEquals(answer.stderr, "");
  if (answer.stdout.trim() === "") return null;
  const output = JSON.parse(answer.stdout).hookSpecificOutput;
  assertEquals(output.hookEventName, "PreToolUse");
  return { decision: output.permissionDecision, reason: output.permissionDecisionReason };
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("hook claude-code: the 4th search in a row is denied, naming the Sextant tool", async () => {
  await using s = await session();
  const start = await s.run("session-start", "claude-code", claude.session_start!);
  const context = JSON.parse(start.stdout).hookSpecificOutput;
  assertEquals(context.hookEventName, "SessionStart");
  assertStringIncludes(context.additionalContext, s.project.root);
  assertStringIncludes(context.additionalContext, "find_symbol");
  assert(await exists(s.stateFile), "state file at session start");
  if (Deno.build.os !== "windows") {
    assertEquals((await Deno.stat(join(s.runtime, "sextant", "hooks"))).mode! & 0o777, 0o700);
  }

  // Grep, Glob and a Bash rg count; a ranged Read and a test run do not.
  assertEquals(decision(await s.run("pre-tool-use", "claude-code", claude.grep!)), null);
  assertEquals(decision(await s.run("pre-tool-use", "claude-code", claude.read_range!)), null);
  assertEquals(decision(await s.run("pre-tool-use", "claude-code", claude.glob!)), null);
  assertEquals(decision(await s.run("pre-tool-use", "claude-code", claude.bash_test!)), null);
  assertEquals(decision(await s.run("pre-tool-use", "claude-code", claude.bash_rg!)), null);
  const denied = decision(await s.run("pre-tool-use", "claude-code", claude.grep!));
  assertEquals(denied?.decision, "deny");
  assertMatch(denied!.reason, /^Sextant: 4 text searches in a row/);
  assertStringIncludes(denied!.reason, 'find_symbol name_path_pattern="ServerPool"');
  assertStringIncludes(denied!.reason, "find_referencing_symbols");
  // A reminder, not a wall: the next one goes through.
  assertEquals(decision(await s.run("pre-tool-use", "claude-code", claude.grep!)), null);

  // Whole-file reads count too, and their reason points at the outline.
  await s.run("pre-tool-use", "claude-code", claude.read_whole!);
  await s.run("pre-tool-use", "claude-code", claude.read_whole!);
  const read = decision(await s.run("pre-tool-use", "claude-code", claude.read_whole!));
  assertEquals(read?.decision, "deny");
  assertStringIncludes(read!.reason, "get_symbols_overview");

  const end = await s.run("session-end", "claude-code", claude.session_end!);
  assertEquals(end.stdout, "");
  assertEquals(await exists(s.stateFile), false, "state removed at session end");
});

Deno.test("hook claude-code: a Sextant symbolic tool resets the count", async () => {
  await using s = await session();
  for (let i = 0; i < 3; i++) await s.run("pre-tool-use", "claude-code", claude.grep!);
  const post = await s.run("post-tool-use", "claude-code", claude.post_symbolic!);
  assertEquals([post.code, post.stdout], [0, ""]);
  for (let i = 0; i < 3; i++) {
    assertEquals(decision(await s.run("pre-tool-use", "claude-code", claude.grep!)), null);
  }
  assertEquals(
    decision(await s.run("pre-tool-use", "claude-code", claude.grep!))?.decision,
    "deny",
  );
});

Deno.test("hook codex: shell searches and cat count; a symbolic tool resets", async () => {
  await using s = await session();
  const start = JSON.parse((await s.run("session-start", "codex", codex.session_start!)).stdout);
  assertStringIncludes(start.hookSpecificOutput.additionalContext, s.project.root);
  await s.run("pre-tool-use", "codex", codex.shell_rg!);
  await s.run("pre-tool-use", "codex", codex.exec_cat!);
  await s.run("pre-tool-use", "codex", codex.exec_grep!);
  const denied = decision(await s.run("pre-tool-use", "codex", codex.shell_rg!));
  assertEquals(denied?.decision, "deny");
  assert(denied!.reason.length > 0, "Codex refuses a deny without a reason");
  for (let i = 0; i < 3; i++) await s.run("pre-tool-use", "codex", codex.exec_grep!);
  await s.run("post-tool-use", "codex", codex.post_symbolic!);
  assertEquals(decision(await s.run("pre-tool-use", "codex", codex.exec_grep!)), null);
});

Deno.test("hook: malformed or unexpected input allows silently", async () => {
  await using s = await session();
  for (
    const payload of [
      "",
      "not json",
      "[1,2]",
      "null",
      '{"tool_name": 3}',
      JSON.stringify({ ...claude.grep, session_id: 42 }),
    ]
  ) {
    for (const event of ["pre-tool-use", "post-tool-use", "session-end", "nonsense"]) {
      const answer = await s.run(event, "claude-code", payload);
      assertEquals([answer.code, answer.stdout, answer.stderr], [0, "", ""], `${event} ${payload}`);
    }
  }
});

Deno.test("hook: the limit comes from SEXTANT_HOOK_SEARCH_LIMIT (0 = off) and from config", async () => {
  {
    await using s = await session({ SEXTANT_HOOK_SEARCH_LIMIT: "0" });
    for (let i = 0; i < 5; i++) {
      assertEquals(decision(await s.run("pre-tool-use", "claude-code", claude.grep!)), null);
    }
  }
  {
    await using s = await session();
    await Deno.mkdir(join(s.project.root, ".sextant"));
    await Deno.writeTextFile(
      join(s.project.root, ".sextant", "project.jsonc"),
      '{\n  // one search, then the reminder\n  "hook_search_limit": 1,\n}\n',
    );
    assertEquals(decision(await s.run("pre-tool-use", "claude-code", claude.grep!)), null);
    assertEquals(
      decision(await s.run("pre-tool-use", "claude-code", claude.grep!))?.decision,
      "deny",
    );
  }
});

Deno.test("hook: its module graph stays small (no MCP SDK, no zod, no tools)", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", join(REPO_ROOT, "src", "cli", "hook.ts")],
    stdout: "piped",
  }).output();
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    modules: Array<{ specifier: string }>;
  };
  const specifiers = info.modules.map((m) => m.specifier);
  for (const heavy of ["modelcontextprotocol", "zod", "/src/tools/", "vscode-jsonrpc"]) {
    assert(!specifiers.some((s) => s.includes(heavy)), `hook.ts loads ${heavy}`);
  }
  // hook.ts, hook_rules.ts, the table of source extensions, the options' type, log.ts, node:path
  // and jsonc-parser.
  assert(specifiers.length <= 7, specifiers.join("\n"));
});
