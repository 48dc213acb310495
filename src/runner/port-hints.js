/**
 * Port numbers a server mentions in its output ("listening on :4000",
 * "http://localhost:4000/", "port 4000"), for the hint when it does not listen
 * where spawnbench expected.
 */

/** ":4000" after a host or at a word start, or "port 4000" / "port=4000". */
const PORT_PATTERNS = [/(?:localhost|\d+\.\d+\.\d+\.\d+|\]|\b[\w.-]+):(\d{2,5})\b/g, /\bport\b\s*[:=]?\s*(\d{2,5})\b/gi];
const MAX_PORT = 65535;

/**
 * @returns {{ add: (line: string) => void, ports: () => number[] }} ports in order of first mention
 */
export function createPortHints() {
  const seen = new Set();
  return {
    add(line) {
      for (const pattern of PORT_PATTERNS) {
        for (const match of line.matchAll(pattern)) {
          const port = Number(match[1]);
          if (port > 0 && port <= MAX_PORT) seen.add(port);
        }
      }
    },
    ports: () => [...seen],
  };
}
