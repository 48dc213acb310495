/**
 * The one rule that groups requests into endpoints: a path with its id-like segments
 * as `:id` ('/items/7?x=1' → '/items/:id'). A HAR capture's entries are folded by it
 * (load/mix-file.js), and the probe names the routes a server answers by it
 * (probe/route-timer.js), so a mix's endpoint and the server's route are one name.
 * It imports nothing: the probe loads it inside the server.
 */

// Path segments that name one item of many: a number, a UUID, a long hex string.
const ID_SEGMENT = /^(\d+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,})$/i;

/**
 * A path with its id-like segments as `:id` and without its query; an absolute-form
 * request target ('http://host/items/7') is read as its path.
 * @param {string} path
 */
export function pathTemplate(path) {
  let bare = String(path).split('?')[0];
  if (!bare.startsWith('/')) bare = bare.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '') || '/';
  return bare.split('/').map((s) => (ID_SEGMENT.test(s) ? ':id' : s)).join('/');
}

/**
 * The name of an endpoint or a route: 'GET /items/:id'.
 * @param {string} method
 * @param {string} path
 */
export function routeName(method, path) {
  return `${String(method).toUpperCase()} ${pathTemplate(path)}`;
}
