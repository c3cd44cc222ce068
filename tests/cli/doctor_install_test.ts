/**
 * `sextant doctor --install [--yes]`, run as users run it (`main.ts doctor` with the `sextant`
 * permission set), with fake package managers on a PATH of their own: no real install happens.
 * A project with Bash (npm), Python (npm first), Go (no go on PATH) and C (apt-get only).
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { startArgs, tempProject } from "../helpers/mcp.ts";
import { parseCommandLine } from "../../src/cli/args.ts";

const posix = Deno.build.os !== "windows";

/** A temp folder of fake package managers; each logs its arguments to `log`. */
async function fakeManagers() {
  const bin = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-fake-pm-" }));
  const log = join(bin, "calls.log");
  const script = (name: string, body: string) =>
    Deno.writeTextFile(
      join(bin, name),
      `#!/bin/sh\nprintf '%s\\n' "${name} $*" >> '${log}'\n${body}\n`,
      { mode: 0o755 },
    );
  // npm installs bash-language-server (a stub) and fails for pyright.
  await script(
    "npm",
    `case "$*" in *pyright*) echo "npm ERR! 404 pyright" >&2; exit 1;; esac\n` +
      `printf '#!/bin/sh\\necho 5.4.0\\n' > '${bin}/bash-language-server'\n` +
      `/bin/chmod 755 '${bin}/bash-language-server'\necho "added 1 package"`,
  );
  await script("apt-get", "exit 0");
  return {
    bin,
    log,
    async [Symbol.asyncDispose]() {
      await Deno.remove(bin, { recursive: true });
    },
  };
}

async function doctor(root: string, bin: string, flags: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: startArgs(["doctor", "--project", root, ...flags]),
    // Only the fakes on PATH: no real server or package manager is found.
    env: {
      ...Deno.env.toObject(),
      PATH: bin,
      SEXTANT_LSP_PATH: "",
      XDG_CONFIG_HOME: join(root, ".xdg-none"),
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const lines = new TextDecoder().decode(out.stdout).split("\n").filter(Boolean);
  const report = `${lines.join("\n")}\n${new TextDecoder().decode(out.stderr)}`;
  return { code: out.code, lines, report };
}

const PROJECT = {
  "run.sh": "echo hi\n",
  "app.py": "x = 1\n",
  "main.go": "package main\n",
  "lib.c": "int x;\n",
};

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("command line: doctor --install --yes", () => {
  const options = parseCommandLine(["doctor", "--install", "--yes"]);
  assertEquals([options.command, options.install, options.yes], ["doctor", true, true]);
  const plain = parseCommandLine(["doctor"]);
  assertEquals([plain.install, plain.yes], [false, false]);
});

Deno.test({
  name: "doctor --install prints the commands of the package managers on PATH, runs nothing",
  ignore: !posix,
  async fn() {
    await using project = await tempProject(PROJECT);
    await using fake = await fakeManagers();
    const { code, lines, report } = await doctor(project.root, fake.bin, ["--install"]);
    assertEquals(code, 1, "servers the project needs are missing: " + report);
    const install = lines.filter((l) => l.startsWith("install"));
    assert(
      install.includes(
        "install bash: bash-language-server with npm: npm install -g bash-language-server",
      ),
      report,
    );
    assert(
      install.includes(
        "install python: pyright-langserver with npm: npm install -g pyright@1.1.414",
      ),
    );
    assert(install.some((l) => l.startsWith("install python: (not offered: pip, pipx not on")));
    assert(
      install.includes(
        "install cpp: clangd with apt: apt-get install clangd (as root, or with sudo)",
      ),
      report,
    );
    assertStringIncludes(
      install.find((l) => l.startsWith("install go:")) ?? "",
      "none of go is on PATH; install it yourself (gopls: go install golang.org/x/tools/gopls",
    );
    assertStringIncludes(
      install.at(-1)!,
      "install: nothing was run; 'sextant doctor --install --yes'",
    );
    assert(!exists(fake.log), "a package manager was run");
    assert(!exists(join(fake.bin, "bash-language-server")));
    assertEquals(
      lines.at(-1),
      "summary: 0 server(s) ok, 0 failed, 3 missing, optional missing: bash (exit code 1)",
    );
  },
});

Deno.test({
  name: "doctor --install --yes runs the first allowed command and reports what happened",
  ignore: !posix,
  async fn() {
    await using project = await tempProject(PROJECT);
    await using fake = await fakeManagers();
    const { code, lines, report } = await doctor(project.root, fake.bin, ["--install", "--yes"]);
    assertEquals(code, 1, report);
    // npm ran twice (bash, python); apt-get never.
    assertEquals(Deno.readTextFileSync(fake.log).split("\n").filter(Boolean).sort(), [
      "npm install -g bash-language-server",
      "npm install -g pyright@1.1.414",
    ]);
    const line = (prefix: string) => lines.filter((l) => l.startsWith(prefix));
    assertEquals(line("install bash:").slice(-2), [
      `install bash: running 'npm install -g bash-language-server' (${fake.bin}/npm)`,
      "install bash: 'npm install -g bash-language-server' exited with code 0; " +
      `bash-language-server is now found at ${fake.bin}/bash-language-server ` +
      "(restart Sextant: Deno looks up --allow-run names on PATH when it starts)",
    ]);
    const python = line("install python:");
    assertStringIncludes(
      python.join("\n"),
      "install python: 'npm install -g pyright@1.1.414' exited with code 1; pyright-langserver is " +
        "still not found",
    );
    assertEquals(python.at(-1), "install python:   | npm ERR! 404 pyright");
    assert(
      lines.includes(
        "install cpp: --yes does not run 'apt-get install clangd': apt-get installs system " +
          "packages: run it yourself as root",
      ),
      report,
    );
    assertEquals(
      lines.at(-1),
      "summary: 0 server(s) ok, 0 failed, 3 missing, optional missing: bash, install incomplete (exit code 1)",
    );
  },
});
