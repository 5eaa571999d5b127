// `warpscope-cli mcp` driven by the official MCP SDK's client (@modelcontextprotocol/sdk, from the
// npm registry: scripts/install-test-servers.sh): the client starts the server over stdio, lists the
// tools and calls each on real traces; answers are compared with the CLI's own outputs, every
// result must fit the size bound, and paths outside the server's root must be refused.
// Usage: node check_mcp.mjs NODE_MODULES WARPSCOPE_CLI ROOT
import { execFileSync } from "node:child_process";
import path from "node:path";
import assert from "node:assert/strict";

const [modules, cli, root] = process.argv.slice(2);
const sdk = (p) => import(path.join(modules, "@modelcontextprotocol/sdk/dist/esm", p));
const { Client } = await sdk("client/index.js");
const { StdioClientTransport } = await sdk("client/stdio.js");

const maxBytes = 8192;
const bert = "h100_gaunernst_bert-small-uncased__1016001.json.gz";
const capture = "captures/resnet18.wscap.gz";
const transport = new StdioClientTransport({ command: cli, args: ["mcp", root, "--max-bytes", String(maxBytes)], stderr: "inherit" });
const client = new Client({ name: "warpscope-test", version: "1.0.0" });
await client.connect(transport);
assert.equal(client.getServerVersion().name, "warpscope");

const { tools } = await client.listTools();
const names = tools.map((t) => t.name).sort();
assert.deepEqual(names, ["diff", "files", "flame", "gaps", "kernels", "open", "overview", "query", "summary"]);
for (const t of tools) assert.equal(t.inputSchema.type, "object", t.name);

const checked = [];
async function call(name, args, { error = false } = {}) {
  const r = await client.callTool({ name, arguments: args });
  const text = r.content.map((c) => c.text).join("");
  assert.equal(Boolean(r.isError), error, `${name}: ${text.slice(0, 300)}`);
  // The bound, plus the line that says a result was cut.
  assert.ok(Buffer.byteLength(text) <= maxBytes + 200, `${name}: ${Buffer.byteLength(text)} bytes`);
  checked.push(name);
  return text;
}
const cliJson = (...args) => JSON.parse(execFileSync(cli, args, { cwd: root, maxBuffer: 1 << 26 }).toString());

// files lists the traces under the root, and nothing outside it.
const files = JSON.parse(await call("files", { contains: "bert-small" }));
assert.ok(files.files.some((f) => f.path.endsWith(bert)));
assert.ok(files.files.every((f) => f.path.startsWith(root)));

// open returns an id and the summary; the id serves the other tools.
const opened = JSON.parse(await call("open", { path: bert }));
assert.match(opened.session, /^s\d+$/);
const id = opened.session;

// summary (also in open's answer) and overview are the CLI's.
const cliSummary = cliJson("summary", bert, "--json");
delete cliSummary.distributed; // the CLI's --json adds the rank's block for dist --summaries
assert.deepEqual(opened.summary, cliSummary);
assert.deepEqual(JSON.parse(await call("summary", { session: id })), cliSummary);
const overview = await call("overview", { session: id });
const cliOverview = execFileSync(cli, ["overview", bert, "--json"], { cwd: root, maxBuffer: 1 << 26 }).toString();
const cut = overview.indexOf("\n[truncated: the first ");
if (cut < 0) assert.deepEqual(JSON.parse(overview), JSON.parse(cliOverview));
else assert.equal(overview.slice(0, cut), cliOverview.slice(0, cut)); // the bound cut the CLI's text, nothing else
assert.ok(cut > 0 || Buffer.byteLength(cliOverview) <= maxBytes, "a long overview must say it was cut");

// query answers as warpscope-cli query does.
const sql = "SELECT kernel, COUNT(*) AS calls, SUM(duration_ns) AS total_ns FROM kernels GROUP BY kernel ORDER BY total_ns DESC LIMIT 5";
const q = JSON.parse(await call("query", { session: id, sql }));
const viaCli = cliJson("query", bert, sql, "--json");
assert.deepEqual(q.columns, viaCli.columns);
assert.deepEqual(q.rows, viaCli.rows);
assert.equal(q.truncated, false);

// A big result is cut to the bound and says so, in valid JSON.
const big = JSON.parse(await call("query", { session: id, sql: "SELECT * FROM slices", max_rows: 10000 }));
assert.equal(big.truncated, true);
assert.ok(big.rows.length > 0 && big.note.length > 0);

// kernels and gaps on a capture opened by path.
const kernels = JSON.parse(await call("kernels", { session: capture, top: 3 }));
assert.equal(kernels.rows.length, 3);
assert.deepEqual(kernels.rows, cliJson("query", capture, "SELECT * FROM kernel_summary LIMIT 3", "--json").rows);
const gaps = JSON.parse(await call("gaps", { session: capture, top: 3 }));
assert.ok(Array.isArray(gaps.by_cause.rows) && Array.isArray(gaps.longest.rows));
const cliGaps = cliJson("query", capture, "SELECT COUNT(*) FROM gaps", "--json").rows[0][0];
assert.equal(gaps.by_cause.rows.reduce((n, r) => n + r[1], 0), cliGaps);

// diff of two runs, flame as folded stacks.
const diff = await call("diff", { a: "captures/zoo/gpt.pt.trace.json.gz", b: "captures/zoo/gpt.wscap.gz" });
assert.ok(diff.length > 0);
const flame = await call("flame", { session: id, weight: "gpu", top: 5 });
assert.match(flame, /^weight: gpu \(ns\), \d+ stacks\n/);
// Dispatch frames folded as `warpscope-cli flame` folds them; all_frames keeps them.
assert.ok(!/_call_impl/.test(flame), flame.slice(0, 300));
const allFrames = await call("flame", { session: id, weight: "gpu", top: 5, all_frames: true });
assert.match(allFrames, /_call_impl/);

// Errors are the tool's, with the reason: outside the root, bad SQL, a write.
assert.match(await call("open", { path: "/etc/passwd" }, { error: true }), /outside the directories/);
assert.match(await call("open", { path: "../../README.md" }, { error: true }), /outside the directories/);
assert.match(await call("query", { session: id, sql: "SELEC 1" }, { error: true }), /syntax error/);
assert.match(await call("query", { session: id, sql: "DROP VIEW kernel_summary" }, { error: true }), /not authorized/);

await client.close();
const tried = new Set(checked);
for (const n of names) assert.ok(tried.has(n), `tool ${n} was not called`);
console.log(`mcp: ${names.length} tools listed, ${checked.length} calls checked, every result within ${maxBytes} bytes`);
