/**
 * Renders a component with ink-testing-library inside a box of a given width and
 * returns its last frame as plain text, unmounting at once (no Ink instance or
 * timer outlives a test).
 */
import React from 'react';
import { Box } from 'ink';
import { render } from 'ink-testing-library';
import { ToneContext, makeTone } from '../../src/ui/theme.js';

const h = React.createElement;

/**
 * @param {React.ReactElement} element
 * @param {number} columns
 * @param {{ color?: boolean }} [options]
 * @returns {string}
 */
export function frame(element, columns, { color = true } = {}) {
  const instance = render(h(ToneContext.Provider, { value: makeTone(color) }, h(Box, { width: columns, flexDirection: 'column' }, element)));
  const text = instance.lastFrame();
  instance.unmount();
  instance.cleanup();
  return text;
}

/** Visible characters in a line (the dashboard draws no wide or combining characters). */
export const visibleWidth = (line) => [...line.replace(/\u001B\[[0-9;]*m/g, '')].length;

/**
 * Asserts no line of a frame is wider than `columns`.
 * @param {import('node:assert')} assert
 * @param {string} text
 * @param {number} columns
 */
export function assertFits(assert, text, columns) {
  for (const line of text.split('\n')) {
    assert.ok(visibleWidth(line) <= columns, `line wider than ${columns}: ${JSON.stringify(line)}`);
  }
}
