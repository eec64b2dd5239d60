import { describe, expect, it } from 'vitest';
import type { EvidentError } from '../core/errors';
import { detectFormat, extensionOf } from './detect';

const text = (s: string): Uint8Array => new TextEncoder().encode(s);
const OLE2 = Uint8Array.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...new Array<number>(504).fill(0)]);
const ZIP = Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 20, 0, 0, 0]);
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);

function failure(fn: () => unknown): EvidentError {
  try {
    fn();
  } catch (err) {
    return err as EvidentError;
  }
  throw new Error('expected an error');
}

describe('detectFormat', () => {
  it('trusts magic bytes over the name, with a format_mismatch warning', () => {
    expect(detectFormat(text('%PDF-1.7\n...'), 'report.pdf')).toEqual({ format: 'pdf', warnings: [] });
    const renamed = detectFormat(text('%PDF-1.4\n...'), 'notes.txt');
    expect(renamed.format).toBe('pdf');
    expect(renamed.warnings.map((w) => w.code)).toEqual(['format_mismatch']);
    expect(detectFormat(ZIP, 'file.docx').format).toBe('docx');
    expect(detectFormat(ZIP, 'no-extension').format).toBe('docx');
  });

  it('names a renamed Word 97 file and a password-protected .docx instead of calling them corrupt', () => {
    const doc = failure(() => detectFormat(OLE2, 'legacy.docx'));
    expect(doc.code).toBe('not_docx');
    expect(doc.message).toMatch(/^This is not a Word \.docx file.*Word 97/);
    const encrypted = OLE2.slice();
    encrypted.set(
      [...'EncryptionInfo'].flatMap((c) => [c.charCodeAt(0), 0]),
      100,
    );
    expect(failure(() => detectFormat(encrypted, 'secret.docx')).message).toMatch(/password-protected/);
    expect(failure(() => detectFormat(OLE2, 'sheet.xls')).code).toBe('unsupported_format');
  });

  it('says what a file is when it is something we do not read', () => {
    expect(failure(() => detectFormat(PNG, 'scan.png')).message).toMatch(/PNG image/);
    expect(failure(() => detectFormat(ZIP, 'book.epub')).message).toMatch(/EPUB/);
    expect(failure(() => detectFormat(PNG, 'scan.pdf')).code).toBe('pdf_corrupt');
    expect(failure(() => detectFormat(text('hello'), 'x.docx')).code).toBe('not_docx');
    expect(failure(() => detectFormat(Uint8Array.from([1, 2, 3, 0, 0, 5, 6, 7]), 'blob.bin')).code).toBe(
      'unsupported_format',
    );
  });

  it('reads text-like files by extension, MIME type or content', () => {
    expect(detectFormat(text('<p>x</p>'), 'page.HTM').format).toBe('html');
    expect(detectFormat(text('# x'), 'readme.md').format).toBe('markdown');
    expect(detectFormat(text('# x'), 'upload', 'text/markdown; charset=utf-8').format).toBe('markdown');
    expect(detectFormat(text('plain'), 'notes.txt').format).toBe('text');
    expect(detectFormat(text('<!DOCTYPE html><html>…'), 'saved-page').format).toBe('html');
    expect(detectFormat(text('no extension, just words'), 'LICENSE').format).toBe('text');
    // A text file that happens to start like a Windows program ("MZ") is still text.
    expect(detectFormat(text('MZ Holdings quarterly notes'), 'mz.txt').format).toBe('text');
  });

  it('finds extensions case-insensitively and ignores dots in folders and leading dots', () => {
    expect(extensionOf('a/b.c/Report.PDF')).toBe('pdf');
    expect(extensionOf('.bashrc')).toBe('');
    expect(extensionOf('C:\\docs\\x.Docx')).toBe('docx');
  });
});
