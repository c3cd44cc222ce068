/**
 * Project memories: markdown notes the agent keeps about a project, one file per memory in
 * `<root>/.sextant/memories/<name>.md` (UTF-8). An existing `<root>/.serena/memories/` is read
 * too, so Serena users keep their memories; a name in both folders is the `.sextant` one.
 * Sextant never writes to `.serena/`: editing or renaming a memory that exists only there writes
 * the result to `.sextant/memories/` and leaves Serena's file as it was.
 * @module
 */
import { ToolError } from "../errors.ts";
import { decodeText, writeFileAtomic, writeTextFile } from "../edit/text_file.ts";
import { type ResolvedPath, resolveInProject } from "./sandbox.ts";

/** Where Sextant keeps memories, relative to the project root. */
export const MEMORY_DIR = ".sextant/memories";
/** Serena's memory folder, read (never written) for users coming from Serena. */
export const SERENA_MEMORY_DIR = ".serena/memories";

const MAX_NAME_LENGTH = 200;
// Characters that would leave the folder, or that Windows cannot store in a file name: memory
// folders are often committed and shared across operating systems.
// deno-lint-ignore no-control-regex
const FORBIDDEN = /[/\\<>:"|?*\u0000-\u001f\u007f]/;

/**
 * Validate a memory name and return it without a trailing `.md` (the suffix is optional in tool
 * arguments). Throws a ToolError that says what a valid name looks like.
 */
export function memoryName(raw: string): string {
  if (raw.includes("\0")) throw new ToolError("Invalid memory name: it contains a NUL byte.");
  const name = raw.trim().replace(/\.md$/i, "");
  if (name === "") {
    throw new ToolError("The memory name must not be empty; use a short, meaningful name.");
  }
  const bad = name.match(FORBIDDEN)?.[0];
  if (bad !== undefined) {
    const shown = bad === "/" || bad === "\\" ? `'${bad}'` : JSON.stringify(bad);
    throw new ToolError(
      `Invalid memory name '${raw}': it contains ${shown}. Memories are flat files in ` +
        `${MEMORY_DIR}/; use letters, digits, '_', '-' or '.', e.g. 'auth_login_flow'.`,
    );
  }
  if (name.startsWith(".")) {
    throw new ToolError(`Invalid memory name '${raw}': it must not start with '.'.`);
  }
  if (name.length > MAX_NAME_LENGTH) {
    throw new ToolError(
      `Invalid memory name: longer than ${MAX_NAME_LENGTH} characters. Use a shorter name.`,
    );
  }
  return name;
}

/** Which folder a memory was found in. */
export type MemorySource = "sextant" | "serena";

/** A memory that exists on disk. */
export interface FoundMemory {
  name: string;
  source: MemorySource;
  /** Real path of the file. */
  path: string;
}

/** Outcome of {@linkcode Memories.delete}. */
export interface DeleteOutcome {
  /** A Serena copy with the same name is still there (and is now the visible one). */
  serenaCopyRemains: boolean;
}

/** Outcome of {@linkcode Memories.rename}. */
export interface RenameOutcome {
  /** The old memory lived only in `.serena/`: it was copied, and Serena's file is still there. */
  copiedFromSerena: boolean;
}

function isNotFound(error: unknown): boolean {
  return error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory;
}

/** The memory store of one project. Every path goes through the project sandbox. */
export class Memories {
  readonly #root: string;

  /**
   * `realRoot` is the real (symlink-resolved) folder whose `.sextant/memories/` this store uses:
   * the project root, or for a git worktree the main checkout's (`memoryRootFor` in worktree.ts).
   */
  constructor(realRoot: string) {
    this.#root = realRoot;
  }

  /** Names of all memories (both folders, no duplicates), sorted. */
  async list(): Promise<string[]> {
    const names = new Set<string>();
    for (const dir of [MEMORY_DIR, SERENA_MEMORY_DIR]) {
      for (const name of await this.#namesIn(dir)) names.add(name);
    }
    return [...names].sort();
  }

  /** Find a memory by name: `.sextant` first, then `.serena`; null when neither has it. */
  async find(rawName: string): Promise<FoundMemory | null> {
    const name = memoryName(rawName);
    for (const [dir, source] of [[MEMORY_DIR, "sextant"], [SERENA_MEMORY_DIR, "serena"]] as const) {
      const resolved = this.#resolve(dir, name);
      if (!resolved.exists) continue;
      const info = await Deno.stat(resolved.real);
      if (info.isFile) return { name, source, path: resolved.real };
    }
    return null;
  }

  /** Content of a memory; a ToolError naming the available memories when it does not exist. */
  async read(rawName: string): Promise<string> {
    const found = await this.#require(rawName);
    const bytes = await Deno.readFile(found.path);
    return new TextDecoder("utf-8").decode(bytes);
  }

  /** Create or overwrite a memory in `.sextant/memories/`, atomically, content verbatim. */
  async write(rawName: string, content: string): Promise<void> {
    const name = memoryName(rawName);
    const target = await this.#writable(name);
    let mode: number | null = null;
    if (target.exists) mode = (await Deno.stat(target.real)).mode;
    await writeFileAtomic(target.real, new TextEncoder().encode(content), mode);
  }

  /**
   * Change a memory's text with `transform`. A memory found only in `.serena/` is written,
   * changed, to `.sextant/memories/`; Serena's file stays as it was. Returns where it was found.
   */
  async edit(
    rawName: string,
    transform: (text: string) => string | Promise<string>,
  ): Promise<MemorySource> {
    const found = await this.#require(rawName);
    const file = decodeText(await Deno.readFile(found.path), "utf-8", `${found.name}.md`);
    const after = await transform(file.text);
    if (found.source === "sextant" && after === file.text) return found.source;
    const target = found.source === "sextant"
      ? this.#resolve(MEMORY_DIR, found.name)
      : await this.#writable(found.name);
    if (found.source === "sextant") {
      file.format.mode = (await Deno.stat(target.real)).mode;
    }
    await writeTextFile(target.real, after, file.format);
    return found.source;
  }

  /**
   * Delete a memory from `.sextant/memories/`. A memory that exists only in `.serena/` is not
   * touched: that folder belongs to Serena, so the ToolError says how to remove it by hand.
   */
  async delete(rawName: string): Promise<DeleteOutcome> {
    const found = await this.#require(rawName);
    if (found.source === "serena") {
      throw new ToolError(
        `Memory '${found.name}' exists only in Serena's folder (${SERENA_MEMORY_DIR}/), which ` +
          `Sextant never modifies. Ask the user to delete ${SERENA_MEMORY_DIR}/${found.name}.md ` +
          "if it is no longer wanted.",
      );
    }
    await Deno.remove(found.path);
    const serena = this.#resolve(SERENA_MEMORY_DIR, found.name);
    return { serenaCopyRemains: serena.exists };
  }

  /**
   * Rename a memory. The new name must not be taken (in either folder). A memory found only in
   * `.serena/` is copied to `.sextant/memories/<new>.md`; Serena's file stays.
   */
  async rename(rawOld: string, rawNew: string): Promise<RenameOutcome> {
    const found = await this.#require(rawOld);
    const newName = memoryName(rawNew);
    if (newName === found.name) {
      throw new ToolError(`The old and new names are the same ('${newName}'); nothing to do.`);
    }
    const clash = await this.find(newName);
    // On a case-insensitive file system, 'Notes' -> 'notes' finds the file itself: allowed.
    if (clash && clash.path !== found.path) {
      throw new ToolError(
        `A memory named '${newName}' already exists. Delete it first or choose another name.`,
      );
    }
    const target = await this.#writable(newName);
    if (found.source === "serena") {
      const bytes = await Deno.readFile(found.path);
      await writeFileAtomic(target.real, bytes, null);
      return { copiedFromSerena: true };
    }
    await Deno.rename(found.path, target.real);
    return { copiedFromSerena: false };
  }

  async #require(rawName: string): Promise<FoundMemory> {
    const found = await this.find(rawName);
    if (found) return found;
    const name = memoryName(rawName);
    const names = await this.list();
    const known = names.length > 0
      ? `Available memories: ${names.join(", ")}.`
      : "No memories yet.";
    throw new ToolError(
      `Memory '${name}' not found. ${known} Create it with write_memory if you need it.`,
    );
  }

  /** Resolve `<dir>/<name>.md` in the sandbox (it need not exist). */
  #resolve(dir: string, name: string): ResolvedPath {
    return resolveInProject(this.#root, `${dir}/${name}.md`, { mustExist: false });
  }

  /** The `.sextant/memories/<name>.md` target, with its folder created. */
  async #writable(name: string): Promise<ResolvedPath> {
    const dir = resolveInProject(this.#root, MEMORY_DIR, { mustExist: false });
    if (!dir.exists) await Deno.mkdir(dir.real, { recursive: true });
    else if (!(await Deno.stat(dir.real)).isDirectory) {
      throw new ToolError(`Cannot store memories: '${MEMORY_DIR}' exists and is not a folder.`);
    }
    const target = this.#resolve(MEMORY_DIR, name);
    if (target.exists && !(await Deno.stat(target.real)).isFile) {
      throw new ToolError(`Cannot write memory '${name}': '${target.relative}' is not a file.`);
    }
    return target;
  }

  async #namesIn(dir: string): Promise<string[]> {
    let resolved: ResolvedPath;
    try {
      resolved = resolveInProject(this.#root, dir, { mustExist: true });
    } catch {
      return []; // missing, or a link out of the project: not ours to read
    }
    const names: string[] = [];
    try {
      for await (const entry of Deno.readDir(resolved.real)) {
        if (!entry.name.endsWith(".md") || entry.name.startsWith(".")) continue;
        let name: string;
        try {
          name = memoryName(entry.name);
          // A link counts when it leads to a file inside the project.
          if (entry.isSymlink) {
            const target = resolveInProject(this.#root, `${dir}/${entry.name}`);
            if (!(await Deno.stat(target.real)).isFile) continue;
          } else if (!entry.isFile) continue;
        } catch {
          continue; // a name we could never address, or a link out of the project
        }
        names.push(name);
      }
    } catch (error) {
      if (isNotFound(error)) return [];
      throw error;
    }
    return names;
  }
}
