/**
 * Project memories: markdown notes the agent keeps about a project, one file per memory in
 * `<root>/.sextant/memories/<name>.md` (UTF-8). As in Serena 2.1, a name may hold topics
 * (`notes/architecture` is `notes/architecture.md`), each a subfolder. An existing `<root>/.serena/memories/` is read
 * too, so Serena users keep their memories; a name in both folders is the `.sextant` one.
 * Sextant never writes to `.serena/`: editing or renaming a memory that exists only there writes
 * the result to `.sextant/memories/` and leaves Serena's file as it was. New memories of a user
 * coming from Serena go to `.sextant/memories/` too, deliberately: Serena may still run on the
 * same project (the user tries both, or a teammate keeps Serena), and two programs writing one
 * folder would overwrite each other's edits unseen; reading both folders already gives the agent
 * every memory, and the user's Serena memories stay exactly as Serena left them.
 * @module
 */
import { ToolError } from "../errors.ts";
import { basename, dirname } from "node:path";
import { decodeText, encodeText, keepFinalNewline, type TextFormat } from "../edit/text_file.ts";
import { makeFolderIn, removeFileInFolder, writeFileInFolder } from "../edit/inside_folder.ts";
import { type ResolvedPath, resolveInProject } from "./sandbox.ts";

/** Where Sextant keeps memories, relative to the project root. */
export const MEMORY_DIR = ".sextant/memories";
/** Serena's memory folder, read (never written) for users coming from Serena. */
export const SERENA_MEMORY_DIR = ".serena/memories";

const MAX_NAME_LENGTH = 200;
// Characters that Windows cannot store in a file name: memory folders are often committed and
// shared across operating systems. `/` separates topics (a `\\` counts as one, as Serena reads it).
// deno-lint-ignore no-control-regex
const FORBIDDEN = /[<>:"|?*\u0000-\u001f\u007f]/;
/** Serena's prefix of a reference to a memory in another memory's text (`mem:notes/auth`). */
const REFERENCE_PREFIX = "mem:";
/** Serena's topic of memories shared across projects, which Sextant does not keep. */
const GLOBAL_TOPIC = "global";

/**
 * Validate a memory name and return it without a trailing `.md` (the suffix is optional in tool
 * arguments). Throws a ToolError that says what a valid name looks like.
 */
export function memoryName(raw: string): string {
  if (raw.includes("\0")) throw new ToolError("Invalid memory name: it contains a NUL byte.");
  // Serena's corrections of common slips: a `mem:` reference, a `.md` suffix, `\\` for `/`.
  const name = raw.trim().replace(/^mem:/, "").replace(/\.md$/i, "").replaceAll("\\", "/");
  if (name === "") {
    throw new ToolError("The memory name must not be empty; use a short, meaningful name.");
  }
  const bad = name.match(FORBIDDEN)?.[0];
  if (bad !== undefined) {
    throw new ToolError(
      `Invalid memory name '${raw}': it contains ${JSON.stringify(bad)}. Use letters, digits, ` +
        "'_', '-' or '.', and '/' between topics, e.g. 'auth/login_flow'.",
    );
  }
  const segments = name.split("/");
  if (segments.some((segment) => segment === "")) {
    throw new ToolError(
      `Invalid memory name '${raw}': an empty topic. Write topics as 'topic/name', e.g. ` +
        "'auth/login_flow'.",
    );
  }
  if (segments.some((segment) => segment.startsWith("."))) {
    throw new ToolError(
      `Invalid memory name '${raw}': a name or topic must not start with '.' (no '..').`,
    );
  }
  if (segments[0] === GLOBAL_TOPIC) {
    throw new ToolError(
      `Sextant keeps memories per project; '${GLOBAL_TOPIC}/' memories (shared across ` +
        "projects in Serena) are not supported. Write it as a project memory.",
    );
  }
  if (name.length > MAX_NAME_LENGTH) {
    throw new ToolError(
      `Invalid memory name: longer than ${MAX_NAME_LENGTH} characters. Use a shorter name.`,
    );
  }
  return name;
}

/**
 * `text` with each reference to memory `oldName` (`mem:oldName`, not part of a longer name)
 * pointing to `newName` instead, and the number of references changed: Serena's rule, which
 * rename_memory applies to the other memories.
 */
export function renameReferences(
  text: string,
  oldName: string,
  newName: string,
): { text: string; count: number } {
  const escaped = (REFERENCE_PREFIX + oldName).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = new RegExp(`(?<![A-Za-z0-9_\\-/])${escaped}(?![A-Za-z0-9_\\-/])`, "g");
  let count = 0;
  const replaced = text.replace(pattern, () => {
    count++;
    return REFERENCE_PREFIX + newName;
  });
  return { text: replaced, count };
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
  /** No memory had that name (Serena answers this as a normal result, not an error). */
  notFound?: boolean;
  /** A Serena copy with the same name is still there (and is now the visible one). */
  serenaCopyRemains: boolean;
}

/** Outcome of {@linkcode Memories.rename}. */
export interface RenameOutcome {
  /** The old memory lived only in `.serena/`: it was copied, and Serena's file is still there. */
  copiedFromSerena: boolean;
  /** References (`mem:old`) rewritten in Sextant's memories (Serena's folder is not touched). */
  referencesUpdated: number;
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
    await writeInside(target.real, new TextEncoder().encode(content), mode);
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
    await writeTextInside(target.real, after, file.format);
    return found.source;
  }

  /**
   * Delete a memory from `.sextant/memories/`. A memory that exists only in `.serena/` is not
   * touched: that folder belongs to Serena, so the ToolError says how to remove it by hand.
   */
  async delete(rawName: string): Promise<DeleteOutcome> {
    const found = await this.find(rawName);
    if (!found) return { notFound: true, serenaCopyRemains: false };
    if (found.source === "serena") {
      throw new ToolError(
        `Memory '${found.name}' exists only in Serena's folder (${SERENA_MEMORY_DIR}/), which ` +
          `Sextant never modifies. Ask the user to delete ${SERENA_MEMORY_DIR}/${found.name}.md ` +
          "if it is no longer wanted.",
      );
    }
    await removeInside(found.path);
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
    const bytes = await Deno.readFile(found.path);
    if (found.source === "serena") {
      await writeInside(target.real, bytes, null);
    } else if (target.real.toLowerCase() === found.path.toLowerCase()) {
      // Only the case changes (a case-insensitive file system): the file itself is the target.
      await Deno.rename(found.path, target.real);
    } else {
      await writeInside(target.real, bytes, (await Deno.stat(found.path)).mode);
      await removeInside(found.path);
    }
    let referencesUpdated = 0;
    for (const name of await this.#namesIn(MEMORY_DIR)) {
      const path = this.#resolve(MEMORY_DIR, name).real;
      const file = decodeText(await Deno.readFile(path), "utf-8", `${name}.md`);
      const renamed = renameReferences(file.text, found.name, newName);
      if (renamed.count === 0) continue;
      file.format.mode = (await Deno.stat(path)).mode;
      await writeTextInside(path, renamed.text, file.format);
      referencesUpdated += renamed.count;
    }
    return { copiedFromSerena: found.source === "serena", referencesUpdated };
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
    const folder = name.includes("/")
      ? `${MEMORY_DIR}/${name.slice(0, name.lastIndexOf("/"))}`
      : MEMORY_DIR;
    await this.#makeFolders(folder);
    const target = this.#resolve(MEMORY_DIR, name);
    if (target.exists && !(await Deno.stat(target.real)).isFile) {
      throw new ToolError(`Cannot write memory '${name}': '${target.relative}' is not a file.`);
    }
    return target;
  }

  /**
   * Create the folders of `rel` (relative to the root) one by one, each checked where it landed
   * (edit/inside_folder.ts), so a parent swapped for a link cannot put one outside the project.
   */
  async #makeFolders(rel: string): Promise<void> {
    let parent = this.#root;
    const parts = rel.split("/");
    for (let i = 0; i < parts.length; i++) {
      const sofar = parts.slice(0, i + 1).join("/");
      let folder = resolveInProject(this.#root, sofar, { mustExist: false });
      if (!folder.exists) {
        await makeFolderIn(parent, parts[i]!);
        folder = resolveInProject(this.#root, sofar, { mustExist: true });
      }
      if (!(await Deno.stat(folder.real)).isDirectory) {
        throw new ToolError(`Cannot store memories: '${sofar}' exists and is not a folder.`);
      }
      parent = folder.real;
    }
  }

  /** The memory names under `dir`, topics included (`notes/architecture`). */
  async #namesIn(dir: string): Promise<string[]> {
    let resolved: ResolvedPath;
    try {
      resolved = resolveInProject(this.#root, dir, { mustExist: true });
    } catch {
      return []; // missing, or a link out of the project: not ours to read
    }
    const names: string[] = [];
    // Topic folders, walked one level at a time; links are followed while they stay inside.
    const folders: Array<{ real: string; topic: string }> = [{ real: resolved.real, topic: "" }];
    const seen = new Set([resolved.real]);
    for (let folder = folders.pop(); folder; folder = folders.pop()) {
      try {
        for await (const entry of Deno.readDir(folder.real)) {
          if (entry.name.startsWith(".")) continue;
          const rel = `${dir}/${folder.topic}${entry.name}`;
          try {
            const target = entry.isSymlink ? resolveInProject(this.#root, rel) : null;
            const info = target ? await Deno.stat(target.real) : entry;
            if (info.isDirectory) {
              const real = target?.real ?? `${folder.real}/${entry.name}`;
              // A link back up would make a cycle: each real folder is walked once.
              if (!seen.has(real)) {
                seen.add(real);
                folders.push({ real, topic: `${folder.topic}${entry.name}/` });
              }
              continue;
            }
            if (!info.isFile || !entry.name.endsWith(".md")) continue;
            names.push(memoryName(`${folder.topic}${entry.name}`));
          } catch {
            continue; // a name we could never address, or a link out of the project
          }
        }
      } catch (error) {
        if (isNotFound(error)) continue;
        throw error;
      }
    }
    return names;
  }
}

/** Write `bytes` to the memory file at real path `path`, atomically, in its pinned folder. */
function writeInside(path: string, bytes: Uint8Array, mode: number | null): Promise<void> {
  return writeFileInFolder(dirname(path), basename(path), bytes, mode);
}

/** Write text in its original format (line endings, BOM, final newline) to `path`. */
function writeTextInside(path: string, text: string, format: TextFormat): Promise<void> {
  return writeInside(path, encodeText(keepFinalNewline(text, format), format), format.mode);
}

/** Remove the memory file at real path `path`, in its pinned folder. */
function removeInside(path: string): Promise<void> {
  return removeFileInFolder(dirname(path), basename(path));
}
