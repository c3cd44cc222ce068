/**
 * A project's SCIP index named by the user's global config (`scip_indexes`, docs/scale.md): a path
 * anywhere on the machine, or a URL downloaded into the project's cache (download.ts). The
 * repository's own config may not name one (config/load.ts drops it with a notice). Either way
 * the index is read with the same rules as one found in the project: its manifest beside it, its
 * files checked against the manifest (project_scip.ts).
 * @module
 */
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { ScipIndexSource } from "../../config/schema.ts";
import { cacheDir } from "../cache.ts";
import { log } from "../../log.ts";
import { downloadedPaths, downloadIndex } from "./download.ts";

/** How long a downloaded index is used before the URL is asked again (a conditional request). */
export const REFRESH_MS = 60 * 60 * 1000;
/** How long a failed download waits before it is tried again. */
export const RETRY_MS = 5 * 60 * 1000;

/** A configured source, resolved: a path, or a URL with its download options. */
export type IndexSource =
  | { kind: "path"; path: string }
  | { kind: "url"; url: string; manifestUrl?: string | undefined; maxBytes?: number | undefined };

/** Progress of a download: bytes so far and in all (0 when unknown). */
export type DownloadProgress = (read: number, total: number) => void;

function expandHome(path: string): string {
  return path === "~" || path.startsWith("~/") ? join(homedir(), path.slice(1)) : path;
}

function realOrResolved(path: string): string {
  const resolved = resolve(expandHome(path));
  try {
    return Deno.realPathSync(resolved);
  } catch {
    return resolved;
  }
}

/**
 * The source `scip_indexes` names for the project at `root` (a real path), or null. Keys are
 * project roots (`~` allowed), compared after resolving links.
 */
export function configuredSource(
  root: string,
  entries: Readonly<Record<string, ScipIndexSource>>,
): IndexSource | null {
  for (const [key, value] of Object.entries(entries)) {
    if (realOrResolved(key) !== root) continue;
    const entry = typeof value === "string"
      ? (/^https?:\/\//i.test(value) ? { url: value } : { path: value })
      : value;
    if (entry.url !== undefined) {
      return {
        kind: "url",
        url: entry.url,
        manifestUrl: "manifest_url" in entry ? entry.manifest_url : undefined,
        maxBytes: "max_bytes" in entry ? entry.max_bytes : undefined,
      };
    }
    if (entry.path !== undefined) {
      return { kind: "path", path: resolve(root, expandHome(entry.path)) };
    }
  }
  return null;
}

/**
 * The configured index of one project: where it is read from, and, for a URL, its download into
 * `<root>/.sextant/cache/scip/` on first need and again after {@linkcode REFRESH_MS}. A failure
 * is kept as a problem for the next answer to tell; a previous download still serves meanwhile.
 */
export class ConfiguredIndex {
  readonly source: IndexSource;
  readonly #dir: string;
  #checkedAt = -Infinity;
  #failedAt = -Infinity;
  #downloading: Promise<void> | null = null;
  #problem: string | null = null;
  /** The named path was missing at the last look (told once, until it appears). */
  #missing = false;

  constructor(root: string, source: IndexSource) {
    this.source = source;
    this.#dir = join(cacheDir(root), "scip");
  }

  /** The index file to read: the named path, or where the download lies (present or not). */
  get path(): string {
    return this.source.kind === "path" ? this.source.path : downloadedPaths(this.#dir).index;
  }

  /** True when a URL's index is due to be downloaded (never yet, or past its refresh time). */
  get due(): boolean {
    if (this.source.kind !== "url") return false;
    const now = Date.now();
    return now - this.#checkedAt >= REFRESH_MS && now - this.#failedAt >= RETRY_MS;
  }

  /**
   * What went wrong with the configured index since the last call (then forgotten), for an
   * answer's note; null when nothing did.
   */
  takeProblem(): string | null {
    const problem = this.#problem;
    this.#problem = null;
    return problem;
  }

  /** Tells, once until it appears, that the named path is not there. */
  missing(): void {
    if (this.#missing) return;
    this.#missing = true;
    this.report(
      `The SCIP index the global config names for this project, ${this.path}, does not exist: ` +
        "answered without it (by the language server, or from the project's own index.scip).",
    );
  }

  /** The named path is there (again). */
  found(): void {
    this.#missing = false;
  }

  /** Records a problem reading the index (a missing file, a missing manifest). */
  report(problem: string): void {
    this.#problem = problem;
    log.warn(problem);
  }

  /** Downloads a URL's index when due (one download at a time); failures become the problem. */
  async refresh(onProgress?: DownloadProgress, signal?: AbortSignal): Promise<void> {
    const source = this.source;
    if (source.kind !== "url" || !this.due) return;
    this.#downloading ??= (async () => {
      try {
        const started = performance.now();
        const result = await downloadIndex(source.url, this.#dir, {
          manifestUrl: source.manifestUrl,
          maxBytes: source.maxBytes,
          onProgress,
          signal,
        });
        this.#checkedAt = Date.now();
        if (result.fetched) {
          log.info(
            `SCIP index downloaded from ${source.url} in ` +
              `${Math.round(performance.now() - started)} ms`,
          );
        }
      } catch (error) {
        if (signal?.aborted) throw error;
        this.#failedAt = Date.now();
        const previous = await Deno.stat(this.path).then((s) => s.isFile, () => false);
        this.report(
          `${error instanceof Error ? error.message : error} ` +
            (previous
              ? "The previous download is used meanwhile"
              : "Answered without the index (by the language server, or from the project's " +
                "own index.scip)") +
            `; the download is tried again in ${RETRY_MS / 60_000} minutes.`,
        );
      }
    })().finally(() => {
      this.#downloading = null;
    });
    await this.#downloading;
  }
}
