/**
 * The project's own Python (src/toolchain/python_env.ts): which virtual environment is the
 * project's, and how its interpreter starts under a restricted `--allow-run` list. The Deno facts
 * the design stands on are tested too, with a real `deno run` under such a list.
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { assert, assertEquals, assertStringIncludes } from "../helpers/assert.ts";
import { tempDir, writeTree } from "../helpers/tool_ctx.ts";
import { findExecutable } from "../../src/executables.ts";
import { permissionFlags } from "../../src/cli/permission_flags.ts";
import { SEXTANT_PERMISSIONS } from "../../src/cli/permission_set.ts";
import { findVirtualEnv, poetryEnvName } from "../../src/toolchain/python_env.ts";

const PYTHON_ENV = fileURLToPath(new URL("../../src/toolchain/python_env.ts", import.meta.url));
const python3 = findExecutable("python3", { useToolCache: false });
/** The interpreter itself (python3 on PATH may be a launcher script, as pyenv's shims are). */
const interpreter = python3 === null ? null : new TextDecoder().decode(
  new Deno.Command(python3, { args: ["-c", "import sys; print(sys.executable)"] }).outputSync()
    .stdout,
).trim();

/** A venv as `python -m venv --without-pip` makes it: `pyvenv.cfg` and a link to the interpreter. */
async function fakeVenv(dir: string): Promise<void> {
  await Deno.mkdir(join(dir, "bin"), { recursive: true });
  await Deno.writeTextFile(join(dir, "pyvenv.cfg"), `home = ${interpreter}/..\n`);
  await Deno.symlink(interpreter!, join(dir, "bin", "python"));
}

/**
 * Run `code` as a script with only these permissions (`deno run`: `deno eval` would grant all);
 * its stdout, trimmed.
 */
async function underPermissions(flags: string[], code: string): Promise<string> {
  await using tmp = await tempDir();
  const script = join(tmp.path, "probe.ts");
  await Deno.writeTextFile(script, code);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--no-prompt", ...flags, script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert(out.success, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trim();
}

Deno.test({
  name: "Deno's --allow-run: a name allows the program found on PATH only, not a venv's link to it",
  ignore: python3 === null || Deno.build.os === "windows",
  async fn() {
    await using tmp = await tempDir();
    const venvPython = join(tmp.path, ".venv", "bin", "python3");
    await Deno.mkdir(join(tmp.path, ".venv", "bin"), { recursive: true });
    await Deno.symlink(python3!, venvPython);
    const query = (command: string) =>
      `Deno.permissions.querySync({ name: "run", command: ${JSON.stringify(command)} }).state`;
    const states = await underPermissions(
      ["--allow-run=python3"],
      `console.log([${query("python3")}, ${query(python3!)}, ${query(venvPython)}].join(" "))`,
    );
    // The same file through a symbolic link in a venv is a different program to Deno.
    assertEquals(states, "granted granted prompt");
  },
});

Deno.test("findVirtualEnv: .venv first, then venv, then any folder with a pyvenv.cfg", async () => {
  await using tmp = await tempDir();
  // A folder with an interpreter but no pyvenv.cfg is not an environment (unless named venv).
  await writeTree(tmp.path, { "tools/bin/python": "" });
  await Deno.chmod(join(tmp.path, "tools/bin/python"), 0o755);
  assertEquals(findVirtualEnv(tmp.path), null);
  await fakeVenv(join(tmp.path, "env"));
  assertEquals(findVirtualEnv(tmp.path)?.label, "env");
  await fakeVenv(join(tmp.path, "venv"));
  assertEquals(findVirtualEnv(tmp.path)?.label, "venv");
  await fakeVenv(join(tmp.path, ".venv"));
  const found = findVirtualEnv(tmp.path);
  assertEquals(found?.label, ".venv");
  assertEquals(found?.python, join(tmp.path, ".venv", "bin", "python"));
});

Deno.test({
  name: "launchProjectProgram: the venv's interpreter through sh when only sh is allowed; " +
    "refused, with the flag, when neither is",
  ignore: python3 === null || Deno.build.os === "windows",
  async fn() {
    await using tmp = await tempDir();
    await fakeVenv(join(tmp.path, ".venv"));
    const venvPython = join(tmp.path, ".venv", "bin", "python");
    const code = `import { launchProjectProgram } from ${JSON.stringify(PYTHON_ENV)};
console.log(JSON.stringify(launchProjectProgram(${JSON.stringify(venvPython)}, ${
      JSON.stringify(tmp.path)
    })));`;
    // The `sextant` permission set, as `deno task start` runs with it: sh is on its run list.
    const sextant = permissionFlags(SEXTANT_PERMISSIONS);
    const viaSh = JSON.parse(await underPermissions(sextant, code));
    assertEquals(viaSh.argv.slice(1), ["-c", 'exec "$0" "$@"', venvPython]);
    // The launch line really starts the venv's interpreter, as the venv (sys.prefix).
    const [sh, ...args] = viaSh.argv as string[];
    const prefix = await new Deno.Command(sh!, {
      args: [...args, "-c", "import sys; print(sys.prefix)"],
      stdout: "piped",
    }).output();
    assertEquals(new TextDecoder().decode(prefix.stdout).trim(), join(tmp.path, ".venv"));

    const run = (SEXTANT_PERMISSIONS.run as string[]).filter((p) => p !== "sh");
    const withoutSh = permissionFlags({ ...SEXTANT_PERMISSIONS, run });
    const refused = JSON.parse(await underPermissions(withoutSh, code));
    assertStringIncludes(refused.refused, ".venv/bin/python");
    assertStringIncludes(refused.refused, `Add "${venvPython}" to the --allow-run list`);

    const direct = JSON.parse(await underPermissions(["--allow-all"], code));
    assertEquals(direct.argv, [venvPython]);
  },
});

Deno.test({
  name: "poetryEnvName: the name poetry 2.5.1 gave a project's environment",
  ignore: Deno.build.os === "windows",
  fn() {
    // Recorded: `poetry env use python3` in /tmp/poetryproj, whose [project] name is
    // "My_Poetry.Pkg", created my-poetry-pkg-IgxoB9Ps-py3.11.
    assertEquals(poetryEnvName("My_Poetry.Pkg", "/tmp/poetryproj"), "my-poetry-pkg-IgxoB9Ps");
  },
});

Deno.test({
  name:
    "findVirtualEnv: a poetry project's environment in poetry's cache, the version envs.toml names",
  ignore: interpreter === null || Deno.build.os !== "linux",
  async fn() {
    await using home = await tempDir();
    await using tmp = await tempDir();
    await writeTree(tmp.path, {
      "pyproject.toml": '[project]\nname = "demo"\nversion = "0"\n\n[tool.poetry]\n',
    });
    const envs = join(home.path, ".cache", "pypoetry", "virtualenvs");
    const name = poetryEnvName("demo", Deno.realPathSync(tmp.path));
    await fakeVenv(join(envs, `${name}-py3.9`));
    await fakeVenv(join(envs, `${name}-py3.12`));
    // Without envs.toml: the newest version.
    assertEquals(findVirtualEnv(tmp.path, { home: home.path })?.dir, join(envs, `${name}-py3.12`));
    await Deno.writeTextFile(join(envs, "envs.toml"), `[${name}]\nminor = "3.9"\n`);
    const found = findVirtualEnv(tmp.path, { home: home.path });
    assertEquals(found?.python, join(envs, `${name}-py3.9`, "bin", "python"));
    assertStringIncludes(found!.label, "poetry's environment");
    // An environment in the project comes first.
    await fakeVenv(join(tmp.path, ".venv"));
    assertEquals(findVirtualEnv(tmp.path, { home: home.path })?.label, ".venv");
  },
});
