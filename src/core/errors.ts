/**
 * Errors that cross a boundary (worker → UI, parser → library, CLI → user) are values with a code
 * from a closed union and a message a user can act on.
 */
export const ERROR_CODES = [
  'aborted',
  'invalid_option',
  'invalid_input',
  'model_load_failed',
  'model_not_found',
  'offline',
  'out_of_memory',
  'cache_corrupted',
  'worker_crashed',
  'file_too_large',
  'unsupported_format',
  'not_docx',
  'zip_bomb',
  'pdf_password_required',
  'pdf_wrong_password',
  'pdf_no_text',
  'pdf_corrupt',
  'passphrase_required',
  'wrong_passphrase',
  'empty_file',
  'storage_full',
  'dataset_missing',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface EvidentErrorValue {
  readonly code: ErrorCode;
  readonly message: string;
}

export class EvidentError extends Error implements EvidentErrorValue {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'EvidentError';
    this.code = code;
  }
  toValue(): EvidentErrorValue {
    return { code: this.code, message: this.message };
  }
}

/** Throws for option keys the options type does not know, naming the key and the allowed set. */
export function assertKnownOptions(given: object, defaults: object, what: string): void {
  for (const key of Object.keys(given)) {
    if (!(key in defaults)) {
      throw new EvidentError(
        'invalid_option',
        `${what}: unknown option "${key}". Allowed: ${Object.keys(defaults).join(', ')}.`,
      );
    }
  }
}
