import { useEffect, useState } from 'react';

/** Used when the stream does not say (not a terminal): the size the layout is designed for. */
const DEFAULT_COLUMNS = 80;
const DEFAULT_ROWS = 24;

const sizeOf = (stdout) => ({ columns: stdout?.columns || DEFAULT_COLUMNS, rows: stdout?.rows || DEFAULT_ROWS });

/**
 * The terminal's columns and rows, updated on resize (Ink re-lays out on resize
 * but does not re-render components, and the panels choose their layout from it).
 * @param {NodeJS.WriteStream} stdout
 * @returns {{ columns: number, rows: number }}
 */
export function useTerminalSize(stdout) {
  const [size, setSize] = useState(() => sizeOf(stdout));
  useEffect(() => {
    const onResize = () => setSize(sizeOf(stdout));
    stdout.on('resize', onResize);
    return () => stdout.off('resize', onResize);
  }, [stdout]);
  return size;
}
