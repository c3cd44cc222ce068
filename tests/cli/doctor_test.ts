/**
 * `sextant doctor`: run as users run it (`main.ts doctor` with the `sextant` permission set) on
 * the TypeScript and Python fixtures, on a project with a broken server, and on one whose
 * server is not on the run list.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../helpers/assert.ts";
import { REPO_ROOT, startArgs, tempProject, withLspPath } from "../helpers/mcp.ts";
import { parseCommandLine } from "../../src/cli/args.ts";

/** Where scripts/checks/test_setup.ts installs the test servers. */
const LSP_CACHE = join(REPO_ROOT, ".cache", "lsp");

function installed(command: string): boolean {
  try {
    return Deno.statSync(join(LSP_CACHE, "node_modules", ".bin", command)).isFile;
  } catch {
    return false;
  }
}

/** A fixture folder, or (when absent) a temp project made of `files`. */
async function fixtureOr(
  name: string,
  files: Record<string, string>,
): Promise<{ root: string; [Symbol.asyncDispose](): Promise<void> }> {
  const root = join(REPO_ROOT, "fixtures", name);
  try {
    if (Deno.statSync(root).isDirectory) {
      return { root, [Symbol.asyncDispose]: () => Promise.resolve() };
    }
  } catch { /* no fixture: use a temp project */ }
  return await tempProject(files);
}

/** `deno run -P=sextant main.ts doctor --project <root>`, with the test servers on PATH. */
async function doctor(root: string): Promise<{ code: number; lines: string[]; stderr: string }> {
  const env = withLspPath({
    ...Deno.env.toObject(),
    SEXTANT_LSP_PATH: LSP_CACHE,
    XDG_CONFIG_HOME: join(root, ".xdg-test-none"),
  });
  const out = await new Deno.Command(Deno.execPath(), {
    args: startArgs(["doctor", "--project", root]),
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  return {
    code: out.code,
    lines: stdout.split("\n").filter(Boolean),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

function line(lines: string[], prefix: string): string {
  const found = lines.find((l) => l.startsWith(prefix));
  assert(found, `no line starting with '${prefix}' in:\n${lines.join("\n")}`);
  return found;
}

Deno.test("command line: doctor is a subcommand that takes --project", () => {
  const options = parseCommandLine(["doctor", "--project", "/p"]);
  assertEquals(options.command, "doctor");
  assertEquals(options.project, "/p");
  assertEquals(parseCommandLine([]).command, "serve");
});

Deno.test("doctor: the permission set in force, one line per permission", async () => {
  await using project = await tempProject({ "notes.md": "nothing to serve\n" });
  const { code, lines } = await doctor(project.root);
  assertEquals(code, 0, lines.join("\n"));
  assertEquals(line(lines, "permission read:"), "permission read: granted");
  assertEquals(line(lines, "permission write:"), "permission write: granted");
  assertStringIncludes(line(lines, "permission run:"), "limited to the programs on --allow-run");
  assertStringIncludes(line(lines, "permission env:"), "limited (PATH granted, HOME granted");
  assertStringIncludes(line(lines, "permission net:"), "permission net: loopback only");
  for (const name of ["ffi", "sys"]) {
    assertEquals(line(lines, `permission ${name}:`), `permission ${name}: not granted`);
  }
  assertStringIncludes(line(lines, "languages:"), "none detected");
  assertEquals(line(lines, "summary:"), "summary: 0 server(s) ok, 0 failed, 0 missing");
});

Deno.test("doctor: fixtures/typescript, server found and handshake done", async () => {
  await using project = await fixtureOr("typescript", {
    "package.json": "{}\n",
    "src/index.ts": "export const answer: number = 42;\n",
  });
  const { code, lines, stderr } = await doctor(project.root);
  const report = `${lines.join("\n")}\n${stderr}`;
  assertMatch(
    line(lines, "language TypeScript/JavaScript:"),
    /: \d+ files? \(server id typescript\)/,
  );
  if (installed("typescript-language-server")) {
    assertEquals(code, 0, report);
    assertMatch(
      line(lines, "typescript: found"),
      /found typescript-language-server at .*typescript-language-server, version \d+\.\d+/,
    );
    assertMatch(line(lines, "typescript: handshake"), /handshake ok in \d+ ms, \d+ capabilities/);
    assertMatch(line(lines, "summary:"), /^summary: [1-9]\d* server\(s\) ok, 0 failed/);
  } else {
    console.log(
      "typescript-language-server is not in .cache/lsp (run scripts/checks/test_setup.ts)",
    );
    assertStringIncludes(line(lines, "typescript: missing"), "npm install -g typescript-language");
  }
});

Deno.test("doctor: fixtures/python, server found and handshake done", async () => {
  await using project = await fixtureOr("python", {
    "app.py": "def main() -> int:\n    return 1\n",
  });
  const { code, lines, stderr } = await doctor(project.root);
  const report = `${lines.join("\n")}\n${stderr}`;
  assertMatch(line(lines, "language Python:"), /: \d+ files? \(server id python\)/);
  if (installed("pyright-langserver")) {
    assertEquals(code, 0, report);
    assertMatch(line(lines, "python: found"), /found pyright-langserver at .*, version pyright \d/);
    assertMatch(line(lines, "python: handshake"), /handshake ok in \d+ ms/);
  } else {
    console.log("pyright-langserver is not in .cache/lsp (run scripts/checks/test_setup.ts)");
    assertStringIncludes(line(lines, "python: missing"), "pip install python-lsp-server");
  }
});

Deno.test("doctor: languages by extension, ignored folders skipped, missing server named", async () => {
  await using project = await tempProject({
    ".gitignore": "generated/\n.xdg-test-none/\n",
    "main.go": "package main\n",
    "generated/lib.rs": "fn main() {}\n",
    "node_modules/dep/index.c": "int x;\n",
    ".xdg-test-none/sextant/config.jsonc": JSON.stringify({
      language_servers: { go: { command: "gopls-not-installed-anywhere" } },
    }),
  });
  const { code, lines } = await doctor(project.root);
  assertEquals(code, 1, "a server the project needs is missing: " + lines.join("\n"));
  assertEquals(line(lines, "language Go:"), "language Go: 1 file (server id go)");
  assertStringIncludes(line(lines, "go: missing"), "gopls-not-installed-anywhere");
  assert(!lines.some((l) => l.startsWith("language Rust") || l.startsWith("language C/C++")));
  assertEquals(
    line(lines, "summary:"),
    "summary: 0 server(s) ok, 0 failed, 1 missing (exit code 1)",
  );
});

Deno.test("doctor: a server that fails the handshake, and one not on --allow-run, exit 1", async () => {
  await using project = await tempProject({
    ".gitignore": ".xdg-test-none/\n",
    "a.brk": "broken\n",
    "b.own": "own\n",
    "bin/own-lsp": "#!/bin/sh\nexit 0\n",
    ".xdg-test-none/sextant/config.jsonc": JSON.stringify({
      language_servers: {
        // `sh` is on the run list, but this is no language server: it exits at once.
        broken: { command: "sh", args: ["-c", "exit 3"], extensions: [".brk"] },
        own: { command: "./bin/own-lsp", extensions: [".own"] },
      },
    }),
  });
  await Deno.chmod(join(project.root, "bin/own-lsp"), 0o755);
  const { code, lines } = await doctor(project.root);
  assertEquals(code, 1, lines.join("\n"));
  // The pipe breaks or the process is seen to exit first, depending on timing.
  assertMatch(line(lines, "broken: handshake"), /^broken: handshake FAILED: \S/);
  const own = line(lines, "own: found");
  assertStringIncludes(own, "but Sextant may not run it: not on --allow-run");
  assertEquals(
    line(lines, "summary:"),
    "summary: 0 server(s) ok, 2 failed, 0 missing (exit code 1)",
  );
});

Deno.test({
  name: "doctor: a missing JSON, YAML or Bash server is optional: named, exit 0",
  ignore: !installed("typescript-language-server"),
}, async () => {
  await using project = await tempProject({
    ".gitignore": ".xdg-test-none/\n",
    "src/main.ts": "export const x = 1;\n",
    "data.json": "{}\n",
    "ci.yaml": "a: 1\n",
    ".xdg-test-none/sextant/config.jsonc": JSON.stringify({
      language_servers: {
        json: { command: "json-ls-not-installed-anywhere" },
        yaml: { command: "yaml-ls-not-installed-anywhere" },
      },
    }),
  });
  const { code, lines } = await doctor(project.root);
  assertEquals(code, 0, lines.join("\n"));
  assertStringIncludes(line(lines, "json: missing, optional"), "json-ls-not-installed-anywhere");
  assertEquals(
    line(lines, "summary:"),
    "summary: 1 server(s) ok, 0 failed, 0 missing, optional missing: yaml, json",
  );
});
