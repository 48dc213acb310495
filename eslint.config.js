// Lint in the gate (`npm test` runs it before the tests): neostandard's rules for
// correctness, without its style rules (noStyle). The tree keeps its own style
// (semicolons, trailing commas), and a style pass would rewrite every file that
// other work is editing at the same time; formatting can come as a change of its own.
import neostandard from 'neostandard';

export default [
  ...neostandard({ noStyle: true, ignores: ['node_modules/**', 'bench/go-reference/**'] }),
  {
    // Strategies also run on Bun and Deno, and ask which one they are on.
    files: ['strategies/**/*.js'],
    languageOptions: { globals: { Bun: 'readonly', Deno: 'readonly' } },
  },
  {
    rules: {
      // Naming only: `new Promise((done) => …)` reads as well as `resolve`.
      'promise/param-names': 'off',
      // Terminal output is parsed on purpose: ANSI escapes (\x1b[…m) are matched and stripped.
      'no-control-regex': 'off',
      // A flag set by a callback or a promise (`while (busy) await …`) is not seen by this rule:
      // it flagged only such loops.
      'no-unmodified-loop-condition': 'off',
    },
  },
];
