// The README and the docs pages lead somewhere: every relative link reaches a file (and its heading), and every
// repository path they quote exists.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { docsProblems, repositoryPages } from '../../support/docs-links.ts';

describe('docs links', () => {
  it('names a link to a missing page, a missing heading and a quoted path that does not exist', () => {
    const pages = new Map([
      ['docs/a.md', '# Where to go\n\n[b](b.md) [gone](gone.md) [b, bad](b.md#nowhere) [b, good](b.md#the-daily-usd-budget)\n`src/real.ts` `src/gone.ts` `src/<name>.ts`\n'],
      ['docs/b.md', '## The daily USD budget\n\n[self](#the-daily-usd-budget) [up](../README.md) [web](https://example.com/x.md)\n'],
    ]);
    const present = new Set(['docs/a.md', 'docs/b.md', 'README.md', 'src/real.ts']);
    expect(docsProblems(pages, (p) => present.has(p))).toEqual([
      'docs/a.md: link to a missing file: gone.md',
      'docs/a.md: link to a missing heading: b.md#nowhere',
      'docs/a.md: missing path: src/gone.ts',
    ]);
  });

  it('README.md and docs/*.md point nowhere missing', () => {
    expect(docsProblems(repositoryPages(), existsSync)).toEqual([]);
  });
});
