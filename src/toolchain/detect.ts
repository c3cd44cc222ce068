/**
 * Which toolchains a project uses (by the marker files in its root). Their programs are found by
 * `findExecutable` (src/executables.ts): the project's own `node_modules/.bin` first.
 * @module
 */
import { join } from "node:path";
import { findExecutable, isDenoCli } from "../executables.ts";
import { pathExists } from "./reported_paths.ts";
import type { ToolchainId } from "./types.ts";

/** Root files that make a project a C/C++ one for check_project and test_project. */
export const MAKEFILES = ["GNUmakefile", "makefile", "Makefile"];
const C_SOURCE = /\.(c|cc|cpp|cxx|c\+\+|h|hh|hpp|hxx)$/i;

/** Whether `dir` or its `src` folder holds a C or C++ source file. */
export function hasCSources(dir: string): boolean {
  for (const folder of [dir, join(dir, "src")]) {
    try {
      for (const entry of Deno.readDirSync(folder)) {
        if (entry.isFile && C_SOURCE.test(entry.name)) return true;
      }
    } catch {
      // No such folder.
    }
  }
  return false;
}

/** A toolchain found in a project, with the file that shows it. */
export interface DetectedToolchain {
  id: ToolchainId;
  /** The marker file, relative to the root (e.g. `Cargo.toml`, `demo.gpr`). */
  marker: string;
}

const MARKERS: ReadonlyArray<{ id: ToolchainId; files: readonly string[] }> = [
  { id: "rust", files: ["Cargo.toml"] },
  { id: "deno", files: ["deno.json", "deno.jsonc"] },
  { id: "typescript", files: ["tsconfig.json"] },
  { id: "node", files: ["package.json"] },
  {
    id: "python",
    files: ["pyproject.toml", "setup.py", "setup.cfg", "pyrightconfig.json", "requirements.txt"],
  },
  { id: "go", files: ["go.mod"] },
  { id: "c", files: ["CMakeLists.txt"] },
  { id: "ada", files: ["alire.toml"] },
];

/** Names of the files directly in `dir` (empty when it cannot be read). */
export function listDir(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)].map((e) => e.name).sort();
  } catch {
    return [];
  }
}

/**
 * The toolchains of the project at `root`, in a fixed order. A Deno project is not also
 * reported as TypeScript or Node (Deno checks and tests its TypeScript itself).
 *
 * @example
 * ```ts
 * const found = detectToolchains("/path/to/crate"); // [{ id: "rust", marker: "Cargo.toml" }]
 * ```
 */
export function detectToolchains(root: string): DetectedToolchain[] {
  const names = new Set(listDir(root));
  const found: DetectedToolchain[] = [];
  for (const { id, files } of MARKERS) {
    const marker = files.find((f) => names.has(f));
    if (marker) found.push({ id, marker });
  }
  // A Makefile is C's only beside C/C++ sources (many projects of other languages have one).
  const makefile = MAKEFILES.find((f) => names.has(f));
  if (makefile && !found.some((t) => t.id === "c") && hasCSources(root)) {
    found.push({ id: "c", marker: makefile });
  }
  const gpr = [...names].filter((n) => n.toLowerCase().endsWith(".gpr"));
  if (gpr.length > 0 && !found.some((t) => t.id === "ada")) {
    found.push({ id: "ada", marker: gpr[0]! });
  }
  if (found.some((t) => t.id === "deno")) {
    return found.filter((t) => t.id !== "typescript" && t.id !== "node");
  }
  return found;
}

/** The deno executable: from PATH, else this process when it is deno itself. */
export function findDeno(): string | null {
  const onPath = findExecutable("deno", { useToolCache: false });
  if (onPath) return onPath;
  const self = Deno.execPath();
  return isDenoCli(self) && pathExists(self) ? self : null;
}
