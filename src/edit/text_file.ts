/**
 * Text files as tools see them: decoded, BOM removed, line endings normalized to `\n`; and
 * written back atomically with the original line endings, BOM, final-newline state and mode.
 * @module
 */
import { basename, dirname, join } from "node:path";
import { concatBytes } from "../bytes.ts";
import { ToolError } from "../errors.ts";
import { privateSubfolder } from "../runtime_folder.ts";
import { createEmptyFiles, createInFolder } from "./folder_swap.ts";

/** How a file was stored, so a rewrite keeps it that way. */
export interface TextFormat {
  eol: "\n" | "\r\n";
  bom: boolean;
  finalNewline: boolean;
  encoding: string;
  /** Unix permission bits, when known. */
  mode: number | null;
  /**
   * A file whose lines end both ways: its lines as read and each one's own ending, so a rewrite
   * gives every line it kept its old ending (`eol` is then only for new lines).
   */
  mixed?: { lines: string[]; ends: string[] };
  /** The file as it was read, so a write over it refuses when another program changed it since. */
  read?: FileStamp;
}

/** A file's bytes as read: what a write checks the file still holds before it replaces it. */
/**
 * `format` for writing other text than the file it was read from (a body beside its spec, the
 * content a move's undo puts back): the encoding, line ends, BOM, final newline and mode, without
 * the lines of a mixed-ending file or the stamp of what the file held.
 */
export function formatOnly(format: TextFormat): TextFormat {
  const { mixed: _mixed, read: _read, ...rest } = format;
  return rest;
}

export interface FileStamp {
  bytes: Uint8Array;
}

export interface TextFile {
  /** Content with `\n` line endings and no BOM. */
  text: string;
  format: TextFormat;
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** True when the bytes look binary (a NUL in the first 8 KiB). */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8192).includes(0);
}

/** True ISO-8859-1 (byte n is U+00nn). WHATWG's TextDecoder reads these labels as windows-1252. */
const LATIN1 = /^(latin-?1|iso-?8859-1|l1)$/i;
/** Labels TextDecoder decodes as windows-1252; written back through the reverse table. */
const CP1252 = /^(windows-1252|cp1252|ascii|us-ascii)$/i;

function decodeLatin1(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 8192) {
    out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  }
  return out;
}

let cp1252Table: Map<number, number> | null = null;

/** Character code → byte for windows-1252. */
function cp1252Bytes(): Map<number, number> {
  if (cp1252Table) return cp1252Table;
  const decoder = new TextDecoder("windows-1252");
  cp1252Table = new Map();
  for (let b = 0; b < 256; b++) {
    cp1252Table.set(decoder.decode(new Uint8Array([b])).charCodeAt(0), b);
  }
  return cp1252Table;
}

/** Decode bytes into a {@linkcode TextFile}; throws a ToolError for binary content. */
export function decodeText(bytes: Uint8Array, encoding = "utf-8", name = "file"): TextFile {
  if (looksBinary(bytes)) {
    throw new ToolError(`'${name}' is a binary file; only text files can be read or edited.`);
  }
  const isUtf8 = /^utf-?8$/i.test(encoding);
  const bom = isUtf8 && UTF8_BOM.every((b, i) => bytes[i] === b);
  let raw: string;
  try {
    raw = LATIN1.test(encoding)
      ? decodeLatin1(bytes)
      : new TextDecoder(encoding, { fatal: isUtf8, ignoreBOM: true }).decode(
        bom ? bytes.subarray(3) : bytes,
      );
  } catch (error) {
    if (error instanceof RangeError) {
      throw new ToolError(`Unknown encoding '${encoding}' (set 'encoding' in the project config).`);
    }
    throw new ToolError(
      `'${name}' is not valid ${encoding}; set the project's 'encoding' in .sextant/project.jsonc.`,
    );
  }
  const crlf = raw.match(/\r\n/g)?.length ?? 0;
  const lf = (raw.match(/\n/g)?.length ?? 0) - crlf;
  const eol = crlf > lf ? "\r\n" : "\n";
  const text = crlf > 0 ? raw.replace(/\r\n/g, "\n") : raw;
  // An empty file has no final-newline habit; text added to it ends lines like a text file.
  const format: TextFormat = {
    eol,
    bom,
    finalNewline: text === "" || text.endsWith("\n"),
    encoding,
    mode: null,
  };
  if (crlf > 0 && lf > 0) {
    format.mixed = {
      lines: text.split("\n"),
      ends: [...raw.matchAll(/\r?\n/g)].map((m) => m[0]),
    };
  }
  return { text, format };
}

/**
 * The text of a mixed-ending file with each line's ending: a line kept from the file keeps its
 * own (matched from the start, from the end, then by its text), a changed line takes the one of
 * the line it replaced, and a new line the one before it.
 */
function withMixedEndings(text: string, format: TextFormat): string {
  const { lines: old, ends } = format.mixed!;
  const lines = text.split("\n");
  const shorter = Math.min(old.length, lines.length);
  let prefix = 0;
  while (prefix < shorter && old[prefix] === lines[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < shorter - prefix &&
    old[old.length - 1 - suffix] === lines[lines.length - 1 - suffix]
  ) suffix++;
  // Lines of the changed middle, by text, for lines that only moved within it.
  const byText = new Map<string, string[]>();
  for (let j = prefix; j < old.length - suffix && j < ends.length; j++) {
    const list = byText.get(old[j]!) ?? [];
    list.push(ends[j]!);
    byText.set(old[j]!, list);
  }
  let out = "";
  let previous = prefix > 0 ? ends[prefix - 1]! : format.eol;
  for (let i = 0; i < lines.length; i++) {
    out += lines[i];
    if (i === lines.length - 1) break;
    let end: string | undefined;
    if (i < prefix) end = ends[i];
    else if (i >= lines.length - suffix) end = ends[i - lines.length + old.length];
    else {
      end = byText.get(lines[i]!)?.shift() ??
        (i < old.length - suffix ? ends[Math.min(i, ends.length - 1)] : undefined);
    }
    previous = end ?? previous;
    out += previous;
  }
  return out;
}

/** Encode text (with `\n` endings) in the given format. */
export function encodeText(text: string, format: TextFormat): Uint8Array {
  const withEol = format.mixed
    ? withMixedEndings(text, format)
    : format.eol === "\r\n"
    ? text.replace(/\r?\n/g, "\r\n")
    : text;
  let bytes: Uint8Array;
  if (/^utf-?8$/i.test(format.encoding)) {
    bytes = new TextEncoder().encode(withEol);
  } else if (LATIN1.test(format.encoding) || CP1252.test(format.encoding)) {
    const table = LATIN1.test(format.encoding) ? null : cp1252Bytes();
    bytes = new Uint8Array(withEol.length);
    for (let i = 0; i < withEol.length; i++) {
      const code = withEol.charCodeAt(i);
      const byte = table ? table.get(code) : code <= 0xff ? code : undefined;
      if (byte === undefined) {
        throw new ToolError(
          `The text contains '${withEol[i]}', which ${format.encoding} cannot store.`,
        );
      }
      bytes[i] = byte;
    }
  } else {
    throw new ToolError(`Writing files in encoding '${format.encoding}' is not supported.`);
  }
  if (!format.bom) return bytes;
  const out = new Uint8Array(bytes.length + 3);
  out.set(UTF8_BOM);
  out.set(bytes, 3);
  return out;
}

/** Read and decode a text file, remembering its format and mode. */
export async function readTextFile(path: string, encoding = "utf-8"): Promise<TextFile> {
  const [bytes, info] = await Promise.all([Deno.readFile(path), Deno.stat(path)]);
  const file = decodeText(bytes, encoding, basename(path));
  file.format.mode = info.mode;
  file.format.read = { bytes };
  return file;
}

let tempCounter = 0;

/**
 * A fresh temporary path beside `path`. The name is kept short (a long file name plus the
 * suffix would pass the 255-byte name limit), and hidden.
 */
export function tempPathFor(path: string): string {
  const base = Array.from(basename(path)).slice(0, 50).join("");
  // The writer's pid tells a later writer whether the file is a crashed write's leftover; the
  // random part keeps a reused pid from meeting its predecessor's name.
  const random = crypto.getRandomValues(new Uint32Array(1))[0]!.toString(16);
  journalFolder(dirname(path));
  return join(dirname(path), `.${base}.sextant-${Deno.pid}-${++tempCounter}-${random}.tmp`);
}

/** Folders this process has written in, and already named in its journal. */
const journaled = new Set<string>();

/**
 * Name `folder` in this process's journal of written folders (`<runtime folder>/writes/<pid>`)
 * before the first temporary file there, so that if the process dies mid-write, the next Sextant
 * to start knows where its leftovers are (see {@linkcode removeTempsOfDeadWriters}).
 */
function journalFolder(folder: string): void {
  if (journaled.has(folder)) return;
  const journals = privateSubfolder("writes");
  if (journals === null) return;
  try {
    Deno.writeTextFileSync(join(journals, String(Deno.pid)), folder + "\0", {
      append: true,
      mode: 0o600,
    });
    journaled.add(folder);
  } catch {
    // no journal: the sweep on a later write there still finds old leftovers
  }
}

/** Whether this process has swept the journals of dead writers. */
let journalsSwept = false;

/**
 * Remove the temporary files of every writer whose journal is here and whose process is gone,
 * whatever their age, then its journal. Run when the service starts and on a process's first
 * write. Only files named with the dead writer's own pid are removed, so a live writer's never.
 */
export async function removeTempsOfDeadWriters(): Promise<void> {
  if (journalsSwept) return;
  journalsSwept = true;
  const journals = privateSubfolder("writes");
  if (journals === null) return;
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(journals)];
  } catch {
    return;
  }
  for (const entry of entries) {
    const pid = Number(entry.name);
    if (!entry.isFile || !Number.isInteger(pid) || pid === Deno.pid || !processGone(pid)) continue;
    const journal = join(journals, entry.name);
    const folders = new Set(
      (await Deno.readTextFile(journal).catch(() => "")).split("\0").filter(Boolean),
    );
    for (const folder of folders) {
      try {
        for await (const file of Deno.readDir(folder)) {
          const match = file.isFile ? TEMP_NAME.exec(file.name) : null;
          if (match && Number(match[1]) === pid) {
            await Deno.remove(join(folder, file.name)).catch(() => {});
          }
        }
      } catch {
        // the folder is gone, or unreadable: nothing to tidy there
      }
    }
    await Deno.remove(journal).catch(() => {});
  }
}

/** A temporary file of {@linkcode tempPathFor}; group 1 is the writer's pid. */
const TEMP_NAME = /^\..*\.sextant-(\d+)-\d+(?:-[0-9a-f]+)?\.tmp$/;

/** Folders already swept by this process. */
const swept = new Set<string>();

/**
 * Whether process `pid` is gone, asked with `kill -0` (Deno's permissions keep /proc and
 * `Deno.kill` out of reach). A process of another user answers "not permitted": alive.
 */
function processGone(pid: number): boolean {
  if (Deno.build.os === "windows") return false;
  try {
    const out = new Deno.Command("kill", {
      args: ["-0", String(pid)],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).outputSync();
    return !out.success && /no such process/i.test(new TextDecoder().decode(out.stderr));
  } catch {
    return false;
  }
}

/**
 * A writer's temporary file is left over when the writer is gone and the file is a minute old
 * (a writer in another pid namespace looks gone too), or when it is a day old whatever the pid.
 */
function isLeftover(pid: number, ageMs: number): boolean {
  if (pid === Deno.pid) return false;
  if (ageMs > 86_400_000) return true;
  return ageMs > 60_000 && processGone(pid);
}

/**
 * Remove the temporary files that writers which died mid-write (kill -9, a crash) left in
 * `folder`. Done once per folder per process, on the first write there.
 */
export async function removeLeftoverTemps(folder: string): Promise<void> {
  if (swept.has(folder)) return;
  swept.add(folder);
  try {
    for await (const entry of Deno.readDir(folder)) {
      const match = entry.isFile ? TEMP_NAME.exec(entry.name) : null;
      if (!match) continue;
      const path = join(folder, entry.name);
      const info = await Deno.lstat(path).catch(() => null);
      const age = info?.mtime ? Date.now() - info.mtime.getTime() : 0;
      if (info?.isFile && isLeftover(Number(match[1]), age)) {
        await Deno.remove(path).catch(() => {});
      }
    }
  } catch {
    // An unreadable folder: nothing to tidy.
  }
}

/**
 * Refuse to write through a path that changed since it was resolved: `folder` was a real path
 * (no symbolic link in it), and must still be, so no component was swapped for a link that
 * leads elsewhere.
 */
export async function assertRealFolder(folder: string): Promise<void> {
  let real: string;
  try {
    real = await Deno.realPath(folder);
  } catch {
    throw new ToolError(
      `The folder '${folder}' disappeared during the write; nothing was written.`,
    );
  }
  if (real !== folder) {
    throw new ToolError(
      `The folder '${folder}' changed during the write (a part of its path is now a symbolic ` +
        `link to '${real}'); the write was refused.`,
    );
  }
}

/** Options of {@linkcode writeFileAtomic}. */
export interface AtomicWriteOptions {
  /**
   * The target's folder is a real path that must stay one: checked before the temporary file is
   * made and again just before the rename.
   */
  realFolder?: boolean;
  /**
   * The target as it was read: the write is refused (nothing changed) when the file holds
   * anything else just before the rename, so another program's write is never lost in silence.
   */
  unchangedSince?: FileStamp;
}

/**
 * Write bytes atomically: a temporary file in the same folder, created exclusively, then a
 * rename over the target. `mode` is applied to the new file so permissions survive the
 * replacement.
 */
export async function writeFileAtomic(
  path: string,
  data: Uint8Array,
  mode: number | null = null,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const folder = dirname(path);
  await removeTempsOfDeadWriters();
  if (options.realFolder) await assertRealFolder(folder);
  const temp = tempPathFor(path);
  // Where the temporary file really is: a folder swapped for a link between the check and the
  // create puts it elsewhere, and it is removed there, not through the path (swapped back by then).
  let landed: string | null = null;
  try {
    if (options.realFolder) {
      // Created in the folder itself (src/edit/folder_swap.ts), then written by its path: on
      // the other side of a swap the name does not exist. A create by path left files outside
      // when a swap and its undoing came between it and its check (write_safety_test.ts).
      if (await createEmptyFiles([temp])) {
        await Deno.writeFile(temp, data, { create: false });
        landed = temp;
      } else landed = createInFolder(folder, basename(temp), data, mode ?? 0o644);
    } else await Deno.writeFile(temp, data, { createNew: true, mode: mode ?? 0o644 });
    if (mode !== null && Deno.build.os !== "windows") await Deno.chmod(temp, mode & 0o7777);
    if (options.realFolder) await assertRealFolder(folder);
    if (options.unchangedSince) await replaceIfUnchanged(temp, path, options.unchangedSince);
    else await Deno.rename(temp, path);
  } catch (error) {
    if (landed !== null) await Deno.remove(landed).catch(() => {});
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
  await removeLeftoverTemps(folder);
}

/** The whole content of an open file, from its start. */
async function readOpen(file: Deno.FsFile): Promise<Uint8Array> {
  await file.seek(0, Deno.SeekMode.Start);
  const parts: Uint8Array[] = [];
  const buffer = new Uint8Array(64 * 1024);
  for (let n = await file.read(buffer); n !== null; n = await file.read(buffer)) {
    parts.push(buffer.slice(0, n));
  }
  return parts.length === 0 ? new Uint8Array(0) : concatBytes(parts);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The refusal of a write over a file that another program changed. */
function changedOnDisk(path: string): ToolError {
  return new ToolError(
    `'${basename(path)}' changed on disk since it was read for this edit (another program ` +
      "wrote to it); nothing was written, so that change is kept. Read the file again and " +
      "repeat the edit.",
  );
}

/** A file another program wrote this recently (ms) is taken to be written to still. */
const ACTIVE_WRITER_MS = 2000;
/** How long the old file of such a file is watched for appends after the rename (ms). */
const LATE_APPEND_WAIT_MS = 25;

/**
 * Rename `temp` over `path` when `path` still holds what `stamp` recorded; a change is refused.
 * The old file stays open across the rename: a program that appended to it after the check (it
 * opened the file before the rename and wrote after) wrote to the file just replaced, so those
 * bytes are carried over to the end of the new one. A file written moments ago is watched a
 * little longer ({@linkcode LATE_APPEND_WAIT_MS}), as its writer is likely still at it.
 */
export async function replaceIfUnchanged(
  temp: string,
  path: string,
  stamp: FileStamp,
): Promise<void> {
  let old: Deno.FsFile;
  try {
    old = await Deno.open(path, { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw changedOnDisk(path);
    throw error;
  }
  try {
    if (!sameBytes(await readOpen(old), stamp.bytes)) throw changedOnDisk(path);
    const before = await old.stat();
    await Deno.rename(temp, path);
    // Written moments ago by someone else than this process's last write of it: a writer at work.
    const ours = lastWrites.get(path);
    const byOthers = ours === undefined || ours.ino !== before.ino ||
      ours.mtime !== (before.mtime?.getTime() ?? null);
    if (byOthers && Date.now() - (before.mtime?.getTime() ?? 0) < ACTIVE_WRITER_MS) {
      await new Promise((resolve) => setTimeout(resolve, LATE_APPEND_WAIT_MS));
    }
    await carryOverAppends(old, path, stamp.bytes.length);
    noteOwnWrite(path, await Deno.stat(path).catch(() => null));
  } finally {
    old.close();
  }
}

/** This process's last write of each path it replaced (its inode and mtime), the latest 1,000. */
const lastWrites = new Map<string, { ino: number | null; mtime: number | null }>();

function noteOwnWrite(path: string, info: Deno.FileInfo | null): void {
  lastWrites.delete(path);
  if (info === null) return;
  lastWrites.set(path, { ino: info.ino, mtime: info.mtime?.getTime() ?? null });
  if (lastWrites.size > 1000) lastWrites.delete(lastWrites.keys().next().value!);
}

/** Append to `path` what was appended to the replaced file `old` past its first `length` bytes. */
async function carryOverAppends(old: Deno.FsFile, path: string, length: number): Promise<void> {
  if ((await old.stat()).size <= length) return;
  const all = await readOpen(old);
  await Deno.writeFile(path, all.subarray(length), { append: true });
}

/** The format for a new file: UTF-8 (or the project encoding), `\n`, no BOM. */
export function newFileFormat(encoding = "utf-8"): TextFormat {
  return { eol: "\n", bom: false, finalNewline: true, encoding, mode: null };
}

/**
 * Keep the original final-newline state: when the original ended with a newline and an edit
 * dropped it (or the reverse), the original state wins.
 */
export function keepFinalNewline(text: string, format: TextFormat): string {
  if (text.length === 0) return text;
  if (format.finalNewline && !text.endsWith("\n")) return text + "\n";
  if (!format.finalNewline && text.endsWith("\n")) return text.replace(/\n+$/, "");
  return text;
}

/** Write edited text back atomically in its original format. */
export async function writeTextFile(
  path: string,
  text: string,
  format: TextFormat,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const bytes = encodeText(keepFinalNewline(text, format), format);
  await writeFileAtomic(path, bytes, format.mode, options);
}
