/**
 * Ink draws only the last frame when it thinks it runs in CI (is-in-ci reads CI at
 * import time), and CI sets CI=true. Tests that watch live frames import this
 * first, before anything imports Ink: their fake terminal is not CI's log.
 */
process.env.CI = '0';
