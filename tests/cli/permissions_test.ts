/**
 * The `sextant` permission set (deno.json): its shape, its single definition shared by the
 * snippets of the README and docs/ and the compile script, that it suffices for every file tool
 * end to end, and that a missing permission is a tool error naming it.
 */
import { SEXTANT_PERMISSIONS } from "../../src/cli/permission_set.ts";
import { SEXTANT_ENV, SEXTANT_V8_FLAGS } from "../../src/cli/permission_flags.ts";
import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../helpers/assert.ts";
import {
  call,
  Client,
  connect,
  MAIN,
  REPO_ROOT,
  serviceRuntime,
  StdioClientTransport,
  tempProject,
} from "../helpers/mcp.ts";
import {
  findFlagRuns,
  grantsOf,
  loadPermissionSet,
  permissionFlags,
  README,
  rewriteFlagRuns,
  sextantFlags,
  snippetFiles,
} from "../../scripts/release/permissions.ts";
import { describeError } from "../../src/errors.ts";
import { serverSpecs } from "../../src/lsp/registry.ts";
import { INSTALLERS_RUN, MANAGER_PROGRAMS } from "../../src/lsp/install_hints.ts";

const SET = loadPermissionSet();

Deno.test("the program's copy of the permission set equals deno.json's", () => {
  assertEquals(SEXTANT_PERMISSIONS, SET);
});

Deno.test("deno task start runs with the same V8 flags as the service it launches", () => {
  const config = JSON.parse(Deno.readTextFileSync(new URL("../../deno.json", import.meta.url)));
  const start = (config.tasks.start as string).split(/\s+/);
  assertEquals(start.filter((w) => w.startsWith("--v8-flags=")), [SEXTANT_V8_FLAGS]);
  assert(sextantFlags().includes(SEXTANT_V8_FLAGS));
});

Deno.test("deno task start sets the environment the front gives the service", () => {
  const config = JSON.parse(Deno.readTextFileSync(new URL("../../deno.json", import.meta.url)));
  const words = (config.tasks.start as string).split(/\s+/);
  const assignments = words.slice(0, words.indexOf("deno"));
  assertEquals(assignments, Object.entries(SEXTANT_ENV).map(([name, value]) => `${name}=${value}`));
});

Deno.test("permission set: restricted run and env, loopback net only, no ffi or sys", () => {
  assertEquals(SET.read, true);
  assertEquals(SET.write, true);
  assert(Array.isArray(SET.run) && SET.run.length > 0, "run must be a list of programs");
  const env = grantsOf(SET.env);
  assert(Array.isArray(env.allow), "env must be a list of variables");
  assertEquals(env.ignore, true, "other variables must read as unset, not throw");
  // Loopback only: the shared service's connection and `--http` on 127.0.0.1.
  assertEquals(grantsOf(SET.net).allow, ["127.0.0.1"]);
  for (const kind of ["ffi", "sys"] as const) assertEquals(grantsOf(SET[kind]).allow, false);
  const flags = sextantFlags();
  assert(!flags.includes("-A") && !flags.includes("--allow-all"));
  assert(!flags.some((f) => /^--allow-(ffi|sys)/.test(f)), flags.join(" "));
  assertEquals(flags.filter((f) => f.startsWith("--allow-net")), ["--allow-net=127.0.0.1"]);
});

/** Every `.ts` file under `src/` but the unit tests, with its text. */
async function sourceFiles(): Promise<Array<{ path: string; text: string }>> {
  const files: Array<{ path: string; text: string }> = [];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) await walk(path);
      // Unit tests live beside the code but are not part of the program Sextant runs.
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts")) {
        files.push({ path, text: await Deno.readTextFile(path) });
      }
    }
  };
  await walk(join(REPO_ROOT, "src"));
  return files;
}

/**
 * The programs Sextant starts, derived from the code: the registry's language servers, the
 * programs the toolchain looks up by name, and the literal programs of `new Deno.Command(...)`
 * and of the process-group helpers `spawnGroup(...)` and `runGroup(...)` (src/process.ts).
 */
async function programsSextantStarts(): Promise<Set<string>> {
  const programs = new Set<string>();
  const root = Deno.makeTempDirSync({ prefix: "sextant-perm-" });
  try {
    for (const spec of serverSpecs(root)) for (const c of spec.commands) programs.add(c.command);
    // A Deno project's server is `deno lsp` (the running deno, or deno on PATH).
    Deno.writeTextFileSync(join(root, "deno.json"), "{}");
    assert(serverSpecs(root).some((s) => s.id === "deno"));
    programs.add("deno");
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
  for (const program of [...programs]) if (program.includes("/")) programs.delete(program);
  for (const { text } of await sourceFiles()) {
    for (const m of text.matchAll(/findExecutable\("([^"]+)"/g)) programs.add(m[1]!);
    for (const m of text.matchAll(/(?:new Deno\.Command|spawnGroup|runGroup)\(([^,)]+)[,)]/g)) {
      for (const literal of m[1]!.matchAll(/"([^"]+)"/g)) {
        programs.add(literal[1]!.replace(/\.exe$/, ""));
      }
    }
  }
  // The package managers `sextant doctor --install --yes` runs (src/cli/doctor_install.ts).
  for (const manager of INSTALLERS_RUN) programs.add(MANAGER_PROGRAMS[manager]);
  // The compiled executable starts itself as the shared service (src/cli/service_start.ts).
  programs.add("sextant");
  // Test runners chosen by a variable in src/toolchain/test_plans.ts.
  programs.add("vitest");
  programs.add("jest");
  return programs;
}

Deno.test("permission set: the run list is exactly the programs Sextant starts", async () => {
  const run = SET.run as string[];
  const programs = await programsSextantStarts();
  for (const expected of ["typescript-language-server", "pyright-langserver", "cargo", "kill"]) {
    assert(programs.has(expected), `${expected} not found in the code`);
  }
  const missing = [...programs].filter((p) => !run.includes(p));
  const stale = run.filter((p) => !programs.has(p));
  assertEquals(missing, [], "started by Sextant but not on the run list");
  assertEquals(stale, [], "on the run list but started by nothing");
  assertEquals(new Set(run).size, run.length, "no duplicates");
});

Deno.test("permission set: the env list covers every variable Sextant reads", async () => {
  const allow = grantsOf(SET.env).allow as string[];
  const read = new Set<string>();
  for (const { text } of await sourceFiles()) {
    for (const m of text.matchAll(/Deno\.env\.get\("([A-Z0-9_]+)"\)/g)) read.add(m[1]!);
    for (const m of text.matchAll(/_ENV\s*=\s*"([A-Z0-9_]+)"/g)) read.add(m[1]!);
  }
  assert(read.has("HOME") && read.has("SEXTANT_LSP_PATH"), [...read].join(","));
  // Read only where a wider permission set allows it, on purpose: the shared service serves
  // clients started from different environments, so an activated venv of whichever front started
  // it must not choose another project's interpreter (toolchain/python_env.ts).
  const unlisted = new Set(["VIRTUAL_ENV"]);
  for (const variable of read) {
    if (unlisted.has(variable)) continue;
    assert(allow.includes(variable), `${variable} is not allowed`);
  }
  for (const variable of unlisted) assert(!allow.includes(variable), `${variable} is listed`);
});

Deno.test("permission flags: booleans, lists, allow/deny/ignore and extra programs", () => {
  assertEquals(
    permissionFlags({
      read: true,
      write: { allow: ["/a"], deny: ["/a/b"] },
      run: ["gopls"],
      env: { allow: ["HOME"], ignore: true },
      net: false,
    }, { extraRun: ["my-lsp", "gopls"] }),
    [
      "--allow-read",
      "--allow-write=/a",
      "--deny-write=/a/b",
      "--allow-run=gopls,my-lsp",
      "--allow-env=HOME",
      "--ignore-env",
    ],
  );
  assertEquals(permissionFlags({ run: ["x"] }, { extraRun: ["*"] }), ["--allow-run"]);
  const flags = sextantFlags();
  assertEquals(flags.slice(0, 2), ["--quiet", "--no-prompt"]);
  assert(flags.includes(`--allow-run=${(SET.run as string[]).join(",")}`));
});

Deno.test("README and docs: every snippet's flags are the permission set's", () => {
  const files = snippetFiles();
  assert(files.includes(README) && files.length > 1, files.join(", "));
  const expected = sextantFlags();
  let count = 0;
  for (const file of files) {
    const text = Deno.readTextFileSync(file);
    const runs = findFlagRuns(text);
    count += runs.length;
    for (const run of runs) assertEquals(run, expected, file);
    assertEquals(rewriteFlagRuns(text, expected), text, file);
  }
  // Claude Code, Cursor, VS Code and Codex from a checkout, plus deno run and deno install.
  assert(count >= 6, `found ${count} snippets with flags`);
  assert(findFlagRuns(Deno.readTextFileSync(README)).length > 0, "the README's install snippet");
  // Prose and other tools' options are left alone.
  const install = Deno.readTextFileSync(join(REPO_ROOT, "docs", "install.md"));
  assertStringIncludes(install, "sha256sum --check --ignore-missing SHA256SUMS");
});

Deno.test("docs/clients.md: the Cursor snippet with Deno runs Sextant as written", async () => {
  await using project = await tempProject({ "a.txt": "from the docs\n" });
  await using runtime = await serviceRuntime();
  const text = Deno.readTextFileSync(join(REPO_ROOT, "docs", "clients.md"));
  const block = text.match(/```json\n(\{\n {2}"mcpServers"[\s\S]*?)```/g)
    ?.map((b) => b.slice(8, -3)).find((b) => b.includes('"command": "deno"'));
  assert(block, "no Cursor snippet with deno");
  const config = JSON.parse(block) as {
    mcpServers: { sextant: { command: string; args: string[] } };
  };
  const args = config.mcpServers.sextant.args.map((a) =>
    a === "/path/to/sextant/main.ts" ? MAIN : a === "/abs/path/to/project" ? project.root : a
  );
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args,
    cwd: project.root,
    env: {
      ...Deno.env.toObject(),
      XDG_CONFIG_HOME: join(project.root, ".xdg-test"),
      ...runtime.env,
    },
    stderr: "pipe",
  });
  const client = new Client({ name: "readme-test", version: "0" });
  await client.connect(transport);
  try {
    // The "ide" context leaves plain reads to the editor; searching is Sextant's.
    const found = await call(client, "search_for_pattern", { substring_pattern: "the docs" });
    assertEquals(found.isError, false, found.text);
    assertStringIncludes(found.text, "a.txt");
  } finally {
    await client.close();
  }
});

Deno.test("permission set suffices for every file tool, end to end (deno task start's set)", async () => {
  await using project = await tempProject({
    ".sextant/project.jsonc": JSON.stringify({
      included_tools: ["delete_lines", "replace_lines", "insert_at_line", "edit", "rename_file"],
    }),
    ".gitignore": "build/\n",
    "src/a.ts": "export const a = 1;\nexport const b = 2;\n",
    "src/b.txt": "alpha\nbeta\ngamma\n",
    "build/out.txt": "ignored\n",
  });
  const server = await connect(project.root);
  try {
    const names = (await server.client.listTools()).tools.map((t) => t.name);
    const expectOk = async (tool: string, args: Record<string, unknown>) => {
      assert(names.includes(tool), `${tool} is not active`);
      const result = await call(server.client, tool, args);
      assertEquals(result.isError, false, `${tool}: ${result.text}`);
      return result.text;
    };
    assertEquals(
      await expectOk("read_file", { relative_path: "src/b.txt" }),
      "alpha\nbeta\ngamma\n",
    );
    await expectOk("create_text_file", { relative_path: "src/new/c.txt", content: "one\ntwo\n" });
    assertEquals(await Deno.readTextFile(join(project.root, "src/new/c.txt")), "one\ntwo\n");
    assertStringIncludes(
      await expectOk("list_dir", { relative_path: ".", recursive: true }),
      "src/new/c.txt",
    );
    assertStringIncludes(
      await expectOk("find_file", { file_mask: "*.ts", relative_path: "." }),
      "src/a.ts",
    );
    assertStringIncludes(
      await expectOk("search_for_pattern", { substring_pattern: "beta" }),
      "src/b.txt",
    );
    await expectOk("replace_content", {
      relative_path: "src/b.txt",
      needle: "beta",
      repl: "BETA",
      mode: "literal",
    });
    const dry = await expectOk("replace_in_files", {
      needle: "export const",
      repl: "export let",
      mode: "literal",
      dry_run: true,
    });
    assertStringIncludes(dry, "src/a.ts");
    await expectOk("replace_in_files", {
      needle: "export const",
      repl: "export let",
      mode: "literal",
      dry_run: false,
      expected_count: 2,
    });
    assertEquals(
      await Deno.readTextFile(join(project.root, "src/a.ts")),
      "export let a = 1;\nexport let b = 2;\n",
    );
    await expectOk("read_file", { relative_path: "src/a.ts" });
    await expectOk("edit", { file_path: "src/a.ts", old_string: "a = 1", new_string: "a = 10" });
    // Line tools want the lines read since the file last changed.
    await expectOk("read_file", { relative_path: "src/b.txt" });
    await expectOk("insert_at_line", { relative_path: "src/b.txt", line: 0, content: "zero" });
    await expectOk("read_file", { relative_path: "src/b.txt" });
    await expectOk("replace_lines", {
      relative_path: "src/b.txt",
      start_line: 1,
      end_line: 1,
      content: "ALPHA",
    });
    await expectOk("read_file", { relative_path: "src/b.txt" });
    await expectOk("delete_lines", { relative_path: "src/b.txt", start_line: 3, end_line: 3 });
    assertEquals(
      await Deno.readTextFile(join(project.root, "src/b.txt")),
      "zero\nALPHA\nBETA\n",
    );
    assertEquals(
      await Deno.readTextFile(join(project.root, "src/a.ts")),
      "export let a = 10;\nexport let b = 2;\n",
    );
  } finally {
    await server.close();
  }
});

/** Start Sextant with explicit flags (not the set) and connect a client. */
async function connectWith(flags: string[], root: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    // Served in this process: the test is about this process's permissions.
    args: [
      "run",
      "--no-config",
      ...flags,
      MAIN,
      "--standalone",
      "--project",
      root,
      "--log-level",
      "error",
    ],
    env: { ...Deno.env.toObject(), XDG_CONFIG_HOME: join(root, ".xdg-test") },
    stderr: "pipe",
  });
  const client = new Client({ name: "sextant-test", version: "0" });
  await client.connect(transport);
  return client;
}

Deno.test("a missing permission is a tool error that names it, and the server goes on", async () => {
  await using project = await tempProject({ "a.txt": "kept\n" });
  const withoutWrite = permissionFlags({ ...SET, write: false });
  assert(!withoutWrite.some((f) => f.startsWith("--allow-write")));
  const client = await connectWith(["--no-prompt", ...withoutWrite], project.root);
  try {
    const result = await call(client, "create_text_file", {
      relative_path: "b.txt",
      content: "new\n",
    });
    assertEquals(result.isError, true);
    assertMatch(result.text, /^Error: Sextant is not allowed to write "/);
    assertStringIncludes(result.text, project.root);
    assertStringIncludes(result.text, 'Deno permission "write"');
    assertStringIncludes(result.text, "--allow-write");
    assert(!/\n\s+at /.test(result.text), "no stack trace");
    // Still serving: reads work.
    assertEquals(await call(client, "read_file", { relative_path: "a.txt" }), {
      text: "kept\n",
      isError: false,
    });
    await assertMissing(join(project.root, "b.txt"));
  } finally {
    await client.close();
  }
});

async function assertMissing(path: string): Promise<void> {
  try {
    await Deno.stat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw error;
  }
  throw new Error(`${path} exists`);
}

Deno.test("describeError: permission refusals name the permission and flag", () => {
  const run = describeError(
    new Deno.errors.NotCapable(
      'Requires run access to "gopls", run again with the --allow-run flag',
    ),
  );
  assertStringIncludes(run, 'Sextant is not allowed to run "gopls"');
  assertStringIncludes(run, "--allow-run=gopls");
  const kill = describeError(
    new Deno.errors.NotCapable("Requires run access, run again with the --allow-run flag"),
  );
  assertStringIncludes(kill, "unrestricted flag --allow-run");
  const ld = describeError(
    new Deno.errors.NotCapable(
      "Requires --allow-run permissions to spawn subprocess with LD_PRELOAD environment " +
        "variable. Alternatively, spawn with the environment variable unset.",
    ),
  );
  assertStringIncludes(ld, "while LD_PRELOAD is set");
  const wrapped = new Error("spawn failed", {
    cause: new Deno.errors.NotCapable(
      'Requires env access to "FOO", run again with the --allow-env flag',
    ),
  });
  assertStringIncludes(describeError(wrapped), '"FOO"');
  assertStringIncludes(describeError(wrapped), "--allow-env=FOO");
  // An operating-system refusal is not a Deno permission.
  assertStringIncludes(
    describeError(new Deno.errors.PermissionDenied("Permission denied (os error 13)")),
    "operating system refused",
  );
});
