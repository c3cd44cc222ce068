/**
 * project_info's content: what each toolchain's manifest in the project root says (Cargo.toml,
 * package.json, deno.json, tsconfig.json, pyproject.toml, go.mod, GPR files, alire.toml).
 * @module
 */
import { join, relative } from "node:path";
import { jsonc, parseToml } from "../deps.ts";
import { chooseGpr, readAlire, readGprFiles } from "./ada/ada_project.ts";
import { detectToolchains, listDir } from "./detect.ts";
import { findVirtualEnv } from "./python_env.ts";
import { pathExists } from "./reported_paths.ts";

type Json = Record<string, unknown>;

function readText(path: string): string | null {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return null;
  }
}

function readJsonc(path: string): Json | null {
  const text = readText(path);
  if (text === null) return null;
  const value = jsonc.parse(text, [], { allowTrailingComma: true }) as unknown;
  return value && typeof value === "object" ? (value as Json) : null;
}

function readTomlFile(path: string): Json | null {
  const text = readText(path);
  if (text === null) return null;
  return parseToml(text) as Json;
}

/** Only the named keys that are present. */
function pick(source: Json, keys: string[]): Json {
  const out: Json = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}

/** Dependencies as name → version requirement (tables become their `version` or JSON). */
function dependencyMap(table: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!table || typeof table !== "object") return out;
  for (const [name, spec] of Object.entries(table as Json)) {
    if (typeof spec === "string") out[name] = spec;
    else if (spec && typeof spec === "object") {
      const s = spec as Json;
      out[name] = typeof s.version === "string"
        ? s.version
        : typeof s.path === "string"
        ? `path:${s.path}`
        : typeof s.git === "string"
        ? `git:${s.git}`
        : s.workspace === true
        ? "workspace"
        : JSON.stringify(spec);
    } else out[name] = String(spec);
  }
  return out;
}

function rustFiles(dir: string, sub: string): string[] {
  return listDir(join(dir, sub)).filter((f) => f.endsWith(".rs")).map((f) => `${sub}/${f}`);
}

function rustInfo(root: string): Json {
  const toml = readTomlFile(join(root, "Cargo.toml")) ?? {};
  const pkg = (toml.package ?? {}) as Json;
  const name = typeof pkg.name === "string" ? pkg.name : null;
  const targets: Array<{ kind: string; name: string; path: string }> = [];
  const lib = toml.lib as Json | undefined;
  if (lib || pathExists(join(root, "src/lib.rs"))) {
    targets.push({
      kind: "lib",
      name: (lib?.name as string | undefined) ?? (name ?? "").replaceAll("-", "_"),
      path: (lib?.path as string | undefined) ?? "src/lib.rs",
    });
  }
  if (pathExists(join(root, "src/main.rs"))) {
    targets.push({ kind: "bin", name: name ?? "main", path: "src/main.rs" });
  }
  for (
    const [kind, key, folder] of [
      ["bin", "bin", "src/bin"],
      ["test", "test", "tests"],
      ["example", "example", "examples"],
      ["bench", "bench", "benches"],
    ] as const
  ) {
    const declared = (toml[key] ?? []) as Json[];
    for (const t of declared) {
      targets.push({ kind, name: String(t.name ?? ""), path: String(t.path ?? "") });
    }
    for (const file of rustFiles(root, folder)) {
      if (!targets.some((t) => t.path === file)) {
        targets.push({ kind, name: file.slice(folder.length + 1, -3), path: file });
      }
    }
  }
  const workspace = toml.workspace as Json | undefined;
  return {
    manifest: "Cargo.toml",
    ...(name ? { name } : {}),
    ...pick(pkg, ["version", "edition", "rust-version", "description", "license"]),
    ...(workspace ? { workspace_members: workspace.members ?? [] } : {}),
    targets,
    dependencies: dependencyMap(toml.dependencies),
    dev_dependencies: dependencyMap(toml["dev-dependencies"]),
    ...(toml.features ? { features: Object.keys(toml.features as Json) } : {}),
  };
}

function nodeInfo(root: string): Json {
  const pkg = readJsonc(join(root, "package.json")) ?? {};
  return {
    manifest: "package.json",
    ...pick(pkg, ["name", "version", "type", "main", "module", "types", "bin", "workspaces"]),
    scripts: pkg.scripts ?? {},
    dependencies: pkg.dependencies ?? {},
    dev_dependencies: pkg.devDependencies ?? {},
    ...(pkg.peerDependencies ? { peer_dependencies: pkg.peerDependencies } : {}),
    package_manager: pathExists(join(root, "pnpm-lock.yaml"))
      ? "pnpm"
      : pathExists(join(root, "yarn.lock"))
      ? "yarn"
      : pathExists(join(root, "bun.lockb")) || pathExists(join(root, "bun.lock"))
      ? "bun"
      : "npm",
  };
}

function denoInfo(root: string, marker: string): Json {
  const config = readJsonc(join(root, marker)) ?? {};
  return {
    manifest: marker,
    ...pick(config, ["name", "version", "exports", "workspace"]),
    tasks: config.tasks ?? {},
    imports: config.imports ?? {},
    ...(config.compilerOptions ? { compiler_options: config.compilerOptions } : {}),
  };
}

function typescriptInfo(root: string, marker: string): Json {
  const config = readJsonc(join(root, marker)) ?? {};
  const options = (config.compilerOptions ?? {}) as Json;
  return {
    manifest: marker,
    compiler_options: pick(options, [
      "target",
      "module",
      "moduleResolution",
      "strict",
      "jsx",
      "outDir",
      "rootDir",
      "baseUrl",
      "paths",
      "noEmit",
    ]),
    ...pick(config, ["extends", "include", "exclude", "files", "references"]),
  };
}

function pythonInfo(root: string): Json {
  const info: Json = {};
  const pyproject = readTomlFile(join(root, "pyproject.toml"));
  if (pyproject) {
    info.manifest = "pyproject.toml";
    const project = (pyproject.project ?? {}) as Json;
    Object.assign(
      info,
      pick(project, ["name", "version", "description", "requires-python", "dependencies"]),
    );
    if (project["optional-dependencies"]) {
      info.optional_dependencies = project["optional-dependencies"];
    }
    if (project.scripts) info.scripts = project.scripts;
    const tool = (pyproject.tool ?? {}) as Json;
    const poetry = tool.poetry as Json | undefined;
    if (poetry) {
      Object.assign(info, pick(poetry, ["name", "version", "description"]));
      info.dependencies = dependencyMap(poetry.dependencies);
    }
    const build = (pyproject["build-system"] ?? {}) as Json;
    if (build["build-backend"]) info.build_backend = build["build-backend"];
    info.tools = Object.keys(tool);
  }
  const requirements = readText(join(root, "requirements.txt"));
  if (requirements !== null) {
    info.requirements = requirements.split("\n").map((l) => l.replace(/#.*/, "").trim())
      .filter(Boolean);
  }
  for (const file of ["setup.py", "setup.cfg", "pyrightconfig.json"]) {
    if (pathExists(join(root, file))) ((info.files ??= []) as string[]).push(file);
  }
  const venv = findVirtualEnv(root);
  if (venv) info.virtualenv = venv.label;
  return info;
}

function goInfo(root: string): Json {
  const text = readText(join(root, "go.mod")) ?? "";
  const requires: Record<string, string> = {};
  const block = /^require\s*\(([\s\S]*?)^\)/m.exec(text);
  const lines = [
    ...(block ? block[1]!.split("\n") : []),
    ...[...text.matchAll(/^require\s+([^\s(]+\s+\S+)/gm)].map((m) => m[1]!),
  ];
  for (const line of lines) {
    const m = /^\s*(\S+)\s+(v\S+)/.exec(line);
    if (m) requires[m[1]!] = m[2]!;
  }
  return {
    manifest: "go.mod",
    module: /^module\s+(\S+)/m.exec(text)?.[1] ?? null,
    go: /^go\s+(\S+)/m.exec(text)?.[1] ?? null,
    require: requires,
  };
}

function adaInfo(root: string): Json {
  const files = readGprFiles(root);
  const chosen = chooseGpr(root, files);
  let alire: Json | null = null;
  let alireError: string | null = null;
  try {
    alire = readAlire(root) as Json | null;
  } catch (error) {
    alireError = `alire.toml could not be read: ${(error as Error).message}`;
  }
  return {
    projectFile: chosen?.file.path ?? null,
    projects: files.map(({ path, project }) => ({
      projectFile: path,
      projectName: project.name,
      ...(project.qualifier ? { qualifier: project.qualifier } : {}),
      sourceDirs: project.sourceDirs,
      objectDir: project.objectDir,
      execDir: project.execDir,
      mainUnits: project.mains,
      languages: project.languages,
      dependencies: project.withs,
      adaVersion: project.adaVersion,
      ...(project.libraryName
        ? {
          library: {
            name: project.libraryName,
            dir: project.libraryDir,
            kind: project.libraryKind ?? "static",
          },
        }
        : {}),
      ...(Object.keys(project.externals).length ? { scenarioVariables: project.externals } : {}),
    })),
    ...(alire ? { alire } : {}),
    ...(alireError ? { alire_error: alireError } : {}),
  };
}

/**
 * What the project's manifests say, per toolchain found in `root`.
 *
 * @example
 * ```ts
 * const info = projectInfo("/path/to/crate", "crate");
 * // { project: "crate", toolchains: ["rust"], rust: { name, version, targets, ... } }
 * ```
 */
export function projectInfo(root: string, name: string): Json {
  const toolchains = detectToolchains(root);
  const info: Json = { project: name, toolchains: toolchains.map((t) => t.id) };
  for (const toolchain of toolchains) {
    try {
      switch (toolchain.id) {
        case "rust":
          info.rust = rustInfo(root);
          break;
        case "deno":
          info.deno = denoInfo(root, toolchain.marker);
          if (pathExists(join(root, "package.json"))) info.node = nodeInfo(root);
          break;
        case "typescript":
          info.typescript = typescriptInfo(root, toolchain.marker);
          break;
        case "node":
          info.node = nodeInfo(root);
          break;
        case "python":
          info.python = pythonInfo(root);
          break;
        case "go":
          info.go = goInfo(root);
          break;
        case "ada":
          info.ada = adaInfo(root);
          break;
      }
    } catch (error) {
      info[toolchain.id] = {
        manifest: relative(root, join(root, toolchain.marker)),
        error: `could not be read: ${(error as Error).message}`,
      };
    }
  }
  return info;
}
