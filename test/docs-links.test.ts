import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The docs name files of this repository as links (`[api.md](api.md)`) and as code
 * (`web/checkout/offered-methods.ts`): every one must exist, so a rename or a removal that leaves
 * the docs behind fails here instead of misleading a reader.
 */
const root = path.resolve(import.meta.dirname, '..');

function markdownFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(relative);
    return entry.name.endsWith('.md') ? [relative] : [];
  });
}

const documents = ['README.md', ...markdownFiles('docs')];

/** The repository's top-level folders and files: a code span starting with one names a path. */
const topLevel = readdirSync(root).filter((name) => !name.startsWith('.') && name !== 'node_modules' && name !== 'dist');
/** src/'s folders: docs about the server name its files from there (`runtime/config.ts`). */
const serverFolders = readdirSync(path.join(root, 'src')).filter((name) => !name.includes('.'));

/** Text outside fenced code blocks (commands and examples there are not references). */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[\s\S]*?^\1/gm, '');
}

interface Reference {
  line: number;
  target: string;
  /** Where the path is resolved from. */
  from: string;
}

function linksOf(document: string, text: string): Reference[] {
  const references: Reference[] = [];
  const lines = text.split('\n');
  lines.forEach((content, i) => {
    for (const match of content.matchAll(/\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#') || target.startsWith('/')) continue;
      references.push({ line: i + 1, target: decodeURIComponent(target.replace(/[#?].*$/, '')), from: path.dirname(document) });
    }
  });
  return references;
}

function codePathsOf(text: string): Reference[] {
  const references: Reference[] = [];
  const lines = text.split('\n');
  lines.forEach((content, i) => {
    for (const match of content.matchAll(/`([^`\s]+)`/g)) {
      const span = match[1]!.replace(/:\d+(?:-\d+)?$/, '').replace(/[#?].*$/, '');
      const first = span.split('/')[0]!;
      // Patterns and placeholders name no one file.
      if (/[*…<>{}$]|NNNN/.test(span)) continue;
      if (topLevel.includes(first) && (span.includes('/') || topLevel.includes(span))) {
        references.push({ line: i + 1, target: span, from: '.' });
      } else if (serverFolders.includes(first) && /\/[\w.-]+\.[a-z]{2,4}$/.test(span)) {
        references.push({ line: i + 1, target: span, from: 'src' });
      }
    }
  });
  return references;
}

describe('docs name only files that exist', () => {
  it('finds the documents and the references in them', () => {
    expect(documents).toContain('README.md');
    expect(documents).toContain(path.join('docs', 'api.md'));
    const readme = prose(readFileSync(path.join(root, 'README.md'), 'utf8'));
    expect(codePathsOf(readme).map((r) => r.target)).toContain('src/domain');
    expect(linksOf('README.md', readme).map((r) => r.target)).toContain('docs/sdk.md');
  });

  it('catches a path that does not exist, as code or as a link', () => {
    const text = 'See `web/checkout/no-such-file.ts`, `runtime/no-such.ts` and [the guide](no-such-guide.md).';
    const references = [...linksOf('docs/x.md', text), ...codePathsOf(text)];
    expect(
      references
        .filter(({ target, from }) => !existsSync(path.join(root, from, target)))
        .map((r) => r.target)
        .sort(),
    ).toEqual(['no-such-guide.md', 'runtime/no-such.ts', 'web/checkout/no-such-file.ts']);
  });

  it.each(documents)('%s', (document) => {
    const text = prose(readFileSync(path.join(root, document), 'utf8'));
    const missing = [...linksOf(document, text), ...codePathsOf(text)]
      .filter(({ target, from }) => !existsSync(path.join(root, from, target)))
      .map(({ line, target }) => `${document}:${line}: ${target}`);
    expect(missing).toEqual([]);
  });
});
