/**
 * The server log's way to stdout: the lines logged during one turn of the event loop go out in one
 * write, not one write(2) each (one line per request made the write system call a visible share of
 * a merchant API call's CPU; docs/performance.md, issue 9). A line waits at most until the loop's
 * next turn; whatever is still waiting when the process exits (a fatal error, process.exit) is
 * written synchronously then.
 */
const streams = new Set<() => void>();
let exitHooked = false;

export function batchedLogStream(out: { write(text: string): unknown } = process.stdout): { write(line: string): void; flush(): void } {
  let waiting: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (waiting.length === 0) return;
    const text = waiting.join('');
    waiting = [];
    out.write(text);
  };
  streams.add(flush);
  if (!exitHooked) {
    exitHooked = true;
    process.once('exit', () => {
      for (const pending of streams) pending();
    });
  }
  return {
    write(line: string) {
      waiting.push(line);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}
