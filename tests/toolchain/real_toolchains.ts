/**
 * Real test runners and real projects for the toolchain tests, fetched from their registries once
 * into `.cache/real/` and then used offline:
 *
 * - Vitest 3.2.7 and Jest 29.7.0 from npm (their `node_modules`, linked into copies of
 *   fixtures/vitest_project and fixtures/jest_project);
 * - flask 3.1.3's sdist from PyPI (it ships its tests), with a wheelhouse of what its test and
 *   typing runs need: its dependencies at the versions of its own `uv.lock`, pytest and its test
 *   extras, mypy, and its build backend, so `pip install -e .` into a fresh `.venv` works
 *   without the network.
 *
 * A failed download throws an error with the reason; the tests skip with it printed.
 * @module
 */
import { join } from "node:path";
import { copyTree, once, REAL_CACHE } from "../helpers/real_code.ts";

async function run(cmd: string, args: string[], cwd?: string): Promise<string> {
  let output: Deno.CommandOutput;
  try {
    output = await new Deno.Command(cmd, {
      args,
      ...(cwd ? { cwd } : {}),
      stdout: "piped",
      stderr: "piped",
      stdin: "null",
    }).output();
  } catch (error) {
    throw new Error(`cannot run ${cmd}: ${error instanceof Error ? error.message : error}`);
  }
  if (!output.success) {
    const err = new TextDecoder().decode(output.stderr).trim().split("\n").slice(-8).join("\n");
    throw new Error(`${cmd} ${args.join(" ")} failed (exit ${output.code}): ${err}`);
  }
  return new TextDecoder().decode(output.stdout);
}

/** The Vitest the recorded output of fixtures/js_runners came from. */
export const VITEST_VERSION = "3.2.7";

/** The Jest the recorded output of fixtures/js_runners came from. */
export const JEST_VERSION = "29.7.0";

/** A `node_modules` holding `name@version` from npm, installed once into `.cache/real`. */
export async function nodeModulesWith(name: string, version: string): Promise<string> {
  await Deno.mkdir(REAL_CACHE, { recursive: true });
  const dir = join(await Deno.realPath(REAL_CACHE), `node-${name}-${version}`);
  await once(dir, `${name}@${version}`, async (tmp) => {
    await Deno.writeTextFile(join(tmp, "package.json"), '{"private":true}\n');
    await run("npm", [
      "install",
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
      `${name}@${version}`,
    ], tmp);
  });
  return join(dir, "node_modules");
}

/** A `node_modules` holding Vitest {@linkcode VITEST_VERSION}. */
export const vitestModules = (): Promise<string> => nodeModulesWith("vitest", VITEST_VERSION);

/** A `node_modules` holding Jest {@linkcode JEST_VERSION}. */
export const jestModules = (): Promise<string> => nodeModulesWith("jest", JEST_VERSION);

/**
 * flask's pin, and the versions its `uv.lock` gives its test and typing runs (pytest 9.0,
 * werkzeug 3.1.5, click 8.1.8, mypy 1.19.1: with newer ones its own checks fail).
 */
export const FLASK = {
  version: "3.1.3",
  requirements: [
    "flask==3.1.3",
    "werkzeug==3.1.5",
    "click==8.1.8",
    "mypy==1.19.1",
    "pytest==9.0.2",
    "asgiref==3.11.0",
    "python-dotenv==1.2.1",
    "greenlet",
    "flit_core>=3.11,<4",
  ],
} as const;

/** flask's source tree (with its tests) and a wheelhouse to install it and its tests from. */
export interface FlaskSource {
  /** The unpacked sdist, to copy. */
  template: string;
  /** Wheels for `pip install --no-index --find-links`. */
  wheels: string;
  /** The Python the wheels were chosen for (the venv must be made with it). */
  python: string;
}

/** flask {@linkcode FLASK.version} from PyPI, fetched once with `python3 -m pip download`. */
export async function flaskSource(): Promise<FlaskSource> {
  await Deno.mkdir(REAL_CACHE, { recursive: true });
  const dir = join(await Deno.realPath(REAL_CACHE), `python-flask-${FLASK.version}`);
  // Compiled wheels (markupsafe, greenlet) fit one Python version: the cache is per version.
  const python = "python3";
  // The test makes a venv with pip in it (Debian's python3 needs python3-venv for that).
  const pyVersion = (await run(python, [
    "-c",
    "import ensurepip, sys, venv; print(sys.version.split()[0])",
  ])).trim();
  const pin = `flask@${FLASK.version} for python ${pyVersion}: ${FLASK.requirements.join(" ")}`;
  await once(dir, pin, async (tmp) => {
    const sdist = join(tmp, "sdist");
    await run(python, [
      "-m",
      "pip",
      "download",
      "--no-deps",
      "--no-binary",
      ":all:",
      `flask==${FLASK.version}`,
      "-d",
      sdist,
    ]);
    await run(python, ["-m", "pip", "download", ...FLASK.requirements, "-d", join(tmp, "wheels")]);
    await run("tar", ["xzf", join(sdist, `flask-${FLASK.version}.tar.gz`), "-C", tmp]);
    await copyTree(join(tmp, `flask-${FLASK.version}`), join(tmp, "project"));
    await Deno.remove(join(tmp, `flask-${FLASK.version}`), { recursive: true });
  });
  return { template: join(dir, "project"), wheels: join(dir, "wheels"), python };
}

/**
 * A `.venv` in `root` made by `python -m venv`, with the project installed editable
 * (`pip install -e .`, what `uv sync` gives) and pytest, from the wheelhouse only.
 */
export async function editableVenv(root: string, source: FlaskSource): Promise<string> {
  await run(source.python, ["-m", "venv", ".venv"], root);
  const python = join(root, ".venv", "bin", "python");
  await run(python, [
    "-m",
    "pip",
    "install",
    "--quiet",
    "--no-index",
    "--find-links",
    source.wheels,
    "-e",
    ".",
    ...FLASK.requirements.filter((r) => !r.startsWith("flask==")),
  ], root);
  return python;
}
