/**
 * Which files a language server does not see on its own, so that a question about a name can
 * open them first (ARCHITECTURE.md §5 rule 10).
 *
 * - tsserver loads a configured project only for an open file, and finds it by looking up the
 *   folders for `tsconfig.json`/`jsconfig.json` (following that file's `references`). A file
 *   owned only by another config (`tsconfig.spec.json`) or by none lands in an inferred
 *   project holding the open files and what they import. So: one open file per config tsserver
 *   finds by itself, and every candidate no such config owns.
 * - pyright and basedpyright analyse the files of `include` (all by default) outside `exclude`,
 *   and every open file. So: the candidates outside that set.
 * - Other servers index the whole workspace themselves: nothing.
 * @module
 */
import { join, posix } from "node:path";
import { jsonc, parseToml, picomatch } from "../deps.ts";

/** What the server must be shown before a name query over `candidates`. */
export interface FilesToShow {
  /** Files to keep open: one per project configuration that owns candidates. */
  keepOpen: string[];
  /** Files to open for this query only: candidates no configuration the server loads owns. */
  openNow: string[];
}

/** Reads a project file's text (project-relative path); null when there is none. */
export interface ScopeSource {
  read(relPath: string): string | null;
}

/**
 * Which files to show the server named by `command` before asking about `candidates`; `open`:
 * the files open in it already (their projects are loaded, and they need no showing).
 */
export function filesToShow(
  command: string,
  source: ScopeSource,
  candidates: readonly string[],
  open: ReadonlySet<string> = new Set(),
): FilesToShow {
  if (candidates.length === 0) return { keepOpen: [], openNow: [] };
  let shown: FilesToShow = { keepOpen: [], openNow: [] };
  if (command === "typescript-language-server" || isNativeTsc(command)) {
    shown = typescriptFiles(source, candidates, open);
  } else if (isPyright(command)) {
    shown = { keepOpen: [], openNow: pyrightUnseen(source, candidates) };
  }
  return {
    keepOpen: shown.keepOpen,
    openNow: shown.openNow.filter((f) => !open.has(f)),
  };
}

// ---------------------------------------------------------------------------------------------
// TypeScript

/**
 * TypeScript 7's own server (`tsc --lsp`, the project's `node_modules/.bin/tsc` or one on PATH):
 * its project model is tsserver's (a configured project per `tsconfig.json` found from an open
 * file, an inferred project for the open files no configuration owns).
 */
function isNativeTsc(command: string): boolean {
  return /(^|[\\/])tsc(\.cmd|\.exe)?$/.test(command);
}

const TS_SOURCE = /\.(d\.)?[cm]?tsx?$/;
const JS_SOURCE = /\.[cm]?jsx?$/;

/** A parsed tsconfig: which files it owns. */
interface TsConfig {
  path: string;
  owns(relPath: string): boolean;
  /** Configs its `references` name (project-relative paths). */
  references: string[];
}

function typescriptFiles(
  source: ScopeSource,
  candidates: readonly string[],
  open: ReadonlySet<string>,
): FilesToShow {
  const parsed = new Map<string, TsConfig | null>();
  const configs = {
    get(path: string): TsConfig | undefined {
      if (!parsed.has(path)) parsed.set(path, parseTsConfig(source, path));
      return parsed.get(path) ?? undefined;
    },
  };
  const loaded = new Set<string>();
  for (const file of open) {
    const owner = defaultProject(file, configs);
    if (owner !== null) loaded.add(owner);
  }
  const keepOpen = new Map<string, string>();
  const openNow: string[] = [];
  for (const file of candidates) {
    const owner = defaultProject(file, configs);
    if (owner === null) openNow.push(file);
    else if (!loaded.has(owner) && !keepOpen.has(owner)) keepOpen.set(owner, file);
  }
  return { keepOpen: [...keepOpen.values()], openNow };
}

/**
 * The config tsserver loads for an open file: the nearest `tsconfig.json` or `jsconfig.json`
 * above it that owns it, directly or through its `references`; null for an inferred project.
 */
function defaultProject(
  file: string,
  configs: { get(path: string): TsConfig | undefined },
): string | null {
  for (let dir = posix.dirname(file);; dir = posix.dirname(dir)) {
    for (const name of ["tsconfig.json", "jsconfig.json"]) {
      const path = dir === "." ? name : `${dir}/${name}`;
      const config = configs.get(path);
      if (!config) continue;
      if (config.owns(file)) return path;
      for (const ref of config.references) {
        if (configs.get(ref)?.owns(file)) return ref;
      }
      // tsserver stops at the first config it finds only when it owns the file; it looks
      // further up otherwise.
    }
    if (dir === "." || dir === "") return null;
  }
}

interface RawConfig {
  extends?: string | string[];
  files?: string[];
  include?: string[];
  exclude?: string[];
  references?: Array<{ path?: string }>;
  compilerOptions?: { allowJs?: boolean; outDir?: string };
}

/** Read a config with the fields its `extends` chain gives it (relative extends only). */
function readConfig(source: ScopeSource, path: string, seen = new Set<string>()): RawConfig | null {
  if (seen.has(path)) return null;
  seen.add(path);
  const text = source.read(path);
  if (text === null) return null;
  const raw = jsonc.parse(text, [], { allowTrailingComma: true }) as RawConfig | undefined;
  if (!raw || typeof raw !== "object") return null;
  const bases = raw.extends === undefined ? [] : [raw.extends].flat();
  let merged: RawConfig = {};
  for (const base of bases) {
    if (typeof base !== "string" || !base.startsWith(".")) continue;
    let basePath = posix.normalize(posix.join(posix.dirname(path), base));
    if (!basePath.endsWith(".json")) basePath += ".json";
    const parent = readConfig(source, basePath, seen);
    if (!parent) continue;
    // An inherited file list is relative to the config that wrote it.
    merged = {
      ...merged,
      ...rebase(parent, posix.dirname(basePath), posix.dirname(path)),
      compilerOptions: { ...merged.compilerOptions, ...parent.compilerOptions },
    };
  }
  return {
    ...merged,
    ...raw,
    compilerOptions: { ...merged.compilerOptions, ...raw.compilerOptions },
  };
}

function rebase(config: RawConfig, from: string, to: string): RawConfig {
  const move = (p: string) => posix.relative(to === "." ? "" : to, posix.join(from, p)) || ".";
  const out: RawConfig = {};
  if (config.files) out.files = config.files.map(move);
  if (config.include) out.include = config.include.map(move);
  if (config.exclude) out.exclude = config.exclude.map(move);
  return out;
}

function parseTsConfig(source: ScopeSource, path: string): TsConfig | null {
  let raw: RawConfig | null;
  try {
    raw = readConfig(source, path);
  } catch {
    return null;
  }
  if (!raw) return null;
  const dir = posix.dirname(path);
  const under = (p: string) => posix.normalize(dir === "." ? p : `${dir}/${p}`);
  const allowJs = raw.compilerOptions?.allowJs === true || path.endsWith("jsconfig.json");
  const files = new Set((raw.files ?? []).map(under));
  const include = raw.include ?? (raw.files ? [] : ["**/*"]);
  const outDir = raw.compilerOptions?.outDir;
  const exclude = raw.exclude ??
    ["node_modules", "bower_components", "jspm_packages", ...(outDir ? [outDir] : [])];
  const matcher = (patterns: string[]) =>
    patterns.length === 0
      ? () => false
      : picomatch(patterns.flatMap((p) => globsOf(under(p))), { dot: false });
  const included = matcher(include);
  const excluded = matcher(exclude);
  const references = (raw.references ?? []).flatMap((r) => {
    if (typeof r?.path !== "string") return [];
    const target = under(r.path);
    return [target.endsWith(".json") ? target : `${target}/tsconfig.json`];
  });
  return {
    path,
    references,
    owns(relPath) {
      if (!TS_SOURCE.test(relPath) && !(allowJs && JS_SOURCE.test(relPath))) return false;
      if (files.has(relPath)) return true;
      return included(relPath) && !excluded(relPath);
    },
  };
}

/** A tsconfig include/exclude entry as globs: a folder also stands for everything below it. */
function globsOf(pattern: string): string[] {
  const clean = pattern.replace(/^\.\//, "").replace(/\/+$/, "");
  if (clean === "." || clean === "") return ["**/*"];
  const last = clean.slice(clean.lastIndexOf("/") + 1);
  // A name without wildcards may be a file or a folder: both readings.
  return /[*?]/.test(last) && last !== "**" ? [clean] : [clean, `${clean}/**/*`];
}

// ---------------------------------------------------------------------------------------------
// pyright

/** Whether a server's command is pyright's or basedpyright's language server. */
export function isPyright(command: string): boolean {
  return /^(based)?pyright(-langserver)?$/.test(command);
}

/**
 * Whether the files a references answer names should stay open in the server afterwards, not
 * be opened for their outline only. pyright reads a closed file of its project again on every
 * references request (and parses it again when it let its tree go): on flask, `Flask`'s warm
 * request costs it 29 ms of CPU with the 10 referencing files of its `include` closed, 21 ms
 * with them open.
 */
export function keepsReferencingFilesOpen(command: string): boolean {
  return isPyright(command);
}

/**
 * Whether a server lists a references answer's files in the order it learned of them (pyright:
 * its project's files first, then the documents opened, in the order they were opened), so that
 * files shown to it during its project load come in an order that varies from run to run.
 */
export function listsFilesAsLearned(command: string): boolean {
  return isPyright(command);
}

/** pyright's default excludes, besides any folder starting with a dot. */
const PYRIGHT_EXCLUDES = ["**/node_modules", "**/__pycache__"];

/** The candidates pyright does not analyse unless they are open. */
function pyrightUnseen(source: ScopeSource, candidates: readonly string[]): string[] {
  const settings = pyrightSettings(source);
  if (settings === null) return [];
  const include = settings.include?.length ? settings.include : ["."];
  const exclude = settings.exclude ?? PYRIGHT_EXCLUDES;
  const included = picomatch(include.flatMap(globsOf), { dot: true });
  const excluded = picomatch(exclude.flatMap(globsOf), { dot: true });
  return candidates.filter((file) =>
    !included(file) || excluded(file) || file.split("/").some((s) => s.startsWith("."))
  );
}

/** `include`/`exclude` from pyrightconfig.json, else pyproject.toml's [tool.(based)pyright]. */
function pyrightSettings(
  source: ScopeSource,
): { include: string[] | undefined; exclude: string[] | undefined } | null {
  const strings = (v: unknown) =>
    Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : undefined;
  for (const name of ["pyrightconfig.json", "basedpyrightconfig.json"]) {
    const text = source.read(name);
    if (text === null) continue;
    try {
      const raw = jsonc.parse(text) as Record<string, unknown>;
      return { include: strings(raw?.include), exclude: strings(raw?.exclude) };
    } catch {
      return null;
    }
  }
  const toml = source.read("pyproject.toml");
  if (toml === null) return { include: undefined, exclude: undefined };
  try {
    const tool = (parseToml(toml) as { tool?: Record<string, Record<string, unknown>> }).tool;
    const section = tool?.basedpyright ?? tool?.pyright;
    return { include: strings(section?.include), exclude: strings(section?.exclude) };
  } catch {
    return { include: undefined, exclude: undefined };
  }
}

/** A {@linkcode ScopeSource} reading from disk below `root`. */
export function diskSource(root: string): ScopeSource {
  return {
    read(relPath) {
      try {
        return Deno.readTextFileSync(join(root, relPath));
      } catch {
        return null;
      }
    },
  };
}
