// The Unicode name table's data files as text, bundled (wrangler's bundler, and the tests' text-import plugin,
// read an import `with { type: 'text' }` as the file's text; Node cannot, so the CLI reads them itself).
// In the order of UNICODE_NAME_MODULES.
import namesFile from '@unicode/unicode-14.0.0/Names/index.mjs' with { type: 'text' };
import abbreviationFile from '@unicode/unicode-14.0.0/Names/Abbreviation/index.mjs' with { type: 'text' };
import alternateFile from '@unicode/unicode-14.0.0/Names/Alternate/index.mjs' with { type: 'text' };
import controlFile from '@unicode/unicode-14.0.0/Names/Control/index.mjs' with { type: 'text' };
import correctionFile from '@unicode/unicode-14.0.0/Names/Correction/index.mjs' with { type: 'text' };
import figmentFile from '@unicode/unicode-14.0.0/Names/Figment/index.mjs' with { type: 'text' };

export const UNICODE_NAME_FILES: readonly string[] = [namesFile, abbreviationFile, alternateFile, controlFile, correctionFile, figmentFile].map(String);
