/**
 * A small REST API the way many are written: node:cluster with WORKERS workers
 * (default: one per CPU), each with its own pg pool of PG_POOL_SIZE connections
 * (default 10, pg's own default), each request running three queries.
 *
 *   GET /items/:id   three queries: the item, its tags, a count of its kind
 *   GET /            the same for a random id (what a load test hits)
 *
 * Connection settings come from pg's usual variables (PGHOST, PGPORT, PGUSER,
 * PGDATABASE, PGPASSWORD); `node api.js --setup` creates and fills its table.
 * Errors answer 500 with the database's own message as the body's first line, and
 * are logged to stderr: what a user reads first when sizes fail.
 */
import cluster from 'node:cluster';
import http from 'node:http';
import os from 'node:os';
import pg from 'pg';

const WORKERS = Number(process.env.WORKERS ?? os.availableParallelism());
const POOL_SIZE = Number(process.env.PG_POOL_SIZE ?? 10);
const PORT = Number(process.env.PORT ?? 3000);
const ITEMS = 1000;

if (process.argv.includes('--setup')) {
  await setup();
} else if (cluster.isPrimary) {
  for (let i = 0; i < WORKERS; i++) cluster.fork();
  // A worker that dies is replaced, as a production primary would.
  cluster.on('exit', (worker, code, signal) => {
    if (!worker.exitedAfterDisconnect && code !== 0 && signal !== 'SIGTERM') cluster.fork();
  });
  const stop = () => {
    for (const worker of Object.values(cluster.workers)) worker.kill('SIGTERM');
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} else {
  serve();
}

function serve() {
  const pool = new pg.Pool({ max: POOL_SIZE });
  // An idle client whose connection the server closed: logged, the pool replaces it.
  pool.on('error', (error) => console.error(`pool: ${error.message}`));
  const server = http.createServer(async (req, res) => {
    const match = /^\/items\/(\d+)$/.exec(req.url ?? '');
    const id = match ? Number(match[1]) : 1 + Math.floor(Math.random() * ITEMS);
    try {
      const item = await pool.query('SELECT id, name, kind FROM items WHERE id = $1', [id]);
      if (item.rowCount === 0) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('no such item\n');
        return;
      }
      const tags = await pool.query('SELECT tag FROM item_tags WHERE item_id = $1 ORDER BY tag', [id]);
      const kind = await pool.query('SELECT count(*)::int AS n FROM items WHERE kind = $1', [item.rows[0].kind]);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ...item.rows[0], tags: tags.rows.map((r) => r.tag), sameKind: kind.rows[0].n }));
    } catch (error) {
      console.error(`GET ${req.url}: ${error.message}`);
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`${error.message}\n`);
    }
  });
  server.listen(PORT);
  process.on('SIGTERM', () => {
    server.close();
    pool.end().finally(() => process.exit(0));
  });
}

async function setup() {
  const client = new pg.Client();
  await client.connect();
  await client.query(`
    DROP TABLE IF EXISTS item_tags;
    DROP TABLE IF EXISTS items;
    CREATE TABLE items (id int PRIMARY KEY, name text NOT NULL, kind int NOT NULL);
    CREATE TABLE item_tags (item_id int REFERENCES items(id), tag text NOT NULL);
    CREATE INDEX ON items (kind);
    CREATE INDEX ON item_tags (item_id);
    INSERT INTO items SELECT i, 'item ' || i, i % 20 FROM generate_series(1, ${ITEMS}) i;
    INSERT INTO item_tags SELECT i, 'tag ' || (i * j % 7) FROM generate_series(1, ${ITEMS}) i, generate_series(1, 3) j;
    ANALYZE;`);
  await client.end();
  console.log(`items: ${ITEMS} rows, item_tags: ${ITEMS * 3} rows`);
}
