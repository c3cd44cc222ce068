/**
 * The set of source files a language server should know (engine rule 2, "disk is the truth"):
 * before every query the folders below the project root are compared with what was seen last,
 * so a file created or deleted on disk, by a tool or by anyone else, is part of the very next
 * answer. Servers hear of such files late or not at all: tsserver through its own slow watcher,
 * pyright only through the client's `workspace/didChangeWatchedFiles`.
 *
 * A folder's mtime changes when an entry is added, removed or renamed in it, so a scan stats every
 * known folder (a synchronous `stat` costs a few µs) and lists again only those whose mtime
 * changed or that changed very recently (mtime resolution is coarse on some file systems).
 * Ignored folders (the project's ignore rules: `node_modules`, `.git`, ...) are never entered.
 * Projects with more than {@linkcode MAX_FOLDERS} folders are not scanned; the file watcher and
 * the servers' own watchers cover them.
 * @module
 */
import { extname, join } from "node:path";

/** Folders watched at most; beyond this a scan is too slow to run before every query. */
export const MAX_FOLDERS = 3_000;
/** Folders changed this recently are listed again even when their mtime looks unchanged. */
const RACY_MS = 3_000;

interface Folder {
  mtime: number;
  /** Names of the wanted files directly in the folder. */
  files: Set<string>;
  /** Names of the subfolders that are walked. */
  folders: Set<string>;
}

/** What changed in the file set since the previous scan (project-relative paths, sorted). */
export interface FileSetChanges {
  created: string[];
  deleted: string[];
}

export interface FileSetOptions {
  root: string;
  /** Lower-case extensions, with the dot, of the files of interest. */
  extensions: readonly string[];
  /** Whether a project-relative path is ignored (folders are then not entered). */
  ignored: (relPath: string, isDir: boolean) => boolean;
  /**
   * Told of each folder listed without a `.gitignore` in it (project-relative, "" for the root),
   * before {@linkcode ignored} is asked about its entries: the ignore rules then know the folder
   * has none without trying to open one (IgnoreRules.listedWithout).
   */
  listedWithout?: (relPath: string) => void;
}

export class FileSet {
  readonly #root: string;
  readonly #extensions: ReadonlySet<string>;
  readonly #ignored: (relPath: string, isDir: boolean) => boolean;
  readonly #listedWithout: ((relPath: string) => void) | undefined;
  /** Known folders by project-relative path ("" for the root); null before the first scan. */
  #folders: Map<string, Folder> | null = null;
  #tooLarge = false;

  constructor(options: FileSetOptions) {
    this.#root = options.root;
    this.#extensions = new Set(options.extensions);
    this.#ignored = options.ignored;
    this.#listedWithout = options.listedWithout;
  }

  /** Whether the first scan (which records what is there) was made. */
  get scanned(): boolean {
    return this.#folders !== null || this.#tooLarge;
  }

  /** Whether the project has too many folders to be scanned before every query. */
  get tooLarge(): boolean {
    return this.#tooLarge;
  }

  /**
   * Compare the folders with the previous scan. The first scan only records what is there and
   * reports nothing (the server read the project itself when it started).
   */
  scan(): FileSetChanges {
    const changes: FileSetChanges = { created: [], deleted: [] };
    if (this.#tooLarge) return changes;
    if (this.#folders === null) {
      const folders = new Map<string, Folder>();
      this.#walk("", folders, null);
      if (folders.size > MAX_FOLDERS) this.#tooLarge = true;
      else this.#folders = folders;
      return changes;
    }
    const folders = this.#folders;
    const now = Date.now();
    for (const [rel, folder] of [...folders]) {
      if (!folders.has(rel)) continue; // removed with its parent in this scan
      const mtime = mtimeOf(join(this.#root, rel));
      if (mtime === null) {
        this.#forget(rel, folders, changes);
        continue;
      }
      if (mtime === folder.mtime && now - mtime >= RACY_MS) continue;
      this.#relist(rel, folder, mtime, folders, changes);
    }
    return this.#settled(folders, changes);
  }

  /** A scan's end: past the folder bound the set gives up (too large); changes sorted. */
  #settled(folders: Map<string, Folder>, changes: FileSetChanges): FileSetChanges {
    if (folders.size > MAX_FOLDERS) {
      this.#tooLarge = true;
      this.#folders = null;
    }
    changes.created.sort();
    changes.deleted.sort();
    return changes;
  }

  /**
   * {@linkcode scan} of only the folders that `paths` (project-relative, each change since the
   * previous scan among them: noticed_paths.ts) name or lie directly in, listed again whatever
   * their mtime says.
   */
  rescan(paths: ReadonlySet<string>): FileSetChanges {
    const changes: FileSetChanges = { created: [], deleted: [] };
    const folders = this.#folders;
    if (folders === null || paths.size === 0) return changes;
    const due = new Set<string>();
    for (const path of paths) {
      if (folders.has(path)) due.add(path);
      const slash = path.lastIndexOf("/");
      const parent = slash === -1 ? "" : path.slice(0, slash);
      if (folders.has(parent)) due.add(parent);
    }
    for (const rel of due) {
      const folder = folders.get(rel);
      if (!folder) continue; // removed with its parent in this scan
      const mtime = mtimeOf(join(this.#root, rel));
      if (mtime === null) this.#forget(rel, folders, changes);
      else this.#relist(rel, folder, mtime, folders, changes);
    }
    return this.#settled(folders, changes);
  }

  /** How many folders a scan stats (0 before the first scan, or when too large to scan). */
  get folders(): number {
    return this.#folders?.size ?? 0;
  }

  /** Whether a project-relative path is a file of the set (as of the last scan). */
  has(relPath: string): boolean {
    const slash = relPath.lastIndexOf("/");
    const folder = this.#folders?.get(slash === -1 ? "" : relPath.slice(0, slash));
    return folder?.files.has(relPath.slice(slash + 1)) ?? false;
  }

  /** List a new folder and those below it; with `created`, their files are reported as new. */
  #walk(rel: string, folders: Map<string, Folder>, created: string[] | null): void {
    if (folders.size > MAX_FOLDERS) return;
    const abs = join(this.#root, rel);
    const mtime = mtimeOf(abs);
    if (mtime === null) return;
    const folder: Folder = { mtime, files: new Set(), folders: new Set() };
    folders.set(rel, folder);
    for (const entry of this.#entries(abs, rel)) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory) {
        folder.folders.add(entry.name);
        this.#walk(child, folders, created);
      } else {
        folder.files.add(entry.name);
        created?.push(child);
      }
    }
  }

  /** List a known folder again and report the differences. */
  #relist(
    rel: string,
    folder: Folder,
    mtime: number,
    folders: Map<string, Folder>,
    changes: FileSetChanges,
  ): void {
    folder.mtime = mtime;
    const files = new Set<string>();
    const subfolders = new Set<string>();
    for (const entry of this.#entries(join(this.#root, rel), rel)) {
      (entry.isDirectory ? subfolders : files).add(entry.name);
    }
    const path = (name: string) => rel ? `${rel}/${name}` : name;
    for (const name of files) if (!folder.files.has(name)) changes.created.push(path(name));
    for (const name of folder.files) if (!files.has(name)) changes.deleted.push(path(name));
    for (const name of subfolders) {
      if (!folder.folders.has(name)) this.#walk(path(name), folders, changes.created);
    }
    for (const name of folder.folders) {
      if (!subfolders.has(name)) this.#forget(path(name), folders, changes);
    }
    folder.files = files;
    folder.folders = subfolders;
  }

  /** A folder is gone: its files (and those below it) are deleted. */
  #forget(rel: string, folders: Map<string, Folder>, changes: FileSetChanges): void {
    const folder = folders.get(rel);
    if (!folder) return;
    folders.delete(rel);
    for (const name of folder.files) changes.deleted.push(rel ? `${rel}/${name}` : name);
    for (const name of folder.folders) {
      this.#forget(rel ? `${rel}/${name}` : name, folders, changes);
    }
  }

  /** The wanted files and the walked folders directly in a folder. */
  #entries(abs: string, rel: string): Array<{ name: string; isDirectory: boolean }> {
    const out: Array<{ name: string; isDirectory: boolean }> = [];
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(abs)];
      if (this.#listedWithout && !entries.some((e) => e.name === ".gitignore")) {
        this.#listedWithout(rel);
      }
      for (const entry of entries) {
        const child = rel ? `${rel}/${entry.name}` : entry.name;
        // Symbolic links are not followed: a linked folder could lead out of the project.
        if (entry.isDirectory) {
          if (!this.#ignored(child, true)) out.push({ name: entry.name, isDirectory: true });
        } else if (
          entry.isFile && this.#extensions.has(extname(entry.name).toLowerCase()) &&
          !this.#ignored(child, false)
        ) {
          out.push({ name: entry.name, isDirectory: false });
        }
      }
    } catch {
      // Unreadable or gone: seen as empty; the next scan notices when it is back.
    }
    return out;
  }
}

function mtimeOf(abs: string): number | null {
  try {
    const stat = Deno.statSync(abs);
    return stat.isDirectory ? stat.mtime?.getTime() ?? 0 : null;
  } catch {
    return null;
  }
}
