/**
 * Distribution: `deno task compile` (scripts/release/compile.ts) and the release workflow. Without a
 * `denort` base binary the compile task must fail with a message that says how to get one; the
 * permission set must be what the executable carries; the bundled program must serve MCP. With
 * `DENORT_BIN` set, a real executable is built and spoken to.
 */
import { join } from "node:path";
// A test-only dependency, pinned here (jsr:@std/yaml cannot be fetched on our machines).
import { parse as parseYaml } from "npm:yaml@2.9.1";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import {
  call,
  Client,
  REPO_ROOT,
  StdioClientTransport,
  tempProject,
  withLspPath,
} from "../helpers/mcp.ts";
import {
  binaryTarget,
  COMPILE_TARGETS,
  compileArgs,
  hostTarget,
  MAIN,
  outputName,
  stageIndexAssets,
} from "../../scripts/release/compile.ts";
import { grantsOf, loadPermissionSet, sextantFlags } from "../../scripts/release/permissions.ts";
import { VERSION } from "../../src/version.ts";
import { childUrl } from "../../src/repl/child.ts";

const COMPILE_SCRIPT = join(REPO_ROOT, "scripts", "release", "compile.ts");
const DENORT_BIN = Deno.env.get("DENORT_BIN");
const decoder = new TextDecoder();

if (!DENORT_BIN) {
  console.log(
    "distribution_test: DENORT_BIN is not set, so the test that builds a real executable and " +
      "talks MCP to it is skipped (deno compile cannot download denort on this machine). Set " +
      "DENORT_BIN to an unzipped denort-<target> of this deno's version to run it.",
  );
}

/** `deno run -A scripts/release/compile.ts ...args` with an environment of our choosing. */
async function runCompile(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const base = Deno.env.toObject();
  delete base.DENORT_BIN;
  delete base.DENORT_DIR;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", COMPILE_SCRIPT, ...args],
    cwd: REPO_ROOT,
    env: { ...base, ...env },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

function assertNoBaseMessage(stderr: string, target: string): void {
  assertStringIncludes(stderr, `no denort base binary for ${target}`);
  assertStringIncludes(stderr, "https://github.com/denoland/deno/releases/tag/v");
  assertStringIncludes(stderr, "DENORT_BIN=/path/to/denort deno task compile --target <target>");
  assertStringIncludes(stderr, "DENORT_DIR");
  assert(!/^\s+at /m.test(stderr), "no stack trace");
}

Deno.test("compile targets are exactly what deno compile --target accepts", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["compile", "--target", "no-such-target", "main.ts"],
    cwd: REPO_ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = decoder.decode(out.stderr);
  const values = /possible values: ([^\n]+)/.exec(text)?.[1];
  assert(values, text);
  const accepted = values.split(",").map((v) => v.trim()).filter(Boolean);
  assertEquals([...accepted].sort(), [...COMPILE_TARGETS].sort());
  assertEquals(outputName("x86_64-pc-windows-msvc"), "sextant-x86_64-pc-windows-msvc.exe");
  assertEquals(outputName("aarch64-apple-darwin"), "sextant-aarch64-apple-darwin");
});

Deno.test("compile without a base binary (--offline): exit 1 and how to get one", async () => {
  const outDir = await Deno.makeTempDir({ prefix: "sextant-dist-" });
  try {
    const { code, stderr } = await runCompile(
      ["--target", "x86_64-apple-darwin", "--offline", "--out-dir", outDir],
      {},
    );
    assertEquals(code, 1, stderr);
    assertNoBaseMessage(stderr, "x86_64-apple-darwin");
    assertStringIncludes(stderr, "--offline forbids downloading it");
    assertEquals([...Deno.readDirSync(outDir)], []);
  } finally {
    await Deno.remove(outDir, { recursive: true });
  }
});

Deno.test("compile when the base binary cannot be downloaded: exit 1 and how to get one", async () => {
  const outDir = await Deno.makeTempDir({ prefix: "sextant-dist-" });
  try {
    // A proxy on a closed loopback port: the download fails at once, here and anywhere.
    const proxy = "http://127.0.0.1:9";
    const target = "aarch64-apple-darwin";
    const { code, stderr } = await runCompile(["--target", target, "--out-dir", outDir], {
      HTTPS_PROXY: proxy,
      HTTP_PROXY: proxy,
      https_proxy: proxy,
      http_proxy: proxy,
      // npm packages (esbuild for --bundle) still come from the registry.
      NO_PROXY: "registry.npmjs.org",
      no_proxy: "registry.npmjs.org",
    });
    if (code === 0) {
      // Deno had this base binary cached from an earlier download: the build must be real.
      const info = await Deno.stat(join(outDir, outputName(target)));
      assert(info.size > 10_000_000);
      console.log("a cached denort was used; the download failure path was not exercised");
      return;
    }
    assertEquals(code, 1, stderr);
    assertNoBaseMessage(stderr, target);
    assertStringIncludes(stderr, "could not be downloaded");
  } finally {
    await Deno.remove(outDir, { recursive: true });
  }
});

Deno.test("compile refuses a DENORT_BIN that is missing or is the deno CLI", async () => {
  const missing = await runCompile(["--target", "x86_64-unknown-linux-gnu", "--offline"], {
    DENORT_BIN: "/nonexistent/denort",
  });
  assertEquals(missing.code, 1);
  assertStringIncludes(missing.stderr, "DENORT_BIN=/nonexistent/denort is not a file");
  if (hostTarget() === null) return;
  const cli = await runCompile(["--target", hostTarget()!, "--offline"], {
    DENORT_BIN: Deno.execPath(),
  });
  assertEquals(cli.code, 1);
  assertStringIncludes(cli.stderr, "is the deno CLI, not the denort base binary");
});

Deno.test("binaryTarget reads ELF, Mach-O and PE headers", async () => {
  const elf = new Uint8Array(64);
  elf.set([0x7f, 0x45, 0x4c, 0x46]);
  elf[18] = 0xb7;
  assertEquals(binaryTarget(elf), "aarch64-unknown-linux-gnu");
  const macho = new Uint8Array(32);
  const mview = new DataView(macho.buffer);
  mview.setUint32(0, 0xfeedfacf, true);
  mview.setUint32(4, 0x01000007, true);
  assertEquals(binaryTarget(macho), "x86_64-apple-darwin");
  mview.setUint32(4, 0x0100000c, true);
  assertEquals(binaryTarget(macho), "aarch64-apple-darwin");
  const pe = new Uint8Array(256);
  const pview = new DataView(pe.buffer);
  pe.set([0x4d, 0x5a]);
  pview.setUint32(0x3c, 0x80, true);
  pview.setUint32(0x80, 0x00004550, true);
  pview.setUint16(0x84, 0xaa64, true);
  assertEquals(binaryTarget(pe), "aarch64-pc-windows-msvc");
  pview.setUint16(0x84, 0x8664, true);
  assertEquals(binaryTarget(pe), "x86_64-pc-windows-msvc");
  assertEquals(binaryTarget(new TextEncoder().encode("#!/bin/sh\n")), null);
  // This machine's deno is an executable of the host target.
  const file = await Deno.open(Deno.execPath());
  const header = new Uint8Array(4096);
  await file.read(header);
  file.close();
  assertEquals(binaryTarget(header), hostTarget());
});

/** The JSON object that starts at `start` in `bytes` (strings and nesting respected). */
function jsonObjectAt(bytes: Uint8Array, start: number): unknown {
  let depth = 0;
  let inString = false;
  for (let i = start; i < bytes.length; i++) {
    const c = bytes[i];
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b) depth++;
    else if (c === 0x7d && --depth === 0) {
      return JSON.parse(decoder.decode(bytes.subarray(start, i + 1)));
    }
  }
  throw new Error("unterminated JSON");
}

function indexOfBytes(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i <= haystack.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

Deno.test("compileArgs: bundled, with the worker-options feature code mode needs", () => {
  const args = compileArgs("x86_64-unknown-linux-gnu", { output: "out/sextant" });
  assert(args.includes("--bundle"), args.join(" "));
  // Without it, a worker's `permissions: "none"` is ignored and code mode refuses to run.
  assert(args.includes("--unstable-worker-options"), args.join(" "));
  // Code mode's child needs no file of its own (a compiled Sextant runs it as main.ts's hidden
  // command, src/repl/child.ts), so nothing needs --include; the entry point is the last argument.
  assert(!args.some((a) => a.startsWith("--include")), args.join(" "));
  assertEquals(args.at(-1), join(REPO_ROOT, "main_bundle.ts"));
  assertEquals(args.slice(-5, -1), [
    "--target",
    "x86_64-unknown-linux-gnu",
    "--output",
    "out/sextant",
  ]);
  const unbundled = compileArgs("x86_64-unknown-linux-gnu", { output: "o", bundle: false });
  assert(unbundled.includes("--unstable-worker-options") && !unbundled.includes("--bundle"));
});

Deno.test("code mode's child is a self-contained data: URL", () => {
  const url = childUrl();
  assert(url.startsWith("data:application/javascript,"), url.slice(0, 40));
  const source = decodeURIComponent(url.slice(url.indexOf(",") + 1));
  assert(!/\bimport\s+[\w{*"']/.test(source), "the child imports no module statically");
});

Deno.test({
  name: "compile bakes in exactly the permission set, bundled (deno CLI as a stand-in base)",
  ignore: hostTarget() === null,
  async fn() {
    // deno compile accepts any executable as its base. The deno CLI will not run the result, but
    // the embedded metadata (permissions, prompt, log level) and payload size are the real ones.
    const dir = await Deno.makeTempDir({ prefix: "sextant-dist-" });
    try {
      const output = join(dir, "sextant-standin");
      // What `deno task compile` embeds beside the program: the symbol index's grammars.
      const assets = await stageIndexAssets();
      const out = await new Deno.Command(Deno.execPath(), {
        args: compileArgs(hostTarget()!, { output, include: assets.include }),
        env: { DENORT_BIN: Deno.execPath() },
        cwd: REPO_ROOT,
        stdout: "piped",
        stderr: "piped",
      }).output();
      assertEquals(out.code, 0, decoder.decode(out.stderr));
      const bytes = await Deno.readFile(output);
      const at = indexOfBytes(bytes, new TextEncoder().encode('{"argv":'));
      assert(at >= 0, "no metadata in the executable");
      const metadata = jsonObjectAt(bytes, at) as {
        permissions: Record<string, unknown>;
        log_level: string;
      };
      const set = loadPermissionSet();
      const p = metadata.permissions;
      assertEquals(p.allow_read, []);
      assertEquals(p.allow_write, []);
      assertEquals(p.allow_run, set.run);
      assertEquals(p.allow_env, grantsOf(set.env).allow);
      assertEquals(p.ignore_env, []);
      assertEquals(p.allow_net, ["127.0.0.1"]);
      for (const denied of ["allow_ffi", "allow_sys"]) assertEquals(p[denied], null);
      assertEquals(p.prompt, false);
      assertEquals(metadata.log_level, "ERROR");
      // The grammars are embedded as files (gzip), not in the bundled module graph.
      for (const name of ["tree-sitter-typescript.wasm.gz", "parse_worker.ts"]) {
        assert(indexOfBytes(bytes, new TextEncoder().encode(name)) >= 0, `${name} embedded`);
      }
      // Bundled: the program adds little to the base (the npm tree would add ~17 MB). The
      // grammars come on top, compressed.
      const added = bytes.length - (await Deno.stat(Deno.execPath())).size;
      const program = added - assets.bytes;
      const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
      console.log(
        `compile --bundle adds ${mib(added)} to the base: the program ${mib(program)}, the ` +
          `symbol index's grammars ${mib(assets.bytes)}`,
      );
      // 8.1 MiB after the C toolchain, code mode, the index's exact rules and the dev-tools
      // workflow's rename landed (Nov 2026); the cap catches a dependency tree bundled by mistake.
      assert(program < 9 * 1024 * 1024, `the program's payload is ${program} bytes`);
      assert(assets.bytes < 2 * 1024 * 1024, `the grammars take ${assets.bytes} bytes`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("the bundled program (what compile --bundle embeds) serves MCP", async () => {
  await using project = await tempProject({ "a.txt": "bundled\n" });
  const dir = await Deno.makeTempDir({ prefix: "sextant-bundle-" });
  try {
    const bundle = join(dir, "sextant.js");
    const built = await new Deno.Command(Deno.execPath(), {
      args: ["bundle", "--quiet", "--platform=deno", "-o", bundle, MAIN],
      cwd: REPO_ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(built.code, 0, decoder.decode(built.stderr));
    const transport = new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", "--no-config", ...sextantFlags(), bundle, "--project", project.root],
      cwd: project.root,
      env: { ...Deno.env.toObject(), XDG_CONFIG_HOME: join(project.root, ".xdg-test") },
      stderr: "pipe",
    });
    const client = new Client({ name: "bundle-test", version: "0" });
    await client.connect(transport);
    try {
      assertEquals(client.getServerVersion()?.version, VERSION);
      assertEquals(await call(client, "read_file", { relative_path: "a.txt" }), {
        text: "bundled\n",
        isError: false,
      });
    } finally {
      await client.close();
    }
    // Code mode survives bundling: its worker is started from a data: URL, not a file that
    // compile --bundle would leave out.
    const replTransport = new StdioClientTransport({
      command: Deno.execPath(),
      args: [
        "run",
        "--no-config",
        ...sextantFlags(),
        bundle,
        "--project",
        project.root,
        "--agent-interface",
        "repl",
      ],
      cwd: project.root,
      env: { ...Deno.env.toObject(), XDG_CONFIG_HOME: join(project.root, ".xdg-test") },
      stderr: "pipe",
    });
    const replClient = new Client({ name: "bundle-repl-test", version: "0" });
    await replClient.connect(replTransport);
    try {
      assertEquals(
        await call(replClient, "repl", {
          code: 'const r = await s.fs.read_file({relative_path: "a.txt"});\n' +
            "[r.text, await Deno.readTextFile('a.txt').catch((e) => e.name)]",
        }),
        { text: '["bundled\\n","NotCapable"]', isError: false },
      );
    } finally {
      await replClient.close();
    }
    // The language-server client (vscode-jsonrpc) survives bundling: doctor's live handshake.
    const lspCache = join(REPO_ROOT, ".cache", "lsp");
    try {
      Deno.statSync(join(lspCache, "node_modules", ".bin", "typescript-language-server"));
    } catch {
      console.log("typescript-language-server is not in .cache/lsp: bundled handshake not tried");
      return;
    }
    await Deno.writeTextFile(join(project.root, "main.ts"), "export const x: number = 1;\n");
    const doctor = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-config", ...sextantFlags(), bundle, "doctor", "--project", project.root],
      cwd: project.root,
      env: withLspPath({ ...Deno.env.toObject(), SEXTANT_LSP_PATH: lspCache }),
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const report = decoder.decode(doctor.stdout);
    assertEquals(doctor.code, 0, report + decoder.decode(doctor.stderr));
    assertStringIncludes(report, "typescript: handshake ok");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "the compiled executable (DENORT_BIN) answers initialize and read_file",
  ignore: !DENORT_BIN,
  async fn() {
    const target = hostTarget();
    assert(target, `deno compile has no target for ${Deno.build.target}`);
    await using project = await tempProject({ "hello.txt": "compiled\n" });
    const outDir = await Deno.makeTempDir({ prefix: "sextant-dist-" });
    try {
      const built = await runCompile(["--target", target, "--out-dir", outDir], {
        DENORT_BIN: DENORT_BIN!,
      });
      assertEquals(built.code, 0, built.stderr);
      console.log(built.stderr.trim());
      const binary = join(outDir, outputName(target));
      const started = performance.now();
      const transport = new StdioClientTransport({
        command: binary,
        args: ["--project", project.root],
        cwd: project.root,
        env: { ...Deno.env.toObject(), XDG_CONFIG_HOME: join(project.root, ".xdg-test") },
        stderr: "pipe",
      });
      const client = new Client({ name: "binary-test", version: "0" });
      await client.connect(transport);
      console.log(`binary: initialize answered ${(performance.now() - started).toFixed(0)} ms`);
      try {
        assertEquals(client.getServerVersion()?.version, VERSION);
        assertEquals(await call(client, "read_file", { relative_path: "hello.txt" }), {
          text: "compiled\n",
          isError: false,
        });
      } finally {
        await client.close();
      }
      const sums = await Deno.readTextFile(join(outDir, "SHA256SUMS"));
      assertStringIncludes(sums, `  ${outputName(target)}`);
    } finally {
      await Deno.remove(outDir, { recursive: true });
    }
  },
});

Deno.test("release workflow: on tags, compiles every target, publishes binaries and checksums", async () => {
  const text = await Deno.readTextFile(join(REPO_ROOT, ".github", "workflows", "release.yml"));
  const workflow = parseYaml(text) as {
    on: { push: { tags: string[] } };
    permissions: Record<string, string>;
    jobs: Record<string, { steps: Array<{ run?: string; uses?: string; with?: object }> }>;
  };
  assert(workflow.on.push.tags.length > 0, "release on tag push");
  assertEquals(workflow.permissions.contents, "write");
  const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
  const runs = steps.map((s) => s.run ?? "");
  const compileStep = runs.find((r) => r.includes("deno task compile"));
  assert(compileStep, "a step runs deno task compile");
  const targets = [...compileStep.matchAll(/--target\s+(\S+)/g)].map((m) => m[1]);
  assertEquals([...targets].sort(), [...COMPILE_TARGETS].sort());
  const setup = steps.find((s) => s.uses?.startsWith("denoland/setup-deno"));
  assertStringIncludes(JSON.stringify(setup?.with ?? {}), `v${Deno.version.deno.split(".")[0]}.`);
  const publish = runs.find((r) => r.includes("gh release"));
  assert(publish, "a step publishes the release");
  assertStringIncludes(publish, "dist/sextant-*");
  assertStringIncludes(publish, "dist/SHA256SUMS");
  assert(runs.some((r) => r.includes("sha256sum --check SHA256SUMS")));
});
