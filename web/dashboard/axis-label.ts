const LINE_CHARS = 18;

/** A bar chart's label as the axis draws it: broken between words into lines of about LINE_CHARS characters. */
export function axisLabel(label: string): string {
  const lines: string[] = [];
  for (const word of label.split(/\s+/)) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last]!.length + 1 + word.length <= LINE_CHARS) lines[last] = `${lines[last]} ${word}`;
    else lines.push(word);
  }
  return lines.join('\n');
}
