/**
 * The content key of a file's text: its SHA-1, from Web Crypto (sha.ts). A module of its own, so
 * that the parse workers, which hash every file they index, load nothing else of the symbol cache
 * (cache.ts).
 * @module
 */
import { sha1HexAsync } from "../sha.ts";

/** SHA-1 of the bytes, as 40 hex digits (Web Crypto): the content key of a cache entry. */
export const contentHash: (bytes: Uint8Array) => Promise<string> = sha1HexAsync;
