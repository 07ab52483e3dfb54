// GET /__mock/requests in a browser: the journal, live (it asks for the newest entries
// every second), newest first, filtered by operation and status; each entry with what the
// mock made of it (the operation, the status, the rule that refused it and why, the
// override that took it, findings with their hints, rows a default hid) and a curl line.
// The page is static: every entry reaches it as JSON and is written with textContent, so
// nothing a client sent is ever read as markup.
import { html, raw } from 'hono/html';

/** The page, listing `operations` in its filter. */
export function journalPage(operations: string[], basePath: string): ReturnType<typeof html> {
  // The spec's names as JS values, `<` escaped so no name can end the script.
  const value = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c');
  const script = `
const ops = ${value(operations)};
const basePath = ${value(basePath)};
const list = document.getElementById('list');
const opSel = document.getElementById('op');
const statusIn = document.getElementById('status');
const onlyFindings = document.getElementById('findings');
const summary = document.getElementById('summary');
for (const op of ops) opSel.append(new Option(op, op));
const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};
let shown = '';
// Answers can come back out of order: only the newest request's answer is drawn.
let asked = 0;
async function refresh() {
  const mine = ++asked;
  const q = new URLSearchParams({ limit: '200' });
  if (opSel.value) q.set('operationId', opSel.value);
  if (statusIn.value.trim()) q.set('status', statusIn.value.trim());
  if (onlyFindings.checked) q.set('findings', 'true');
  let body;
  try {
    const res = await fetch('/__mock/requests?' + q, { headers: { Accept: 'application/json' } });
    body = await res.json();
    if (mine !== asked) return;
    if (!res.ok) { summary.textContent = body.message; return; }
  } catch (e) { if (mine === asked) summary.textContent = 'the mock does not answer (' + e + ')'; return; }
  const key = JSON.stringify(body.requests.map((r) => [r.id, r.status, r.pending]));
  summary.textContent = body.requests.length + ' shown of the ' + body.journal.size + ' the journal keeps'
    + (body.journal.dropped ? ' (' + body.journal.dropped + ' older ones dropped)' : '');
  if (key === shown) return;
  shown = key;
  list.replaceChildren(...body.requests.map(entry));
  if (!body.requests.length) list.append(el('p', 'empty', 'No request yet: call the API under ' + basePath + '.'));
}
function entry(r) {
  const li = el('li', 'entry');
  const head = el('div', 'head');
  const cls = r.status === null ? 'none' : r.status >= 500 ? 's5' : r.status >= 400 ? 's4' : 's2';
  head.append(el('span', 'status ' + cls, r.status === null ? (r.fault || 'pending') : String(r.status)));
  head.append(el('span', 'method', r.request.method));
  head.append(el('span', 'target', r.request.target));
  head.append(el('span', 'op', r.operationId || 'no operation'));
  head.append(el('span', 'time', r.at.slice(11, 19) + (r.ms !== undefined ? ' · ' + r.ms + ' ms' : '')));
  li.append(head);
  const why = el('div', 'why');
  if (r.refusedBy) why.append(el('div', 'refused', 'refused by ' + r.refusedBy + (r.why ? ': ' + r.why : '')));
  else if (r.why) why.append(el('div', 'refused', r.why));
  if (r.override) why.append(el('div', 'override', 'override ' + r.override.id
    + (r.override.delay ? ', delayed ' + r.override.delay + ' ms' : '')
    + (r.override.fault ? ', fault: ' + r.override.fault : '')
    + (r.override.offContract ? ', OFF THE CONTRACT: ' + r.override.offContract : '')));
  for (const f of r.findings) {
    why.append(el('div', 'finding ' + f.level, f.judge + ': ' + f.why + (f.hint ? ' (' + f.hint + ')' : '')));
  }
  if (r.hidden) why.append(el('div', 'hidden', r.hidden.why));
  if (r.auth) why.append(el('div', 'auth', 'as ' + r.auth.user + ' with ' + r.auth.scheme + ' ' + r.auth.credential));
  if (why.childElementCount) li.append(why);
  li.append(el('code', 'curl', r.curl));
  return li;
}
for (const input of [opSel, statusIn, onlyFindings]) input.addEventListener('change', () => { shown = ''; refresh(); });
statusIn.addEventListener('input', () => { shown = ''; refresh(); });
refresh();
setInterval(refresh, 1000);
`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Requests: server-listing-mock</title>
<link rel="icon" href="data:,">
<style>
body { font: 14px system-ui, sans-serif; margin: 0; background: #f6f7f9; color: #1d2330; }
header {
  background: #1d2330;
  color: #fff;
  padding: 12px 20px;
  display: flex;
  gap: 16px;
  align-items: center;
  flex-wrap: wrap;
}
header h1 { font-size: 16px; margin: 0 12px 0 0; }
header label { font-size: 13px; }
header select, header input[type=text] { margin-left: 4px; padding: 3px 6px; }
#summary { margin-left: auto; font-size: 12px; opacity: .8; }
ul { list-style: none; margin: 0; padding: 12px 20px; }
.entry { background: #fff; border: 1px solid #dde1e7; border-radius: 6px; margin-bottom: 8px; padding: 8px 12px; }
.head { display: flex; gap: 10px; align-items: baseline; flex-wrap: wrap; }
.status { font-weight: 700; border-radius: 4px; padding: 1px 7px; color: #fff; font-family: ui-monospace, monospace; }
.s2 { background: #2e7d32; } .s4 { background: #c77700; } .s5 { background: #c62828; } .none { background: #6b7280; }
.method { font-weight: 600; font-family: ui-monospace, monospace; }
.target { font-family: ui-monospace, monospace; word-break: break-all; }
.op { color: #4b5563; font-size: 12px; } .time { margin-left: auto; color: #6b7280; font-size: 12px; }
.why { margin: 6px 0 2px; font-size: 13px; }
.why > div { margin: 2px 0; }
.refused { color: #9a3412; } .override { color: #6d28d9; } .hidden { color: #92400e; } .auth { color: #374151; }
.finding.warning, .finding.error { color: #b91c1c; } .finding.info { color: #1e40af; }
.curl {
  display: block;
  margin-top: 6px;
  font-size: 12px;
  background: #f1f3f6;
  padding: 4px 6px;
  border-radius: 4px;
  word-break: break-all;
}
.empty { color: #6b7280; }
</style>
</head>
<body>
<header>
<h1>Requests the mock received</h1>
<label>operation <select id="op"><option value="">all</option></select></label>
<label>status <input id="status" type="text" size="5" placeholder="4xx"></label>
<label><input id="findings" type="checkbox"> with findings</label>
<span id="summary">loading</span>
</header>
<ul id="list"></ul>
<script>${raw(script)}</script>
</body>
</html>`;
}
