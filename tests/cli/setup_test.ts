/**
 * `sextant setup <client>` against a temporary HOME: each client's file equals its golden file
 * (tests/cli/golden/), `--dry-run` writes nothing, a second run changes nothing, a foreign entry
 * named `sextant` is refused without `--force`, other content and comments are kept. Run with
 * `UPDATE_GOLDEN=1` to rewrite the golden files after a deliberate change.
 * With the real `claude` CLI from npm, `claude mcp list` reports Sextant connected.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  assert,
  assertEquals,
  assertMatch,
  assertRejects,
  assertStringIncludes,
} from "../helpers/assert.ts";
import { DENO_CONFIG, MAIN } from "../helpers/mcp.ts";
import { type ClientEnv, type ClientId, mcpConfigPath } from "../../src/cli/clients.ts";
import { runSetup, SetupError } from "../../src/cli/setup.ts";
import { sextantLaunch } from "../../src/cli/launch.ts";

const GOLDEN = fileURLToPath(new URL("./golden/", import.meta.url));
/** A fixed launch, so golden files do not depend on where deno or the checkout is. */
const LAUNCH = { command: "/opt/sextant/bin/sextant", args: [] };
/** Deno's cache, kept when a test gives deno a temporary HOME. */
const DENO_DIR = Deno.env.get("DENO_DIR") ??
  join(Deno.env.get("HOME") ?? "/root", ".cache", "deno");

interface Home {
  home: string;
  env: ClientEnv;
  project: string;
  [Symbol.asyncDispose](): Promise<void>;
}

async function tempHome(vars: Record<string, string> = {}): Promise<Home> {
  const home = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-home-" }));
  const project = join(home, "work", "app");
  await Deno.mkdir(project, { recursive: true });
  return {
    home,
    project,
    env: { home, os: "linux", get: (name) => vars[name]?.replace("$HOME", home) },
    async [Symbol.asyncDispose]() {
      await Deno.remove(home, { recursive: true }).catch(() => {});
    },
  };
}

async function setupQuiet(
  h: Home,
  client: ClientId,
  extra: Partial<Parameters<typeof runSetup>[0]> = {},
): Promise<string[]> {
  const lines: string[] = [];
  await runSetup({
    client,
    env: h.env,
    project: h.project,
    launch: LAUNCH,
    useClaudeCli: false,
    write: (line) => lines.push(line),
    ...extra,
  });
  return lines;
}

async function assertGolden(actualPath: string, goldenName: string, home: string) {
  const actual = (await Deno.readTextFile(actualPath)).replaceAll(home, "$HOME");
  const golden = join(GOLDEN, goldenName);
  if (Deno.env.get("UPDATE_GOLDEN")) await Deno.writeTextFile(golden, actual);
  assertEquals(actual, await Deno.readTextFile(golden), `${actualPath} differs from ${goldenName}`);
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Every file under a folder, with its content. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const walk = async (d: string) => {
    for await (const entry of Deno.readDir(d)) {
      const path = join(d, entry.name);
      if (entry.isDirectory) await walk(path);
      else files[path] = await Deno.readTextFile(path);
    }
  };
  await walk(dir);
  return files;
}

const CASES: Array<
  { client: ClientId; scope: "user" | "project"; golden: string; hooks?: boolean }
> = [
  { client: "claude-code", scope: "user", golden: "claude-code.user.json" },
  { client: "claude-code", scope: "project", golden: "claude-code.project.json" },
  { client: "codex", scope: "user", golden: "codex.user.toml" },
  { client: "cursor", scope: "user", golden: "cursor.user.json" },
  { client: "cursor", scope: "project", golden: "cursor.project.json" },
  { client: "vscode", scope: "user", golden: "vscode.user.json" },
  { client: "vscode", scope: "project", golden: "vscode.project.json" },
  { client: "claude-desktop", scope: "user", golden: "claude-desktop.user.json" },
  { client: "gemini-cli", scope: "user", golden: "gemini-cli.user.json" },
  { client: "gemini-cli", scope: "project", golden: "gemini-cli.project.json" },
];

for (const { client, scope, golden } of CASES) {
  Deno.test(`setup ${client} --scope ${scope}: golden file, dry run, idempotent`, async () => {
    await using h = await tempHome();
    const path = mcpConfigPath(client, scope, h.env, h.project);
    // Dry run: prints the change, writes nothing.
    const dry = await setupQuiet(h, client, { scope, dryRun: true });
    assertStringIncludes(dry.join("\n"), path);
    assertStringIncludes(dry.join("\n"), "Dry run: nothing was written.");
    assertEquals(await snapshot(h.home), {});
    // First run writes the golden file, with no backup (there was no file).
    await setupQuiet(h, client, { scope });
    await assertGolden(path, golden, h.home);
    assertEquals(await exists(`${path}.bak`), false);
    // Second run: nothing changes, and it says so.
    const before = await snapshot(h.home);
    const again = await setupQuiet(h, client, { scope });
    assertStringIncludes(again.join("\n"), "nothing to change");
    assertEquals(await snapshot(h.home), before);
  });
}

Deno.test("setup codex honours CODEX_HOME; claude-code honours CLAUDE_CONFIG_DIR", async () => {
  await using h = await tempHome({ CODEX_HOME: "$HOME/codex-home", CLAUDE_CONFIG_DIR: "$HOME/cc" });
  await setupQuiet(h, "codex");
  await setupQuiet(h, "claude-code", { hooks: true });
  assert(await exists(join(h.home, "codex-home", "config.toml")));
  assert(await exists(join(h.home, "cc", ".claude.json")));
  assert(await exists(join(h.home, "cc", "settings.json")));
});

Deno.test("setup: other servers, comments and formatting are kept; a backup is made", async () => {
  await using h = await tempHome();
  const path = join(h.project, ".cursor", "mcp.json");
  await Deno.mkdir(join(h.project, ".cursor"));
  const original =
    '{\n\t// my servers\n\t"mcpServers": {\n\t\t"other": { "command": "x" }\n\t}\n}\n';
  await Deno.writeTextFile(path, original);
  await setupQuiet(h, "cursor", { scope: "project" });
  await assertGolden(path, "cursor.existing.json", h.home);
  assertEquals(await Deno.readTextFile(`${path}.bak`), original);
});

Deno.test("setup codex: other tables and comments are kept, the entry is replaced in place", async () => {
  await using h = await tempHome();
  const path = join(h.home, ".codex", "config.toml");
  await Deno.mkdir(join(h.home, ".codex"));
  await Deno.writeTextFile(
    path,
    [
      'model = "gpt-5" # mine',
      "",
      "[mcp_servers.sextant]",
      'command = "sextant"',
      'args = ["--project", "/old"]',
      "",
      "[mcp_servers.sextant.env]",
      'A = "1"',
      "",
      "# keep me",
      "[mcp_servers.other]",
      'command = "other"',
      "",
    ].join("\n"),
  );
  await setupQuiet(h, "codex");
  await assertGolden(path, "codex.existing.toml", h.home);
});

Deno.test("setup: a foreign entry named sextant is refused without --force", async () => {
  await using h = await tempHome();
  const path = join(h.home, ".gemini", "settings.json");
  await Deno.mkdir(join(h.home, ".gemini"));
  const original = '{ "mcpServers": { "sextant": { "command": "npx", "args": ["other"] } } }\n';
  await Deno.writeTextFile(path, original);
  const error = await assertRejects(() => setupQuiet(h, "gemini-cli"), "--force");
  assert(error instanceof SetupError);
  assertStringIncludes(error.message, "--force");
  assertStringIncludes(error.message, "npx");
  assertEquals(await Deno.readTextFile(path), original);
  await setupQuiet(h, "gemini-cli", { force: true });
  const written = JSON.parse(await Deno.readTextFile(path));
  assertEquals(written.mcpServers.sextant.command, LAUNCH.command);
  assertEquals(await Deno.readTextFile(`${path}.bak`), original);
  // The TOML editor refuses the same way.
  const toml = join(h.home, ".codex", "config.toml");
  await Deno.mkdir(join(h.home, ".codex"));
  await Deno.writeTextFile(toml, '[mcp_servers.sextant]\ncommand = "python"\n');
  await assertRejects(() => setupQuiet(h, "codex"), "(command: python)");
});

Deno.test("setup: an earlier Sextant entry (another install) is updated without --force", async () => {
  await using h = await tempHome();
  const path = join(h.home, ".cursor", "mcp.json");
  await Deno.mkdir(join(h.home, ".cursor"));
  await Deno.writeTextFile(
    path,
    '{"mcpServers":{"sextant":{"command":"sextant","args":["--project","/x"]}}}',
  );
  const lines = await setupQuiet(h, "cursor");
  assertStringIncludes(lines.join("\n"), "update mcpServers.sextant");
});

Deno.test("setup --hooks: Claude Code settings.json and Codex config.toml, idempotent", async () => {
  await using h = await tempHome();
  const settings = join(h.home, ".claude", "settings.json");
  await Deno.mkdir(join(h.home, ".claude"));
  // A hook of the user's own stays, beside ours.
  await Deno.writeTextFile(
    settings,
    '{\n  "hooks": {\n    "PreToolUse": [\n      { "matcher": "Bash", "hooks": [{ "type": "command", "command": "audit.sh" }] }\n    ]\n  }\n}\n',
  );
  await setupQuiet(h, "claude-code", { hooks: true });
  await assertGolden(settings, "claude-code.settings.json", h.home);
  await setupQuiet(h, "codex", { hooks: true });
  await assertGolden(join(h.home, ".codex", "config.toml"), "codex.hooks.toml", h.home);
  const before = await snapshot(h.home);
  const again = [
    ...await setupQuiet(h, "claude-code", { hooks: true }),
    ...await setupQuiet(h, "codex", { hooks: true }),
  ];
  assertEquals(again.filter((l) => l.includes("nothing to change")).length, 2, again.join("\n"));
  assertEquals(await snapshot(h.home), before);
  // A new install location replaces our hooks, not adds a second set.
  await setupQuiet(h, "claude-code", {
    hooks: true,
    launch: { command: "/new/sextant", args: [] },
  });
  const parsed = JSON.parse(await Deno.readTextFile(settings));
  assertEquals(parsed.hooks.PreToolUse.length, 2);
  assertMatch(parsed.hooks.PreToolUse[1].hooks[0].command, /^\/new\/sextant hook pre-tool-use/);
});

Deno.test("setup: claude-desktop has no project scope", async () => {
  await using h = await tempHome();
  await assertRejects(
    () => setupQuiet(h, "claude-desktop", { scope: "project" }),
    "has no project config",
  );
});

Deno.test("setup paths per OS", () => {
  const env = (os: typeof Deno.build.os, vars: Record<string, string> = {}): ClientEnv => ({
    home: "/h",
    os,
    get: (name) => vars[name],
  });
  assertEquals(
    mcpConfigPath("claude-desktop", "user", env("darwin"), "/p"),
    "/h/Library/Application Support/Claude/claude_desktop_config.json",
  );
  assertEquals(
    mcpConfigPath("vscode", "user", env("windows", { APPDATA: "/h/AppData/Roaming" }), "/p"),
    join("/h/AppData/Roaming", "Code", "User", "mcp.json"),
  );
  assertEquals(
    mcpConfigPath("vscode", "user", env("linux", { XDG_CONFIG_HOME: "/x" }), "/p"),
    "/x/Code/User/mcp.json",
  );
  assertEquals(mcpConfigPath("codex", "project", env("linux"), "/p"), "/p/.codex/config.toml");
});

Deno.test("setup from the command line writes the entry that starts this Sextant", async () => {
  await using h = await tempHome();
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "-P=sextant", "--config", DENO_CONFIG, MAIN, "setup", "cursor"],
    env: { HOME: h.home, PATH: "/usr/bin:/bin", DENO_DIR },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  const config = JSON.parse(await Deno.readTextFile(join(h.home, ".cursor", "mcp.json")));
  const launch = sextantLaunch();
  assertEquals(config.mcpServers.sextant, {
    command: Deno.execPath(),
    args: [...launch.args, "--context", "ide"],
  });
  assert(launch.args.includes(MAIN) && launch.args.includes("--no-config"));
});

Deno.test("setup --scope project through `deno task --config <checkout>` writes into the caller's folder", async () => {
  await using h = await tempHome();
  const checkoutEntry = join(dirname(DENO_CONFIG), ".mcp.json");
  const before = await Deno.stat(checkoutEntry).then(() => true, () => false);
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "task",
      "--quiet",
      "--config",
      DENO_CONFIG,
      "start",
      "setup",
      "claude-code",
      "--scope",
      "project",
    ],
    cwd: h.project,
    // No `claude` on this PATH: setup writes .mcp.json itself.
    env: { HOME: h.home, PATH: `${dirname(Deno.execPath())}:/usr/bin:/bin`, DENO_DIR },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  const config = JSON.parse(await Deno.readTextFile(join(h.project, ".mcp.json")));
  assert(config.mcpServers.sextant, JSON.stringify(config));
  assertEquals(await Deno.stat(checkoutEntry).then(() => true, () => false), before);
});

/** The real Claude Code CLI, installed from npm into a temporary prefix, or a reason why not. */
async function installClaude(prefix: string): Promise<string | { skip: string }> {
  const cached = Deno.env.get("SEXTANT_TEST_CLAUDE");
  if (cached) return cached;
  try {
    const out = await new Deno.Command("npm", {
      args: ["i", "-g", "--prefix", prefix, "@anthropic-ai/claude-code@2.1.328"],
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!out.success) return { skip: new TextDecoder().decode(out.stderr).trim().slice(-300) };
  } catch (error) {
    return { skip: `npm is not available (${(error as Error).message})` };
  }
  return join(prefix, "bin", "claude");
}

Deno.test({
  name: "setup claude-code with the real claude CLI: claude mcp list says Connected",
  sanitizeResources: false,
  async fn() {
    await using h = await tempHome();
    const claude = await installClaude(join(h.home, "npm"));
    if (typeof claude !== "string") {
      console.log(`skipped: cannot install @anthropic-ai/claude-code: ${claude.skip}`);
      return;
    }
    const bin = join(claude, "..");
    const env = {
      HOME: h.home,
      PATH: `${bin}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DENO_DIR,
    };
    const setup = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", "-P=sextant", "--config", DENO_CONFIG, MAIN, "setup", "claude-code"],
      cwd: h.project,
      env,
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const setupText = new TextDecoder().decode(setup.stdout) +
      new TextDecoder().decode(setup.stderr);
    assertEquals(setup.code, 0, setupText);
    assertStringIncludes(setupText, "claude mcp add");
    const list = await new Deno.Command(claude, {
      args: ["mcp", "list"],
      cwd: h.project,
      env,
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(list.stdout);
    assertMatch(text, /sextant:.*Connected/, text + new TextDecoder().decode(list.stderr));
  },
});
