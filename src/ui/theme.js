import React from 'react';

/**
 * Colour in the dashboard carries meaning (red: errors, yellow: warnings, green:
 * healthy) and is always doubled by words or markers, so turning it off loses
 * nothing. Ink colours through chalk 5, which honours FORCE_COLOR and --no-color
 * but not NO_COLOR (checked in chalk 5.6's supports-color), so NO_COLOR is read here.
 */

/** Tone names used by the panels, mapped to Ink colour names. */
const TONES = {
  bad: 'red',
  warn: 'yellow',
  ok: 'green',
  accent: 'cyan',
  dim: 'gray',
};

/**
 * Whether colour is wanted: off when NO_COLOR is set to a non-empty value
 * (https://no-color.org) or FORCE_COLOR is "0".
 * @param {Record<string, string|undefined>} env
 * @returns {boolean}
 */
export function colorEnabled(env) {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
}

/**
 * A function from tone name to the colour to give Ink's <Text color>, or
 * undefined (no colour) when colour is off.
 * @param {boolean} enabled
 * @returns {(tone: keyof TONES) => string|undefined}
 */
export function makeTone(enabled) {
  return (tone) => (enabled ? TONES[tone] : undefined);
}

/** Provided by the dashboard root; panels read it with useTone(). */
export const ToneContext = React.createContext(makeTone(true));

/**
 * The current tone function.
 * @returns {(tone: string) => string|undefined}
 */
export function useTone() {
  return React.useContext(ToneContext);
}
