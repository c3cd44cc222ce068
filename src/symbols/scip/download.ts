/**
 * Downloads a SCIP index and its manifest from the URL the user's global config names, into a
 * folder of the project's cache: streamed to temporary files beside their targets, checked against
 * size bounds as the bytes arrive, then renamed into place (the manifest last), so a reader never
 * sees half a file, nor a new index with an old manifest for longer than two renames. A copy that
 * is still current (the server answers 304 to the last download's ETag or date) is kept as it is.
 * @module
 */
import { join } from "node:path";

/** The largest index a download accepts unless the config says otherwise. */
export const DEFAULT_MAX_INDEX_BYTES = 2 * 1024 ** 3;
/** The largest manifest accepted (one line of ~60 bytes per file: millions of files). */
export const MAX_MANIFEST_BYTES = 512 * 1024 ** 2;

/** What a download needs. */
export interface DownloadOptions {
  /** Where the manifest is; default `<url>.files`. */
  manifestUrl?: string | undefined;
  /** The largest index accepted, in bytes. */
  maxBytes?: number | undefined;
  /** Called as the index's bytes arrive (`total` is 0 when the server does not say). */
  onProgress?: ((read: number, total: number) => void) | undefined;
  signal?: AbortSignal | undefined;
}

/** Where a downloaded index lies, and whether this call replaced it. */
export interface Downloaded {
  index: string;
  manifest: string;
  /** False when the copy in the folder was still current. */
  fetched: boolean;
}

/** What the last download of a folder's index was (for a conditional request). */
interface Validators {
  url: string;
  etag?: string;
  lastModified?: string;
}

/** A download that failed; the message says what and where. */
export class IndexDownloadError extends Error {
  override name = "IndexDownloadError";
}

/** The downloaded index's path in `dir`, and its manifest's. */
export function downloadedPaths(dir: string): { index: string; manifest: string } {
  return { index: join(dir, "index.scip"), manifest: join(dir, "index.scip.files") };
}

/**
 * Downloads `url` (and its manifest) into `dir`, created when missing. Throws
 * {@linkcode IndexDownloadError} when a request fails, a file is empty or over its bound, or the
 * process may not reach the host; the folder's previous copy is then left as it was.
 */
export async function downloadIndex(
  url: string,
  dir: string,
  options: DownloadOptions = {},
): Promise<Downloaded> {
  const paths = downloadedPaths(dir);
  const manifestUrl = options.manifestUrl ?? `${url}.files`;
  await checkNetPermission(url);
  if (manifestUrl !== url) await checkNetPermission(manifestUrl);
  await Deno.mkdir(dir, { recursive: true });
  const validatorsPath = join(dir, "download.json");
  const previous = await readValidators(validatorsPath);
  const haveCopy = await exists(paths.index) && await exists(paths.manifest);
  const headers = new Headers();
  if (haveCopy && previous?.url === url) {
    if (previous.etag) headers.set("If-None-Match", previous.etag);
    if (previous.lastModified) headers.set("If-Modified-Since", previous.lastModified);
  }
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_INDEX_BYTES;
  const response = await request(url, headers, options.signal);
  if (response.status === 304) {
    await response.body?.cancel();
    return { ...paths, fetched: false };
  }
  const temporary: string[] = [];
  try {
    const index = await saveBody(response, url, dir, maxBytes, options.onProgress);
    temporary.push(index);
    const manifestResponse = await request(manifestUrl, new Headers(), options.signal);
    const manifest = await saveBody(manifestResponse, manifestUrl, dir, MAX_MANIFEST_BYTES);
    temporary.push(manifest);
    await Deno.rename(index, paths.index);
    await Deno.rename(manifest, paths.manifest);
    temporary.length = 0;
    const validators: Validators = { url };
    const etag = response.headers.get("ETag");
    const lastModified = response.headers.get("Last-Modified");
    if (etag) validators.etag = etag;
    if (lastModified) validators.lastModified = lastModified;
    await Deno.writeTextFile(validatorsPath, JSON.stringify(validators));
    return { ...paths, fetched: true };
  } finally {
    for (const file of temporary) await Deno.remove(file).catch(() => {});
  }
}

/** Deno's permission for the URL's host, asked without prompting: a clear error when missing. */
async function checkNetPermission(url: string): Promise<void> {
  let host: string;
  try {
    host = new URL(url).host;
  } catch {
    throw new IndexDownloadError(`The SCIP index URL '${url}' is not a valid URL.`);
  }
  const status = await Deno.permissions.query({ name: "net", host });
  if (status.state !== "granted") {
    throw new IndexDownloadError(
      `Sextant may not connect to ${host} to download the SCIP index (${url}): its Deno ` +
        `permissions allow no network access there. Start it with --allow-net=${host}, or ` +
        "download the index yourself and name its path in the global config.",
    );
  }
}

async function request(url: string, headers: Headers, signal?: AbortSignal): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { headers, ...(signal ? { signal } : {}) });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new IndexDownloadError(
      `Downloading the SCIP index from ${url} failed: ${
        error instanceof Error ? error.message : error
      }.`,
    );
  }
  if (response.status !== 200 && response.status !== 304) {
    await response.body?.cancel();
    throw new IndexDownloadError(
      `Downloading the SCIP index from ${url} failed: the server answered ${response.status} ` +
        `${response.statusText}.`.trimEnd(),
    );
  }
  return response;
}

/**
 * Streams a response's body into a new temporary file in `dir` (created exclusively), refusing
 * an empty body or one past `maxBytes` (by its declared length first, then by what arrives).
 * Returns the temporary file's path.
 */
async function saveBody(
  response: Response,
  url: string,
  dir: string,
  maxBytes: number,
  onProgress?: (read: number, total: number) => void,
): Promise<string> {
  const declared = Number(response.headers.get("Content-Length") ?? "0") || 0;
  const tooLarge = () =>
    new IndexDownloadError(
      `The file at ${url} is larger than ${maxBytes} bytes, the most Sextant accepts for it; ` +
        "raise max_bytes in the global config's scip_indexes entry if it is right.",
    );
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  const path = await Deno.makeTempFile({ dir, prefix: ".download-", suffix: ".part" });
  let read = 0;
  try {
    const file = await Deno.open(path, { write: true, truncate: true });
    try {
      for await (const chunk of response.body ?? new ReadableStream<Uint8Array>()) {
        read += chunk.length;
        if (read > maxBytes) throw tooLarge();
        let written = 0;
        while (written < chunk.length) written += await file.write(chunk.subarray(written));
        onProgress?.(read, declared);
      }
    } finally {
      file.close();
    }
    if (read === 0) throw new IndexDownloadError(`The file at ${url} is empty.`);
    if (declared > 0 && read !== declared) {
      throw new IndexDownloadError(
        `The download from ${url} ended after ${read} of its ${declared} bytes.`,
      );
    }
    return path;
  } catch (error) {
    await Deno.remove(path).catch(() => {});
    if (error instanceof IndexDownloadError) throw error;
    throw new IndexDownloadError(
      `Downloading the SCIP index from ${url} failed: ${
        error instanceof Error ? error.message : error
      }.`,
    );
  }
}

async function readValidators(path: string): Promise<Validators | null> {
  try {
    const value = JSON.parse(await Deno.readTextFile(path));
    return typeof value?.url === "string" ? value as Validators : null;
  } catch {
    return null;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}
