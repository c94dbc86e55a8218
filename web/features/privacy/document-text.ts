// The operator's texts (ADR 052) are plain text, never HTML: paragraphs split by blank lines, a line starting with
// "## " is a heading, lines starting with "- " make a list. This turns one into blocks React renders as text.

export type DocumentBlock = { kind: 'heading'; text: string } | { kind: 'paragraph'; text: string } | { kind: 'list'; items: string[] };

export function documentBlocks(body: string): DocumentBlock[] {
  const blocks: DocumentBlock[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push({ kind: 'paragraph', text: paragraph.join(' ') });
    paragraph = [];
  };
  for (const raw of body.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim();
    if (!line) {
      flush();
    } else if (line.startsWith('## ')) {
      flush();
      blocks.push({ kind: 'heading', text: line.slice(3).trim() });
    } else if (line.startsWith('- ')) {
      flush();
      const last = blocks.at(-1);
      if (last?.kind === 'list') last.items.push(line.slice(2).trim());
      else blocks.push({ kind: 'list', items: [line.slice(2).trim()] });
    } else {
      paragraph.push(line);
    }
  }
  flush();
  return blocks;
}
