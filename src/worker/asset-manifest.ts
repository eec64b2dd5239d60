/**
 * `manifest.json` written by `scripts/copy-assets.ts` beside the self-hosted model files. It
 * gives each file's size up front (byte-level progress from the first byte, without HEAD
 * requests) and its SHA-256 (a truncated or corrupted copy is rejected before TF.js sees it).
 * Types only, so both the Node script and the worker can import it.
 */
export interface AssetManifest {
  /** Shape version; readers reject any other value. */
  readonly version: 1;
  readonly model: string;
  readonly files: readonly AssetFile[];
}

export interface AssetFile {
  /** Path relative to the manifest's folder. */
  readonly path: string;
  readonly bytes: number;
  /** Lower-case hex SHA-256 of the file's bytes. */
  readonly sha256: string;
}

export const ASSET_MANIFEST_VERSION = 1;
