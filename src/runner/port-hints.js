/**
 * Port numbers a server mentions in its output ("listening on :4000",
 * "http://localhost:4000/", "port 4000"), for the hint when it does not listen
 * where spawnbench expected.
 */

/** ":4000" after a host or at a word start, or "port 4000" / "port=4000". */
const PORT_PATTERNS = [/(?:localhost|\d+\.\d+\.\d+\.\d+|\]|\b[\w.-]+):(\d{2,5})\b/g, /\bport\b\s*[:=]?\s*(\d{2,5})\b/gi];
const MAX_PORT = 65535;

/**
 * Node's inspector announcing its port (`node --inspect`): "Debugger listening on ws://127.0.0.1:9229/<id>".
 * That port listens before a slow server's own, and is no HTTP port to drive: "pass --port 9229" was said of it.
 */
const DEBUGGER_PATTERN = /Debugger listening on wss?:\/\/\S*?:(\d{1,5})\//;

/**
 * @returns {{ add: (line: string) => void, ports: () => number[], debuggers: () => number[] }} ports in order of
 *   first mention (a debugger's left out), and the ports Node's inspector said it listens on
 */
export function createPortHints() {
  const seen = new Set();
  const debuggers = new Set();
  return {
    add(line) {
      const inspector = DEBUGGER_PATTERN.exec(line);
      if (inspector) {
        debuggers.add(Number(inspector[1]));
        return;
      }
      for (const pattern of PORT_PATTERNS) {
        for (const match of line.matchAll(pattern)) {
          const port = Number(match[1]);
          if (port > 0 && port <= MAX_PORT) seen.add(port);
        }
      }
    },
    ports: () => [...seen].filter((port) => !debuggers.has(port)),
    debuggers: () => [...debuggers],
  };
}
