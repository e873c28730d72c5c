// Text bounded by its size in UTF-8, as it is sent and stored, rather than by its UTF-16 code units: a limit in
// bytes must hold for text of any script (a CJK character is 3 bytes, an emoji 4).
import { z } from 'zod';

/** Bytes of `text` in UTF-8, counted without encoding it; a lone surrogate counts as the 3 bytes of U+FFFD, as TextEncoder writes it. */
export const utf8Length = (text: string): number => {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit < 0xdc00 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
};

/**
 * A string of at most `maxBytes` bytes of UTF-8. A string has no more code units than bytes, so the cheap length
 * check goes first (and gives the JSON schema its maxLength).
 */
export const textOfBytes = (maxBytes: number) => {
  const message = `Too big: expected string to have <=${maxBytes} bytes of UTF-8`;
  return z
    .string()
    .max(maxBytes, { abort: true, message })
    .refine((text) => utf8Length(text) <= maxBytes, { message });
};
