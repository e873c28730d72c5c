// Where the Markdown pages (README.md, docs/*.md) point nowhere: a relative link to a missing file, an anchor no
// heading of its page makes, or a repository path in code quotes that does not exist.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** A page's path from the repository root, and its text. */
export type Pages = ReadonlyMap<string, string>;

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const withoutCode = (text: string): string => text.replace(/```[\s\S]*?```/g, '');

const anchorsOf = (text: string): Set<string> => new Set([...withoutCode(text).matchAll(/^#+ (.*)$/gm)].map((m) => anchorOf(m[1]!)));

/** Quoted paths inside the repository's own folders; quotes with placeholders (…, *, <x>, {x}) are patterns. */
const REPO_PATH = /^(src|test|scripts|docs|clients|domains|migrations|bin|\.ci)\/[^…*<{]*$/;

export const docsProblems = (pages: Pages, exists: (repoPath: string) => boolean): string[] => {
  const problems: string[] = [];
  for (const [page, text] of pages) {
    const folder = path.posix.dirname(page);
    for (const [, link] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(link!)) continue;
      const [file, anchor] = link!.split('#') as [string, string | undefined];
      const target = file === '' ? page : path.posix.normalize(path.posix.join(folder, file));
      if (!exists(target)) problems.push(`${page}: link to a missing file: ${link}`);
      else if (anchor && target.endsWith('.md') && !anchorsOf(pages.get(target) ?? readFileSync(target, 'utf8')).has(anchor))
        problems.push(`${page}: link to a missing heading: ${link}`);
    }
    for (const [, quoted] of text.matchAll(/`([^`\s]+)`/g)) {
      const repoPath = quoted!.replace(/[:,.]+$/, '');
      if (REPO_PATH.test(repoPath) && !exists(repoPath.replace(/\/$/, ''))) problems.push(`${page}: missing path: ${repoPath}`);
    }
  }
  return problems;
};

/** README.md and every page under docs/, as they are in the working tree. */
export const repositoryPages = (): Pages =>
  new Map(['README.md', ...readdirSync('docs').filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)].map((p) => [p, readFileSync(p, 'utf8')]));
